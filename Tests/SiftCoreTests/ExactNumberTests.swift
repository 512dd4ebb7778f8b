import Testing

@testable import SiftCore

/// Numbers compare exactly at any length (Docs/QueryLanguage.md, How numbers compare): what a
/// filter, `sort:` and `group:` decide about two numbers, the literal as `--explain` writes it.
@Suite struct ExactNumberTests {
  /// Two numbers as record values write them (`mark` `.point`, grouping allowed) and their order.
  static let orders: [(String, String, Int)] = [
    ("1234567890123456789", "1234567890123456790", -1),
    ("1234567890123456789", "1234567890123456700", 1),
    ("1234567890123456789", "1234567890123456789.0", 0),
    ("1,234,567,890,123,456,789", "1234567890123456789", 0),
    ("001234567890123456789", "1234567890123456789", 0),
    ("-1234567890123456789", "-1234567890123456790", 1),
    ("-1234567890123456789", "1234567890123456789", -1),
    ("123456789012345678.05", "123456789012345678.5", -1),
    ("0.1", "0.10", 0),
    ("0.1000000000000000001", "0.1", 1),
    ("0", "-0.000", 0),
    ("-0.0000000000000000001", "0", -1),
    ("1.5e3", "1500", 0),
    ("1e400", "2e400", -1),
    ("-1e400", "-2e400", 1),
    ("99999999999999999999", "1e20", -1),
    ("12345678901234567890123456789012345678901234567890", "1.2345678901234567890123456789012345678901234567891e49", -1),
    ("7", "12", -1),
    ("12.50", "12.5", 0),
  ]

  @Test(arguments: orders)
  func filterComparesExactly(value: String, literal: String, expected: Int) throws {
    #expect(try Self.order(of: value, against: literal, mark: .point) == expected)
  }

  /// Where a record value stands against a literal, as a filter decides it.
  static func order(of value: String, against literal: String, mark: DecimalMark) throws -> Int? {
    let number = try #require(NumberParser.literal(literal, mark: mark))
    var v = value
    return v.withUTF8 { b -> Int? in
      guard let reading = NumberParser.read(b, mark: mark) else { return nil }
      return number.order(of: reading, b, mark: mark)
    }
  }

  @Test(arguments: orders)
  func sortComparesExactly(a: String, b: String, expected: Int) {
    func key(_ s: String) -> SortValue {
      var t = s
      return t.withUTF8 { SortValue(decoded: $0, mark: .point, .iso) }
    }
    #expect(SortValue.compare(key(a), key(b), descending: false) == expected)
    #expect(SortValue.compare(key(b), key(a), descending: false) == -expected)
    #expect(SortValue.compare(key(a), key(b), descending: true) == -expected)
  }

  /// A decimal comma's grouping and fraction, and a long number in it.
  @Test(arguments: [
    ("1.234.567.890.123.456.789,5", "1234567890123456789.5", 0),
    ("1.234.567.890.123.456.789,5", "1234567890123456789.4", 1),
    ("12,5", "12.5", 0),
  ])
  func decimalCommaValuesCompareExactly(value: String, literal: String, expected: Int) throws {
    #expect(try Self.order(of: value, against: literal, mark: .comma) == expected)
  }

  /// How `--explain` writes a literal: exactly, never rounded.
  @Test(arguments: [
    ("1234567890123456789", "1234567890123456789"),
    ("-0.050", "-0.05"),
    ("0012.50", "12.5"),
    ("1.5e3", "1500"),
    ("1e400", "1e400"),
    ("-1.25e-50", "-1.25e-50"),
    ("0.000", "0"),
    ("123456789012345678901234567890", "123456789012345678901234567890"),
  ])
  func literalIsWrittenExactly(literal: String, written: String) throws {
    #expect(try #require(NumberParser.literal(literal, mark: .point)).description == written)
  }

  /// Where the fast compare of doubles is kept: at most 15 significant digits.
  @Test(arguments: [
    ("123456789012345", true), ("1234567890123456", false), ("0.1", true), ("12.50", true),
    ("1e400", false),
  ])
  func fitsDoubleOnlyUpToFifteenDigits(text: String, fits: Bool) throws {
    #expect(try #require(NumberParser.literal(text, mark: .point)).fitsDouble == fits)
  }
}
