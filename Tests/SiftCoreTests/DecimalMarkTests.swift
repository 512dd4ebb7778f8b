import Testing

@testable import SiftCore

/// Docs/Formats.md, Decimal commas: numbers read under each decimal mark, the file's mark
/// decided from its sample, and query literals read the inputs' way first.
@Suite struct DecimalMarkTests {
  static func parse(_ text: String, _ mark: DecimalMark) -> Double? {
    Array(text.utf8).withUnsafeBufferPointer { NumberParser.parse($0, mark: mark) }
  }

  /// (text, as a point file reads it, as a decimal-comma file reads it)
  static let values: [(String, Double?, Double?)] = [
    ("12,5", nil, 12.5),
    ("1.234,50", nil, 1234.5),
    ("-0,50", nil, -0.5),
    ("1.200", 1.2, 1200),
    ("1,200", 1200, 1.2),
    ("12.5", 12.5, nil),
    ("1,234.50", 1234.5, nil),
    ("1.234.567,891", nil, 1_234_567.891),
    ("1.234.567", nil, 1_234_567),
    ("3", 3, 3),
    (" 7 ", 7, 7),
    ("-1.000.000,25", nil, -1_000_000.25),
    ("12,", nil, nil),
    ("12.", nil, nil),
    ("1.23,4", nil, nil),
    ("25.11.2026", nil, nil),
    ("1,5e3", nil, 1500),
    ("1.5e3", 1500, nil),
    ("n/a", nil, nil),
  ]

  @Test(arguments: values)
  func numberParserReadsEachMark(_ text: String, point: Double?, comma: Double?) {
    #expect(Self.parse(text, .point) == point, "\(text) under '.'")
    #expect(Self.parse(text, .comma) == comma, "\(text) under ','")
  }

  /// Exact decimals (sums and means) read the same numbers, keeping their scale.
  @Test(arguments: [
    ("1.234,50", DecimalMark.comma, Int128(123450), 2),
    ("-0,50", .comma, -50, 2),
    ("1.200", .comma, 1200, 0),
    ("1,234.50", .point, 123450, 2),
    ("1.200", .point, 1200, 3),
  ])
  func exactDecimalReadsEachMark(_ text: String, _ mark: DecimalMark, units: Int128, scale: Int) throws {
    let d = try #require(Array(text.utf8).withUnsafeBufferPointer { ExactDecimal($0, mark: mark) })
    #expect(d.units == units && d.scale == scale)
  }

  @Test(arguments: [("12,50", DecimalMark.comma, Int64(1250), 2), ("12.50", .point, 1250, 2)])
  func plainUnitsReadEachMark(_ text: String, _ mark: DecimalMark, units: Int64, scale: Int) throws {
    let plain = try #require(
      Array(text.utf8).withUnsafeBufferPointer { ExactDecimal.plainUnits($0, mark: mark) })
    #expect(plain.units == units && plain.scale == scale)
    let other: DecimalMark = mark == .comma ? .point : .comma
    #expect(Array(text.utf8).withUnsafeBufferPointer { ExactDecimal.plainUnits($0, mark: other) } == nil)
  }

  /// (file, delimiter, the mark decided, whether a note says so)
  static let files: [(String, UInt8, DecimalMark, Bool)] = [
    ("Beleg;Menge\nB1;1.200\nB2;12,5\n", UInt8(ascii: ";"), .comma, true),
    ("Beleg;Betrag\nB1;1.234,50\nB2;-0,50\n", UInt8(ascii: ";"), .comma, true),
    ("a\tb\nx\t3,25\n", .tab, .comma, true),
    ("a;b\nx;12.5\ny;3\n", UInt8(ascii: ";"), .point, false),
    ("a;b\nx;1.200\ny;2.500\n", UInt8(ascii: ";"), .point, true),
    ("a;b\nx;12,5\ny;7.5\n", UInt8(ascii: ";"), .point, true),
    ("a;b\nx;12,5\ny;7.5\nz;0,25\n", UInt8(ascii: ";"), .comma, true),
    ("a;b\nx;25.11.2026\ny;3\n", UInt8(ascii: ";"), .point, false),
    ("a;b\nx;\"12,5\"\n", UInt8(ascii: ";"), .comma, true),
    ("a,b\nx,\"12,5\"\n", UInt8(ascii: ","), .point, false),
    // A header that looks like a number does not vote.
    ("1,5;b\nx;12.5\n", UInt8(ascii: ";"), .point, false),
  ]

  @Test(arguments: files)
  func sampleDecidesTheMark(_ text: String, _ delimiter: UInt8, _ mark: DecimalMark, _ noted: Bool) {
    let decision = DecimalMarkSniffer.decide(Array(text.utf8), delimiter: delimiter, header: true)
    #expect(decision.mark == mark)
    #expect((decision.note(name: "f.csv") != nil) == noted)
  }

  /// (literal, inputs' mark, number)
  @Test(arguments: [
    ("1000.5", DecimalMark.point, 1000.5), ("1000.5", .comma, 1000.5), ("1.000", .point, 1.0),
    ("1.000", .comma, 1000), ("12.5", .comma, 12.5), ("1.000,5", .comma, 1000.5),
    ("12,5", .comma, 12.5), ("-3", .comma, -3),
  ])
  func queryLiteralsReadTheInputsWayFirst(_ literal: String, _ mark: DecimalMark, _ n: Double) {
    #expect(NumberParser.parseLiteral(literal, mark: mark) == n)
  }
}
