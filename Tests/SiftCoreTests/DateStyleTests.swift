import Testing

@testable import SiftCore

/// Dates in every common style (Docs/Formats.md, Dates): each style read in each order, the
/// order decided from a field's sample, and instants moved onto the `--tz` zone's wall clock.
@Suite struct DateStyleTests {
  static func wall(_ y: Int, _ m: Int, _ d: Int, _ h: Int = 0, _ min: Int = 0) -> WallTime {
    WallTime(Calendar.days(year: y, month: m, day: d)) * Calendar.microsPerDay
      + WallTime(h * 3600 + min * 60) * 1_000_000
  }

  static func parse(_ s: String, _ order: DateOrder, zone: WallTime = 0) -> ParsedDate? {
    Array(s.utf8).withUnsafeBufferPointer {
      DateParser.parse($0, DateConvention(order: order, zone: ZoneRules(offset: zone)))
    }
  }

  /// Text, the order it is read in, and the wall time it means.
  static let styles: [(String, DateOrder, WallTime)] = [
    ("25.11.2026", .dmy, wall(2026, 11, 25)),
    ("25/11/2026", .dmy, wall(2026, 11, 25)),
    ("25-11-2026", .dmy, wall(2026, 11, 25)),
    ("1.2.2026", .dmy, wall(2026, 2, 1)),
    ("01.02.2026", .dmy, wall(2026, 2, 1)),
    ("01.02.2026", .mdy, wall(2026, 1, 2)),
    ("11/25/2026", .mdy, wall(2026, 11, 25)),
    ("11/25/26", .mdy, wall(2026, 11, 25)),
    ("25.11.26", .dmy, wall(2026, 11, 25)),
    ("31.12.68", .dmy, wall(2068, 12, 31)),
    ("01.01.69", .dmy, wall(1969, 1, 1)),
    ("25.11.2026 14:03", .dmy, wall(2026, 11, 25, 14, 3)),
    ("25.11.2026 14:03:30", .dmy, wall(2026, 11, 25, 14, 3) + 30_000_000),
    ("11/25/2026 2:03 PM", .mdy, wall(2026, 11, 25, 14, 3)),
    ("11/25/2026 12:03 am", .mdy, wall(2026, 11, 25, 0, 3)),
    ("25 Nov 2026", .ymd, wall(2026, 11, 25)),
    ("25 November 2026", .mdy, wall(2026, 11, 25)),
    ("Nov 25, 2026", .dmy, wall(2026, 11, 25)),
    ("September 3 2026", .ymd, wall(2026, 9, 3)),
    ("3 Sept 2026", .ymd, wall(2026, 9, 3)),
    ("25-Nov-26", .ymd, wall(2026, 11, 25)),
    ("25-NOV-2026 08:15", .dmy, wall(2026, 11, 25, 8, 15)),
    ("2026-11-25", .dmy, wall(2026, 11, 25)),
    ("2026.11.25", .mdy, wall(2026, 11, 25)),
    ("2026-W48-3", .ymd, wall(2026, 11, 25)),
    ("2021-W01-1", .ymd, wall(2021, 1, 4)),
    ("2020-W53-7", .ymd, wall(2021, 1, 3)),
  ]

  @Test(arguments: styles)
  func readsEachStyle(text: String, order: DateOrder, expected: WallTime) throws {
    let d = try #require(Self.parse(text, order))
    #expect(d.time == expected)
  }

  @Test(arguments: [
    ("25.11.2026", DateOrder.ymd), ("25.11.2026", .mdy), ("11/25/2026", .dmy),
    ("31.02.2026", .dmy), ("13/13/2026", .mdy), ("25.11.202", .dmy), ("25.11/2026", .dmy),
    ("25 Nox 2026", .dmy), ("Nov 25 2026x", .dmy), ("25 11 2026", .dmy), ("12 Main Street", .dmy),
    ("25.11.2026 13:00 PM", .dmy), ("2026-W54-1", .ymd), ("2026-W48-8", .ymd), ("1.2", .dmy),
  ])
  func rejects(text: String, order: DateOrder) {
    #expect(Self.parse(text, order) == nil)
  }

