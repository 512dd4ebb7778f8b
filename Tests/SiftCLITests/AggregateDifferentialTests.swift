import Foundation
import Testing

/// Aggregates (Docs/Aggregates.md) against an independent computation over SampleData/grn.csv:
/// Foundation's `Decimal` for exact sums and means, a plain sort for percentiles, and the test's
/// own CSV parser (DifferentialTests.rows).
@Suite struct AggregateDifferentialTests {
  typealias Row = DifferentialTests.Row

  /// Empty values and the null tokens are left out of every aggregate.
  static func present(_ s: String?) -> String? {
    guard let s, !s.isEmpty, !["na", "n/a", "null", "none", "-"].contains(s.lowercased()) else {
      return nil
    }
    return s
  }

  static func decimal(_ s: String?) -> Decimal? {
    guard let s = present(s) else { return nil }
    let plain = s.replacingOccurrences(of: ",", with: "")
    guard plain.allSatisfy({ $0.isNumber || $0 == "." || $0 == "-" }) else { return nil }
    return Decimal(string: plain)
  }

  static func decimals(_ s: String?) -> Int {
    guard let s = present(s), let dot = s.firstIndex(of: ".") else { return 0 }
    return s.distance(from: dot, to: s.endIndex) - 1
  }

  /// `d` with exactly `places` decimals, rounded half to even.
  static func text(_ d: Decimal, places: Int) -> String {
    var value = d
    var rounded = Decimal()
    NSDecimalRound(&rounded, &value, places, .bankers)
    let formatter = NumberFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.minimumFractionDigits = places
    formatter.maximumFractionDigits = places
    formatter.usesGroupingSeparator = false
    return formatter.string(from: rounded as NSDecimalNumber) ?? ""
  }

  /// One aggregate over a group's rows, as sift writes it in CSV.
  static func aggregate(_ function: String, _ field: String, _ rows: [Row]) -> String {
    let values = rows.compactMap { present($0[field]) }
    let numbers = values.compactMap { v in decimal(v).map { (v, $0) } }
    switch function {
    case "sum", "avg":
      guard !numbers.isEmpty else { return "" }
      let sum = numbers.reduce(Decimal(0)) { $0 + $1.1 }
      let places = numbers.map { decimals($0.0) }.max() ?? 0
      if function == "sum" { return text(sum, places: places) }
      return text(sum / Decimal(numbers.count), places: places + 2)
    case "min", "max":
      // A number field compares its numbers; a date field (ISO) its text.
      if field == "date" {
        return (function == "min" ? values.min() : values.max()) ?? ""
      }
      let sorted = numbers.sorted { $0.1 < $1.1 }
      guard let first = sorted.first, let last = sorted.last else { return "" }
      // Of equal numbers the first read stays.
      let best = function == "min" ? first.1 : last.1
      return numbers.first { $0.1 == best }!.0
    case "distinct":
      return String(Set(values).count)
    default:
      let p = function == "median" ? 50 : Int(function.dropFirst())!
      let sorted = numbers.map(\.1).sorted()
      guard !sorted.isEmpty else { return "" }
      let rank = max(1, (p * sorted.count + 99) / 100)
      return text(sorted[rank - 1], places: numbers.first { $0.1 == sorted[rank - 1] }.map { decimals($0.0) } ?? 0)
    }
  }

  static func csvField(_ s: String) -> String {
    s.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" })
      ? "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : s
  }

  /// The rows' groups in `group:` order: per field, case-insensitive, then by bytes (the fields
  /// used here hold text); one group of every row without group fields.
  static func groups(_ rows: [Row], by fields: [String]) -> [(keys: [String], rows: [Row])] {
    guard !fields.isEmpty else { return [([], rows)] }
    let keyOf = { (row: Row) in fields.map { present(row[$0]) ?? "" } }
    let keys = Set(rows.map(keyOf)).sorted { (a: [String], b: [String]) -> Bool in
      for (x, y) in zip(a, b) where x != y {
        return x.lowercased() != y.lowercased() ? x.lowercased() < y.lowercased() : x < y
      }
      return false
    }
    return keys.map { k in (k, rows.filter { keyOf($0) == k }) }
  }

  /// The expected CSV: a header, then a row per group (per combination of the group fields) in
  /// `group:` order, or one row without a group.
  static func expected(
    filter: (Row) -> Bool, group: [String], aggregates: [(String, String)]
  ) -> String {
    var header = group
    header.append("count")
    for (function, field) in aggregates { header.append(field + "_" + function) }
    var lines = [header.joined(separator: ",")]
    for (keys, members) in groups(DifferentialTests.rows.filter(filter), by: group) {
      var cells = keys.map(csvField)
      cells.append(String(members.count))
      for (function, field) in aggregates { cells.append(aggregate(function, field, members)) }
      lines.append(cells.joined(separator: ","))
    }
    return lines.joined(separator: "\n") + "\n"
  }

