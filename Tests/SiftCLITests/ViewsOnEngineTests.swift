import Foundation
import SiftCore
import Testing

@testable import SiftCLI

/// Docs/Engines.md, Views on an engine: `sift --views --engine ENGINE` runs every view's badge
/// query in one run of the engine's client and prints what sift's own `--views` prints, byte for
/// byte (the tab bar, and the `-o html` digest with each view's first records); a view whose
/// statement fails is named, and the views after it still get their answers.
@Suite struct ViewsOnEngineTests {
  static let duckdb = SQLDifferentialTests.duckdb
  static let sparkSQL = executable("spark-sql")
  static let sampleData = FileManager.default.currentDirectoryPath + "/SampleData/"

  /// Views over SampleData's files: badges on text, numbers and dates, a preset query, default
  /// sorts on dates, numbers and text, labels, two views on one source, a view without a badge,
  /// JSON lines, and (`withSummary`) a grouped summary.
  static func views(withSummary: Bool) -> String {
    """
    { "title": "Warehouse", "views": {
      "grn": { "title": "GRN List", "source": "\(sampleData)grn.csv", "sort": "-date",
        "labels": { "grn_no": "GRN No", "item": "Items" }, "badge": "status:pending" },
      "big": { "title": "Big receipts", "source": "\(sampleData)grn.csv", "sort": "-amount",
        "query": "qty:>100", "badge": "date:2024-05..2024-09" },
      "dispatch": { "title": "Dispatch List", "source": "\(sampleData)dispatch.csv", "sort": "-date",
        "badge": "status:planned,picking,packed" },
      "orders": { "title": "Order List", "source": "\(sampleData)orders.ndjson", "sort": "order_no",
        "badge": "status:new,allocated" },
      "plain": { "title": "No badge", "source": "\(sampleData)grn.csv" }
    """ + (withSummary ? """
      , "totals": { "title": "Pending by customer", "source": "\(sampleData)grn.csv",
        "query": "status:pending group:customer sum:qty limit:3",
        "badge": "status:pending group:customer sum:qty" }
      """ : "") + "} }\n"
  }

