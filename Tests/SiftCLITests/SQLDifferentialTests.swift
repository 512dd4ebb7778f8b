import Foundation
import Testing

/// Issue 11 (Docs/Engines.md): every query here, run through `--sql duckdb` in a real DuckDB,
/// gives the same records in the same order as sift's own run. Without `duckdb` (on PATH or
/// `$SIFT_DUCKDB`) the suite is skipped, and says so.
@Suite struct SQLDifferentialTests {
  static let duckdb: String? = {
    let environment = ProcessInfo.processInfo.environment
    if let given = environment["SIFT_DUCKDB"], !given.isEmpty { return given }
    for folder in (environment["PATH"] ?? "").split(separator: ":") {
      let path = "\(folder)/duckdb"
      if FileManager.default.isExecutableFile(atPath: path) { return path }
    }
    print("SQLDifferentialTests: skipped, duckdb is not installed (pip install duckdb-cli, or set SIFT_DUCKDB)")
    return nil
  }()

  static let grn = "SampleData/grn.csv"
  static let terms = "Tests/SiftCLITests/Fixtures/sql-terms.csv"

  /// The queries of DifferentialTests, and more of every kind: terms, order, groups, limits,
  /// projections.
  static let recordQueries: [(String, String)] = DifferentialTests.cases.map { ($0.0, grn) } + [
    "sort:date", "sort:-date", "sort:qty", "sort:-qty", "sort:customer", "sort:-customer,date",
    "sort:-amount limit:10", "group:customer", "group:status sort:-qty",
    "group:warehouse sort:date limit:30", "fields:-updated,-sku sort:qty",
    "status:received sort:-unit_price fields:grn_no,unit_price limit:25", "customer:*ltd* sort:customer",
    "customer:>m sort:customer", "customer:a..c", "customer:<b", "qty:n/a", "qty:NA", "amount:\"\"",
    "-amount:\"\"", "has:amount", "date:this-month", "date:last-month", "date:last-year", "date:last-2w",
    "date:<this-year", "updated:>=2024-06-01T12:00", "updated:2024-06-01..2024-06-05", "date:2024-02-29",
    "updated:>2024-06-12T08:00:00", "empty_stock:yes", "-empty_stock:on", "item:/^bolt/i",
    "item:/m(8|10)x/", "sku:*-1*", "item:*_*", "qty:7,8,9", "unit_price:0.37,0.11 sort:-grn_no",
    "customer:\"The \\\"Best\\\" Supplies\"", "(status:received OR (qty:>50 customer:acme*)) sort:qty,date",
    "NOT (has:customer) OR qty:0", "group:empty_stock sort:-amount limit:5", "group:date limit:40",
    "group:qty sort:customer", "sort:updated,grn_no", "sort:-unit_price,-qty limit:100",
  ].map { ($0, grn) } + [
    "name:bolt*", "name:*_5*", "name:*%", "name:\"nut_50%\"", "qty:1200", "qty:10", "qty:>5",
    "qty:-3..10", "qty:*..0", "date:2024-02", "date:2024", "date:>2024-02-29", "date:<=2024-02",
    "at:2024-01-31", "at:>=2024-02-29", "at:<2024-01-31T23:59:59.6", "at:2023-12-31",
    "date:2024-01-01..2024-03-05", "date:this-month", "date:last-7d", "ok:on", "ok:off", "-ok:on",
    "note:\"\"", "has:note", "note:na", "name:>bracket", "name:b..c", "name:/^b.*m\\d+$/i", "name:/M/",
    "\"hi\"", "50%", "(name:bolt* OR qty:<0) -note:\"\"", "NOT (ok:on OR ok:off)", "sort:at", "sort:-at",
    "sort:date", "sort:-date,name", "sort:qty", "sort:ok", "sort:note", "group:ok", "group:note sort:-qty",
  ].map { ($0, terms) }

  static let countQueries: [(String, String)] = [
    "status:received", "", "group:customer", "group:status", "status:received group:warehouse",
    "group:qty", "group:date", "group:empty_stock", "customer:acme* group:status",
  ].map { ($0, grn) } + ["group:note", "group:ok", "qty:>0 group:ok"].map { ($0, terms) }

