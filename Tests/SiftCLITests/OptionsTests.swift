import SiftCore
import Testing

@testable import SiftCLI

@Suite struct OptionsTests {
  @Test func everyOptionInLongAndShortForm() throws {
    let long = try Options.parse([
      "--format", "csv", "--output=markdown", "--delimiter", ";", "--no-header", "--count",
      "--quiet", "--summary", "json", "--color=never", "--now", "2024-03-15T09:00", "--explain",
      "--skip-bad", "--config", "views.json", "--reset", "--ascii", "q", "a.csv", "-",
    ])
    var expected = Options()
    expected.format = .csv
    expected.output = .markdown
    expected.delimiter = UInt8(ascii: ";")
    expected.noHeader = true
    expected.count = true
    expected.quiet = true
    expected.summary = .json
    expected.color = .never
    expected.now = "2024-03-15T09:00"
    expected.explain = true
    expected.skipBad = true
    expected.config = "views.json"
    expected.reset = true
    expected.ascii = true
    expected.query = "q"
    expected.files = ["a.csv", "-"]
    #expect(long == expected)

    let short = try Options.parse(["-f", "tsv", "-ojson", "-d", "\\t", "-cq", "q"])
    #expect(short.format == .tsv)
    #expect(short.output == .json)
    #expect(short.delimiter == UInt8(ascii: "\t"))
    #expect(short.count && short.quiet)
    #expect(short.query == "q")
  }

  @Test func viewThenQueryThenFiles() throws {
    let options = try Options.parse(["@grn", "", "other.csv"])
    #expect(options.view == "grn")
    #expect(options.query == "")
    #expect(options.files == ["other.csv"])
    #expect(try Options.parse(["@grn"]).query == "")
  }

  @Test func doubleDashEndsOptions() throws {
    let options = try Options.parse(["-c", "--", "-status:cancelled", "--count"])
    #expect(options.query == "-status:cancelled")
    #expect(options.files == ["--count"])
  }

  @Test func modes() throws {
    #expect(try Options.parse(["--fields", "a.csv", "b.json"]).files == ["a.csv", "b.json"])
    #expect(try Options.parse(["--fields"]).mode == .fields)
    #expect(try Options.parse(["--views"]).mode == .views)
    #expect(try Options.parse(["q", "--help", "--bogus"]).mode == .help)
    #expect(try Options.parse(["--version", "--bogus"]).mode == .version)
    #expect(throws: UsageError("unknown option '--bogus'")) {
      try Options.parse(["--bogus", "--help"])
    }
  }
}

/// `--tz` values (Docs/QueryLanguage.md, Instants): UTC or a fixed offset, nothing else.
@Suite struct ZoneOffsetTests {
  @Test(arguments: [
    ("UTC", WallTime(0)), ("z", 0), ("+02:00", 7_200_000_000), ("-0500", -18_000_000_000),
    ("UTC+01", 3_600_000_000), ("+05:30", 19_800_000_000),
  ])
  func reads(text: String, micros: WallTime) {
    #expect(Clock.zoneOffset(text) == micros)
  }

  @Test(arguments: ["Europe/Berlin", "+2", "+25:00", "+02:60", "02:00", "UTC+", "+0a:00", ""])
  func refuses(text: String) {
    #expect(Clock.zoneOffset(text) == nil)
  }
}
