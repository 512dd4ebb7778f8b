/// Makes GRN records from a seed: numbered in sequence, dated in order over
/// 2023-01-01…2024-06-12 (a few entered late), with weighted statuses, customers and items.
struct GRNGenerator {
  /// The first date.
  static let firstDay = CalendarDay(year: 2023, month: 1, day: 1)
  /// The last date: "today" in the sample data.
  static let lastDay = CalendarDay(year: 2024, month: 6, day: 12)
  /// Nothing is updated at or after this moment ("now" in the sample data, 2024-06-12T10:00).
  static let now = LocalDateTime(day: lastDay, hour: 10, minute: 0)

  private var random: SplitMix64
  private let rows: Int
  private var produced = 0

  /// A generator of `rows` records, fixed by `seed`.
  init(rows: Int, seed: UInt64) {
    self.rows = rows
    random = SplitMix64(seed: seed)
  }

  /// The next record.
  mutating func next() -> GRNRecord {
    var date = CalendarDay.spread(produced, of: rows, from: Self.firstDay, through: Self.lastDay)
    if random.chance(15) { date = max(Self.firstDay, date.adding(days: -random.within(1...3))) }
    produced += 1
    let item = WarehouseCatalog.itemChoice.draw(&random)
    let listPrice = WarehouseCatalog.items[item].priceCents
    let quantity = nextQuantity(bulky: listPrice >= 10_000)
    let emptyStock = quantity == 0 ? random.chance(70) : random.chance(3)
    return GRNRecord(
      number: produced, date: date, status: GRNStatus.choice.draw(&random),
      customer: WarehouseCatalog.customerChoice.draw(&random), warehouse: random.within(1...8),
      sku: 10_000 + item * 157 + random.below(3), item: item, quantity: .count(quantity),
      unitPriceCents: max(1, listPrice * random.within(90...110) / 100), emptyStock: emptyStock,
      updated: nextUpdate(after: date))
  }

  /// 0…500: about 5% zeros, most small, a long tail; 0…4 for `bulky` (costly) items.
  private mutating func nextQuantity(bulky: Bool) -> Int {
    switch random.below(100) {
    case ..<5: 0
    case _ where bulky: random.within(1...4)
    case ..<65: random.within(1...20)
    case ..<90: random.within(21...100)
    case ..<98: random.within(101...300)
    default: random.within(301...500)
    }
  }

  /// A working-hours moment on `date` or up to a month later, before `now`.
  private mutating func nextUpdate(after date: CalendarDay) -> LocalDateTime {
    let daysLater =
      switch random.below(100) {
      case ..<45: 0
      case ..<80: random.within(1...3)
      default: random.within(4...30)
      }
    let updated = LocalDateTime(
      day: date.adding(days: daysLater), hour: random.within(6...18), minute: random.below(60),
      second: random.below(60))
    guard updated < Self.now else {
      return Self.now.adding(seconds: -1 - random.below(4 * 3600))
    }
    return updated
  }
}
