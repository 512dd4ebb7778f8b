import Foundation
import Testing

@testable import SiftCore

/// `group:date/UNIT` (Docs/QueryLanguage.md, Time buckets): the labels, the parser's forms and
/// errors, and the plan's checks against the field's type.
@Suite struct TimeBucketTests {
  /// A value as a file writes it, read in `convention`, and its bucket's label.
  static func label(
    _ value: String, _ bucket: TimeBucket, _ convention: DateConvention = .iso
  ) -> String? {
    DateParser.parse(value, convention, partial: false).map { bucket.label(of: $0.time) }
  }

  @Test(arguments: [
    ("2024-06-12", TimeBucket.day, "2024-06-12"),
    ("2024-06-12", .week, "2024-W24"),
    ("2024-06-12", .month, "2024-06"),
    ("2024-06-12", .quarter, "2024-Q2"),
    ("2024-06-12", .year, "2024"),
    ("2024-06-12T09:41:07", .hour, "2024-06-12T09:00"),
    ("2024-06-12T09:41:07", .day, "2024-06-12"),
    // Quarters start in January, April, July and October.
    ("2024-01-01", .quarter, "2024-Q1"), ("2024-03-31", .quarter, "2024-Q1"),
    ("2024-04-01", .quarter, "2024-Q2"), ("2024-09-30", .quarter, "2024-Q3"),
    ("2024-10-01", .quarter, "2024-Q4"), ("2024-12-31", .quarter, "2024-Q4"),
    // ISO weeks: Monday to Sunday; week 1 holds the year's first Thursday.
    ("2024-06-10", .week, "2024-W24"), ("2024-06-16", .week, "2024-W24"),
    ("2024-06-17", .week, "2024-W25"),
    ("2021-01-01", .week, "2020-W53"), ("2021-01-03", .week, "2020-W53"),
    ("2021-01-04", .week, "2021-W01"), ("2020-12-31", .week, "2020-W53"),
    ("2023-01-01", .week, "2022-W52"), ("2023-01-02", .week, "2023-W01"),
    ("2024-12-30", .week, "2025-W01"), ("2026-12-31", .week, "2026-W53"),
    ("2027-01-01", .week, "2026-W53"), ("2027-01-04", .week, "2027-W01"),
    ("2015-12-31", .week, "2015-W53"), ("2016-01-03", .week, "2015-W53"),
    // Years before 1970 and after 9999.
    ("1969-12-31T23:59:59", .hour, "1969-12-31T23:00"), ("1900-01-01", .week, "1900-W01"),
    ("0999-05-05", .year, "0999"),
  ])
  func labels(value: String, bucket: TimeBucket, label: String) {
    #expect(Self.label(value, bucket) == label, "\(value)/\(bucket)")
  }

  /// A value with an offset is an instant, moved onto the `--tz` wall clock before it is
  /// bucketed; one without stays local time as written.
  @Test(arguments: [
    ("2024-06-01T23:30+02:00", 0, TimeBucket.hour, "2024-06-01T21:00"),
    ("2024-06-01T23:30+02:00", 120, .hour, "2024-06-01T23:00"),
    ("2024-06-01T22:30:00Z", 120, .day, "2024-06-02"),
    ("2024-06-01T22:30:00Z", -300, .hour, "2024-06-01T17:00"),
    ("2024-12-31T23:30:00Z", 60, .year, "2025"),
    ("2024-06-01T23:30", 120, .hour, "2024-06-01T23:00"),
  ])
  func instantsOnTheZonesClock(value: String, minutesEast: Int, bucket: TimeBucket, label: String) {
    let zone = ZoneRules(offset: WallTime(minutesEast) * 60_000_000)
    #expect(Self.label(value, bucket, DateConvention(order: .ymd, zone: zone)) == label)
  }

  /// A field's own date style (Docs/Formats.md, Dates) gives ISO labels.
  @Test func dayFirstDatesGiveISOLabels() {
    let dayFirst = DateConvention(order: .dmy)
    #expect(Self.label("03.06.2024", .month, dayFirst) == "2024-06")
    #expect(Self.label("03.06.2024", .week, dayFirst) == "2024-W23")
    #expect(Self.label("6/3/2024", .day, DateConvention(order: .mdy)) == "2024-06-03")
  }

  /// Labels of one unit order as their periods do when compared as text.
  @Test(arguments: TimeBucket.allCases)
  func labelsOrderAsTime(bucket: TimeBucket) {
    var previous = ""
    var day = Calendar.days(year: 1999, month: 12, day: 1)
    while day < Calendar.days(year: 2031, month: 2, day: 1) {
      let label = bucket.label(of: WallTime(day) * Calendar.microsPerDay + 13 * 3_600_000_000)
      #expect(label >= previous, "\(label) after \(previous)")
      previous = label
      day += 1
    }
  }

