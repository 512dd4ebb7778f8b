extension SampleData {
  /// How many records `grn.csv` has.
  static let grnCount = 1500

  /// `grn.csv`: 1,500 GRN lines as a careless export has them: a few blank customers, `qty`
  /// written `n/a` or `NA` (amount left blank), prices of 1,000 or more with thousands
  /// separators (quoted), two items with a line break inside quotes, and late updates made
  /// today and earlier this week.
  static func grnFile() -> SampleFile {
    var writer = GRNWriter(format: .csv)
    let itemsWithLineBreaks = [
      writer.addItem("Pallet wrap 500mm\n23 micron, clear"),
      writer.addItem("Label roll 100x150\nthermal"),
    ]
    var generator = GRNGenerator(rows: grnCount, seed: 0x5EED_0001)
    var records = (0..<grnCount).map { _ in generator.next() }
    var random = SplitMix64(seed: 0x5EED_1001)

    let monday = today.adding(days: -2)  // 2024-06-12 is a Wednesday.
    var pool = shuffled(records.indices.filter { records[$0].date < monday }, &random)
    func take(_ count: Int) -> ArraySlice<Int> {
      defer { pool.removeFirst(count) }
      return pool.prefix(count)
    }
    for i in take(6) { records[i].customer = nil }
    for i in take(4) { records[i].quantity = .unreadable("n/a") }
    for i in take(3) { records[i].quantity = .unreadable("NA") }
    for (i, item) in zip(take(2), itemsWithLineBreaks) { records[i].item = item }
    for i in take(12) { records[i].updated = now.adding(seconds: -random.within(60...4 * 3600)) }
    for i in take(20) {
      records[i].updated = LocalDateTime(
        day: monday.adding(days: random.below(2)), hour: random.within(7...17),
        minute: random.below(60), second: random.below(60))
    }
    let costly = records.indices.filter { records[$0].unitPriceCents >= 100_000 }
    for i in shuffled(costly, &random).prefix(5) { records[i].groupsThousands = true }

    let bytes = render { out in
      writer.writeHeader(to: out)
      for record in records { writer.write(record, to: out) }
    }
    return SampleFile(name: "grn.csv", bytes: bytes)
  }
}
