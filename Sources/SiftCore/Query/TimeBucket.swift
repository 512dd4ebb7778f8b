/// The period a `group:date/UNIT` groups a date field by (Docs/QueryLanguage.md, Time buckets).
/// Each record's date falls in one bucket, labelled `2024-06-12T09:00`, `2024-06-12`,
/// `2024-W23` (an ISO week), `2024-06`, `2024-Q2` or `2024`; labels of one unit sort as their
/// periods do.
public enum TimeBucket: String, Sendable, Hashable, CaseIterable {
  case hour, day, week, month, quarter, year

  /// The units as the error messages list them: `hour, day, …, quarter or year`.
  public static let spelled =
    allCases.dropLast().map(\.rawValue).joined(separator: ", ") + " or " + year.rawValue

  /// Whether only a date-time field has it (a date alone has no hour).
  public var needsTime: Bool {
    switch self {
    case .hour: true
    case .day, .week, .month, .quarter, .year: false
    }
  }

  /// The bucket's label of `time`, a wall time (Docs/QueryLanguage.md, Instants: a value with
  /// an offset is already moved onto the `--tz` wall clock), appended to `bytes`.
  public func appendLabel(of time: WallTime, to bytes: inout [UInt8]) {
    let days = Int(time >= 0 ? time / Calendar.microsPerDay : (time + 1) / Calendar.microsPerDay - 1)
    let (year, month, day) = Calendar.civil(fromDays: days)
    switch self {
    case .year:
      appendYear(year, to: &bytes)
    case .quarter:
      appendYear(year, to: &bytes)
      bytes += [UInt8(ascii: "-"), UInt8(ascii: "Q"), UInt8(ascii: "0") + UInt8((month + 2) / 3)]
    case .month:
      appendYear(year, to: &bytes)
      appendTwo(month, after: UInt8(ascii: "-"), to: &bytes)
    case .week:
      let (weekYear, week) = Self.isoWeek(ofDays: days)
      appendYear(weekYear, to: &bytes)
      bytes.append(UInt8(ascii: "-"))
      appendTwo(week, after: UInt8(ascii: "W"), to: &bytes)
    case .day, .hour:
      appendYear(year, to: &bytes)
      appendTwo(month, after: UInt8(ascii: "-"), to: &bytes)
      appendTwo(day, after: UInt8(ascii: "-"), to: &bytes)
      guard self == .hour else { return }
      let hour = Int((time - WallTime(days) * Calendar.microsPerDay) / 3_600_000_000)
      appendTwo(hour, after: UInt8(ascii: "T"), to: &bytes)
      bytes += [UInt8(ascii: ":"), UInt8(ascii: "0"), UInt8(ascii: "0")]
    }
  }

  /// The label as text (tests, `--explain`).
  public func label(of time: WallTime) -> String {
    var bytes: [UInt8] = []
    appendLabel(of: time, to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// A query value that matches the records of the bucket labelled `label` (a drill-down on
  /// the screen): the label itself where it is a period the query reads (`2024-06`,
  /// `2024-W23`), a range for a quarter or an hour; `nil` for a label that is not this unit's
  /// (a value that is not a date keeps its text as its group).
  public func periodValue(ofLabel label: String) -> String? {
    let bytes = Array(label.utf8)
    func digits(_ range: Range<Int>) -> Int? {
      guard range.upperBound <= bytes.count, bytes[range].allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
      return Int(String(decoding: bytes[range], as: UTF8.self))
    }
    switch self {
    case .year, .month, .week, .day:
      guard let date = DateParser.parse(label, .iso, partial: true) else { return nil }
      return self.label(of: date.time) == label ? label : nil
    case .quarter:
      guard bytes.count == 7, digits(0..<4) != nil, label.dropFirst(4).hasPrefix("-Q"),
        let quarter = digits(6..<7), (1...4).contains(quarter)
      else { return nil }
      func month(_ m: Int) -> String { label.prefix(4) + (m < 10 ? "-0\(m)" : "-\(m)") }
      return month(quarter * 3 - 2) + ".." + month(quarter * 3)
    case .hour:
      guard bytes.count == 16, label.hasSuffix(":00"), digits(11..<13) != nil,
        let date = DateParser.parse(label, .iso, partial: false), self.label(of: date.time) == label
      else { return nil }
      return label + ".." + label.dropLast(2) + "59:59.999999"
    }
  }

  /// The ISO 8601 week of a day (days since 1970-01-01): weeks start on Monday, and week 1 is
  /// the one holding the year's first Thursday, so 1 January may lie in the previous year's
  /// week 52 or 53 and 31 December in the next year's week 1.
  public static func isoWeek(ofDays days: Int) -> (year: Int, week: Int) {
    // The Thursday of the day's week decides the week's year.
    let thursday = days - Calendar.weekday(ofDays: days) + 3
    let year = Calendar.civil(fromDays: thursday).year
    let firstDay = Calendar.days(year: year, month: 1, day: 1)
    return (year, (thursday - firstDay) / 7 + 1)
  }

  private func appendYear(_ year: Int, to bytes: inout [UInt8]) {
    if (0...9999).contains(year) {
      let zero = UInt8(ascii: "0")
      bytes += [
        zero + UInt8(year / 1000), zero + UInt8(year / 100 % 10), zero + UInt8(year / 10 % 10),
        zero + UInt8(year % 10),
      ]
      return
    }
    if year < 0 { bytes.append(UInt8(ascii: "-")) }
    let digits = Array(String(abs(year)).utf8)
    if digits.count < 4 { bytes += Array(repeating: UInt8(ascii: "0"), count: 4 - digits.count) }
    bytes += digits
  }

  private func appendTwo(_ n: Int, after separator: UInt8, to bytes: inout [UInt8]) {
    bytes += [separator, UInt8(ascii: "0") + UInt8(n / 10), UInt8(ascii: "0") + UInt8(n % 10)]
  }
}
