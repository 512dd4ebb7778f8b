import SiftCore

/// Writes GRN records as CSV (header `grn_no,date,status,customer,warehouse,sku,item,qty,
/// unit_price,amount,empty_stock,updated`) or as NDJSON objects with the same keys.
public struct GRNWriter {
  /// The CSV header line.
  static let csvHeader: StaticString =
    "grn_no,date,status,customer,warehouse,sku,item,qty,unit_price,amount,empty_stock,updated\n"

  let format: RecordFormat
  let customers = WarehouseCatalog.customers.map { EncodedText($0.name) }
  private(set) var items = WarehouseCatalog.items.map { EncodedText($0.name) }

  init(format: RecordFormat) { self.format = format }

  /// Writes `rows` generated records, fixed by `seed`, to `sink` (CSV with its header).
  public static func write(
    rows: Int, format: RecordFormat, seed: UInt64, to sink: ByteSink
  ) throws(OutputError) {
    let writer = GRNWriter(format: format)
    var generator = GRNGenerator(rows: rows, seed: seed)
    let out = BlockWriter(sink: sink)
    writer.writeHeader(to: out)
    for _ in 0..<rows {
      writer.write(generator.next(), to: out)
      try out.endRecord()
    }
    try out.finish()
  }

  /// Adds an item name that the catalog does not have; returns its index for `GRNRecord.item`.
  mutating func addItem(_ name: String) -> Int {
    items.append(EncodedText(name))
    return items.count - 1
  }

  /// Writes the CSV header (nothing for NDJSON).
  func writeHeader(to out: BlockWriter) {
    if format == .csv { out.append(Self.csvHeader) }
  }

  /// Writes one record and its line end.
  func write(_ record: GRNRecord, to out: BlockWriter) {
    switch format {
    case .csv: writeCSV(record, to: out)
    case .ndjson: writeNDJSON(record, to: out)
    }
  }

  private func writeCSV(_ r: GRNRecord, to out: BlockWriter) {
    out.append("GRN-")
    out.appendDecimal(r.number, minimumDigits: 6)
    out.append(.comma)
    out.appendDate(r.date)
    out.append(.comma)
    out.append(r.status.text)
    out.append(.comma)
    if let customer = r.customer { out.append(customers[customer].csv) }
    out.append(",WH-")
    out.appendDecimal(r.warehouse, minimumDigits: 2)
    out.append(",SKU-")
    out.appendDecimal(r.sku)
    out.append(.comma)
    out.append(items[r.item].csv)
    out.append(.comma)
    switch r.quantity {
    case .count(let count): out.appendDecimal(count)
    case .unreadable(let text): out.append(text)
    }
    out.append(.comma)
    appendCSVCents(r.unitPriceCents, grouped: r.groupsThousands, to: out)
    out.append(.comma)
    if let amount = r.amountCents { appendCSVCents(amount, grouped: r.groupsThousands, to: out) }
    out.append(r.emptyStock ? ",yes," : ",no,")
    out.appendDateTime(r.updated)
    out.append(.newline)
  }

  /// Money in a CSV cell; grouped amounts of 1,000 or more hold a comma and are quoted.
  private func appendCSVCents(_ cents: Int, grouped: Bool, to out: BlockWriter) {
    let quoted = grouped && cents >= 100_000
    if quoted { out.append(.quote) }
    out.appendCents(cents, grouped: grouped)
    if quoted { out.append(.quote) }
  }

  private func writeNDJSON(_ r: GRNRecord, to out: BlockWriter) {
    out.append(#"{"grn_no":"GRN-"#)
    out.appendDecimal(r.number, minimumDigits: 6)
    out.append(#"","date":""#)
    out.appendDate(r.date)
    out.append(#"","status":""#)
    out.append(r.status.text)
    out.append(#"","customer":"#)
    if let customer = r.customer {
      out.append(customers[customer].json)
    } else {
      out.append("null")
    }
    out.append(#","warehouse":"WH-"#)
    out.appendDecimal(r.warehouse, minimumDigits: 2)
    out.append(#"","sku":"SKU-"#)
    out.appendDecimal(r.sku)
    out.append(#"","item":"#)
    out.append(items[r.item].json)
    out.append(#","qty":"#)
    switch r.quantity {
    case .count(let count): out.appendDecimal(count)
    case .unreadable(let text):
      out.append(.quote)
      out.append(text)
      out.append(.quote)
    }
    out.append(#","unit_price":"#)
    out.appendCents(r.unitPriceCents)
    out.append(#","amount":"#)
    if let amount = r.amountCents { out.appendCents(amount) } else { out.append("null") }
    out.append(
      r.emptyStock ? #","empty_stock":true,"updated":""# : #","empty_stock":false,"updated":""#)
    out.appendDateTime(r.updated)
    out.append("\"}\n")
  }
}
