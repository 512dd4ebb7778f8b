extension SampleData {
  /// `orders.ndjson`: 1,000 sales orders, one JSON object per line, with `updated` date-times
  /// clustered around 2024-06-12 (some today, more this week and this month, the rest older),
  /// mostly in UTC (`Z`) but a few with a `+02:00` offset, a `note` key on only some orders,
  /// and a couple of blank lines between records.
  static func ordersFile() -> SampleFile {
    let count = 1000
    var random = SplitMix64(seed: 0x5EED_0004)
    let names = WarehouseCatalog.customers.map { EncodedText.jsonString($0.name) }
    let channels = WeightedChoice<StaticString>([("web", 50), ("edi", 35), ("phone", 15)])
    let notes: [StaticString] = [
      "call before delivery", "tail-lift needed", "deliver to gate 3", "part shipment agreed",
    ]
    let updates = (0..<count).map { _ in orderUpdate(&random) }.sorted()
    let blankLinesAfter = Set(shuffled(Array(0..<count - 1), &random).prefix(2))

    let bytes = render { out in
      for (n, updated) in updates.enumerated() {
        out.append(#"{"order_no":"SO-"#)
        out.appendDecimal(10_001 + n)
        out.append(#"","customer":"#)
        out.append(names[WarehouseCatalog.customerChoice.draw(&random)])
        out.append(#","status":""#)
        out.append(
          OrderStatus.choice(daysAgo: today.ordinal - updated.day.ordinal).draw(&random).rawValue)
        let items = random.within(1...12)
        out.append(#"","items":"#)
        out.appendDecimal(items)
        out.append(#","value":"#)
        out.appendCents(items * random.within(300...25_000))
        out.append(#","channel":""#)
        out.append(channels.draw(&random))
        out.append(#"","warehouse":"WH-"#)
        out.appendDecimal(random.within(1...8), minimumDigits: 2)
        out.append(
          random.chance(10) ? #"","rush":true,"updated":""# : #"","rush":false,"updated":""#)
        out.appendDateTime(updated)
        out.append(random.chance(6) ? "+02:00\"" : "Z\"")
        if random.chance(5) {
          out.append(#","note":""#)
          out.append(notes[random.below(notes.count)])
          out.append(.quote)
        }
        out.append("}\n")
        if blankLinesAfter.contains(n) { out.append(.newline) }
      }
    }
    return SampleFile(name: "orders.ndjson", bytes: bytes)
  }

  /// When an order was last updated: 8% today (before 10:00), 17% earlier this week, 30%
  /// earlier this month, the rest over the eight months before.
  private static func orderUpdate(_ random: inout SplitMix64) -> LocalDateTime {
    let daysAgo =
      switch random.below(100) {
      case ..<8: 0
      case ..<25: random.within(1...2)
      case ..<55: random.within(3...11)
      default: random.within(12...250)
      }
    return LocalDateTime(
      day: today.adding(days: -daysAgo),
      hour: daysAgo == 0 ? random.within(6...9) : random.within(6...20),
      minute: random.below(60), second: random.below(60))
  }

  /// The `status` of a sales order.
  private enum OrderStatus: String {
    case new, allocated, picked, shipped, cancelled

    /// Statuses by age: today's orders are new, those of the last days on their way, older
    /// ones shipped.
    static func choice(daysAgo: Int) -> WeightedChoice<OrderStatus> {
      switch daysAgo {
      case 0: today
      case ...6: lastDays
      default: older
      }
    }

    private static let today = WeightedChoice<OrderStatus>([
      (.new, 50), (.allocated, 30), (.picked, 15), (.cancelled, 5),
    ])
    private static let lastDays = WeightedChoice<OrderStatus>([
      (.allocated, 25), (.picked, 30), (.shipped, 40), (.cancelled, 5),
    ])
    private static let older = WeightedChoice<OrderStatus>([(.shipped, 88), (.cancelled, 12)])
  }
}
