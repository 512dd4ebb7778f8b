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
    return ParsedDate(
      time: dayStart + micros - offset + convention.zone, precision: .instant, offset: offset,
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

/// Which way round a numeric date that is not year-first is written (Docs/Formats.md, Dates).
public enum DateOrder: String, Sendable, CaseIterable {
  /// Only year-first dates are numeric dates (`2026-11-25`); `25.11.2026` is text.
  case ymd
  /// Day first: `25.11.2026`, `25/11/2026`, `25-11-26`.
  case dmy
  /// Month first: `11/25/2026`.
  case mdy

  /// In words, for notes: `day-first`.
  public var words: String {
    switch self {
    case .ymd: return "year-first"
    case .dmy: return "day-first"
    case .mdy: return "month-first"
    }
  }
}

/// How a field's dates are read (Docs/Formats.md, Dates): the order of its numeric dates and
/// the zone whose wall clock a value with an offset is moved onto.
public struct DateConvention: Hashable, Sendable {
  public var order: DateOrder
  /// The `--tz` zone's offset east of UTC, in microseconds.
  public var zone: WallTime
  /// Whether some sampled value of the field has an offset other than the zone's, so reading
  /// it as an instant moves it (the SQL, which keeps the wall time as written, refuses then).
  public var movesInstants: Bool
  /// Whether some sampled date of the field is not in ISO 8601's calendar form (`25.11.2026`,
  /// `25 Nov 2026`, `2026-W48-3`), which the SQL does not read.
  public var otherStyles: Bool

  public init(
    order: DateOrder, zone: WallTime = 0, movesInstants: Bool = false, otherStyles: Bool = false
  ) {
    self.order = order
    self.zone = zone
    self.movesInstants = movesInstants
    self.otherStyles = otherStyles
  }

  /// ISO dates only, offsets moved to UTC.
  public static let iso = DateConvention(order: .ymd)
}

/// A cursor over a date's bytes, spaces around it already trimmed.
struct DateCursor {
  let bytes: UnsafeBufferPointer<UInt8>
  var i = 0
  var end: Int
  /// Still ISO 8601's calendar form, as far as read.
  var iso = true

  init(_ bytes: UnsafeBufferPointer<UInt8>) {
    self.bytes = bytes
    end = bytes.count
    while i < end, bytes[i] == .space { i += 1 }
    while end > i, bytes[end - 1] == .space { end -= 1 }
  }

  /// Exactly `n` digits.
  mutating func digits(_ n: Int) -> Int? {
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

  /// One to `most` digits.
  mutating func number(upTo most: Int) -> Int? {
    var v = 0
    var n = 0
    while i < end, n < most, bytes[i].isDigit {
      v = v * 10 + Int(bytes[i] &- .digitZero)
      i += 1
      n += 1
    }
    return n > 0 ? v : nil
  }

  /// A year of four digits, or of two (`26` is 2026, `69` is 1969: Docs/Formats.md, Dates).
  mutating func year() -> Int? {
    let start = i
    guard let y = number(upTo: 4) else { return nil }
    switch i - start {
    case 4: return y
    case 2: return y < 69 ? 2000 + y : 1900 + y
    default: return nil
    }
  }

  /// The day number of a valid civil date.
  func day(_ year: Int, _ month: Int, _ day: Int) -> Int? {
    guard month >= 1, month <= 12, day >= 1, day <= Calendar.daysInMonth(year: year, month: month)
    else { return nil }
    return Calendar.days(year: year, month: month, day: day)
  }

  /// A year-first date at a run of four digits: `YYYY-MM-DD`, `YYYY/MM/DD`, `YYYY.MM.DD`, the ISO
  /// week date `YYYY-Www-D`, and with `partial` `YYYY`, `YYYY-MM` and `YYYY-Www`.
  mutating func isoDay(partial: Bool) -> (Int, DatePrecision)? {
    guard let year = digits(4) else { return nil }
    if i == end {
      guard partial else { return nil }
      return (Calendar.days(year: year, month: 1, day: 1), .year)
    }
    let separator = bytes[i]
    guard separator == .minus || separator == .slash || separator == .dot else { return nil }
    i += 1
    if separator == .dot { iso = false }
    if separator == .minus, i < end, bytes[i] == .upperW {
      iso = false
      return isoWeek(year, partial: partial)
    }
    guard let month = digits(2), month >= 1, month <= 12 else { return nil }
    if i == end {
      guard partial, separator == .minus else { return nil }
      return (Calendar.days(year: year, month: month, day: 1), .month)
    }
    guard bytes[i] == separator else { return nil }
    i += 1
    guard let d = digits(2), let day = day(year, month, d) else { return nil }
    return (day, .day)
  }

  /// The rest of an ISO week date after `YYYY-`: `Www-D`, or `Www` (a week) with `partial`.
  private mutating func isoWeek(_ year: Int, partial: Bool) -> (Int, DatePrecision)? {
    i += 1
    guard let week = digits(2), week >= 1 else { return nil }
    // Week 1 holds the year's first Thursday; its Monday is the first day of the week year.
    let jan4 = Calendar.days(year: year, month: 1, day: 4)
    let monday = jan4 - Calendar.weekday(ofDays: jan4) + (week - 1) * 7
    let nextJan4 = Calendar.days(year: year + 1, month: 1, day: 4)
    guard monday < nextJan4 - Calendar.weekday(ofDays: nextJan4) else { return nil }
    if i == end { return partial ? (monday, .week) : nil }
    guard bytes[i] == .minus else { return nil }
    i += 1
    guard let weekday = digits(1), weekday >= 1, weekday <= 7 else { return nil }
    return (monday + weekday - 1, .day)
  }

  /// A date that starts with one or two digits: numeric in `order` (`25.11.2026`, `11/25/26`),
  /// or day then month name (`25 Nov 2026`, `25-Nov-26`).
  mutating func dayFirstOrNumeric(_ order: DateOrder) -> Int? {
    if let day = fixedWidthNumeric(order) { return day }
    guard let a = number(upTo: 2), i < end else { return nil }
    let separator = bytes[i]
    guard separator == .dot || separator == .slash || separator == .minus || separator == .space
    else { return nil }
    i += 1
    if i < end, bytes[i].isASCIILetter {
      guard let month = monthName(), i < end, bytes[i] == separator else { return nil }
      i += 1
      guard let y = year() else { return nil }
      return day(y, month, a)
    }
    guard separator != .space, let b = number(upTo: 2), i < end, bytes[i] == separator else {
      return nil
    }
    i += 1
    guard let y = year() else { return nil }
    switch order {
    case .ymd: return nil
    case .dmy: return day(y, b, a)
    case .mdy: return day(y, a, b)
    }
  }

  /// The shape most exports write, `25.11.2026` or `11/25/2026` (two-digit day and month, a
  /// four-digit year), read without loops: a day-first file costs what an ISO one does
  /// (Docs/Performance.md, Dates in other styles). `nil` for any other shape.
  @inline(__always)
  mutating func fixedWidthNumeric(_ order: DateOrder) -> Int? {
    guard order != .ymd, end - i >= 10 else { return nil }
    let s = bytes[i + 2]
    guard s == .dot || s == .slash || s == .minus, bytes[i + 5] == s,
      end - i == 10 || bytes[i + 10] == .space || bytes[i + 10] == .upperT
    else { return nil }
    @inline(__always) func digit(_ k: Int) -> Int { Int(bytes[i + k] &- .digitZero) }
    let parts = (digit(0), digit(1), digit(3), digit(4), digit(6), digit(7), digit(8), digit(9))
    guard parts.0 < 10, parts.1 < 10, parts.2 < 10, parts.3 < 10, parts.4 < 10, parts.5 < 10,
      parts.6 < 10, parts.7 < 10
    else { return nil }
    let a = parts.0 * 10 + parts.1
    let b = parts.2 * 10 + parts.3
    let year = parts.4 * 1000 + parts.5 * 100 + parts.6 * 10 + parts.7
    i += 10
    return order == .dmy ? day(year, b, a) : day(year, a, b)
  }

  /// A date that starts with a month name: `Nov 25, 2026`, `November 25 2026`.
  mutating func monthNameFirst() -> Int? {
    guard let month = monthName(), i < end, bytes[i] == .space else { return nil }
    i += 1
    guard let d = number(upTo: 2) else { return nil }
    if i < end, bytes[i] == .comma { i += 1 }
    guard i < end, bytes[i] == .space else { return nil }
    i += 1
    guard let y = year() else { return nil }
    return day(y, month, d)
  }

  /// An English month name, abbreviated to three letters (`Sept` too) or whole, any case.
  mutating func monthName() -> Int? {
    let start = i
    while i < end, bytes[i].isASCIILetter { i += 1 }
    let length = i - start
    guard length >= 3 else { return nil }
    var key: UInt32 = 0
    for k in start..<(start + 3) { key = key << 8 | UInt32(bytes[k] | 0x20) }
    guard let month = DateCursor.monthKeys.firstIndex(of: key) else { return nil }
    if length == 3 { return month + 1 }
    let name = DateCursor.monthNames[month]
    guard length == name.count || (month == 8 && length == 4) else { return nil }
    for k in 3..<length where bytes[start + k] | 0x20 != name[k] { return nil }
    return month + 1
  }

  static let monthNames: [[UInt8]] = [
    "january", "february", "march", "april", "may", "june", "july", "august", "september",
    "october", "november", "december",
  ].map { Array($0.utf8) }
  static let monthKeys: [UInt32] = monthNames.map {
    UInt32($0[0]) << 16 | UInt32($0[1]) << 8 | UInt32($0[2])
  }

  /// The time after a date: `T`, a space or `, ` then `HH:MM[:SS[.fff]]`, an optional ` AM`/`PM`
  /// and an optional `Z` or `±HH[:]MM`, to the end. Microseconds into the day and the offset
  /// in microseconds, `nil` when none was written.
  mutating func timeOfDay() -> (WallTime, WallTime?)? {
    if bytes[i] == .comma {
      i += 1
      iso = false
    }
    guard i < end, bytes[i] == .upperT || bytes[i] == .space || bytes[i] == .lowerT else {
      return nil
    }
    i += 1
    let hourStart = i
    guard var hour = number(upTo: 2), hour <= 23, i < end, bytes[i] == .colon else { return nil }
    if i - hourStart != 2 { iso = false }
    i += 1
    guard let minute = digits(2), minute <= 59 else { return nil }
    var micros = WallTime(minute * 60) * 1_000_000
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
    if i + 3 <= end, bytes[i] == .space {
      let a = bytes[i + 1] | 0x20
      if a == UInt8(ascii: "a") || a == UInt8(ascii: "p"), bytes[i + 2] | 0x20 == UInt8(ascii: "m") {
        guard hour >= 1, hour <= 12 else { return nil }
        hour = hour % 12 + (a == UInt8(ascii: "p") ? 12 : 0)
        i += 3
        iso = false
      }
    }
    micros += WallTime(hour * 3600) * 1_000_000
    guard i < end else { return (micros, nil) }
    if bytes[i] == .space, i + 1 < end {
      i += 1
      iso = false
    }
    var offset: WallTime = 0
    if bytes[i] == .upperZ || bytes[i] == .lowerZ {
      i += 1
    } else if bytes[i] == .plus || bytes[i] == .minus {
      let sign: WallTime = bytes[i] == .minus ? -1 : 1
      i += 1
      guard let oh = digits(2), oh <= 23 else { return nil }
      if i < end && bytes[i] == .colon { i += 1 }
      guard let om = digits(2), om <= 59 else { return nil }
      offset = sign * WallTime(oh * 3600 + om * 60) * 1_000_000
    } else {
      return nil
    }
    guard i == end else { return nil }
    return (micros, offset)
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
