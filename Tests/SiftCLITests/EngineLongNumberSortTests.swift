import Foundation
import SiftCore
import Testing

@testable import SiftCLI

/// Docs/Engines.md, Sorting long numbers: numbers whose doubles tie are ordered by their exact
/// value through `--engine duckdb`, as sift orders them, or the statement stops naming one it
/// cannot order exactly; never a silently different order.
@Suite struct EngineLongNumberSortTests {
  /// Values whose doubles tie in pairs and triples: 18- to 31-digit IDs, decimals past the 15th
  /// digit, a short value equal to a long one, negative ones, an exponent form beside its plain
  /// twin, zeros written several ways, numbers beyond a double's range.
  static let tying = """
    id,v
    1,1234567890123456789
    2,1234567890123456790
    3,1234567890123456700
    5,123456789012345678901234567
    6,123456789012345678901234566
    7,-1234567890123456789
    8,-1234567890123456788
    9,1234567.8901234567
    10,1234567.8901234566
    11,1500
    12,1.5e3
    13,1500.0000000001
    14,0
    15,0.000
    16,00012345678901234567.5
    17,12345678901234567.25
    18,99999999999999999999999999.5
    19,1e26
    20,1.23456789012345678e18
    21,1234567890123456789012345678901
    22,1234567890123456789012345678902
    25,0.1234567890123456789012
    26,0.1234567890123456789011

    """

  @Test(
    .enabled(if: SQLDifferentialTests.duckdb != nil, "duckdb is not installed"),
    arguments: ["sort:v", "sort:-v", "sort:-v limit:5", "min:v max:v", "group:v", "group:id sort:-v",
      "group:id sum:v sort:-v_sum", "group:id sum:v sort:v_sum"])
  func numbersThatTieAsDoublesSortAsSiftSortsThem(query: String) throws {
    let (own, engine) = try EngineExactSumTests.both(query, csv: Self.tying)
    #expect(own.status == .matched, "\(own.stderr)")
    #expect(engine.text == own.text, "\(engine.stderr)")
  }

  /// What DuckDB's key (units of 10^-38) cannot hold: a number past 38 decimals.
  @Test(
    .enabled(if: SQLDifferentialTests.duckdb != nil, "duckdb is not installed"),
    arguments: ["0.123456789012345678901234567890123456789", "1e-400", "1.5e-39"])
  func aNumberTheSQLCannotOrderExactlyIsRefusedByName(value: String) throws {
    let (_, engine) = try EngineExactSumTests.both("sort:v", csv: "v\n\(value)\n1\n")
    #expect(engine.status == .error)
    #expect(engine.stderr.contains("cannot sort \(value) exactly"), "\(engine.stderr)")
    #expect(engine.text.isEmpty)
  }

  /// Long texts of few digits, and numbers beyond a double's range (`1e400` < `2e400`, which
  /// DuckDB's key holds exactly), sort without an error.
  @Test(.enabled(if: SQLDifferentialTests.duckdb != nil, "duckdb is not installed"))
  func longTextsOfFewDigitsAreNotRefused() throws {
    let csv = "v\n0.0000000000000000000001\n1000000000000000000000000000000\n5\n1.50000000000000000000\n"
      + "2e400\n1e400\n"
    let (own, engine) = try EngineExactSumTests.both("sort:-v", csv: csv)
    #expect(engine.status == .matched, "\(engine.stderr)")
    #expect(engine.text == own.text)
  }
}
