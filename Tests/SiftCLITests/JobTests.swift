import SiftCore
import Testing

@testable import SiftCLI

/// The command line resolved into one job (Docs/Architecture.md, The front): a table of argument
/// lists and the mode each resolves to, or the message that stops it (gojq's case tables). Every
/// rule between options is in `Job.resolve`, so every rule is a row here.
@Suite struct JobTests {
  /// The clock of these cases: 2024-06-12T10:00.
  static let clock = Clock.parse("2024-06-12T10:00") ?? 0

  /// The views file of these cases: `grn` over grn.csv with a preset query and a default sort,
  /// `sums` whose preset aggregates.
  static let viewsText = #"""
    {"views": {
      "grn": {"source": "grn.csv", "query": "status:open", "sort": "-date"},
      "sums": {"source": "grn.csv", "query": "group:customer sum:qty"}
    }}
    """#

  static func viewsFile() throws(Problem) -> ViewsFile {
    do throws(ViewsFileError) { return try ViewsFile.parse(Array(viewsText.utf8), path: "sift.json") }
    catch { throw .viewsFile(error) }
  }

  /// `arguments` resolved as on a pipe (`terminal` false) or a terminal, with `environment`;
  /// `viewsFile` answers when a view is named.
  static func resolve(
    _ arguments: [String], terminal: Bool = false, keyboard: Bool = false,
    environment: [String: String] = [:],
    viewsFile: () throws(Problem) -> ViewsFile = viewsFile
  ) throws(Problem) -> Job {
    let options: Options
    do throws(UsageError) { options = try Options.parse(arguments) } catch {
      throw .usage(error)
    }
    return try Job.resolve(
      options, environment: environment, stdoutIsTerminal: terminal, stdinIsTerminal: keyboard,
      clock: { clock }, viewsFile: viewsFile)
  }

  /// The first line of what stops `arguments`, or `nil` when they resolve.
  static func message(_ arguments: [String], terminal: Bool = false, keyboard: Bool = false) -> String? {
    do throws(Problem) {
      _ = try resolve(arguments, terminal: terminal, keyboard: keyboard)
      return nil
    } catch {
      return error.text.split(separator: "\n").first.map(String.init)
    }
  }

  @Test(arguments: [
    (["status:open", "a.csv"], Job.Mode.records),
    (["-c", "status:open", "a.csv"], .count),
    (["-c", "group:status", "a.csv"], .count),
    (["--explain", "status:open", "a.csv"], .explain),
    (["--explain", "-c", "status:open", "a.csv"], .explain),
    (["--explain", "status:open"], .queryForm),
    (["--explain", "--sql", "duckdb", "status:open"], .queryForm),
    (["--sql", "postgres", "status:open", "a.csv"], .sql(.postgres)),
    (["--sql", "duckdb", "-c", "status:open", "a.csv"], .sql(.duckdb)),
    (["--engine", "duckdb", "status:open", "a.csv"], .engine(.duckdb)),
    (["--sql", "duckdb", "--table", "t", "status:open"], .sql(.duckdb)),
    (["--changes", "id", "status:open", "a.csv"], .changes(["id"])),
    (["--changes", "id,line", "--against", "old.csv", "status:open", "a.csv"], .changes(["id", "line"])),
    (["@grn"], .records),
    (["@grn", "--reset", "status:open"], .records),
    (["--fields", "a.csv"], .fields),
    (["--views"], .views),
    (["--complete-views"], .completeViews),
    (["--complete-fields", "a.csv"], .completeFields),
    (["--version"], .text("sift \(siftVersion)\n")),
    (["-o", "xlsx", "status:open", "a.csv"], .records),
    (["--explain", "-o", "xlsx", "status:open", "a.csv"], .explain),
    (["--explain", "@grn", "qty:>1"], .composedForm),
    (["--explain", "-c", "@sums"], .composedForm),
    (["--changes", "id", "@grn"], .changes(["id"])),
    (["-c", "@grn"], .count),
  ])
  func resolvesTo(arguments: [String], mode: Job.Mode) throws {
    #expect(try Self.resolve(arguments).mode == mode)
  }

  @Test(arguments: [
    (["--reset", "status:open", "a.csv"], "sift: '--reset' needs a view: sift @VIEW --reset"),
    (["--fields", "--reset", "a.csv"], "sift: '--reset' needs a view: sift @VIEW --reset"),
    (["--against", "old.csv", "x", "a.csv"],
     "sift: '--against' needs --changes KEY: sift QUERY FILE --changes KEY --against"),
    (["--peek", "x", "a.csv"], "sift: '--peek' needs --changes KEY: sift QUERY FILE --changes KEY --peek"),
    (["--changes", "id", "--sql", "duckdb", "x", "a.csv"],
     "sift: '--changes' runs on sift's own engine: drop --sql or --engine"),
    (["--table", "t", "x", "a.csv"],
     "sift: '--table' needs --sql or --engine: sift --sql duckdb --table NAME QUERY FILE"),
    (["--sql", "duckdb", "@grn", "x"], "sift: --sql and --engine take a QUERY, not @VIEW"),
    (["--engine", "duckdb", "@grn"], "sift: --sql and --engine take a QUERY, not @VIEW"),
    (["--sql", "duckdb", "x", "a.csv", "b.csv"],
     "sift: --sql and --engine need one FILE for the field names and types"),
    (["--sql", "duckdb", "x"], "sift: --sql and --engine need one FILE for the field names and types"),
    (["--sql", "duckdb", "x", "-"], "sift: --sql and --engine need one FILE for the field names and types"),
    (["-c", "sum:qty", "a.csv"],
     "sift: -c cannot be used with sum:; a summary has its own count column"),
    (["--sql", "duckdb", "-c", "group:a avg:qty", "a.csv"],
     "sift: -c cannot be used with avg:; a summary has its own count column"),
    (["-c", "-o", "xlsx", "x", "a.csv"], "sift: -c cannot be used with -o xlsx; a workbook holds records"),
    (["--views", "-c", "-o", "xlsx"], "sift: -c cannot be used with -o xlsx; a workbook holds records"),
    (["--changes", "id", "-c", "x", "a.csv"],
     "sift: --changes cannot be used with -c: it writes the records that changed"),
    (["--now", "yesterday", "x", "a.csv"],
     "sift: --now: 'yesterday' is not a date or date-time (like 2024-06-12 or 2024-06-12T10:00)"),
    (["(status:open", "a.csv"], "sift: query error: unclosed '(': expected ')'"),
    (["@nope", "x"], "sift: no view 'nope' in sift.json"),
    (["--fields", "@nope"], "sift: no view 'nope' in sift.json"),
    (["-c", "@sums"], "sift: -c cannot be used with sum:; a summary has its own count column"),
    (["--reset", "--explain", "@nope"], "sift: no view 'nope' in sift.json"),
  ])
  func refuses(arguments: [String], message: String) {
    #expect(Self.message(arguments) == message)
  }

  @Test func aWorkbookIsRefusedOnATerminalUnlessExplained() {
    #expect(Self.message(["-o", "xlsx", "x", "a.csv"], terminal: true)
      == "sift: -o xlsx writes a binary workbook, not for a terminal")
    #expect(Self.message(["--explain", "-o", "xlsx", "x", "a.csv"], terminal: true) == nil)
  }

  @Test func theScreenNeedsATerminalAndReadsALoneDashAsStandardInput() throws {
    #expect(try Self.resolve(["-i"], terminal: true, keyboard: true).mode == .interactive)
    #expect(Self.message(["-i", "status:open", "a.csv"])
      == "sift: '-i' needs a terminal: standard output must be a terminal")
    let piped = try Self.resolve(["-i", "-"], terminal: true)
    #expect(piped.options.query == "" && piped.options.files == ["-"])
    #expect(Self.message(["-i", "-"], terminal: true, keyboard: true)
      == "sift: '-i' reads standard input (-) from a pipe or a file, and here it is the terminal")
    #expect(Self.message(["-i", "x", "-"], terminal: true, keyboard: true)
      == "sift: '-i' reads standard input (-) from a pipe or a file, and here it is the terminal")
  }

  @Test func nowComesFromTheFlagThenTheEnvironmentThenTheClock() throws {
    let flag = try #require(Clock.parse("2020-01-02"))
    let environment = try #require(Clock.parse("2021-03-04"))
    #expect(try Self.resolve(["--now", "2020-01-02", "x", "a.csv"]).now == flag)
    #expect(try Self.resolve(["x", "a.csv"], environment: ["SIFT_NOW": "2021-03-04"]).now == environment)
    #expect(try Self.resolve(["x", "a.csv"], environment: ["SIFT_NOW": ""]).now == Self.clock)
    #expect(throws: Problem.self) {
      try Self.resolve(["x", "a.csv"], environment: ["SIFT_NOW": "soon"])
    }
    // The modes that read no dates do not check `--now`.
    #expect(try Self.resolve(["--fields", "--now", "soon", "a.csv"]).mode == .fields)
  }

  @Test func aViewIsComposedIntoTheJobWithItsFiles() throws {
    let job = try Self.resolve(["@grn", "qty:>1"])
    #expect(job.query.canonicalForm == "(status = \"open\") AND (qty > 1) sort: date desc")
    #expect(job.options.files == ["grn.csv"])
    #expect(job.view?.view.name == "grn" && job.view?.sourceName == "grn.csv")
    let given = try Self.resolve(["@grn", "--reset", "qty:>1", "dir/other.csv"])
    #expect(given.query.canonicalForm == "(qty > 1) sort: date desc")
    #expect(given.options.files == ["dir/other.csv"] && given.view?.sourceName == "other.csv")
    #expect(try Self.resolve(["--explain", "@grn"]).query.canonicalForm == "(status = \"open\") sort: date desc")
    #expect(try Self.resolve(["--fields", "@grn"]).options.files == ["grn.csv"])
  }

  @Test func withoutAViewTheViewsFileIsNotRead() throws {
    let job = try Self.resolve(["x", "a.csv"], viewsFile: { () throws(Problem) in throw .noViewsFile })
    #expect(job.view == nil && job.options.files == ["a.csv"])
    #expect(throws: Problem.self) {
      try Self.resolve(["@grn"], viewsFile: { () throws(Problem) in throw .noViewsFile })
    }
  }

  @Test func theQueryIsParsedOnceAndTheIntentFollowsCounting() throws {
    let job = try Self.resolve(["-c", "group:status", "a.csv"])
    #expect(job.query.canonicalForm == "group: status")
    #expect(job.intent == .count)
    #expect(try Self.resolve(["status:open", "a.csv"]).intent == .records)
  }
}
