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
  /// The offset written (`Z` is 0), in microseconds east of UTC; `nil` when none was: only a
  /// value with one is an instant.
  public var offset: WallTime? = nil
  public var hadOffset: Bool { offset != nil }
  /// Whether it is written in ISO 8601's calendar form (`-` or `/` between year, month and
  /// day, two-digit hours), which the SQL reads too (Docs/Engines.md).
  public var isISO: Bool = true

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
    case .week: end = time + 7 * Calendar.microsPerDay
    case .day: end = time + Calendar.microsPerDay
    case .instant: end = time + 1
    }
    return Period(start: time, end: end)
  }
}

/// How precisely a date was written.
public enum DatePrecision: Int, Sendable, Comparable {
  case year, month, week, day, instant
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

/// Reads dates (Docs/Formats.md, Dates; Docs/QueryLanguage.md, Filter terms): ISO `YYYY-MM-DD`
/// (also with `/` or `.`), ISO week dates `YYYY-Www-D`, numeric dates in the convention's order
/// (`25.11.2026`, `11/25/2026`, two-digit years too), and dates with English month names
/// (`25 Nov 2026`, `Nov 25, 2026`, `25-Nov-26`); each optionally followed by `T`, a space or
/// `, ` and `HH:MM[:SS[.fff]]` with an optional `AM`/`PM` and an optional `Z` or `±HH:MM`. A
/// written offset makes the value an instant: it is moved onto the wall clock of the
/// convention's zone. With `partial`, also `YYYY-MM`, `YYYY` and `YYYY-Www` (query values).
public enum DateParser {
  /// The date the bytes spell in `convention`, or `nil`. Surrounding spaces are ignored.
  public static func parse(
    _ bytes: UnsafeBufferPointer<UInt8>, _ convention: DateConvention = .iso, partial: Bool = false
  ) -> ParsedDate? {
    var c = DateCursor(bytes)
    // Fast reject: a date starts with a digit or a month name's letter.
    guard c.end - c.i >= 6 || (partial && c.end - c.i >= 4) else { return nil }
    let first = bytes[c.i]
    let day: Int
    var precision = DatePrecision.day
    if first.isDigit, c.i + 4 <= c.end, bytes[c.i + 1].isDigit, bytes[c.i + 2].isDigit,
      bytes[c.i + 3].isDigit
    {
      guard let (d, p) = c.isoDay(partial: partial) else { return nil }
      (day, precision) = (d, p)
      if precision != .day {
        return ParsedDate(time: WallTime(day) * Calendar.microsPerDay, precision: precision)
      }
    } else if first.isDigit {
      guard let d = c.dayFirstOrNumeric(convention.order) else { return nil }
      day = d
      c.iso = false
    } else {
      guard let d = c.monthNameFirst() else { return nil }
      day = d
      c.iso = false
    }
    let dayStart = WallTime(day) * Calendar.microsPerDay
    if c.i == c.end { return ParsedDate(time: dayStart, precision: .day, isISO: c.iso) }
    guard let (micros, offset) = c.timeOfDay() else { return nil }
    guard let offset else {
      return ParsedDate(time: dayStart + micros, precision: .instant, isISO: c.iso)
    }
    let utc = dayStart + micros - offset
    return ParsedDate(
      time: utc + convention.zone.offset(atUTC: utc), precision: .instant, offset: offset,
      isISO: c.iso)
  }

  /// The date in a `String` (query literals), partial forms allowed.
  public static func parse(
    _ text: String, _ convention: DateConvention = .iso, partial: Bool = true
  ) -> ParsedDate? {
    var t = text
    return t.withUTF8 { parse($0, convention, partial: partial) }
  }

  /// The two leading numbers of a numeric date that is not year-first (`25.11.2026` gives 25
  /// and 11) and its separator, for deciding a field's order from its sample; `nil` for any
  /// other text.
  public static func numericParts(_ bytes: UnsafeBufferPointer<UInt8>) -> (Int, Int, UInt8)? {
    var c = DateCursor(bytes)
    guard c.i < c.end, bytes[c.i].isDigit, let a = c.number(upTo: 2), a < 100, c.i < c.end
    else { return nil }
    let s = bytes[c.i]
    guard s == .dot || s == .slash || s == .minus else { return nil }
    c.i += 1
    guard let b = c.number(upTo: 2), c.i < c.end, bytes[c.i] == s else { return nil }
    return (a, b, s)
  }
}

extension Calendar {
  /// A day (days since 1970-01-01) in ISO 8601: `2024-03-01`.
  public static func isoDate(days: WallTime) -> String {
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
    return isoDate(days: days) + "T" + clockText(seconds: rest / 1_000_000)
  }

  /// A time of day in ISO 8601 to the second: `10:30:00`.
  static func clockText(seconds: WallTime) -> String {
    func two(_ v: WallTime) -> String { v < 10 ? "0\(v)" : "\(v)" }
    return two(seconds / 3600) + ":" + two(seconds / 60 % 60) + ":" + two(seconds % 60)
  }
}
