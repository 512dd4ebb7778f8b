/// A point in time as written, without applying any offset (Docs/QueryLanguage.md, Filter terms), in microseconds since
/// 1970-01-01T00:00 of the written wall clock.
public typealias WallTime = Int64

/// A half-open interval of wall time: a day, a month, a week, or (for a date-time) one microsecond.
public struct Period: Hashable, Sendable {
  public var start: WallTime
  public var end: WallTime
  public init(start: WallTime, end: WallTime) {
    self.start = start
    self.end = end
  }
}

/// A date or date-time read from text.
public struct ParsedDate: Hashable, Sendable {
  /// The wall time of the written moment (a date alone is its midnight).
  public var time: WallTime
  /// How much of it was written.
  public var precision: DatePrecision

  /// The interval the text means: the whole year, month or day, or one instant.
  public var period: Period {
    let end: WallTime
    switch precision {
    case .year:
      let (y, _, _) = Calendar.civil(fromDays: Int(time / Calendar.microsPerDay))
      end = WallTime(Calendar.days(year: y + 1, month: 1, day: 1)) * Calendar.microsPerDay
    case .month:
      let (y, m, _) = Calendar.civil(fromDays: Int(time / Calendar.microsPerDay))
      let (ny, nm) = m == 12 ? (y + 1, 1) : (y, m + 1)
      end = WallTime(Calendar.days(year: ny, month: nm, day: 1)) * Calendar.microsPerDay
    case .day: end = time + Calendar.microsPerDay
    case .instant: end = time + 1
    }
    return Period(start: time, end: end)
  }
}

/// How precisely a date was written.
public enum DatePrecision: Int, Sendable, Comparable {
  case year, month, day, instant
  public static func < (a: DatePrecision, b: DatePrecision) -> Bool { a.rawValue < b.rawValue }
}

/// Proleptic Gregorian calendar arithmetic on day numbers (days since 1970-01-01).
public enum Calendar {
  public static let microsPerDay: WallTime = 86_400_000_000

  /// Days since 1970-01-01 of a valid civil date (H. Hinnant's algorithm).
  public static func days(year: Int, month: Int, day: Int) -> Int {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yoe = y - era * 400
    let mp = (month + 9) % 12
    let doy = (153 * mp + 2) / 5 + day - 1
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
    return era * 146_097 + doe - 719_468
  }

  /// The civil date of a day number.
  public static func civil(fromDays z0: Int) -> (year: Int, month: Int, day: Int) {
    let z = z0 + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let doe = z - era * 146_097
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
    let mp = (5 * doy + 2) / 153
    let d = doy - (153 * mp + 2) / 5 + 1
    let m = mp < 10 ? mp + 3 : mp - 9
    return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
  }

