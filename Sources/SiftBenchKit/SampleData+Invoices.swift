extension SampleData {
  /// `invoices.json`: 600 invoices in one object `{"invoices":[…]}`, pretty-printed with two
  /// spaces: a nested `customer` object, UK financial years (from April), money written as short
  /// as it goes (`1234.5`, `1200`, `246.92`), `null` for unpaid `paid_on` and for the `due` date of
  /// void invoices, and `tags` arrays that are often empty.
  static func invoicesFile() -> SampleFile {
    let count = 600
    var random = SplitMix64(seed: 0x5EED_0003)
    let names = WarehouseCatalog.customers.map { EncodedText.jsonString($0.name) }
    let paymentTerms = WeightedChoice([(30, 70), (14, 15), (60, 15)])
    var year = 0
    var numberInYear = 0

    let bytes = render { out in
      out.append("{\n  \"invoices\": [")
      for n in 0..<count {
        let date = CalendarDay.spread(n, of: count, from: GRNGenerator.firstDay, through: today)
        let (dateYear, month, _) = date.civil
        if dateYear != year { (year, numberInYear) = (dateYear, 0) }
        numberInYear += 1
        let financialYear = month >= 4 ? year : year - 1
        let customer = WarehouseCatalog.customerChoice.draw(&random)
        let country = WarehouseCatalog.customers[customer].country
        let terms = paymentTerms.draw(&random)
        let due = date.adding(days: terms)
        let paidOn = date.adding(days: random.within(5...terms + 20))
        let status: InvoiceStatus
        if random.chance(4) {
          status = .void
        } else if random.chance(88) && paidOn <= today {
          status = .paid
        } else {
          status = due < today ? .overdue : .open
        }
        let lines = random.within(1...12)
        var net = lines * random.within(1500...40_000)
        if random.chance(10) { net -= net % 100 }
        let vat = country == "GB" ? (net * 20 + 50) / 100 : 0
        let tags: [StaticString] = [
          random.chance(12) ? "priority" : nil,
          country == "GB" ? nil : "export",
          status == .overdue && random.chance(40) ? "disputed" : nil,
          random.chance(6) ? "consolidated" : nil,
        ].compactMap { $0 }

        out.append(n == 0 ? "\n    {\n" : ",\n    {\n")
        out.append("      \"invoice_no\": \"INV-")
        out.appendDecimal(year)
        out.append(.hyphen)
        out.appendDecimal(numberInYear, minimumDigits: 4)
        out.append("\",\n      \"date\": \"")
        out.appendDate(date)
        out.append("\",\n      \"financial_year\": \"")
        out.appendDecimal(financialYear)
        out.append("/")
        out.appendDecimal((financialYear + 1) % 100, minimumDigits: 2)
        out.append("\",\n      \"customer\": {\n        \"name\": ")
        out.append(names[customer])
        out.append(",\n        \"id\": \"C")
        out.appendDecimal(customer + 1, minimumDigits: 3)
        out.append("\",\n        \"country\": \"")
        out.append(country)
        out.append("\"\n      },\n      \"status\": \"")
        out.append(status.rawValue)
        out.append("\",\n      \"lines\": ")
        out.appendDecimal(lines)
        out.append(",\n      \"net\": ")
        out.appendCents(net, trimmed: true)
        out.append(",\n      \"vat\": ")
        out.appendCents(vat, trimmed: true)
        out.append(",\n      \"total\": ")
        out.appendCents(net + vat, trimmed: true)
        out.append(",\n      \"due\": ")
        appendJSONDate(status == .void ? nil : due, to: out)
        out.append(",\n      \"paid_on\": ")
        appendJSONDate(status == .paid ? paidOn : nil, to: out)
        out.append(",\n      \"tags\": [")
        for (i, tag) in tags.enumerated() {
          out.append(i == 0 ? "\n        \"" : ",\n        \"")
          out.append(tag)
          out.append(.quote)
        }
        out.append(tags.isEmpty ? "]\n    }" : "\n      ]\n    }")
      }
      out.append("\n  ]\n}\n")
    }
    return SampleFile(name: "invoices.json", bytes: bytes)
  }

  /// The `status` of an invoice.
  private enum InvoiceStatus: String {
    case paid, open, overdue, void
  }

  /// A date as a JSON string, or `null`.
  private static func appendJSONDate(_ day: CalendarDay?, to out: BlockWriter) {
    guard let day else { return out.append("null") }
    out.append(.quote)
    out.appendDate(day)
    out.append(.quote)
  }
}