  /// Every day from December 1999 to January 2031 against Python's `date.isocalendar()` and its
  /// own month and quarter arithmetic.
  @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/python3"), "needs /usr/bin/python3"))
  func agreesWithPython() throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
    process.arguments = [
      "-c",
      """
      import datetime
      d = datetime.date(1999, 12, 1)
      while d < datetime.date(2031, 2, 1):
          y, w, _ = d.isocalendar()
          print(f"{d.isoformat()} {y:04d}-W{w:02d} {d.year:04d}-{d.month:02d} {d.year:04d}-Q{(d.month + 2) // 3}")
          d += datetime.timedelta(days=1)
      """,
    ]
    let stdout = Pipe()
    process.standardOutput = stdout
    try process.run()
    let out = stdout.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let lines = String(decoding: out, as: UTF8.self).split(separator: "\n")
    #expect(lines.count == 11_385)
    var wrong: [String] = []
    for line in lines {
      let parts = line.split(separator: " ").map(String.init)
      let mine = [TimeBucket.week, .month, .quarter].map { Self.label(parts[0], $0) ?? "?" }
      if mine != Array(parts.dropFirst()) { wrong.append("\(parts[0]): \(mine) vs \(parts.dropFirst())") }
    }
    #expect(wrong.isEmpty, "\(wrong.prefix(5))")
  }

  /// The screen's drill-down turns a heading back into a filter for its period.
  @Test(arguments: [
    (TimeBucket.day, "2024-06-12", "2024-06-12"), (.week, "2024-W23", "2024-W23"),
    (.month, "2024-06", "2024-06"), (.year, "2024", "2024"),
    (.quarter, "2024-Q2", "2024-04..2024-06"), (.quarter, "2024-Q4", "2024-10..2024-12"),
    (.hour, "2024-06-12T09:00", "2024-06-12T09:00..2024-06-12T09:59:59.999999"),
    (.month, "soon", nil), (.quarter, "2024-Q5", nil), (.hour, "2024-06-12", nil),
    (.week, "2024-06", nil),
  ] as [(TimeBucket, String, String?)])
  func periodOfALabel(bucket: TimeBucket, label: String, value: String?) {
    #expect(bucket.periodValue(ofLabel: label) == value)
  }

  // MARK: Parsing

  @Test(arguments: [
    ("group:date/month", "group(date/month)", "group: date/month"),
    ("group:date/week,status", "group(date/week,status)", "group: date/week, status"),
    ("group:customer,updated/hour", "group(customer,updated/hour)", "group: customer, updated/hour"),
    ("group:\"Order Date\"/quarter", "group([Order Date]/quarter)", "group: \"Order Date\"/quarter"),
    ("group: date/year, status", "group(date/year,status)", "group: date/year, status"),
    ("group:\"in/out\"", "group([in/out])", "group: \"in/out\""),
    ("group:a/b/day", "group([a/b]/day)", "group: \"a/b\"/day"),
  ])
  func parses(query: String, outline: String, canonical: String) throws {
    let parsed = try Parser.parse(query)
    #expect(parsed.outline == outline)
    #expect(parsed.canonicalForm == canonical)
    #expect(try Parser.parse(parsed.canonicalForm).canonicalForm == canonical)
  }

  @Test(arguments: [
    ("group:date/fortnight", "unknown time bucket 'fortnight': expected hour, day, week, month, quarter or year", 11),
    ("group:date/Month", "unknown time bucket 'Month': expected hour, day, week, month, quarter or year", 11),
    ("group:date/", "expected a time bucket after '/'", 11),
    ("group:\"date\"/ x", "expected a time bucket after '/'", 13),
    ("group:/month", "expected a field name before '/'", 6),
    ("group:date/month,date/year", "group:date/year is named twice; name each group field once", 17),
  ])
  func errors(query: String, message: String, at offset: Int) {
    #expect(throws: QueryError.self) { try Parser.parse(query) }
    do {
      _ = try Parser.parse(query)
    } catch {
      #expect(error.message == message)
      #expect(error.offset == offset)
    }
  }

  // MARK: Planning

  static let schema = Schema(names: ["date", "updated", "customer", "qty", "blank"])
  static let types: [String: ColumnType] = [
    "date": .date, "updated": .dateTime, "customer": .text, "qty": .number, "blank": .empty,
  ]

  func plan(_ query: String) throws(PlanError) -> Plan {
    let parsed: Query
    do { parsed = try Parser.parse(query) } catch { throw PlanError(message: error.message, span: error.span) }
    return try Plan(query: parsed, schema: Self.schema, now: 0) { Self.types[$0.name] ?? .text }
  }

  @Test(arguments: [
    ("group:customer/month", "'/month' groups dates, and customer holds text", 15),
    ("group:qty/year", "'/year' groups dates, and qty holds numbers", 10),
    ("group:date/hour", "'/hour' groups date-times, and date holds dates without a time", 11),
  ])
  func typeErrors(query: String, message: String, at offset: Int) {
    do {
      _ = try plan(query)
      Issue.record("\(query) planned")
    } catch {
      #expect(error.message == message)
      #expect(error.span?.start == offset)
    }
  }

  @Test func plansBucketsOnDateFields() throws {
    let planned = try plan("group:date/week,updated/hour,blank/day,customer")
    #expect(planned.groupBuckets == [.week, .hour, .day, nil])
    #expect(planned.groupConventions.map(\.order) == [.ymd, .ymd, .ymd, .ymd])
    let summary = try plan("group:date/month,customer sum:qty")
    #expect(summary.outputTypes == [.text, .text, .number, .number])
  }
}
