/// A wall-clock date and time without a time zone, held as seconds since
/// 1970-01-01T00:00:00 (moments before 1970 are not needed here).
struct LocalDateTime: Comparable, Hashable, Sendable {
  /// Seconds since 1970-01-01T00:00:00.
  var seconds: Int

  /// The moment `seconds` after 1970-01-01T00:00:00.
  init(seconds: Int) { self.seconds = seconds }

  /// The given time of day on `day`.
  init(day: CalendarDay, hour: Int, minute: Int, second: Int = 0) {
    seconds = day.ordinal * 86_400 + hour * 3600 + minute * 60 + second
  }

  /// The calendar day of this moment.
  var day: CalendarDay { CalendarDay(ordinal: seconds / 86_400) }

  /// Seconds since midnight.
  var secondOfDay: Int { seconds - day.ordinal * 86_400 }

  /// The moment `seconds` later.
  func adding(seconds delta: Int) -> LocalDateTime { LocalDateTime(seconds: seconds + delta) }

  static func < (a: LocalDateTime, b: LocalDateTime) -> Bool { a.seconds < b.seconds }
}