  /// A folder holding `sift.json` with `text` and a client wrapper `client` that logs each of
  /// its runs to `runs.log` before it starts `program` (or runs the shell lines `script`);
  /// removed after `body`.
  static func withViews<R>(
    _ text: String, program: String, script: String? = nil, _ body: (_ config: String, _ client: String, _ log: String) throws -> R
  ) throws -> R {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("sift-views-engine-\(UInt32.random(in: 0...UInt32.max))").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let config = folder + "/sift.json"
    try Data(text.utf8).write(to: URL(fileURLWithPath: config))
    let client = folder + "/client"
    let log = folder + "/runs.log"
    try Data("#!/bin/sh\necho run >> '\(log)'\n\(script ?? "exec '\(program)' \"$@\"")\n".utf8)
      .write(to: URL(fileURLWithPath: client))
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: client)
    return try body(config, client, log)
  }

  /// How many times the client was started.
  static func runs(_ log: String) -> Int {
    ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n").count
  }

  /// `arguments` run by sift itself and with `--engine ENGINE` through `client`: the engine's
  /// run's output with `--engine ENGINE` taken out of the digest's footer (the command line).
  static func both(
    _ arguments: [String], engine: String, client: String, tmp: String? = nil
  ) -> (own: SiftResult, engine: SiftResult, engineText: String) {
    var environment = ProcessInfo.processInfo.environment
    if let tmp { environment["TMPDIR"] = tmp }
    environment["LANG"] = "C.UTF-8"
    environment["TZ"] = "UTC"
    environment[engine == "duckdb" ? "SIFT_DUCKDB" : "SIFT_SPARK_SQL"] = client
    let own = sift(arguments)
    let onEngine = sift(arguments + ["--engine", engine], environment: environment)
    return (own, onEngine, onEngine.text.replacing(" --engine \(engine)", with: ""))
  }

  @Test(
    .enabled(if: duckdb != nil, "duckdb is not installed"),
    arguments: [["--views"], ["--views", "--ascii"], ["--views", "@big"],
      ["--views", "-o", "html", "--now", "2026-11-26"]])
  func duckDBViewsAreSiftsOwnInOneRun(arguments: [String]) throws {
    let digest = arguments.contains("html")
    try Self.withViews(Self.views(withSummary: digest), program: Self.duckdb!) { config, client, log in
      let (own, engine, text) = Self.both(["--config", config] + arguments, engine: "duckdb", client: client)
      #expect(own.status == .matched, "\(own.stderr)")
      #expect(engine.status == .matched, "\(engine.stderr)")
      #expect(text == own.text)
      #expect(engine.stderr == own.stderr)
      #expect(Self.runs(log) == 1)
      if digest {
        // Every view's section is there: its first records, and the summary's groups.
        #expect(text.contains("and 310 more") && text.contains("Pending by customer"))
      }
    }
  }

  /// The failing view is named, the others keep their badges (the views after it in a second
  /// run of the client), and the run ends with status 2 as sift's own does for a broken view.
  @Test(.enabled(if: duckdb != nil, "duckdb is not installed"))
  func aFailingViewIsNamedAndTheOthersStillCount() throws {
    // DuckDB reads a JSON file that is one array of records; invoices.json is an object.
    let text = Self.views(withSummary: false).replacing(
      "\"dispatch\": {", with: "\"invoices\": { \"source\": \"\(Self.sampleData)invoices.json\", "
        + "\"badge\": \"status:overdue\" },\n  \"dispatch\": {")
    try Self.withViews(text, program: Self.duckdb!) { config, client, log in
      let (own, engine, _) = try EngineTemporaryFolderTests.withTemporaryFolder(named: "sift-views") {
        (tmp: String) throws -> (own: SiftResult, engine: SiftResult, engineText: String) in
        let both = Self.both(
          ["--config", config, "--views", "--ascii"], engine: "duckdb", client: client, tmp: tmp)
        // Both runs of the client leave nothing behind.
        let left = try FileManager.default.contentsOfDirectory(atPath: tmp)
        #expect(left == [])
        return both
      }
      #expect(own.status == .matched)
      #expect(own.text.hasPrefix(" GRN List (330) | Big receipts (16) | invoices (74) | Dispatch List (19) | More (2)"))
      #expect(engine.status == .error)
      #expect(engine.text == own.text.replacing("invoices (74)", with: "invoices (!)")
        .replacing("@invoices      ", with: "@invoices     "))
      #expect(engine.stderr.hasPrefix("sift: duckdb failed on view @invoices (exit 1): "), "\(engine.stderr)")
      #expect(Self.runs(log) == 2)
    }
  }

  /// A `spark-sql` stand-in that gives one query's result and then fails, each time it runs:
  /// the first view counts, the second is named as failed, the third and fourth run in a
  /// second session, where the fourth fails. Spark's one-line reason is kept.
  @Test func aFailingSparkStatementIsTheViewAfterTheLastWholeResult() throws {
    let script = """
      printf '"total","matched","left_out","groups"\\n"10","5","0","0"\\nsift-end-of-result\\n'
      echo 'WARNING: Using incubator modules: jdk.incubator.vector' >&2
      echo '[UNRESOLVED_COLUMN.WITHOUT_SUGGESTION] A column cannot be resolved. SQLSTATE: 42703' >&2
      exit 1
      """
    try Self.withViews(Self.views(withSummary: false), program: "", script: script) { config, client, log in
      let run = sift(["--config", config, "--views", "--ascii", "--engine", "spark", "-q"],
        environment: ["LANG": "C.UTF-8", "TZ": "UTC", "SIFT_SPARK_SQL": client])
      #expect(run.status == .error)
      #expect(run.text.hasPrefix(" GRN List (5) | Big receipts (!) | Dispatch List (5) | Order List (!)"), "\(run.text)")
      #expect(run.stderr == """
        sift: spark failed on view @big (exit 1): [UNRESOLVED_COLUMN.WITHOUT_SUGGESTION] A column cannot be resolved.
        sift --sql spark --views shows each view's statement
        sift: spark failed on view @orders (exit 1): [UNRESOLVED_COLUMN.WITHOUT_SUGGESTION] A column cannot be resolved.
        sift --sql spark --views shows each view's statement

        """)
      #expect(Self.runs(log) == 2)
    }
  }

  /// Views over Parquet files are described (`DESCRIBE` and sample) in the client that counts
  /// every view's badge: one start for the whole tab bar, the badges those of the same records
  /// as CSV.
  @Test(.enabled(if: duckdb != nil, "duckdb is not installed"))
  func parquetViewsAreDescribedInTheOneRun() throws {
    try EngineTemporaryFolderTests.withTemporaryFolder(named: "sift-views-parquet") { folder in
      for name in ["grn", "dispatch"] {
        let made = try runProcess(Self.duckdb!, [
          "-c", "COPY (FROM read_csv('\(Self.sampleData)\(name).csv')) TO '\(folder)/\(name).parquet' (FORMAT parquet)",
        ])
        #expect(made.status == 0, "\(made.stderr)")
      }
      let text = Self.views(withSummary: false)
        .replacing("\(Self.sampleData)grn.csv", with: "\(folder)/grn.parquet")
        .replacing("\(Self.sampleData)dispatch.csv", with: "\(folder)/dispatch.parquet")
      try Self.withViews(text, program: Self.duckdb!) { config, client, log in
        let (_, engine, _) = Self.both(["--config", config, "--views", "--ascii"], engine: "duckdb", client: client)
        #expect(engine.status == .matched, "\(engine.stderr)")
        #expect(engine.text.hasPrefix(" GRN List (330) | Big receipts (16) | Dispatch List (19) | Order List (147)"), "\(engine.text)")
        #expect(Self.runs(log) == 1)
      }
    }
  }

  /// `--sql DIALECT --views`: each view's count statement under a comment naming the view; run
  /// in DuckDB, each gives the view's badge.
  @Test(.enabled(if: duckdb != nil, "duckdb is not installed"))
  func sqlViewsGivesEachBadgesCount() throws {
    try Self.withViews(Self.views(withSummary: false), program: Self.duckdb!) { config, _, _ in
      let printed = sift(["--config", config, "--sql", "duckdb", "--views"])
      #expect(printed.status == .matched, "\(printed.stderr)")
      let views = printed.text.split(separator: "\n-- view: ").map { String($0) }
      #expect(views.count == 4)
      var counts: [String] = []
      for view in views {
        let statement = view.drop(while: { $0 != "\n" })
        let result = try runProcess(Self.duckdb!, ["-csv", "-noheader", "-c", String(statement)])
        #expect(result.status == 0, "\(result.stderr)")
        counts.append(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
      }
      #expect(printed.text.hasPrefix("-- view: grn\n"))
      #expect(counts == ["330", "16", "19", "147"])
    }
  }

  /// Two views over `grn.csv`, whose quoted line break makes Spark read it with `multiLine`:
  /// the note is said once, and each view's statement creates the view it reads.
  @Test func sqlSparkViewsSayASourcesNoteOnce() throws {
    try Self.withViews(Self.views(withSummary: false), program: "") { config, _, _ in
      let printed = sift(["--config", config, "--sql", "spark", "--views"])
      #expect(printed.status == .matched, "\(printed.stderr)")
      #expect(printed.stderr == "note: spark reads \(Self.sampleData)grn.csv with multiLine, in one part: "
        + "line 396 holds a line break inside quotes\n")
      #expect(printed.text.components(separatedBy: "CREATE OR REPLACE TEMPORARY VIEW sift_input").count == 5)
    }
  }

  /// Spark: the digest (badges and first records) from one `spark-sql` session, byte for byte.
  @Test(.enabled(if: sparkSQL != nil, "spark-sql is not installed (pip install pyspark)"))
  func sparkDigestIsSiftsOwnInOneSession() throws {
    try Self.withViews(Self.views(withSummary: true), program: Self.sparkSQL!) { config, client, log in
      let (own, engine, text) = Self.both(
        ["--config", config, "--views", "-o", "html", "--now", "2026-11-26"], engine: "spark",
        client: client)
      #expect(engine.status == .matched, "\(engine.stderr)")
      #expect(text == own.text)
      #expect(Self.runs(log) == 1)
    }
  }
}
