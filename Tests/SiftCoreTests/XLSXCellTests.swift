import Testing

@testable import SiftCore

/// Docs/Formats.md, Writing workbooks: what each value becomes in a cell.
@Suite struct XLSXCellTests {
  static let cases: [(String, ColumnType, XLSXCell)] = [
    ("12", .number, .number("12")),
    ("12.50", .number, .number("12.5")),
    ("-3.5", .number, .number("-3.5")),
    ("0.1", .number, .number("0.1")),
    ("1,234.50", .number, .number("1234.5")),
    ("0", .number, .number("0")),
    ("0.05", .number, .number("0.05")),
    ("007", .number, .text(prefixed: false)),
    ("123456789012345", .number, .number("123456789012345")),
    ("1234567890123456", .number, .text(prefixed: false)),
    ("0.1234567890123456", .number, .text(prefixed: false)),
    ("12.500000000000000000", .number, .number("12.5")),
    ("n/a", .number, .text(prefixed: false)),
    ("-", .number, .text(prefixed: true)),
    ("2024-06-12", .date, .serial("45455", .date)),
    ("1900-01-01", .date, .serial("1", .date)),
    ("1900-02-28", .date, .serial("59", .date)),
    ("1900-03-01", .date, .serial("61", .date)),
    ("1899-12-31", .date, .text(prefixed: false)),
    ("2024-06-12T12:00:00", .dateTime, .serial("45455.5", .dateTime)),
    ("2024-06-12 06:00", .dateTime, .serial("45455.25", .dateTime)),
    ("2024-06-12T00:00:00.500", .dateTime, .serial(XLSXCell.shortestText(45455 + 0.5 / 86400), .dateTimeMilliseconds)),
    ("2024-06-12T09:01:10+02:00", .dateTime, .text(prefixed: false)),
    ("2024-06-12T09:01:10Z", .dateTime, .text(prefixed: false)),
    ("2024-06-12", .dateTime, .serial("45455", .date)),
    ("true", .boolean, .boolean(true)),
    ("FALSE", .boolean, .boolean(false)),
    ("yes", .boolean, .text(prefixed: false)),
    ("12", .text, .text(prefixed: false)),
    ("=SUM(A1:A9)", .text, .text(prefixed: true)),
    ("+44 20 7946 0000", .text, .text(prefixed: true)),
    ("-5 units", .text, .text(prefixed: true)),
    ("@home", .text, .text(prefixed: true)),
    ("", .number, .empty),
  ]

  @Test(arguments: cases)
  func cellOfValue(_ text: String, _ type: ColumnType, _ expected: XLSXCell) {
    let bytes = Array(text.utf8)
    let cell = bytes.withUnsafeBufferPointer { b in
      XLSXCell.make(FieldValue(raw: b, form: .plain), text: b, column: ColumnReading(type: type))
    }
    #expect(cell == expected)
  }

  static let comma = DecimalMark.comma
  static let dayFirst = DateConvention(order: .dmy)
  /// Numbers and dates read in the column's own convention; what it cannot read stays text.
  static let conventionCases: [(String, ColumnReading, XLSXCell)] = [
    ("1.234,50", ColumnReading(type: .number, decimalMark: comma), .number("1234.5")),
    ("1.200", ColumnReading(type: .number, decimalMark: comma), .number("1200")),
    ("12,5", ColumnReading(type: .number, decimalMark: comma), .number("12.5")),
    ("-0,50", ColumnReading(type: .number, decimalMark: comma), .number("-0.5")),
    ("2.000,00", ColumnReading(type: .number, decimalMark: comma), .number("2000")),
    ("0,1234567890123456", ColumnReading(type: .number, decimalMark: comma), .text(prefixed: false)),
    ("007", ColumnReading(type: .number, decimalMark: comma), .text(prefixed: false)),
    ("7.5", ColumnReading(type: .number, decimalMark: comma), .text(prefixed: false)),
    ("1,234.50", ColumnReading(type: .number, decimalMark: comma), .text(prefixed: false)),
    ("1.234,50", ColumnReading(type: .number), .text(prefixed: false)),
    ("25.11.2026", ColumnReading(type: .date, convention: dayFirst), .serial("46351", .date)),
    ("01.02.2026", ColumnReading(type: .date, convention: dayFirst), .serial("46054", .date)),
    ("25.11.2026 14:03", ColumnReading(type: .dateTime, convention: dayFirst),
     .serial(XLSXCell.shortestText(46351 + (14 * 60 + 3) / 1440.0), .dateTime)),
    ("25.11.2026 14:03+02:00", ColumnReading(type: .dateTime, convention: dayFirst), .text(prefixed: false)),
    ("2026-11-25", ColumnReading(type: .date, convention: dayFirst), .serial("46351", .date)),
    ("11/25/2026", ColumnReading(type: .date, convention: DateConvention(order: .mdy)), .serial("46351", .date)),
    ("25.11.2026", ColumnReading(type: .date), .text(prefixed: false)),
  ]

