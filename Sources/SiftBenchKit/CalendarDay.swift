/// A date of the proleptic Gregorian calendar, held as the number of days since 1970-01-01.
struct CalendarDay: Comparable, Hashable, Sendable {
  /// Days since 1970-01-01 (negative before).
  var ordinal: Int

  /// The day `ordinal` days after 1970-01-01.
  init(ordinal: Int) { self.ordinal = ordinal }

  /// The day with this year, month (1–12) and day of month (1–31).
  init(year: Int, month: Int, day: Int) {
    // Howard Hinnant's days_from_civil.
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    ordinal = era * 146_097 + dayOfEra - 719_468
  }

  /// Year, month (1–12) and day of month.
  var civil: (year: Int, month: Int, day: Int) {
    // Howard Hinnant's civil_from_days.
    let z = ordinal + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let dayOfEra = z - era * 146_097
    let yearOfEra =
      (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let shiftedMonth = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
    let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
    return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
  }

  /// Day `index` of `count` days spread evenly from `first` through `last`, in order.
  static func spread(
    _ index: Int, of count: Int, from first: CalendarDay, through last: CalendarDay
  )
    -> CalendarDay
  {
    first.adding(days: index * (last.ordinal - first.ordinal + 1) / max(count, 1))
  }

  /// The day `days` later (earlier when negative).
  func adding(days: Int) -> CalendarDay { CalendarDay(ordinal: ordinal + days) }

  static func < (a: CalendarDay, b: CalendarDay) -> Bool { a.ordinal < b.ordinal }
}
