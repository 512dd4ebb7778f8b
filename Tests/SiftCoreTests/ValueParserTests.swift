import Testing
@testable import SiftCore

@Suite struct NumberParserTests {
  func parse(_ s: String, grouping: Bool = true) -> Double? {
    Array(s.utf8).withUnsafeBufferPointer { NumberParser.parse($0, grouping: grouping) }
  }

  @Test(arguments: [
    ("10", 10.0), ("10.0", 10), ("-3.5", -3.5), ("+7", 7), ("007", 7), ("1,234.50", 1234.5),
    ("12,345,678", 12_345_678), (" 42 ", 42), ("1e3", 1000), ("2.5E-2", 0.025), ("0.1", 0.1),
    ("123456789012345678901234", 123456789012345678901234.0),
  ])
  func readsNumbers(text: String, value: Double) {
    #expect(parse(text) == value)
  }

  @Test(arguments: ["", "-", "abc", "1,2", "1,2345", ",123", "1.", ".5", "1e", "12a", "n/a", "1..2",
                    "2024-01-05", "1 2", "NaN", "inf"])
  func rejectsNonNumbers(text: String) {
    #expect(parse(text) == nil)
  }

  @Test func groupingIsOnlyForRecords() {
    #expect(parse("1,234", grouping: false) == nil)
    #expect(NumberParser.parse("1,234") == nil)
  }
}

@Suite struct DateParserTests {
  func parse(_ s: String, partial: Bool = false) -> ParsedDate? {
    Array(s.utf8).withUnsafeBufferPointer { DateParser.parse($0, partial: partial) }
  }

  func day(_ y: Int, _ m: Int, _ d: Int) -> WallTime {
    WallTime(Calendar.days(year: y, month: m, day: d)) * Calendar.microsPerDay
  }

  @Test func readsDatesAndDateTimes() throws {
    #expect(parse("2024-03-05") == ParsedDate(time: day(2024, 3, 5), precision: .day))
    #expect(parse("2024/03/05")?.time == day(2024, 3, 5))
    let t = try #require(parse("2024-03-05T10:30"))
    #expect(t.precision == .instant)
    #expect(t.time == day(2024, 3, 5) + 37_800_000_000)
    #expect(parse("2024-03-05 10:30:15.250")?.time == day(2024, 3, 5) + 37_815_250_000)
    // An offset makes an instant, moved onto the zone's wall clock (UTC by default;
    // Docs/QueryLanguage.md, Instants).
    #expect(parse("2013-01-01T10:00:00Z")?.time == day(2013, 1, 1) + 36_000_000_000)
    #expect(parse("2013-01-01T10:00:00+02:00")?.time == day(2013, 1, 1) + 28_800_000_000)
  }

  @Test(arguments: ["2024-02-30", "2023-02-29", "2024-13-01", "2024-3-5", "2024-03-05T25:00", "20240305",
                    "2024-03-05x", "2024/03-05", "05/03/2024", "2024-03", "2024"])
  func rejectsNonDates(text: String) {
    #expect(parse(text) == nil)
  }

  @Test func partialDatesAreWholePeriods() throws {
    let march = try #require(parse("2024-03", partial: true)).period
    #expect(march == Period(start: day(2024, 3, 1), end: day(2024, 4, 1)))
    let december = try #require(parse("2023-12", partial: true)).period
    #expect(december.end == day(2024, 1, 1))
    let year = try #require(parse("2024", partial: true)).period
    #expect(year == Period(start: day(2024, 1, 1), end: day(2025, 1, 1)))
    #expect(parse("2024-02-29", partial: true)?.period.end == day(2024, 3, 1))
  }

  @Test func calendarRoundTrips() {
    for d in stride(from: -800_000, to: 800_000, by: 997) {
      let (y, m, dd) = Calendar.civil(fromDays: d)
      #expect(Calendar.days(year: y, month: m, day: dd) == d)
    }
    #expect(Calendar.weekday(ofDays: Calendar.days(year: 2024, month: 6, day: 10)) == 0)  // a Monday
  }
}

@Suite struct RelativeDateTests {
  // Wednesday 2024-06-12 10:00.
  let now = WallTime(Calendar.days(year: 2024, month: 6, day: 12)) * Calendar.microsPerDay + 36_000_000_000

  func days(_ from: (Int, Int, Int), _ to: (Int, Int, Int)) -> Period {
    Period(
      start: WallTime(Calendar.days(year: from.0, month: from.1, day: from.2)) * Calendar.microsPerDay,
      end: WallTime(Calendar.days(year: to.0, month: to.1, day: to.2)) * Calendar.microsPerDay)
  }

