import Foundation
import SiftCore
import Testing

@testable import SiftCLI

/// Issue 11 (Docs/Engines.md): every query here, run through `--sql duckdb` in a real DuckDB,
/// gives the same records in the same order as sift's own run. Without `duckdb` (on PATH or
/// `$SIFT_DUCKDB`) the suite is skipped, and says so.
@Suite struct SQLDifferentialTests {
  static let duckdb: String? = {
    let environment = ProcessInfo.processInfo.environment
    if let given = environment["SIFT_DUCKDB"], !given.isEmpty { return given }
    guard let onPath = executable("duckdb") else { return nil }
    return bundledDuckDB(launcher: onPath) ?? onPath
  }()

  /// The binary that pip's `duckdb-cli` (what .ci/run installs) bundles, when `launcher` is a
  /// script (its Python launcher, or a shim in front of it). The launcher costs a Python start,
  /// four times the binary's own start (seven through a pyenv shim), each of the few hundred
  /// times the suites start DuckDB (`--engine duckdb`, a Parquet file's `DESCRIBE`); the binary
  /// answers as the launcher does. `nil` when `launcher` is a binary or there is no bundle.
  static func bundledDuckDB(launcher: String) -> String? {
    guard let head = FileManager.default.contents(atPath: launcher)?.prefix(2), head == Data("#!".utf8),
      let python3 = executable("python3"),
      let found = try? runProcess(python3, [
        "-c", "import duckdb_cli, os; print(os.path.join(os.path.dirname(duckdb_cli.__file__), 'duckdb'))",
      ]), found.status == 0
    else { return nil }
    let binary = found.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    return FileManager.default.isExecutableFile(atPath: binary) ? binary : nil
  }

