/// What a value becomes in a workbook cell (Docs/Formats.md, Writing workbooks), decided from its
/// column's type, the column's decimal mark and date convention, and its own text, so that
/// nothing is lost on the way into Excel.
enum XLSXCell: Equatable {
  /// No cell: an empty value, `null` or a missing key.
  case empty
  /// A number cell holding this `xsd:double` text.
  case number(String)
  /// A date or date-time: the serial (1900 system) and the style that shows it.
  case serial(String, XLSXStyle)
  case boolean(Bool)
  /// A text cell; `prefixed` when it starts with `=`, `+`, `-` or `@` (Excel's quote prefix
  /// keeps it text when the cell is edited).
  case text(prefixed: Bool)

  /// Excel keeps 15 significant digits; a number with more is written as text.
  static let significantDigits = 15

  /// The cell for `value` (whose text is `text`) in a column read as `column` says.
  static func make(
    _ value: FieldValue, text: UnsafeBufferPointer<UInt8>, column: ColumnReading
  ) -> XLSXCell {
    if value.form == .missing || value.form == .jsonNull || text.isEmpty { return .empty }
    switch column.type {
    case .number:
      if let number = number(text, mark: column.decimalMark) { return number }
    case .date, .dateTime:
      if let serial = serial(text, convention: column.convention) { return serial }
    case .boolean:
      if value.form == .jsonBool || Switch.reading(text) != nil,
        let word = trueOrFalse(text)
      {
        return .boolean(word)
      }
    case .text, .empty: break
    }
    return .text(prefixed: startsLikeFormula(text))
  }

  /// A number cell, or `nil` for a value Excel cannot hold exactly: not a number written with
  /// `mark` (`1.234,50` under a decimal comma), an ID with a leading zero (`007`), more than 15
  /// significant digits.
  static func number(_ text: UnsafeBufferPointer<UInt8>, mark: DecimalMark = .point) -> XLSXCell? {
    guard let value = NumberParser.parse(text, mark: mark), value.isFinite else { return nil }
    var significant = 0
    var leadingZeros = 0
    var integerDigits = 0
    var seenNonZero = false
    var pendingZeros = 0
    var inFraction = false
    var inExponent = false
    for b in text where !inExponent {
      if b.isDigit {
        if !inFraction {
          integerDigits += 1
          if !seenNonZero && b == .digitZero { leadingZeros += 1 }
        }
        if b != .digitZero || seenNonZero {
          if b == .digitZero && inFraction {
            pendingZeros += 1
          } else {
            significant += pendingZeros + 1
            pendingZeros = 0
          }
          seenNonZero = true
        }
      } else if b == mark.fractionByte {
        inFraction = true
      } else if b == .lowerE || b == .upperE {
        inExponent = true
      }
    }
    if leadingZeros > 0 && integerDigits > 1 { return nil }
    if significant > significantDigits { return nil }
    return .number(shortestText(value))
  }

  /// The shortest text that reads back as `value`, without a `.0` ending (`1200`, `0.1`, `1e+20`).
  static func shortestText(_ value: Double) -> String {
    let text = value.description
    return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
  }

  /// A date or date-time serial in the 1900 system, or `nil` for a value Excel cannot show as one:
  /// not a date in `convention` (`25.11.2026` is one day-first), before 1900-01-01, or with an
  /// offset (`Z`, `+02:00`: Excel has no time zones, so the text is kept).
  static func serial(
    _ text: UnsafeBufferPointer<UInt8>, convention: DateConvention = .iso
  ) -> XLSXCell? {
    guard let date = DateParser.parse(text, convention), !date.hadOffset else { return nil }
    let days = Int(date.time / Calendar.microsPerDay)
    // Serial 1 is 1900-01-01, and Excel counts a 1900-02-29 that never was (serial 60): from
    // 1900-03-01 on, a serial is the days since 1899-12-30.
    let march1900 = Calendar.days(year: 1900, month: 3, day: 1)
    let january1900 = Calendar.days(year: 1900, month: 1, day: 1)
    guard days >= january1900 else { return nil }
    let serialDays = days - Calendar.days(year: 1899, month: 12, day: 30) - (days < march1900 ? 1 : 0)
    let micros = date.time - WallTime(days) * Calendar.microsPerDay
    switch date.precision {
    case .instant:
      let serial = Double(serialDays) + Double(micros) / Double(Calendar.microsPerDay)
      let style: XLSXStyle = micros % 1_000_000 != 0 ? .dateTimeMilliseconds : .dateTime
      return .serial(shortestText(serial), style)
    case .day, .week, .month, .year:
      return .serial(String(serialDays), .date)
    }
  }

  /// `true` or `false` for those words in any case; the other switch spellings (`yes`, `n`, `1`)
  /// stay text, as written.
  private static func trueOrFalse(_ text: UnsafeBufferPointer<UInt8>) -> Bool? {
    let lower = text.map { TextFold.lowerASCII($0) }
    if lower.elementsEqual("true".utf8) { return true }
    if lower.elementsEqual("false".utf8) { return false }
    return nil
  }

  /// Whether text starts as a formula would (`=`, `+`, `-`, `@`).
  private static func startsLikeFormula(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let first = text.first else { return false }
    return first == .equals || first == .plus || first == .minus || first == UInt8(ascii: "@")
  }
}

/// The cell styles of a sift workbook, by their index in `styles.xml`'s `cellXfs`.
enum XLSXStyle: Int, CaseIterable {
  case plain = 0
  case header = 1
  case date = 2
  case dateTime = 3
  case dateTimeMilliseconds = 4
  case quotePrefixed = 5

  /// The column width (in characters) a value in this style takes, for a serial.
  var serialWidth: Int {
    switch self {
    case .date: 10
    case .dateTime: 19
    case .dateTimeMilliseconds: 23
    case .plain, .header, .quotePrefixed: 11
    }
  }
}
