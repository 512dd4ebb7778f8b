import Foundation
import SiftCore
import Testing

@testable import SiftCLI

/// Docs/Engines.md, Exact sums in DuckDB: `--engine duckdb` writes the sums and means sift's own
/// run writes, byte for byte (decimals past 10 places, values of 10^28 and more, exponents,
/// means rounded half to even), or refuses naming the value DuckDB cannot hold exactly.
@Suite struct EngineExactSumTests {
  static let duckdb = SQLDifferentialTests.duckdb
  static let python3 = executable("python3")

  /// Calls `body` with the path of a temporary CSV file holding `text`, removed after.
  static func withCSV<R>(_ text: String, _ body: (String) throws -> R) throws -> R {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("sift-engine-sums-\(UInt32.random(in: 0...UInt32.max)).csv").path
    try #require(FileManager.default.createFile(atPath: path, contents: Data(text.utf8)))
    defer { try? FileManager.default.removeItem(atPath: path) }
    return try body(path)
  }

  /// Runs `query` over a CSV of `text` through sift itself and through `--engine duckdb`.
  static func both(_ query: String, csv text: String) throws -> (own: SiftResult, engine: SiftResult) {
    try withCSV(text) { path in
      let environment = ["LANG": "C.UTF-8", "TZ": "UTC", "SIFT_DUCKDB": duckdb ?? "duckdb"]
      let own = sift(["-o", "csv", query, path], environment: environment)
      let engine = sift(["--engine", "duckdb", "-o", "csv", query, path], environment: environment)
      return (own, engine)
    }
  }

  /// The three examples of issue 27: decimals past 10 places, values of 10^28 and more, and a
  /// mean that went through a double.
  @Test(.enabled(if: duckdb != nil, "duckdb is not installed"), arguments: [
    ("v\n0.000000000001\n0.000000000002\n", "count,v_sum,v_avg\n2,0.000000000003,0.00000000000150\n"),
    ("v\n1e30\n1\n1e35\n",
     "count,v_sum,v_avg\n3,100001000000000000000000000000000001,33333666666666666666666666666666667.00\n"),
    ("v\n1\n2\n2.5\n0.125\n", "count,v_sum,v_avg\n4,5.625,1.40625\n"),
    ("v\n1.234560e+07\n5E-3\n-2.5e1\n", "count,v_sum,v_avg\n3,12345575.005,4115191.66833\n"),
    ("v\n1e400\n1\n", "count,v_sum,v_avg\n2,inf,inf\n"),
    ("v\n1e308\n1e308\n-1e308\n",
     "count,v_sum,v_avg\n3,1\(String(repeating: "0", count: 308)),3\(String(repeating: "3", count: 307)).33\n"),
  ])
  func theReportedSumsAreSifts(csv: String, expected: String) throws {
    let (own, engine) = try Self.both("sum:v avg:v", csv: csv)
    #expect(own.text == expected)
    #expect(engine.text == own.text, "\(engine.stderr)")
  }

  /// A value DuckDB cannot hold exactly stops the run with an error naming it, never a
  /// different total.
  @Test(.enabled(if: duckdb != nil, "duckdb is not installed"))
  func aValuePast38DecimalsIsRefusedByName() throws {
    let (_, engine) = try Self.both("sum:v", csv: "v\n1\n1.5e-38\n")
    #expect(engine.status == .error)
    #expect(engine.stderr.contains("cannot sum 1.5e-38 exactly"), "\(engine.stderr)")
    #expect(engine.text.isEmpty)
  }

  /// A field named like the exact sum's derived column or one of its lambdas' parameters
  /// would be read where the statement means its own: an error, as for `sift_row`.
  @Test(arguments: ["sift_decimals", "SIFT_AGG", "sift_parts", "sift_quot"])
  func aFieldNamedLikeTheSumsOwnNamesIsAnError(name: String) throws {
    let result = try Self.withCSV("\(name),v\n1,2\n") { sift(["--sql", "duckdb", "sum:v", $0]) }
    #expect(result.status == .error)
    #expect(result.stderr.contains("has a name sift gives a column of its own"), "\(result.stderr)")
  }

  @Test func aFieldNamedNearlyLikeThemIsNot() throws {
    let result = try Self.withCSV("sift_xy,sift_aggs,v\n1,2,3\n") {
      sift(["--sql", "duckdb", "sum:v", $0])
    }
    #expect(result.status == .matched, "\(result.stderr)")
  }

  /// Python writes random values (a fixed seed per case): up to 30 digits before the point and
  /// 20 after, signs, some with an exponent (at most 38 decimals, which DuckDB holds), in ten
  /// groups.
  static let generator = """
    import random, sys
    random.seed(int(sys.argv[1]))
    print('g,v')
    for _ in range(400):
        whole = str(random.randint(0, 10 ** random.randint(1, 30)))
        fraction = ''.join(random.choice('0123456789') for _ in range(random.randint(0, 20)))
        sign = random.choice(['', '-'])
        if random.random() < 0.2:
            digits = len(whole) - 1 + len(fraction)
            exponent = random.randint(max(-15, digits - 38), 15)  # at most 38 decimals
            value = sign + whole[0] + '.' + whole[1:] + fraction + 'e' + str(exponent)
            value = value.replace('.e', 'e')
        else:
            value = sign + whole + ('.' + fraction if fraction else '')
        print('g%d,%s' % (random.randint(0, 9), value))
    """

  @Test(
    .enabled(if: duckdb != nil, "duckdb is not installed"),
    .enabled(if: python3 != nil, "python3 is not installed (it writes the values)"),
    arguments: [1, 2, 3, 4])
  func randomSumsMeansMinimaAndMaximaAreSifts(seed: Int) throws {
    let made = try runProcess(try #require(Self.python3), ["-c", Self.generator, String(seed)])
    try #require(made.status == 0, "\(made.stderr)")
    for query in ["group:g sum:v avg:v min:v max:v", "sum:v avg:v min:v max:v"] {
      let (own, engine) = try Self.both(query, csv: made.stdout)
      #expect(own.status == .matched, "\(own.stderr)")
      #expect(own.text.split(separator: "\n").count > 1)
      #expect(engine.text == own.text, "\(query): \(engine.stderr)")
    }
  }
}