  static let grn = "SampleData/grn.csv"
  /// A CSV whose `v` holds 1,002 numbers and 3 values that are not (the golden case's input).
  static let valuesNotNumbers = "Tests/SiftCLITests/Cases/aggregates-values-not-numbers-are-left-out-and-counted/stdin"
  static let terms = "Tests/SiftCLITests/Fixtures/sql-terms.csv"
  /// `;`-delimited, decimal commas (Docs/Formats.md, Decimal commas); `Preis` holds one `7.5`.
  static let decimalComma = "Tests/SiftCLITests/Fixtures/decimal-comma-with-points.csv"
  /// Names that differ only in case (`A`, `a`, `B`, `b`): groups keep them apart.
  static let sorting = "Tests/SiftCLITests/Fixtures/sorting.csv"
  /// Sums beyond ±1.8 × 10^308 (`inf`, `-inf`, `nan` when both), the text `inf`, a group with
  /// no number (Docs/Aggregates.md, Overflow).
  static let sumOverflow = "Tests/SiftCLITests/Fixtures/sum-overflow.csv"
  /// Group fields named like the columns a tally writes (`count`, `value`), their null tokens
  /// in every case: groups are made as read first, then folded (Docs/Engines.md, Readable statements).
  static let namedCount = "Tests/SiftCLITests/Fixtures/group-fields-named-count.csv"

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
    "group:customer,status", "group:warehouse,empty_stock sort:-amount", "group:status,date limit:40",
    "group:warehouse sort:-amount limit:3/group", "group:status,warehouse sort:date limit:2/group",
    "group:qty,customer limit:1/group", "customer:acme* group:customer,empty_stock sort:qty limit:2/group",
    "group:customer sort:-customer,date", "group:warehouse,status sort:-status,-amount limit:2/group",
    "group:date sort:-date limit:40",
  ].map { ($0, grn) } + [
    "name:bolt*", "name:*_5*", "name:*%", "name:\"nut_50%\"", "qty:1200", "qty:10", "qty:>5",
    "qty:-3..10", "qty:*..0", "date:2024-02", "date:2024", "date:>2024-02-29", "date:<=2024-02",
    "at:2024-01-31", "at:>=2024-02-29", "at:<2024-01-31T23:59:59.6", "at:2023-12-31",
    "date:2024-01-01..2024-03-05", "date:this-month", "date:last-7d", "ok:on", "ok:off", "-ok:on",
    "note:\"\"", "has:note", "note:na", "name:>bracket", "name:b..c", "name:/^b.*m\\d+$/i", "name:/M/",
    "\"hi\"", "50%", "(name:bolt* OR qty:<0) -note:\"\"", "NOT (ok:on OR ok:off)", "sort:at", "sort:-at",
    "sort:date", "sort:-date,name", "sort:qty", "sort:ok", "sort:note", "group:ok", "group:note sort:-qty",
  ].map { ($0, terms) } + [
    "Menge:>10", "Menge:<=3", "Menge:1.200", "Menge:\"12,5\"", "Menge:10..1.300", "Preis:>5",
    "sort:-Menge", "sort:Preis", "Preis:*..1",
  ].map { ($0, decimalComma) } + [
    "group:name", "group:name sort:-name", "group:name sort:-score", "name:a group:name",
  ].map { ($0, sorting) }

  static let countQueries: [(String, String)] = [
    "status:received", "", "group:customer", "group:status", "status:received group:warehouse",
    "group:qty", "group:date", "group:empty_stock", "customer:acme* group:status",
    "group:warehouse,status", "status:received group:customer,empty_stock", "group:qty,date",
    "group:customer sort:-count limit:5", "group:customer limit:3", "group:qty sort:count limit:4",
    "status:received group:warehouse,status sort:count limit:6", "group:date sort:-count",
    "group:customer sort:-customer limit:5", "group:warehouse,status sort:-status",
  ].map { ($0, grn) } + ["group:note", "group:ok", "qty:>0 group:ok", "group:ok,note"].map { ($0, terms) }
    + ["group:name", "group:name sort:-name", "group:name sort:-count"].map { ($0, sorting) }
    + ["group:count", "group:value", "group:count,value sort:-count"].map { ($0, namedCount) }

  static let summaryQueries: [(String, String)] = [
    "sum:qty", "group:customer sum:amount avg:qty", "group:status min:date max:date",
    "group:warehouse min:customer max:customer distinct:customer",
    "group:status p50:qty p90:amount p95:unit_price p99:qty",
    "group:warehouse p75:qty median:amount p1:unit_price p33:qty",
    "group:customer sum:amount sort:-amount_sum limit:5", "group:warehouse sum:qty sort:-count",
    "status:received group:customer avg:unit_price sort:-unit_price_avg",
    "group:customer min:qty max:amount fields:customer,qty_min", "group:updated max:qty limit:50",
    "status:received sum:amount,qty avg:unit_price p50:amount", "group:date avg:amount sort:-amount_avg limit:20",
    "group:warehouse,status sum:amount avg:qty", "group:customer,empty_stock p90:qty sort:-count limit:15",
    "group:warehouse,status sum:amount sort:-amount_sum limit:2/group",
    "group:status,warehouse,empty_stock avg:unit_price sort:unit_price_avg limit:1/group",
    "group:customer,status max:date limit:2/group", "group:warehouse sum:qty sort:-warehouse",
  ].map { ($0, grn) } + [
    "group:ok sum:qty avg:qty min:at max:name distinct:note", "group:ok,note sum:qty limit:1/group",
  ].map { ($0, terms) } + [
    "sum:Menge avg:Menge min:Menge max:Menge p50:Menge", "Menge:>0 sum:Menge p90:Menge distinct:Preis",
  ].map { ($0, decimalComma) } + [
    "group:name sum:score min:score max:name", "group:name sort:-name sum:score",
  ].map { ($0, sorting) } + [
    "group:c sum:v sort:-v_sum", "group:c sum:v sort:v_sum", "group:c avg:v sort:-v_avg",
    "group:c avg:v sort:v_avg limit:4", "group:c sum:v max:v sort:-v_sum,-v_max",
  ].map { ($0, sumOverflow) } + [
    "group:count sum:amount avg:amount", "group:value,count sum:amount sort:-count",
  ].map { ($0, namedCount) }

  static let now = ["--now", "2024-06-12T10:00"]

  /// DuckDB's answers to the queries above, all from one `duckdb` client (made when a test
  /// first asks).
  static let recordAnswers = throughDuckDB(recordQueries.map { EngineQuery($0.0, $0.1) })
  static let countAnswers = throughDuckDB(countQueries.map { EngineQuery($0.0, $0.1, count: true) })
  static let summaryAnswers = throughDuckDB(summaryQueries.map { EngineQuery($0.0, $0.1) })

  @Test(.enabled(if: duckdb != nil, "duckdb is not installed"), arguments: recordQueries.indices)
  func sameRecordsInTheSameOrder(index: Int) throws {
    let (query, file) = Self.recordQueries[index]
    let own = sift(["-q", "-o", "csv"] + Self.now + ["--", query, file])
    let engine = Self.recordAnswers[index].csv()
    #expect(CSVText.rows(engine) == CSVText.ownRows(own.text), "\(query)")
  }

  @Test(.enabled(if: duckdb != nil, "duckdb is not installed"), arguments: countQueries.indices)
  func sameCounts(index: Int) throws {
    let (query, file) = Self.countQueries[index]
    let own = sift(["-c"] + Self.now + ["--", query, file])
    let engine = CSVText.rows(Self.countAnswers[index].csv()).dropFirst()
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
    let engine = Self.summaryAnswers[index].csv()
    #expect(CSVText.rows(engine) == CSVText.ownRows(own.text), "\(query)")
  }

  /// `--engine duckdb` writes what sift's own run writes, bar included: CSV byte for byte, and
  /// a table with its group headers.
  @Test(.enabled(if: duckdb != nil, "duckdb is not installed"), arguments: [
    "status:received qty:>100 sort:-date limit:20", "customer:acme* group:status sort:-amount",
    "date:2024-03 fields:grn_no,customer,amount", "item:/bolt/i -warehouse:WH-01 sort:qty,grn_no",
    "nothing-matches-this", "group:warehouse,status sort:-amount limit:2/group",
    "group:date/quarter sort:-amount limit:2/group",
    // Groups in descending order, which the engine's result is marked in again.
    "group:qty sort:-qty", "group:warehouse,status sort:-status,amount",
    "group:date/month sort:-date",
  ])
  func engineWritesAsSiftDoes(query: String) throws {
    let environment = ["LANG": "C.UTF-8", "TZ": "UTC", "SIFT_DUCKDB": Self.duckdb!]
    for format in ["csv", "table", "json"] {
      let own = sift(["-o", format] + Self.now + ["--", query, Self.grn], environment: environment)
      let engine = sift(
        ["--engine", "duckdb", "-o", format] + Self.now + ["--", query, Self.grn], environment: environment)
      #expect(engine.text == own.text, "\(query) -o \(format)")
      #expect(engine.stderr == own.stderr, "\(query) -o \(format)")
      #expect(engine.status == own.status, "\(query) -o \(format)")
    }
  }

  /// `-c` through the engine: the count, or one line per group, and the bar.
  @Test(.enabled(if: duckdb != nil, "duckdb is not installed"), arguments: [
    "status:received", "group:warehouse", "customer:acme* group:status", "group:warehouse,status",
    "group:date/week,status",
  ])
  func engineCountsAsSiftDoes(query: String) throws {
    let environment = ["LANG": "C.UTF-8", "TZ": "UTC", "SIFT_DUCKDB": Self.duckdb!]
    let own = sift(["-c", "--", query, Self.grn], environment: environment)
    let engine = sift(["--engine", "duckdb", "-c", "--", query, Self.grn], environment: environment)
    #expect(engine.text == own.text && engine.stderr == own.stderr, "\(query): \(engine.stderr)")
  }

  /// A summary through the engine is written as sift writes its own: the `Total` row of a
  /// table, Markdown and HTML, and the bar's groups (before `limit:`) and values left out for
  /// not being numbers (Docs/Aggregates.md).
  @Test(.enabled(if: duckdb != nil, "duckdb is not installed"), arguments: [
    ("group:status sum:amount avg:qty min:date", grn),
    ("qty:>5 group:customer sum:amount p90:qty sort:-amount_sum limit:3", grn),
    ("group:warehouse max:item distinct:customer", grn),
    ("group:status,warehouse sum:amount sort:-amount_sum limit:4", grn),
    ("group:k sum:v p50:v min:v", valuesNotNumbers), ("k:a sum:v max:v", valuesNotNumbers),
    ("group:c sum:v avg:v sort:-v_sum", sumOverflow), ("group:name sum:score", sorting),
  ])
  func engineSummarizesAsSiftDoes(query: String, file: String) throws {
    let environment = ["LANG": "C.UTF-8", "TZ": "UTC", "SIFT_DUCKDB": Self.duckdb!]
    for format in ["csv", "table", "markdown", "html"] {
      let own = sift(["-o", format] + Self.now + ["--", query, file], environment: environment)
      let engine = sift(
        ["--engine", "duckdb", "-o", format] + Self.now + ["--", query, file], environment: environment)
      // A report names the command line that made it.
      let page = engine.text.replacing("sift --engine duckdb ", with: "sift ")
      #expect(page == own.text, "\(query) -o \(format)")
      #expect(engine.stderr == own.stderr, "\(query) -o \(format)")
    }
  }

  /// `--table NAME` with a DuckDB database as FILE: the table's names and types from DuckDB
  /// (a text column's from its first records), its records the same as sift's own over the
  /// file the table was loaded from.
  @Test(.enabled(if: duckdb != nil, "duckdb is not installed"))
  func engineReadsATableOfADatabase() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sift-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let database = folder.appendingPathComponent("warehouse.duckdb").path
    let process = Process()
    process.executableURL = URL(fileURLWithPath: Self.duckdb!)
    process.arguments = [database, "-c", "CREATE TABLE grn AS SELECT * FROM read_csv('\(Self.grn)')"]
    try process.run()
    process.waitUntilExit()
    let environment = ["LANG": "C.UTF-8", "TZ": "UTC", "SIFT_DUCKDB": Self.duckdb!]
    // `qty` is a VARCHAR column (it holds `n/a`): typed a number by its first records, as sift types the file's.
    let query = "status:received qty:>50 date:2024-03 sort:-qty fields:grn_no,date,customer,qty"
    let own = sift(["-o", "csv"] + Self.now + ["--", query, Self.grn], environment: environment)
    let engine = sift(
      ["--engine", "duckdb", "--table", "grn", "-o", "csv"] + Self.now + ["--", query, database],
      environment: environment)
    #expect(engine.text == own.text && engine.stderr == own.stderr, "\(engine.stderr)")
    #expect(own.text.split(separator: "\n").count > 10)
  }

  /// A statement the engine rejects is an error with the engine's message, exit 2.
  @Test(.enabled(if: duckdb != nil, "duckdb is not installed"))
  func engineFailureIsAnError() {
    let environment = ["LANG": "C.UTF-8", "TZ": "UTC", "SIFT_DUCKDB": Self.duckdb!]
    let result = sift(["--engine", "duckdb", "--table", "no_such_table", "qty:>1", Self.grn], environment: environment)
    #expect(result.status == .error)
    #expect(result.stderr.contains("duckdb failed") && result.stderr.contains("no_such_table"), "\(result.stderr)")
  }

  /// Golden cases whose answer through DuckDB differs for a reason Docs/Engines.md states:
  /// DuckDB writes JSON numbers in its own form (`2.5` for `2.50`), an empty CSV header cannot
  /// be an SQL name, a JSON array under a value test is an error, and a JSON file must be an
  /// array of records. (The two `;` cases agree, but sift's CSV keeps the sniffed `;`, which
  /// this comparison does not read.) DuckDB refuses a file that is neither UTF-8 nor
  /// windows-1252, whose bytes sift reads as they are (Docs/Formats.md, Encodings).
  static let knownDifferences: Set<String> = [
    "output-json-default-keeps-value-text", "output-json-to-csv",
    "filter-negation-matches-missing-field", "csv-duplicate-header-query-a-2",
    "csv-duplicate-headers-kept", "csv-empty-header-is-column-number", "filter-array-any-element",
    "input-json-nested-array-holds-the-records", "input-json-single-object-is-one-record",
    "input-semicolon-sniffed", "output-csv-keeps-a-sniffed-semicolon",
    "input-encoding-neither-utf8-nor-windows1252",
  ]

  /// Every golden case that runs one query over one file (with at most `-c`, `-q`, `--now` and
  /// output options) and succeeds: the query through DuckDB gives the same records in the same
  /// order, or the same counts.
  @Test(.enabled(if: duckdb != nil, "duckdb is not installed"))
  func goldenQueriesGiveTheSameAnswer() throws {
    var compared: [(name: String, run: (query: String, file: String, options: [String]), own: SiftResult, statement: SiftResult)] = []
    for name in GoldenTests.caseNames where !Self.knownDifferences.contains(name) {
      let folder = GoldenTests.casesFolder.appendingPathComponent(name)
      let has = { (file: String) in
        FileManager.default.fileExists(atPath: folder.appendingPathComponent(file).path)
      }
      guard !has("stdin"), !has("env"), !has("tty"),
        let cmd = try? String(contentsOf: folder.appendingPathComponent("cmd"), encoding: .utf8),
        var words = try? ShellWords.split(cmd)
      else { continue }
      if words.first == "sift" { words.removeFirst() }
      guard let run = Self.plainQuery(words) else { continue }
      let own = sift(["-q", "-o", "csv"] + run.options + ["--", run.query, run.file])
      // A query SQL cannot express (a nested path, a file without fields) is an error of its own.
      let statement = sift(["--sql", "duckdb"] + run.options + ["--", run.query, run.file])
      guard own.status != .error, statement.status != .error else { continue }
      compared.append((name, run, own, statement))
    }
    let answers = Self.answers(compared.map { ($0.run.query, $0.statement) })
    for ((name, run, own, _), answer) in zip(compared, answers) {
      let expected = run.options.contains("-c")
        ? [["count"]] + own.text.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
        : CSVText.ownRows(String(String.UnicodeScalarView(own.text.unicodeScalars.drop { $0 == "\u{FEFF}" })))
      let got = CSVText.rows(answer.csv())
      let same = run.options.contains("-c") ? Array(got.dropFirst()) == Array(expected.dropFirst()) : got == expected
      #expect(same, "\(name): \(run.query) \(run.file)")
    }
    #expect(compared.count >= 90, "only \(compared.count) golden queries compared")
    print("SQLDifferentialTests: \(compared.count) golden queries agree with DuckDB")
  }

  /// The query, file and options of a command line that runs one query over one file whose
  /// answer does not depend on its output format; `nil` for any other.
  static func plainQuery(_ words: [String]) -> (query: String, file: String, options: [String])? {
    var positional: [String] = []
    var options: [String] = []
    var i = 0
    while i < words.count {
      let w = words[i]
      if w == "--" {
        positional += words[(i + 1)...]
        break
      } else if w == "-q" || w == "--quiet" {
        i += 1
      } else if w == "-c" || w == "--count" {
        options.append("-c")
        i += 1
      } else if w == "--now", i + 1 < words.count {
        options += [w, words[i + 1]]
        i += 2
      } else if ["-o", "--output", "--summary", "--color", "--pager"].contains(w) {
        i += 2
      } else if w.hasPrefix("-o") && w.count > 2 {
        i += 1
      } else if w.hasPrefix("-") && w.count > 1 && !Options.looksLikeQuery(w) {
        return nil
      } else {
        positional.append(w)
        i += 1
      }
    }
    guard positional.count == 2, !positional[0].hasPrefix("@") else { return nil }
    let file = positional[1]
    guard [".csv", ".tsv", ".json", ".ndjson", ".jsonl"].contains(where: { file.hasSuffix($0) }),
      FileManager.default.fileExists(atPath: file)
    else { return nil }
    return (positional[0], file, options)
  }

  /// A client that reads statements on standard input and writes the last one's result as CSV
  /// with a header: `$SIFT_PSQL` (`psql -h /tmp -p 5432 -U me -d db`, for a server that can read
  /// this checkout's files) and `$SIFT_CLICKHOUSE` (`clickhouse local --output-format
  /// CSVWithNames`, or anything that does the same); unset skips that check.
  static let clients: [SQLDialect: [String]] = {
    let environment = ProcessInfo.processInfo.environment
    var clients: [SQLDialect: [String]] = [:]
    if let psql = environment["SIFT_PSQL"] {
      clients[.postgres] = psql.split(separator: " ").map(String.init)
        + ["-X", "-q", "--csv", "-v", "ON_ERROR_STOP=1"]
    }
    if let clickhouse = environment["SIFT_CLICKHOUSE"] {
      clients[.clickhouse] = clickhouse.split(separator: " ").map(String.init)
    }
    return clients
  }()

  /// The same queries through `--sql postgres` and `--sql clickhouse` in real engines (files by
  /// absolute path): the same records, counts and summaries.
  @Test(.enabled(if: clients[.postgres] != nil, "set SIFT_PSQL to check Postgres"))
  func postgresGivesTheSameAnswers() throws { try otherEngineGivesTheSameAnswers(dialect: .postgres) }

  @Test(.enabled(if: clients[.clickhouse] != nil, "set SIFT_CLICKHOUSE to check ClickHouse"))
  func clickHouseGivesTheSameAnswers() throws { try otherEngineGivesTheSameAnswers(dialect: .clickhouse) }

  func otherEngineGivesTheSameAnswers(dialect: SQLDialect) throws {
    let client = try #require(Self.clients[dialect])
    let root = FileManager.default.currentDirectoryPath + "/"
    // Numbers beyond 10^38: ClickHouse refuses to sum them, naming the field (Docs/Engines.md,
    // Exact sums in Spark and ClickHouse); Postgres stops at `1e400`, out of its double's range.
    for (query, file) in Self.recordQueries + Self.summaryQueries where file != Self.sumOverflow {
      let own = sift(["-q", "-o", "csv"] + Self.now + ["--", query, file])
      let engine = try Self.through(client, dialect, query, root + file)
      #expect(engine == CSVText.ownRows(own.text), "\(dialect): \(query)")
    }
    for (query, file) in Self.countQueries {
      let own = sift(["-c"] + Self.now + ["--", query, file])
      let engine = try Self.through(client, dialect, query, root + file, count: true).dropFirst()
      let expected = own.text.split(separator: "\n").map {
        $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
      }
      #expect(Array(engine) == expected, "\(dialect): \(query)")
    }
  }

  /// The dialect's statement of the query, run by `client`; its CSV rows (`\N` read as empty).
  static func through(
    _ client: [String], _ dialect: SQLDialect, _ query: String, _ file: String, count: Bool = false
  ) throws -> [[String]] {
    let statement = sift(["--sql", dialect.rawValue] + (count ? ["-c"] : []) + now + ["--", query, file])
    #expect(statement.status == .matched, "\(query): \(statement.stderr)")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = client
    let input = Pipe()
    let output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    process.standardError = output
    try process.run()
    input.fileHandleForWriting.write(Data(statement.text.utf8))
    try input.fileHandleForWriting.close()
    let bytes = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let text = String(decoding: bytes, as: UTF8.self)
    #expect(process.terminationStatus == 0, "\(query): \(text)")
    // Read as sift's own CSV is: a `;` file's statement writes `;` on ClickHouse
    // (`format_csv_delimiter`), where Postgres writes `,`.
    return CSVText.ownRows(text).map { $0.map { $0 == "\\N" ? "" : $0 } }
  }

  /// A query to run through `--sql duckdb` over `file`: a count with `-c`, and `options`.
  struct EngineQuery {
    var query: String
    var file: String
    var count: Bool
    var options: [String]

    init(_ query: String, _ file: String, count: Bool = false, options: [String] = SQLDifferentialTests.now) {
      (self.query, self.file, self.count, self.options) = (query, file, count, options)
    }
  }

  /// What DuckDB answered a query's statement.
  struct EngineAnswer: Sendable {
    var query: String
    var answer: DuckDBBatch.Answer

    /// DuckDB's CSV; where there is none, an issue naming the query and why.
    func csv(sourceLocation: SourceLocation = #_sourceLocation) -> String {
      switch answer {
      case .rows(let text): return text
      case .failed(let why):
        Issue.record("\(query): \(why)", sourceLocation: sourceLocation)
        return ""
      }
    }
  }

  /// The DuckDB statements of the queries, all run by one `duckdb` client (DuckDBBatch).
  static func throughDuckDB(_ queries: [EngineQuery]) -> [EngineAnswer] {
    answers(queries.map {
      ($0.query, sift(["--sql", "duckdb"] + ($0.count ? ["-c"] : []) + $0.options + ["--", $0.query, $0.file]))
    })
  }

  /// DuckDB's CSV for one query's statement, for a suite that checks a few (a batch of one).
  static func throughDuckDB(
    _ query: String, _ file: String, count: Bool = false,
    sourceLocation: SourceLocation = #_sourceLocation
  ) -> String {
    throughDuckDB([EngineQuery(query, file, count: count)])[0].csv(sourceLocation: sourceLocation)
  }

  /// DuckDB's CSV for a statement written for `query`.
  static func runDuckDB(
    _ statement: String, _ query: String, sourceLocation: SourceLocation = #_sourceLocation
  ) -> String {
    EngineAnswer(query: query, answer: DuckDBBatch.run([statement], duckdb: duckdb ?? "duckdb")[0])
      .csv(sourceLocation: sourceLocation)
  }

  /// DuckDB's answers to statements sift wrote for the queries, all run by one `duckdb` client;
  /// a statement sift refused is answered with sift's message.
  static func answers(_ statements: [(query: String, statement: SiftResult)]) -> [EngineAnswer] {
    let written = statements.filter { $0.statement.status == .matched }
    var engine = DuckDBBatch.run(written.map(\.statement.text), duckdb: duckdb ?? "duckdb")[...]
    return statements.map {
      EngineAnswer(
        query: $0.query,
        answer: $0.statement.status == .matched
          ? engine.removeFirst() : .failed("sift --sql duckdb: \($0.statement.stderr)"))
    }
  }
}