  @Test func fixedPeriods() throws {
    #expect(try RelativeDate.period("today", now: now) == days((2024, 6, 12), (2024, 6, 13)))
    #expect(try RelativeDate.period("yesterday", now: now) == days((2024, 6, 11), (2024, 6, 12)))
    #expect(try RelativeDate.period("this-week", now: now) == days((2024, 6, 10), (2024, 6, 17)))
    #expect(try RelativeDate.period("last-week", now: now) == days((2024, 6, 3), (2024, 6, 10)))
    #expect(try RelativeDate.period("this-month", now: now) == days((2024, 6, 1), (2024, 7, 1)))
    #expect(try RelativeDate.period("last-month", now: now) == days((2024, 5, 1), (2024, 6, 1)))
    #expect(try RelativeDate.period("this-year", now: now) == days((2024, 1, 1), (2025, 1, 1)))
    #expect(try RelativeDate.period("last-year", now: now) == days((2023, 1, 1), (2024, 1, 1)))
    #expect(try RelativeDate.period("TODAY", now: now) == days((2024, 6, 12), (2024, 6, 13)))
  }

  @Test func lastN() throws {
    #expect(try RelativeDate.period("last-7d", now: now) == days((2024, 6, 6), (2024, 6, 13)))
    #expect(try RelativeDate.period("last-1d", now: now) == days((2024, 6, 12), (2024, 6, 13)))
    #expect(try RelativeDate.period("last-2w", now: now) == days((2024, 5, 30), (2024, 6, 13)))
    #expect(try RelativeDate.period("last-1m", now: now) == days((2024, 5, 13), (2024, 6, 13)))
    #expect(try RelativeDate.period("last-6m", now: now) == days((2023, 12, 13), (2024, 6, 13)))
  }

  @Test func notRelative() throws {
    #expect(try RelativeDate.period("received", now: now) == nil)
    #expect(try RelativeDate.period("last-xd", now: now) == nil)
    #expect(throws: PlanError.self) { try RelativeDate.period("last-0d", now: now) }
  }

  @Test func sundayBelongsToTheWeekThatStartedMonday() throws {
    let sunday = WallTime(Calendar.days(year: 2024, month: 6, day: 16)) * Calendar.microsPerDay
    #expect(try RelativeDate.period("this-week", now: sunday) == days((2024, 6, 10), (2024, 6, 17)))
  }
}

@Suite struct TextFoldTests {
  func equals(_ value: String, _ literal: String) -> Bool {
    Array(value.utf8).withUnsafeBufferPointer { TextFold.equals($0, folded: TextFold.fold(literal)) }
  }

  func contains(_ value: String, _ literal: String) -> Bool {
    Array(value.utf8).withUnsafeBufferPointer { TextFold.contains($0, folded: TextFold.fold(literal)) }
  }

  func glob(_ value: String, _ pattern: String) -> Bool {
    let parts = TextFold.fold(pattern).split(separator: UInt8(ascii: "*"), omittingEmptySubsequences: false).map { Array($0) }
    return TextFold.globMatches(TextFold.fold(value), pattern: parts)
  }

  @Test func caseInsensitiveEquality() {
    #expect(equals("Received", "received"))
    #expect(equals("MÜLLER GmbH", "müller gmbh"))
    #expect(!equals("Receive", "received"))
    #expect(!equals("Acme Corp", "acme"))
  }

  @Test func substrings() {
    #expect(contains("ACME Logistics", "logist"))
    #expect(contains("Nordisk Kjøl AS", "KJØL"))
    #expect(!contains("Acme", "acmes"))
  }

  @Test(arguments: [
    ("Acme Corp", "acme*", true), ("Acme", "acme*", true), ("The Acme", "acme*", false),
    ("SKU-0042", "*-00*", true), ("SKU-1042", "*-00*", false), ("abc", "a*b*c", true),
    ("ac", "a*b*c", false), ("aXbYc", "*", true), ("", "*", true), ("abcabc", "*abc", true),
    ("ab", "ab*ab", false),
  ])
  func globs(value: String, pattern: String, matches: Bool) {
    #expect(glob(value, pattern) == matches)
  }
}

@Suite struct FieldResolverTests {
  let resolver = FieldResolver(schema: Schema(names: ["GRN No", "date", "Status", "customer", "empty_stock"],
                                              nestedPaths: [3: ["name", "address.city"]]))

