extension SampleData {
  /// `dispatch.csv`: 800 dispatches of 2024 up to 2024-06-12 as a Windows export writes them:
  /// a UTF-8 BOM, CRLF line ends and none after the last row; destinations with commas
  /// (quoted); `shipped_at` written `YYYY-MM-DD HH:MM` and blank until shipped; a few blank
  /// `grn_no` and `weight_kg` cells.
  static func dispatchFile() -> SampleFile {
    let rows = 800
    var random = SplitMix64(seed: 0x5EED_0002)
    let customers = WarehouseCatalog.customers.map { EncodedText.csvField($0.name) }
    let carriers = WarehouseCatalog.carriers.map(EncodedText.csvField)
    let destinations = WarehouseCatalog.destinations.map(EncodedText.csvField)
    let firstDay = CalendarDay(year: 2024, month: 1, day: 1)

    let bytes = render { out in
      out.append([0xEF, 0xBB, 0xBF])
      out.append(
        "dispatch_no,date,status,customer,carrier,destination,grn_no,packages,weight_kg,shipped_at")
      for number in 1...rows {
        let date = CalendarDay.spread(number - 1, of: rows, from: firstDay, through: today)
        let status = DispatchStatus.choice(daysAgo: today.ordinal - date.ordinal).draw(&random)
        out.append("\r\nDSP-")
        out.appendDecimal(number, minimumDigits: 5)
        out.append(.comma)
        out.appendDate(date)
        out.append(.comma)
        out.append(status.rawValue)
        out.append(.comma)
        out.append(customers[WarehouseCatalog.customerChoice.draw(&random)])
        out.append(.comma)
        out.append(carriers[random.below(carriers.count)])
        out.append(.comma)
        out.append(destinations[random.below(destinations.count)])
        out.append(.comma)
        if !random.chance(8) {
          out.append("GRN-")
          // grn.csv has about three GRNs a day: refer to one received a few days before.
          let grn = grnCount - (today.ordinal - date.ordinal) * 3 - random.within(0...30)
          out.appendDecimal(max(1, grn), minimumDigits: 6)
        }
        out.append(.comma)
        let packages = random.chance(70) ? random.within(1...6) : random.within(7...40)
        out.appendDecimal(packages)
        out.append(.comma)
        if !random.chance(4) {
          let tenthsOfKilo = packages * random.within(15...250)
          out.appendDecimal(tenthsOfKilo / 10)
          out.append(.dot)
          out.appendDecimal(tenthsOfKilo % 10)
        }
        out.append(.comma)
        if status == .shipped || status == .delivered {
          var shipped = LocalDateTime(
            day: date.adding(days: random.below(2)), hour: random.within(8...17),
            minute: random.below(60))
          if shipped >= now { shipped = now.adding(seconds: -60 * random.within(5...120)) }
          out.appendDateTime(shipped, separator: .space, withSeconds: false)
        }
      }
    }
    return SampleFile(name: "dispatch.csv", bytes: bytes)
  }

  /// The `status` of a dispatch.
  private enum DispatchStatus: String {
    case planned, picking, packed, shipped, delivered, cancelled

    /// Statuses by age: recent dispatches are still in the warehouse, older ones delivered.
    static func choice(daysAgo: Int) -> WeightedChoice<DispatchStatus> {
      switch daysAgo {
      case ...3: recent
      case ...10: lastWeek
      default: older
      }
    }

    private static let recent = WeightedChoice<DispatchStatus>([
      (.planned, 35), (.picking, 25), (.packed, 20), (.shipped, 15), (.cancelled, 5),
    ])
    private static let lastWeek = WeightedChoice<DispatchStatus>([
      (.packed, 10), (.shipped, 45), (.delivered, 40), (.cancelled, 5),
    ])
    private static let older = WeightedChoice<DispatchStatus>([
      (.shipped, 3), (.delivered, 90), (.cancelled, 7),
    ])
  }
}
