/// One goods received note (GRN) line, held as numbers and catalog indices; text is made only
/// when `GRNWriter` writes it.
struct GRNRecord {
  /// The `GRN-000001` number.
  var number: Int
  var date: CalendarDay
  var status: GRNStatus
  /// Index into `GRNWriter.customers`; nil for a blank cell.
  var customer: Int?
  /// 1…8, written `WH-01`…`WH-08`.
  var warehouse: Int
  /// Written `SKU-10432`.
  var sku: Int
  /// Index into `GRNWriter.items`.
  var item: Int
  var quantity: Quantity
  var unitPriceCents: Int
  /// Write unit price and amount with thousands separators (`1,234.50`), as spreadsheets export.
  var groupsThousands = false
  var emptyStock: Bool
  var updated: LocalDateTime

  /// `qty` × `unit_price`, or nil when the quantity cannot be read.
  var amountCents: Int? {
    guard case .count(let count) = quantity else { return nil }
    return count * unitPriceCents
  }
}

/// The `status` of a GRN.
enum GRNStatus {
  case received, pending, qualityHold, cancelled

  /// The statuses with how often each occurs, in percent.
  static let choice = WeightedChoice<GRNStatus>([
    (.received, 60), (.pending, 20), (.qualityHold, 10), (.cancelled, 10),
  ])

  /// The status as written.
  var text: StaticString {
    switch self {
    case .received: "received"
    case .pending: "pending"
    case .qualityHold: "quality-hold"
    case .cancelled: "cancelled"
    }
  }
}

/// The `qty` of a GRN: a count, or what a sloppy export wrote instead (`n/a`, `NA`).
enum Quantity {
  case count(Int)
  case unreadable(StaticString)
}