  static let cases: [(String, @Sendable (Row) -> Bool, [String], [(String, String)])] = [
    (
      "group:status sum:amount avg:amount p90:qty distinct:customer min:qty max:date",
      { _ in true }, ["status"],
      [("sum", "amount"), ("avg", "amount"), ("p90", "qty"), ("distinct", "customer"), ("min", "qty"), ("max", "date")]
    ),
    (
      "status:received group:warehouse sum:qty,unit_price p50:amount p99:unit_price",
      { $0["status"] == "received" }, ["warehouse"],
      [("sum", "qty"), ("sum", "unit_price"), ("p50", "amount"), ("p99", "unit_price")]
    ),
    (
      "sum:amount avg:qty p95:amount min:date max:amount",
      { _ in true }, [],
      [("sum", "amount"), ("avg", "qty"), ("p95", "amount"), ("min", "date"), ("max", "amount")]
    ),
    (
      "customer:acme* group:customer avg:unit_price distinct:sku",
      { $0["customer"]?.lowercased().hasPrefix("acme") == true }, ["customer"],
      [("avg", "unit_price"), ("distinct", "sku")]
    ),
    (
      "group:warehouse p75:qty p1:amount p33:unit_price median:qty",
      { _ in true }, ["warehouse"],
      [("p75", "qty"), ("p1", "amount"), ("p33", "unit_price"), ("median", "qty")]
    ),
    ("status:nothing-matches sum:amount", { $0["status"] == "nothing-matches" }, [], [("sum", "amount")]),
    (
      "group:warehouse,status sum:amount avg:qty p50:unit_price distinct:customer",
      { _ in true }, ["warehouse", "status"],
      [("sum", "amount"), ("avg", "qty"), ("p50", "unit_price"), ("distinct", "customer")]
    ),
    (
      "qty:>10 group:status,empty_stock,warehouse min:date max:amount",
      { (Decimal(string: $0["qty"] ?? "") ?? 0) > 10 }, ["status", "empty_stock", "warehouse"],
      [("min", "date"), ("max", "amount")]
    ),
  ]

  @Test(arguments: cases.indices)
  func summaryMatchesAnIndependentComputation(index: Int) {
    let (query, filter, group, aggregates) = Self.cases[index]
    let result = sift([query, "SampleData/grn.csv", "-o", "csv", "-q"])
    #expect(result.text == Self.expected(filter: filter, group: group, aggregates: aggregates), "\(query)")
  }

  @Test func sortAndLimitApplyToTheSummaryRows() {
    let all = Self.expected(filter: { _ in true }, group: ["customer"], aggregates: [("sum", "amount")])
      .split(separator: "\n").dropFirst()
    let top = all.sorted { Self.lastNumber($0) > Self.lastNumber($1) }.prefix(7)
    let result = sift(["group:customer sum:amount sort:-amount_sum limit:7", "SampleData/grn.csv", "-o", "csv", "-q"])
    #expect(result.text == "customer,count,amount_sum\n" + top.joined(separator: "\n") + "\n")
  }

  static func lastNumber(_ line: Substring) -> Decimal {
    Decimal(string: String(line.split(separator: ",").last!)) ?? 0
  }

  /// `limit:N/group` with aggregates keeps the first N summary rows of each value of the outer
  /// group field, ordered by `sort:` within it, the outer groups in group order.
  @Test func limitPerGroupKeepsTheTopRowsOfEachOuterGroup() {
    let all = Self.expected(filter: { _ in true }, group: ["warehouse", "status"], aggregates: [("sum", "amount")])
      .split(separator: "\n").dropFirst()
    var expected = ["warehouse,status,count,amount_sum"]
    var outer: [Substring] = []
    for line in all {
      let warehouse = line.split(separator: ",")[0]
      if !outer.contains(warehouse) { outer.append(warehouse) }
    }
    for warehouse in outer {
      let rows = all.filter { $0.split(separator: ",")[0] == warehouse }
      expected += rows.sorted { Self.lastNumber($0) > Self.lastNumber($1) }.prefix(2).map(String.init)
    }
    let result = sift([
      "group:warehouse,status sum:amount sort:-amount_sum limit:2/group", "SampleData/grn.csv", "-o", "csv", "-q",
    ])
    #expect(result.text == expected.joined(separator: "\n") + "\n")
    #expect(expected.count == 1 + 2 * outer.count)
  }

  /// `limit:N/group` over records keeps the first N records of each group (of each combination
  /// with `group:a,b`) after sorting; CSV writes them without headings, groups in group order.
  @Test(arguments: [["status"], ["warehouse", "empty_stock"]])
  func limitPerGroupKeepsTheFirstRecordsOfEachGroup(group: [String]) {
    let header = "grn_no,amount"
    var expected = [header]
    for (_, members) in Self.groups(DifferentialTests.rows, by: group) {
      // Stable: equal amounts keep input order.
      let sorted = members.enumerated().sorted { a, b in
        let x = Self.decimal(a.element["amount"]) ?? 0
        let y = Self.decimal(b.element["amount"]) ?? 0
        return x != y ? x > y : a.offset < b.offset
      }
      expected += sorted.prefix(3).map { "\($0.element["grn_no"]!),\($0.element["amount"]!)" }
    }
    let query = "group:\(group.joined(separator: ",")) sort:-amount limit:3/group fields:grn_no,amount"
    let result = sift([query, "SampleData/grn.csv", "-o", "csv", "-q"])
    #expect(result.text == expected.joined(separator: "\n") + "\n", "\(query)")
  }
}