  func resolve(_ name: String) throws(PlanError) -> ResolvedField {
    try resolver.resolve(FieldName(name, span: Span(0, name.utf8.count)))
  }

  @Test(arguments: [
    ("GRN No", "GRN No"), ("grn_no", "GRN No"), ("grn-no", "GRN No"), ("grnno", "GRN No"),
    ("status", "Status"), ("STATUS", "Status"), ("emptystock", "empty_stock"),
    ("customer.name", "customer.name"), ("Customer.Address.City", "customer.address.city"),
  ])
  func resolvesByStage(query: String, field: String) throws {
    #expect(try resolve(query).name == field)
  }

  @Test func nestedPathsReachIntoTheTopField() throws {
    let f = try resolve("customer.address.city")
    #expect(f.index == 3)
    #expect(f.path == ["address", "city"])
  }

  @Test func unknownFieldSuggestsTheClosest() {
    do {
      _ = try resolve("custmer")
      Issue.record("expected an error")
    } catch {
      #expect(error.message == "unknown field 'custmer'; did you mean 'customer'?")
      #expect(error.span == Span(0, 7))
      #expect(error.notes.first?.hasPrefix("fields: GRN No, date, Status, customer, customer.name") == true)
    }
  }

  @Test func ambiguousNamesListCandidates() {
    let r = FieldResolver(schema: Schema(names: ["Order No", "order_no"]))
    do {
      _ = try r.resolve(FieldName("orderno", span: Span(0, 7)))
      Issue.record("expected an error")
    } catch {
      #expect(error.message == "field name 'orderno' is ambiguous")
      #expect(error.notes == ["it could be: 'Order No', 'order_no'; quote the exact name"])
    }
  }
}

@Suite struct LabelTests {
  @Test(arguments: [("empty_stock", "Empty Stock"), ("grnNo", "Grn No"), ("date", "Date"),
                    ("customer.name", "Customer Name"), ("GRN No", "GRN No"), ("qty", "Qty")])
  func titleCase(name: String, label: String) {
    #expect(Labels.titleCase(name) == label)
  }

  @Test func digitGrouping() {
    #expect(groupedDigits(0) == "0")
    #expect(groupedDigits(999) == "999")
    #expect(groupedDigits(1000) == "1,000")
    #expect(groupedDigits(13419) == "13,419")
    #expect(groupedDigits(1_000_000) == "1,000,000")
  }

  @Test func nearestPaletteColours() {
    #expect(ColorMode.nearest256((0xF6, 0x90, 0x00)) == 208)
    #expect(ColorMode.nearest256((0xFF, 0xFF, 0xFF)) == 231)
    #expect(ColorMode.nearest256((0x1D, 0x2D, 0x3E)) == 236)
    #expect(ColorMode.nearest256((0xF2, 0xF2, 0xF7)) == 255)
  }
}

/// The switch spellings of Docs/QueryLanguage.md, Filter terms, and the types a sample infers
/// (Docs/Formats.md, How values are read).
@Suite struct SwitchAndTypeInferenceTests {
  @Test(arguments: [
    ("on", true, false), ("YES", true, false), ("True", true, false), ("y", true, false),
    ("off", false, false), ("No", false, false), ("FALSE", false, false), ("N", false, false),
    ("1", true, true), ("0", false, true),
  ])
  func switchSpellings(text: String, on: Bool, numeric: Bool) {
    var t = text
    let reading = t.withUTF8 { Switch.reading($0) }
    #expect(reading?.on == on && reading?.numeric == numeric)
  }

  @Test(arguments: ["", "o", "onn", "yess", "truee", "nope", "2", "01", "\0n", "n\0", "ön", "true "])
  func notSwitches(text: String) {
    var t = text
    #expect(t.withUTF8 { Switch.reading($0) } == nil)
  }

  @Test(arguments: [
    (["yes", "no", "", "NA"], ColumnType.boolean),
    (["1", "0", "1"], .number),
    (["1", "0", "yes"], .boolean),
    (["12.5", "-3", "1,234"], .number),
    (["2024-03-05", "2024-03-06T10:00"], .dateTime),
    (["2024-03-05", "\"2024-03-06\""], .date),
    (["12", "abc"], .text),
    (["", "null"], .empty),
  ])
  func inferredTypes(values: [String], type: ColumnType) {
    var inference = TypeInference()
    for v in values {
      var text = v
      text.withUTF8 { inference.add(FieldValue(raw: $0, encoding: .csv)) }
    }
    #expect(inference.type == type)
  }
}