  @Test(arguments: conventionCases)
  func cellInColumnConvention(_ text: String, _ column: ColumnReading, _ expected: XLSXCell) {
    let bytes = Array(text.utf8)
    let cell = bytes.withUnsafeBufferPointer { b in
      XLSXCell.make(FieldValue(raw: b, form: .plain), text: b, column: column)
    }
    #expect(cell == expected)
  }

  @Test func jsonValues() {
    for (raw, form, expected) in [
      ("true", ValueForm.jsonBool, XLSXCell.boolean(true)), ("null", .jsonNull, .empty),
    ] {
      let bytes = Array(raw.utf8)
      let cell = bytes.withUnsafeBufferPointer { b in
        XLSXCell.make(FieldValue(raw: b, form: form), text: b, column: ColumnReading(type: .boolean))
      }
      #expect(cell == expected)
    }
  }

  @Test(arguments: [
    ("a&b<c>d", false, "a&amp;b&lt;c&gt;d"),
    ("say \"hi\" it's", true, "say &quot;hi&quot; it&apos;s"),
    ("say \"hi\"", false, "say \"hi\""),
    ("tab\there\nline", false, "tab\there\nline"),
    ("crlf\r\n", false, "crlf&#13;\n"),
    ("bell\u{7}nul\u{0}", false, "bell_x0007_nul_x0000_"),
    ("_x0041_ and _x41_", false, "_x005F_x0041_ and _x41_"),
    ("Müller 東京", false, "Müller 東京"),
    ("\u{FFFE}", false, "_xFFFE_"),
  ])
  func xmlText(_ text: String, _ attribute: Bool, _ expected: String) {
    var out: [UInt8] = []
    XLSXText.append(text, attribute: attribute, to: &out)
    #expect(String(decoding: out, as: UTF8.self) == expected)
  }

  @Test func illFormedUTF8BecomesTheReplacementCharacter() {
    var out: [UInt8] = []
    [UInt8(ascii: "a"), 0xFF, UInt8(ascii: "b")].withUnsafeBufferPointer {
      XLSXText.append($0, to: &out)
    }
    #expect(String(decoding: out, as: UTF8.self) == "a\u{FFFD}b")
  }

  @Test(arguments: [
    (["GRN List"], ["GRN List"]),
    (["a/b:c*d?e[f]g\\h"], ["a_b_c_d_e_f_g_h"]),
    (["'quoted'"], ["quoted"]),
    ([""], ["Sheet"]),
    (["history"], ["history_"]),
    (["Orders", "orders", "ORDERS"], ["Orders", "orders (2)", "ORDERS (3)"]),
    (["A very long view title that goes on and on"], ["A very long view title that goe"]),
    (["GRN List: pending/held [WH-01] — too long", "GRN List: pending/held [WH-01]"], ["GRN List_ pending_held _WH-01_", "GRN List_ pending_held _WH- (2)"]),
    (
      ["A very long view title that goes on", "A very long view title that goes on"],
      ["A very long view title that goe", "A very long view title that (2)"]
    ),
  ])
  func sheetNames(_ names: [String], _ expected: [String]) {
    #expect(SheetName.make(names) == expected)
    #expect(SheetName.make(names).allSatisfy { $0.utf16.count <= 31 })
  }

  @Test(arguments: [(0, "A"), (25, "Z"), (26, "AA"), (701, "ZZ"), (702, "AAA"), (16383, "XFD")])
  func columnNames(_ index: Int, _ name: String) {
    #expect(XLSXWriter.columnName(index) == name)
  }
}
