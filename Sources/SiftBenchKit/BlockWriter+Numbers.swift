extension BlockWriter {
  /// Appends a non-negative integer in decimal, zero-padded to at least `minimumDigits`.
  @inline(__always)
  func appendDecimal(_ value: Int, minimumDigits: Int = 1) {
    var digits = 1
    var rest = value
    while rest >= 10 {
      rest /= 10
      digits += 1
    }
    digits = max(digits, minimumDigits)
    let p = reserve(digits)
    rest = value
    for i in stride(from: digits - 1, through: 0, by: -1) {
      p[i] = .zero &+ UInt8(truncatingIfNeeded: rest % 10)
      rest /= 10
    }
    count += digits
  }

  /// Appends an amount of money given in cents: `1234.50`, or `1,234.50` with `grouped`, or
  /// `1234.5` / `1234` with `trimmed` (the shortest text, as JSON serializers write it).
  @inline(__always)
  func appendCents(_ cents: Int, grouped: Bool = false, trimmed: Bool = false) {
    let units = cents / 100
    let fraction = cents % 100
    if grouped && units >= 1000 {
      appendGrouped(units)
    } else {
      appendDecimal(units)
    }
    if !trimmed {
      append(.dot)
      appendDecimal(fraction, minimumDigits: 2)
    } else if fraction != 0 {
      append(.dot)
      if fraction % 10 == 0 {
        appendDecimal(fraction / 10)
      } else {
        appendDecimal(fraction, minimumDigits: 2)
      }
    }
  }

  /// Appends a non-negative integer with a comma between groups of three digits.
  private func appendGrouped(_ value: Int) {
    if value >= 1000 {
      appendGrouped(value / 1000)
      append(.comma)
      appendDecimal(value % 1000, minimumDigits: 3)
    } else {
      appendDecimal(value)
    }
  }

  /// Appends a date as `YYYY-MM-DD`.
  @inline(__always)
  func appendDate(_ day: CalendarDay) {
    let (year, month, dayOfMonth) = day.civil
    appendDecimal(year, minimumDigits: 4)
    append(.hyphen)
    appendDecimal(month, minimumDigits: 2)
    append(.hyphen)
    appendDecimal(dayOfMonth, minimumDigits: 2)
  }

  /// Appends a date-time as `YYYY-MM-DDTHH:MM:SS`; `separator` replaces the `T` and
  /// `withSeconds: false` drops `:SS`.
  @inline(__always)
  func appendDateTime(
    _ moment: LocalDateTime, separator: UInt8 = .letterT, withSeconds: Bool = true
  ) {
    appendDate(moment.day)
    append(separator)
    let second = moment.secondOfDay
    appendDecimal(second / 3600, minimumDigits: 2)
    append(.colon)
    appendDecimal(second / 60 % 60, minimumDigits: 2)
    if withSeconds {
      append(.colon)
      appendDecimal(second % 60, minimumDigits: 2)
    }
  }
}
