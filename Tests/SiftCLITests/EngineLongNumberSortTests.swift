import Foundation
import SiftCore
import Testing

@testable import SiftCLI

/// Docs/Engines.md, Sorting long numbers: numbers whose doubles tie are ordered by their exact
/// value through `--engine duckdb`, as sift orders them, or the statement stops naming one it
/// cannot order exactly; never a silently different order.
@Suite struct EngineLongNumberSortTests {
  /// Values whose doubles tie in pairs and triples: 18- to 27-digit IDs, decimals past the 15th
  /// digit, a short value equal to a long one, negative ones, an exponent form beside its plain
  /// twin, zeros written several ways.
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

    """

  @Test(
    .enabled(if: SQLDifferentialTests.duckdb != nil, "duckdb is not installed"),
    arguments: ["sort:v", "sort:-v", "sort:-v limit:5", "min:v max:v", "group:v", "group:id sort:-v"])
  func numbersThatTieAsDoublesSortAsSiftSortsThem(query: String) throws {
    let (own, engine) = try EngineExactSumTests.both(query, csv: Self.tying)
    #expect(own.status == .matched, "\(own.stderr)")
    #expect(engine.text == own.text, "\(engine.stderr)")
  }

  /// What neither the double nor `DECIMAL(38, 10)` holds apart: a long number with an
  /// exponent, one of 28 digits, one past 10 decimals, one beyond a double's range.
  @Test(
    .enabled(if: SQLDifferentialTests.duckdb != nil, "duckdb is not installed"),
    arguments: ["1.23456789012345678e18", "1234567890123456789012345678", "0.12345678901234567891",
      "1e400", "1e-400"])
  func aNumberTheSQLCannotOrderExactlyIsRefusedByName(value: String) throws {
    let (_, engine) = try EngineExactSumTests.both("sort:v", csv: "v\n\(value)\n1\n")
    #expect(engine.status == .error)
    #expect(engine.stderr.contains("cannot sort \(value) exactly"), "\(engine.stderr)")
    #expect(engine.text.isEmpty)
  }

  /// A number of at most 15 significant digits never needs the exact key: long texts of few
  /// digits sort without an error.
  @Test(.enabled(if: SQLDifferentialTests.duckdb != nil, "duckdb is not installed"))
  func longTextsOfFewDigitsAreNotRefused() throws {
    let csv = "v\n0.0000000000000000000001\n1000000000000000000000000000000\n5\n1.50000000000000000000\n"
    let (own, engine) = try EngineExactSumTests.both("sort:-v", csv: csv)
    #expect(engine.status == .matched, "\(engine.stderr)")
    #expect(engine.text == own.text)
  }
}
