import Foundation
import Testing

/// Issue #4: for many queries over SampleData/grn.csv, sift returns exactly the records a
/// hand-written Swift predicate picks, in the same order.
@Suite struct DifferentialTests {
  typealias Row = [String: String]

  /// The records of grn.csv, read by a deliberately simple RFC 4180 parser of the test's own.
  static let rows: [Row] = {
    let text = (try? String(contentsOfFile: "SampleData/grn.csv", encoding: .utf8)) ?? ""
    var records: [[String]] = []
    var field = ""
    var record: [String] = []
    var quoted = false
    var chars = Array(text)[...]
    while let c = chars.popFirst() {
      if quoted {
        if c == "\"" {
          if chars.first == "\"" { field.append("\""); chars.removeFirst() } else { quoted = false }
        } else {
          field.append(c)
        }
      } else if c == "\"" {
        quoted = true
      } else if c == "," {
        record.append(field)
        field = ""
      } else if c == "\n" {
        record.append(field)
        records.append(record)
        record = []
        field = ""
      } else {
        field.append(c)
      }
    }
    let header = records.removeFirst()
    return records.map { Dictionary(uniqueKeysWithValues: zip(header, $0)) }
  }()

  static func number(_ s: String?) -> Double? {
    guard let s, !s.isEmpty else { return nil }
    return Double(s.replacingOccurrences(of: ",", with: ""))
  }

  static func day(_ s: String?) -> String { String((s ?? "").prefix(10)) }

  static let cases: [(String, @Sendable (Row) -> Bool)] = [
    ("status:received", { $0["status"] == "received" }),
    ("status:RECEIVED", { $0["status"] == "received" }),
    ("status:received,pending", { ["received", "pending"].contains($0["status"]) }),
    ("-status:cancelled", { $0["status"] != "cancelled" }),
    ("NOT status:received,pending", { !["received", "pending"].contains($0["status"]) }),
    ("customer:acme", { $0["customer"]?.lowercased() == "acme" }),
    ("customer:acme*", { $0["customer"]?.lowercased().hasPrefix("acme") == true }),
    ("customer:*&*", { $0["customer"]?.contains("&") == true }),
    ("customer:\"\"", { $0["customer"] == "" }),
    ("has:customer", { $0["customer"] != "" }),
    ("qty:>100", { (number($0["qty"]) ?? -1) > 100 }),
    ("qty:>=100", { (number($0["qty"]) ?? -1) >= 100 }),
    ("qty:<3", { number($0["qty"]).map { $0 < 3 } ?? false }),
    ("qty:<=3", { number($0["qty"]).map { $0 <= 3 } ?? false }),
    ("qty:0", { number($0["qty"]) == 0 }),
    ("qty:10..20", { number($0["qty"]).map { $0 >= 10 && $0 <= 20 } ?? false }),
    ("qty:400..*", { number($0["qty"]).map { $0 >= 400 } ?? false }),
    ("unit_price:>1000", { (number($0["unit_price"]) ?? 0) > 1000 }),
    ("amount:<1", { number($0["amount"]).map { $0 < 1 } ?? false }),
    ("date:2024-03", { day($0["date"]).hasPrefix("2024-03") }),
    ("date:2023", { day($0["date"]).hasPrefix("2023") }),
    ("date:>2024-05", { day($0["date"]) >= "2024-06" }),
    ("date:<2023-02-01", { day($0["date"]) < "2023-02-01" }),
    ("date:2024-01-01..2024-01-31", { (day($0["date"]) >= "2024-01-01") && (day($0["date"]) <= "2024-01-31") }),
    ("updated:2024-06-12", { day($0["updated"]) == "2024-06-12" }),
    ("updated:this-week", { day($0["updated"]) >= "2024-06-10" && day($0["updated"]) <= "2024-06-16" }),
    ("date:last-7d", { day($0["date"]) >= "2024-06-06" && day($0["date"]) <= "2024-06-12" }),
    ("empty_stock:on", { $0["empty_stock"] == "yes" }),
    ("empty_stock:off", { $0["empty_stock"] != "yes" }),
    ("item:/bolt\\s+m1\\d/i", { ($0["item"] ?? "").range(of: "bolt\\s+m1\\d", options: [.regularExpression, .caseInsensitive]) != nil }),
    ("item:/Nut/", { ($0["item"] ?? "").contains("Nut") }),
    ("bolt", { $0.values.contains { $0.lowercased().contains("bolt") } }),
    ("\"hex nut\"", { $0.values.contains { $0.lowercased().contains("hex nut") } }),
    ("warehouse:WH-01 OR warehouse:WH-02", { ["WH-01", "WH-02"].contains($0["warehouse"]) }),
    ("(status:pending OR qty:0) warehouse:wh-03", { ($0["status"] == "pending" || number($0["qty"]) == 0) && $0["warehouse"] == "WH-03" }),
    ("status:received AND -customer:acme*", { $0["status"] == "received" && $0["customer"]?.lowercased().hasPrefix("acme") != true }),
    ("NOT (status:received OR status:pending)", { !["received", "pending"].contains($0["status"]) }),
    ("müller", { $0.values.contains { $0.lowercased().contains("müller") } }),
    ("customer:東京商事", { $0["customer"] == "東京商事" }),
  ]

  @Test(arguments: cases.indices)
  func sameRecordsAsASwiftPredicate(index: Int) throws {
    let (query, predicate) = Self.cases[index]
    #expect(Self.rows.count == 1500)
    let expected = Self.rows.filter(predicate).map { $0["grn_no"] ?? "" }
    let result = sift(["-q", "--now", "2024-06-12T10:00", "--", "(" + query + ") fields:grn_no", "SampleData/grn.csv"])
    let got = result.text.split(separator: "\n").dropFirst().map(String.init)
    let firstDifference = zip(got, expected).first { $0 != $1 }.map { "\($0) vs \($1)" } ?? "none"
    #expect(got.count == expected.count && got == expected,
            "\(query): \(got.count) vs \(expected.count) records, first difference \(firstDifference); \(result.stderr)")
    #expect(result.status == (expected.isEmpty ? .noMatch : .matched))
  }

  @Test func sortedByDateDescendingIsStable() {
    let expected = Self.rows.enumerated().sorted {
      let (a, b) = (Self.day($0.element["date"]), Self.day($1.element["date"]))
      return a != b ? a > b : $0.offset < $1.offset
    }.map { $0.element["grn_no"] ?? "" }
    let result = sift(["sort:-date fields:grn_no", "SampleData/grn.csv", "-q"])
    #expect(result.text.split(separator: "\n").dropFirst().map(String.init) == expected)
  }
}
