/// How a workbook cell's number becomes text, like a value of any other format (Docs/Formats.md,
/// Workbooks): the shortest decimal that reads back as the same number, without an exponent, or
/// a date serial as `YYYY-MM-DD`, `YYYY-MM-DDTHH:MM:SS` or `HH:MM:SS`.
enum CellText {
  /// The shortest decimal text that reads back as `value`: `3`, `0.1`, `1200000`, `0.00001`.
  static func decimal(_ value: Double) -> String {
    if value == 0 { return "0" }
    let text = value.description
    var negative = false
    var digits: [UInt8] = []
    var point: Int? = nil
    var exponent = 0
    var utf8 = text.utf8[...]
    if utf8.first == .minus {
      negative = true
      utf8 = utf8.dropFirst()
    }
    while let b = utf8.popFirst() {
      if b.isDigit {
        digits.append(b)
      } else if b == .dot {
        point = digits.count
      } else if b == .lowerE || b == .upperE {
        exponent = Int(String(decoding: utf8, as: UTF8.self)) ?? 0
        break
      }
    }
    // value = 0.digits × 10^position
    var position = (point ?? digits.count) + exponent
    while let first = digits.first, first == .digitZero, digits.count > 1 {
      digits.removeFirst()
      position -= 1
    }
    while let last = digits.last, last == .digitZero, digits.count > 1 { digits.removeLast() }
    var out: [UInt8] = negative ? [.minus] : []
    if position <= 0 {
      out.append(contentsOf: [.digitZero, .dot])
      out.append(contentsOf: repeatElement(.digitZero, count: -position))
      out.append(contentsOf: digits)
    } else if position >= digits.count {
      out.append(contentsOf: digits)
      out.append(contentsOf: repeatElement(.digitZero, count: position - digits.count))
    } else {
      out.append(contentsOf: digits[..<position])
      out.append(.dot)
      out.append(contentsOf: digits[position...])
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// What a date serial came to.
  enum Serial: Equatable {
    case text(String)
    /// Serial 60 of the 1900 system: Excel's fictitious 1900-02-29.
    case fictitiousLeapDay
    /// Before the system's first day or after 9999-12-31.
    case outOfRange
  }

  /// The last serial Excel shows as a date (9999-12-31) in the 1900 system.
  static let lastSerial1900 = 2_958_465.0

  /// The text of date serial `serial` in a cell of `format` (`.date` or `.time`), in the 1900
  /// or 1904 date system. A whole day on a date format is a date; a serial under one day in a
  /// time format (or in the 1900 system, whose day 0 is no date) is a time of day.
  static func serial(_ serial: Double, format: CellFormat, date1904: Bool) -> Serial {
    let last = date1904 ? lastSerial1900 - 1462 : lastSerial1900
    guard serial >= 0, serial < last + 1 else { return .outOfRange }
    let seconds = Int((serial * 86_400).rounded())
    let day = seconds / 86_400
    let time = seconds % 86_400
    if !date1904 && day == 60 { return .fictitiousLeapDay }
    if day == 0 && (!date1904 || format == .time) {
      return .text(Calendar.clockText(seconds: WallTime(time)))
    }
    // Days since 1970-01-01: 1900 serial 25569 and 1904 serial 24107 are that day; 1900
    // serials before 60 are a day later than the count says (Excel's 1900-02-29).
    let unixDay = date1904 ? day - 24_107 : (day < 60 ? day - 25_568 : day - 25_569)
    let date = Calendar.isoDate(days: WallTime(unixDay))
    return .text(time == 0 && format == .date ? date : date + "T" + Calendar.clockText(seconds: WallTime(time)))
  }
}
