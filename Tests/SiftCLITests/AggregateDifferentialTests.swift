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
      let p = Int(function.dropFirst())!
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

  /// The expected CSV: a header, then a row per group in `group:` order (case-insensitive, then
  /// by bytes), or one row without a group.
  static func expected(
    filter: (Row) -> Bool, group: String?, aggregates: [(String, String)]
  ) -> String {
    let rows = DifferentialTests.rows.filter(filter)
    var groups: [(String, [Row])] = []
    if let group {
      let values: [String] = rows.map { present($0[group]) ?? "" }
      let keys = Set(values).sorted { (a: String, b: String) -> Bool in
        a.lowercased() != b.lowercased() ? a.lowercased() < b.lowercased() : a < b
      }
      for k in keys {
        let members: [Row] = rows.filter { (present($0[group]) ?? "") == k }
        groups.append((k, members))
      }
    } else {
      groups = [("", rows)]
    }
    var header: [String] = group.map { [$0] } ?? []
    header.append("count")
    for (function, field) in aggregates { header.append(field + "_" + function) }
    var lines = [header.joined(separator: ",")]
    for (key, members) in groups {
      var cells: [String] = group == nil ? [] : [csvField(key)]
      cells.append(String(members.count))
      for (function, field) in aggregates { cells.append(aggregate(function, field, members)) }
      lines.append(cells.joined(separator: ","))
    }
    return lines.joined(separator: "\n") + "\n"
  }

  static let cases: [(String, @Sendable (Row) -> Bool, String?, [(String, String)])] = [
    (
      "group:status sum:amount avg:amount p90:qty distinct:customer min:qty max:date",
      { _ in true }, "status",
      [("sum", "amount"), ("avg", "amount"), ("p90", "qty"), ("distinct", "customer"), ("min", "qty"), ("max", "date")]
    ),
    (
      "status:received group:warehouse sum:qty,unit_price p50:amount p99:unit_price",
      { $0["status"] == "received" }, "warehouse",
      [("sum", "qty"), ("sum", "unit_price"), ("p50", "amount"), ("p99", "unit_price")]
    ),
    (
      "sum:amount avg:qty p95:amount min:date max:amount",
      { _ in true }, nil,
      [("sum", "amount"), ("avg", "qty"), ("p95", "amount"), ("min", "date"), ("max", "amount")]
    ),
    (
      "customer:acme* group:customer avg:unit_price distinct:sku",
      { $0["customer"]?.lowercased().hasPrefix("acme") == true }, "customer",
      [("avg", "unit_price"), ("distinct", "sku")]
    ),
    ("status:nothing-matches sum:amount", { $0["status"] == "nothing-matches" }, nil, [("sum", "amount")]),
  ]

  @Test(arguments: cases.indices)
  func summaryMatchesAnIndependentComputation(index: Int) {
    let (query, filter, group, aggregates) = Self.cases[index]
    let result = sift([query, "SampleData/grn.csv", "-o", "csv", "-q"])
    #expect(result.text == Self.expected(filter: filter, group: group, aggregates: aggregates), "\(query)")
  }

  @Test func sortAndLimitApplyToTheSummaryRows() {
    let all = Self.expected(filter: { _ in true }, group: "customer", aggregates: [("sum", "amount")])
      .split(separator: "\n").dropFirst()
    let top = all.sorted {
      Decimal(string: String($0.split(separator: ",").last!))! > Decimal(string: String($1.split(separator: ",").last!))!
    }.prefix(7)
    let result = sift(["group:customer sum:amount sort:-amount_sum limit:7", "SampleData/grn.csv", "-o", "csv", "-q"])
    #expect(result.text == "customer,count,amount_sum\n" + top.joined(separator: "\n") + "\n")
  }
}
