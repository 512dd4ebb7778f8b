/// A cursor over a date's bytes for `DateParser` (Docs/Formats.md, Dates), spaces around it
/// already trimmed.
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
    // An index loop, not `firstIndex(of:)`: type inference asks for every sampled word.
    let keys = DateCursor.monthKeys
    var found: Int? = nil
    for m in 0..<keys.count where keys[m] == key {
      found = m
      break
    }
    guard let month = found else { return nil }
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
