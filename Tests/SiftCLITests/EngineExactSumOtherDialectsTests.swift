import Foundation
import SiftCore
import Testing

@testable import SiftCLI

/// Docs/Engines.md, Exact sums in Spark and ClickHouse: their sums are sift's, byte for byte, or
/// the statement stops naming what it cannot hold; never a rounded or dropped value. ClickHouse
/// runs embedded (`pip install chdb`, Tests/SiftCLITests/Clients/chdb-client.py), Spark through
/// `spark-sql` (`pip install pyspark` and Java; about a minute a run).
@Suite struct EngineExactSumOtherDialectsTests {
  static let python3 = executable("python3")
  static let chdbPresent: Bool = {
    guard let python3 else { return false }
    return (try? runProcess(python3, ["-c", "import chdb"]))?.status == 0
  }()
  static let sparkSQL = executable("spark-sql")
  static let client = FileManager.default.currentDirectoryPath
    + "/Tests/SiftCLITests/Clients/chdb-client.py"

  /// `--sql clickhouse` of `query` over a CSV of `text`, run in chdb, and sift's own CSV.
  static func throughClickHouse(_ query: String, csv text: String) throws -> (own: SiftResult, engine: (status: Int32, stdout: String, stderr: String)) {
    try EngineExactSumTests.withCSV(text) { path in
      let own = sift(["-o", "csv", query, path])
      let statement = sift(["--sql", "clickhouse", query, path])
      try #require(statement.status == .matched, "\(statement.stderr)")
      let engine = try runProcess(
        try #require(python3), [client], input: Array(statement.text.utf8))
      return (own, engine)
    }
  }

  /// ClickHouse writes CSVWithNames with every text quoted; sift's CSV quotes only where needed.
  static func unquoted(_ csv: String) -> String {
    CSVText.rows(csv).map { $0.joined(separator: ",") }.joined(separator: "\n") + "\n"
  }

  /// The three examples of issue 27 and exponents: what `--engine duckdb` is checked on.
  @Test(.enabled(if: chdbPresent, "chdb is not installed (pip install chdb)"), arguments: [
    "v\n0.000000000001\n0.000000000002\n", "v\n1e30\n1\n1e35\n", "v\n1\n2\n2.5\n0.125\n",
    "v\n1.234560e+07\n5E-3\n-2.5e1\n", "v\n-0.5\n0.25\n", "v\n1234567890123456789.5\n1\n",
  ])
  func clickHouseSumsAndMeansAreSifts(csv: String) throws {
    let (own, engine) = try Self.throughClickHouse("sum:v avg:v", csv: csv)
    #expect(engine.status == 0, "\(engine.stderr)")
    #expect(Self.unquoted(engine.stdout) == own.text)
  }

  @Test(
    .enabled(if: chdbPresent, "chdb is not installed (pip install chdb)"),
    arguments: [1, 2, 3])
  func clickHouseRandomSumsAreSifts(seed: Int) throws {
    let made = try runProcess(
      try #require(Self.python3), ["-c", EngineExactSumTests.generator, String(seed)])
    try #require(made.status == 0, "\(made.stderr)")
    let (own, engine) = try Self.throughClickHouse("group:g sum:v", csv: made.stdout)
    #expect(own.text.split(separator: "\n").count > 5)
    #expect(Self.unquoted(engine.stdout) == own.text, "\(engine.stderr)")
  }

  /// A value past 38 decimals or of 10^38 and more, and a sum of 10^38 and more, stop the
  /// statement with an error naming the field (ClickHouse's `throwIf` message is a constant).
  @Test(.enabled(if: chdbPresent, "chdb is not installed (pip install chdb)"), arguments: [
    ("v\n1.5e-39\n1\n", "cannot sum v exactly: a value has more than 38 decimals"),
    ("v\n1e38\n", "cannot sum v exactly: a value has more than 38 decimals or reaches 10^38"),
    ("v\n60000000000000000000000000000000000000\n6e37\n", "cannot sum v exactly: the sum reaches 10^38"),
  ])
  func clickHouseRefusesWhatItCannotHold(csv: String, message: String) throws {
    let (_, engine) = try Self.throughClickHouse("sum:v", csv: csv)
    #expect(engine.status != 0)
    #expect(engine.stderr.contains(message), "\(engine.stderr)")
    #expect(engine.stdout.isEmpty)
  }

  /// `sift --engine spark` with this process's environment (Java, Spark's own variables).
  static func throughSpark(_ query: String, csv text: String) throws -> (own: SiftResult, engine: SiftResult) {
    try EngineExactSumTests.withCSV(text) { path in
      var environment = ProcessInfo.processInfo.environment
      environment["LANG"] = "C.UTF-8"
      environment["TZ"] = "UTC"
      return (sift(["-o", "csv", query, path]),
        sift(["--engine", "spark", "-o", "csv", query, path], environment: environment))
    }
  }

  /// Exponents, values below 10^-6 (which Spark writes with an exponent) and 19-digit ones.
  @Test(.enabled(if: sparkSQL != nil, "spark-sql is not installed (pip install pyspark)"))
  func sparkSumsAreSifts() throws {
    let csv = "g,v\na,0.0000001\na,0.0000002\nb,1.234560e+07\nb,5E-3\nb,-2.5e1\nc,-0.5\nc,0.25\n"
      + "d,1234567890123456789.5\nd,1\n"
    let (own, engine) = try Self.throughSpark("group:g sum:v", csv: csv)
    #expect(own.text == "g,count,v_sum\na,2,0.0000003\nb,3,12345575.005\nc,2,-0.25\nd,2,1234567890123456790.5\n")
    #expect(engine.text == own.text, "\(engine.stderr)")
  }

  /// Means rounded half to even with two decimals more than their numbers, as sift writes
  /// them: ties both ways and below zero, values below 10^-6, exponents, 12 digits before the
  /// point (issue 26 item 3).
  @Test(.enabled(if: sparkSQL != nil, "spark-sql is not installed (pip install pyspark)"))
  func sparkMeansAreSifts() throws {
    let zeros = String(repeating: "0\n", count: 7)
    let csv = "g,v\na,1\na,2\na,2\nb,0.125\nb,0.5\nc,-1.005\nc,-1.005\nc,-1.0051\n"
      + "e,1\n" + zeros.replacing("0\n", with: "e,0\n")
      + "f,3\n" + zeros.replacing("0\n", with: "f,0\n")
      + "g,-1\n" + zeros.replacing("0\n", with: "g,0\n")
      + "h,0.0000001\nh,0.0000002\ni,123456789012.5\ni,1\nj,1.5e3\nj,2E-2\n"
    let (own, engine) = try Self.throughSpark("group:g avg:v", csv: csv)
    #expect(own.text == "g,count,v_avg\na,3,1.67\nb,2,0.31250\nc,3,-1.005033\ne,8,0.12\nf,8,0.38\n"
      + "g,8,-0.12\nh,2,0.000000150\ni,2,61728394506.750\nj,2,750.0100\n")
    #expect(engine.text == own.text, "\(engine.stderr)")
  }

  /// A mean whose sum reaches 10^18 stops the statement, naming the field.
  @Test(.enabled(if: sparkSQL != nil, "spark-sql is not installed (pip install pyspark)"))
  func sparkRefusesAMeanItCannotRoundExactly() throws {
    let (_, engine) = try Self.throughSpark("avg:v", csv: "v\n1e18\n1\n")
    #expect(engine.status == .error)
    #expect(engine.stderr.contains("Spark cannot average v exactly"), "\(engine.stderr)")
  }

  @Test(.enabled(if: sparkSQL != nil, "spark-sql is not installed (pip install pyspark)"))
  func sparkRefusesAValuePast10DecimalsByName() throws {
    let (_, engine) = try Self.throughSpark("sum:v", csv: "v\n0.000000000001\n0.000000000002\n")
    #expect(engine.status == .error)
    #expect(engine.stderr.contains("Spark cannot sum 0.000000000001 exactly"), "\(engine.stderr)")
    // The one-line reason, not the JVM's log lines and stack (EngineClient.reason).
    #expect(!engine.stderr.contains("ERROR Executor") && !engine.stderr.contains("SQLSTATE"), "\(engine.stderr)")
    #expect(engine.text.isEmpty)
  }
}