  public static func daysInMonth(year: Int, month: Int) -> Int {
    switch month {
    case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
  }

  /// 0 = Monday … 6 = Sunday.
  public static func weekday(ofDays d: Int) -> Int {
    // 1970-01-01 was a Thursday (3).
    ((d + 3) % 7 + 7) % 7
  }
}

/// Reads dates (Docs/QueryLanguage.md, Filter terms): `YYYY-MM-DD`, `YYYY/MM/DD`, optionally followed by `T` or a space and
/// `HH:MM[:SS[.fff]]` and an optional `Z` or `±HH:MM` (kept, not applied). With `partial`, also
/// `YYYY-MM` and `YYYY` (query values).
public enum DateParser {
  /// The date the bytes spell, or `nil`. Surrounding spaces are ignored.
  public static func parse(_ bytes: UnsafeBufferPointer<UInt8>, partial: Bool = false) -> ParsedDate? {
    var i = 0
    var end = bytes.count
    while i < end, bytes[i] == .space { i += 1 }
    while end > i, bytes[end - 1] == .space { end -= 1 }
    // Fast reject: a date starts with four digits.
    guard end - i >= 4 else { return nil }
    func digits(_ n: Int) -> Int? {
      guard i + n <= end else { return nil }
      var v = 0
      for k in i..<(i + n) {
        let b = bytes[k]
        guard b.isDigit else { return nil }
        v = v * 10 + Int(b &- .digitZero)
      }
      i += n
      return v
    }
    guard let year = digits(4) else { return nil }
    if i == end {
      guard partial else { return nil }
      return ParsedDate(
        time: WallTime(Calendar.days(year: year, month: 1, day: 1)) * Calendar.microsPerDay,
        precision: .year)
    }
    let separator = bytes[i]
    guard separator == .minus || separator == .slash else { return nil }
    i += 1
    guard let month = digits(2), month >= 1, month <= 12 else { return nil }
    if i == end {
      guard partial, separator == .minus else { return nil }
      return ParsedDate(
        time: WallTime(Calendar.days(year: year, month: month, day: 1)) * Calendar.microsPerDay,
        precision: .month)
    }
    guard bytes[i] == separator else { return nil }
    i += 1
    guard let day = digits(2), day >= 1, day <= Calendar.daysInMonth(year: year, month: month)
    else { return nil }
    let dayStart = WallTime(Calendar.days(year: year, month: month, day: day)) * Calendar.microsPerDay
    if i == end { return ParsedDate(time: dayStart, precision: .day) }
    guard bytes[i] == .upperT || bytes[i] == .space || bytes[i] == .lowerT else { return nil }
    i += 1
    guard let hour = digits(2), hour <= 23, i < end, bytes[i] == .colon else { return nil }
    i += 1
    guard let minute = digits(2), minute <= 59 else { return nil }
    var micros = WallTime(hour * 3600 + minute * 60) * 1_000_000
    if i < end && bytes[i] == .colon {
      i += 1
      guard let second = digits(2), second <= 60 else { return nil }
      micros += WallTime(second) * 1_000_000
      if i < end && (bytes[i] == .dot || bytes[i] == .comma) {
        i += 1
        var scale: WallTime = 100_000
        var fractionDigits = 0
        while i < end, bytes[i].isDigit {
          micros += WallTime(bytes[i] &- .digitZero) * scale
          scale /= 10
          fractionDigits += 1
          i += 1
        }
        guard fractionDigits > 0 else { return nil }
      }
    }
    if i < end {
      // An offset is allowed but not applied.
      if bytes[i] == .upperZ || bytes[i] == .lowerZ {
        i += 1
      } else if bytes[i] == .plus || bytes[i] == .minus {
        i += 1
        guard let oh = digits(2), oh <= 23 else { return nil }
        if i < end && bytes[i] == .colon { i += 1 }
        guard let om = digits(2), om <= 59 else { return nil }
      }
    }
    guard i == end else { return nil }
    return ParsedDate(time: dayStart + micros, precision: .instant)
  }

  /// The date in a `String` (query literals), partial forms allowed.
  public static func parse(_ text: String, partial: Bool = true) -> ParsedDate? {
    var t = text
    return t.withUTF8 { parse($0, partial: partial) }
  }
}

extension Calendar {
  /// A day (days since 1970-01-01) in ISO 8601: `2024-03-01`.
  static func isoDate(days: WallTime) -> String {
    let (y, m, d) = civil(fromDays: Int(days))
    func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
    return "\(y)-\(two(m))-\(two(d))"
  }

  /// A local wall time in ISO 8601 to the second: `2024-03-01T10:30:00`, or just the day at
  /// midnight unless `alwaysTime`.
  static func isoText(_ t: WallTime, alwaysTime: Bool = false) -> String {
    let days = t >= 0 ? t / microsPerDay : (t - microsPerDay + 1) / microsPerDay
    let rest = t - days * microsPerDay
    guard rest != 0 || alwaysTime else { return isoDate(days: days) }
    let seconds = rest / 1_000_000
    func two(_ v: WallTime) -> String { v < 10 ? "0\(v)" : "\(v)" }
    return isoDate(days: days) + "T" + two(seconds / 3600) + ":" + two(seconds / 60 % 60) + ":"
      + two(seconds % 60)
  }
}