  static let summaryQueries: [(String, String)] = [
    "sum:qty", "group:customer sum:amount avg:qty", "group:status min:date max:date",
    "group:warehouse min:customer max:customer distinct:customer",
    "group:status p50:qty p90:amount p95:unit_price p99:qty",
    "group:customer sum:amount sort:-amount_sum limit:5", "group:warehouse sum:qty sort:-count",
    "status:received group:customer avg:unit_price sort:-unit_price_avg",
    "group:customer min:qty max:amount fields:customer,qty_min", "group:updated max:qty limit:50",
    "status:received sum:amount,qty avg:unit_price p50:amount", "group:date avg:amount sort:-amount_avg limit:20",
  ].map { ($0, grn) } + ["group:ok sum:qty avg:qty min:at max:name distinct:note"].map { ($0, terms) }

  static let now = ["--now", "2024-06-12T10:00"]

  @Test(.enabled(if: duckdb != nil, "duckdb is not installed"), arguments: recordQueries.indices)
  func sameRecordsInTheSameOrder(index: Int) throws {
    let (query, file) = Self.recordQueries[index]
    let own = sift(["-q", "-o", "csv"] + Self.now + ["--", query, file])
    let engine = try Self.throughDuckDB(query, file)
    #expect(CSVText.rows(engine) == CSVText.rows(own.text), "\(query)")
  }

  @Test(.enabled(if: duckdb != nil, "duckdb is not installed"), arguments: countQueries.indices)
  func sameCounts(index: Int) throws {
    let (query, file) = Self.countQueries[index]
    let own = sift(["-c"] + Self.now + ["--", query, file])
    let engine = CSVText.rows(try Self.throughDuckDB(query, file, count: true)).dropFirst()
    let expected = own.text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
      .map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
    #expect(Array(engine) == expected, "\(query)")
  }

  /// Summaries: the same rows and columns in the same order, sums and means as exact decimals
  /// written as sift writes them.
  @Test(.enabled(if: duckdb != nil, "duckdb is not installed"), arguments: summaryQueries.indices)
  func sameSummaries(index: Int) throws {
    let (query, file) = Self.summaryQueries[index]
    let own = sift(["-q", "-o", "csv"] + Self.now + ["--", query, file])
    let engine = try Self.throughDuckDB(query, file)
    #expect(CSVText.rows(engine) == CSVText.rows(own.text), "\(query)")
  }

  /// The DuckDB statement of the query, run by the `duckdb` client; its CSV output.
  static func throughDuckDB(_ query: String, _ file: String, count: Bool = false) throws -> String {
    let statement = sift(["--sql", "duckdb"] + (count ? ["-c"] : []) + now + ["--", query, file])
    #expect(statement.status == .matched, "\(query): \(statement.stderr)")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: duckdb!)
    process.arguments = ["-csv", "-nullvalue", "", "-c", statement.text]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    try process.run()
    let bytes = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let text = String(decoding: bytes, as: UTF8.self)
    #expect(process.terminationStatus == 0, "\(query): \(text)")
    return text
  }
}

/// Rows of CSV text (RFC 4180), for comparing results written by different programs.
enum CSVText {
  static func rows(_ text: String) -> [[String]] {
    var rows: [[String]] = []
    var row: [String] = []
    var field = ""
    var quoted = false
    var chars = Array(text)[...]
    while let c = chars.popFirst() {
      if quoted {
        if c == "\"" {
          if chars.first == "\"" {
            field.append("\"")
            chars.removeFirst()
          } else {
            quoted = false
          }
        } else {
          field.append(c)
        }
      } else if c == "\"" {
        quoted = true
      } else if c == "," {
        row.append(field)
        field = ""
      } else if c == "\n" {
        row.append(field)
        rows.append(row)
        row = []
        field = ""
      } else if c != "\r" {
        field.append(c)
      }
    }
    if !field.isEmpty || !row.isEmpty { rows.append(row + [field]) }
    return rows
  }
}
