import Foundation
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

/// `--tz` values (Docs/QueryLanguage.md, Instants): UTC, a fixed offset, or a zone name.
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

  /// Not zone names: nothing outside the zone directory is read.
  @Test(arguments: ["Mars/Olympus", "../etc/passwd", "/etc/localtime", "Europe/../../etc/passwd", "", "Europe/Berlin\u{0}"])
  func refusesWhatIsNoZone(text: String) {
    #expect(Clock.zone(named: text, environment: [:]) == nil)
  }

  /// A named zone moves with summer time: Berlin is +01:00 in January and +02:00 in July, and
  /// the day of each change (2024-03-31 01:00 UTC, 2024-10-27 01:00 UTC) switches to the minute.
  @Test(.enabled(if: ZoneFile.read(path: "/usr/share/zoneinfo/Europe/Berlin") != nil, "no zone files in /usr/share/zoneinfo"))
  func namedZonesFollowTheirChanges() throws {
    let berlin = try #require(Clock.zone(named: "Europe/Berlin", environment: [:]))
    #expect(berlin.fixedOffset == nil)
    func at(_ text: String) throws -> WallTime {
      let utc = try #require(DateParser.parse(text, partial: false)).time
      return berlin.offset(atUTC: utc) / 3_600_000_000
    }
    #expect(try at("2024-01-15T12:00") == 1)
    #expect(try at("2024-07-15T12:00") == 2)
    #expect(try at("2024-03-31T00:59:59") == 1)
    #expect(try at("2024-03-31T01:00") == 2)
    #expect(try at("2024-10-27T00:59:59") == 2)
    #expect(try at("2024-10-27T01:00") == 1)
    #expect(try at("1900-01-01T00:00") == 1)
    #expect(Clock.zone(named: "UTC", environment: [:])?.fixedOffset == 0)
    #expect(Clock.zone(named: "Asia/Kolkata", environment: [:])?.offset(atUTC: 1_700_000_000_000_000) == 19_800_000_000)
  }

  /// A damaged zone file is no zone: every cut of a real one reads as a zone or as nothing.
  @Test(.enabled(if: ZoneFile.read(path: "/usr/share/zoneinfo/Europe/Berlin") != nil, "no zone files in /usr/share/zoneinfo"))
  func aCutZoneFileNeverCrashes() throws {
    let bytes = try #require(FileManager.default.contents(atPath: "/usr/share/zoneinfo/Europe/Berlin"))
    for cut in stride(from: 0, to: bytes.count, by: 7) {
      _ = ZoneFile.parse(Array(bytes.prefix(cut)))
    }
    #expect(ZoneFile.parse(Array(bytes.prefix(43))) == nil)
  }
}

/// `--tz Europe/Berlin` through a whole run (Docs/QueryLanguage.md, Instants): a summer query
/// time is +02:00, a winter one +01:00, as the fixed offsets of each season give.
@Suite struct NamedZoneRunTests {
  static let csv = """
    id,at
    1,2024-01-15T10:30:00Z
    2,2024-01-15T11:30:00Z
    3,2024-07-15T09:30:00Z
    4,2024-07-15T10:30:00Z

    """

  func count(_ query: String, tz: String) -> String {
    sift(["-c", "-q", "--tz", tz, query, "-f", "csv"], stdin: Array(Self.csv.utf8)).text
  }

  @Test(.enabled(if: ZoneFile.read(path: "/usr/share/zoneinfo/Europe/Berlin") != nil, "no zone files in /usr/share/zoneinfo"))
  func aNamedZoneTakesEachSeasonsOffset() {
    // 12:00 in Berlin: 11:00 UTC in January, 10:00 UTC in July.
    #expect(count("at:2024-01-15T12:00..2024-01-15T23:00", tz: "Europe/Berlin") == "1\n")
    #expect(count("at:2024-01-15T12:00..2024-01-15T23:00", tz: "+01:00") == "1\n")
    #expect(count("at:2024-07-15T12:00..2024-07-15T23:00", tz: "Europe/Berlin") == "1\n")
    #expect(count("at:2024-07-15T12:00..2024-07-15T23:00", tz: "+02:00") == "1\n")
    #expect(count("at:2024-07-15T12:00..2024-07-15T23:00", tz: "+01:00") == "0\n")
    #expect(count("sort:at", tz: "Europe/Berlin") == "4\n")
  }
}