  @Test func anOffsetMakesAnInstantOnTheZonesWallClock() throws {
    let plusTwo: WallTime = 2 * 3_600_000_000
    let utc = try #require(Self.parse("2024-06-12T09:01:10+02:00", .ymd))
    #expect(utc.time == Self.wall(2024, 6, 12, 7, 1) + 10_000_000)
    #expect(utc.hadOffset)
    let berlin = try #require(Self.parse("2024-06-12T09:01:10+02:00", .ymd, zone: plusTwo))
    #expect(berlin.time == Self.wall(2024, 6, 12, 9, 1) + 10_000_000)
    let zulu = try #require(Self.parse("2024-06-12T07:01:10Z", .ymd, zone: plusTwo))
    #expect(zulu.time == berlin.time)
    let local = try #require(Self.parse("2024-06-12T07:01:10", .ymd, zone: plusTwo))
    #expect(local.time == Self.wall(2024, 6, 12, 7, 1) + 10_000_000)
    #expect(!local.hadOffset)
    let dayFirst = try #require(Self.parse("12.06.2024 09:00 -05:00", .dmy))
    #expect(dayFirst.time == Self.wall(2024, 6, 12, 14, 0))
  }

  @Test func aWeekIsAPeriodOfSevenDays() throws {
    let week = try #require(DateParser.parse("2026-W48", partial: true)).period
    #expect(week == Period(start: Self.wall(2026, 11, 23), end: Self.wall(2026, 11, 30)))
  }

  static func evidence(_ values: [String], order: DateOrder? = nil) -> (ColumnType, DateEvidence) {
    var inference = TypeInference(order: order)
    for v in values {
      Array(v.utf8).withUnsafeBufferPointer { inference.add(FieldValue(raw: $0, form: .plain)) }
    }
    return (inference.type, inference.dateEvidence)
  }

  @Test(arguments: [
    (["25.11.2026", "01.02.2026"], ColumnType.date, DateEvidence.dayFirst),
    (["11/25/2026", "02/01/2026"], .date, .monthFirst),
    (["01.11.2026", "01.02.2026"], .date, .ambiguous(slashes: false)),
    (["01/11/2026", "01/02/2026"], .date, .ambiguous(slashes: true)),
    (["25.11.2026", "11/25/2026"], .text, .none),
    (["25.11.2026 14:03", "01.02.2026"], .dateTime, .dayFirst),
    (["25 Nov 2026", "2026-01-02"], .date, .none),
    (["2026-01-02", "03.04.2026"], .date, .ambiguous(slashes: false)),
    (["13/13/2026"], .text, .none),
  ])
  func theOrderComesFromTheSample(values: [String], type: ColumnType, evidence: DateEvidence) {
    let (t, e) = Self.evidence(values)
    #expect(t == type)
    #expect(e == evidence)
  }

  @Test func datesForcesTheOrder() {
    #expect(Self.evidence(["25.11.2026"], order: .mdy).0 == .text)
    #expect(Self.evidence(["01.02.2026"], order: .mdy) == (.date, .none))
  }

  @Test(arguments: [
    // The field's own evidence, then the other fields', then the decimal mark, then the separator.
    (DateEvidence.dayFirst, [DateEvidence.monthFirst], false, DateOrder.dmy),
    (.ambiguous(slashes: true), [.dayFirst], false, .dmy),
    (.ambiguous(slashes: false), [.monthFirst], false, .mdy),
    (.ambiguous(slashes: true), [.dayFirst, .monthFirst], true, .dmy),
    (.ambiguous(slashes: true), [], false, .mdy),
    (.ambiguous(slashes: false), [], false, .dmy),
    (.none, [.dayFirst], false, .ymd),
  ])
  func anAmbiguousFieldFollowsTheFile(
    own: DateEvidence, others: [DateEvidence], decimalComma: Bool, expected: DateOrder
  ) {
    let fields = [("own", own)] + others.enumerated().map { ("other\($0.offset)", $0.element) }
    let reading = DateReading(
      settings: DateSettings(decimalComma: decimalComma),
      fields: fields.map { (name: $0.0, evidence: $0.1) })
    #expect(reading.convention(for: own, offsets: [], otherStyles: false).order == expected)
  }

  @Test func theNoteSaysWhatWasAssumedAndHowToChangeIt() {
    let reading = DateReading(
      settings: DateSettings(decimalComma: true),
      fields: [(name: "Datum", evidence: .ambiguous(slashes: false))])
    #expect(
      reading.note(field: "Datum", evidence: .ambiguous(slashes: false))
        == "note: reading the dates in Datum day-first (assumed: every sampled value reads "
        + "either way, and the file writes decimal commas); --dates mdy reads them month-first")
    let forced = DateReading(settings: DateSettings(order: .dmy), fields: [])
    #expect(forced.note(field: "Datum", evidence: .dayFirst) == nil)
    #expect(reading.note(field: "Datum", evidence: .none) == nil)
  }
}