/// Rows of CSV text (RFC 4180), for comparing results written by different programs.
enum CSVText {
  /// The rows of sift's own CSV, which keeps a `;` it sniffed from its input (Docs/Formats.md,
  /// Output): a header line with a `;` and no `,` is read with `;`.
  static func ownRows(_ text: String) -> [[String]] {
    let header = text.prefix { $0 != "\n" }
    return rows(text, delimiter: header.contains(";") && !header.contains(",") ? ";" : ",")
  }

  /// Read byte by byte (the delimiter, quote and line ends are ASCII): a character-by-character
  /// reading of the larger answers cost more than the runs it compares.
  static func rows(_ text: String, delimiter: Character = ",") -> [[String]] {
    let comma = delimiter.asciiValue ?? UInt8(ascii: ",")
    let (quote, newline, carriageReturn) = (UInt8(ascii: "\""), UInt8(ascii: "\n"), UInt8(ascii: "\r"))
    var rows: [[String]] = []
    var row: [String] = []
    var field: [UInt8] = []
    var quoted = false
    let bytes = Array(text.utf8)
    var i = 0
    while i < bytes.count {
      let c = bytes[i]
      i += 1
      if quoted {
        if c == quote {
          if i < bytes.count && bytes[i] == quote {
            field.append(quote)
            i += 1
          } else {
            quoted = false
          }
        } else {
          field.append(c)
        }
      } else if c == quote {
        quoted = true
      } else if c == comma {
        row.append(String(decoding: field, as: UTF8.self))
        field = []
      } else if c == newline {
        row.append(String(decoding: field, as: UTF8.self))
        rows.append(row)
        row = []
        field = []
      } else if c != carriageReturn {
        field.append(c)
      }
    }
    if !field.isEmpty || !row.isEmpty { rows.append(row + [String(decoding: field, as: UTF8.self)]) }
    return rows
  }
}
