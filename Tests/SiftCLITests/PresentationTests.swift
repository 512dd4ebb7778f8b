import SiftCore
import Testing

@testable import SiftCLI

/// Where the title, the feedback bar and the body of a run go (Docs/Architecture.md,
/// Presentation).
@Suite struct PresentationTests {
  typealias Piece = Presentation.Piece

  /// A run of `query` over three records, two of them `open`.
  static func run(_ query: String, for intent: Plan.Intent = .records) throws -> (Plan, RunSummary, FeedbackBar) {
    let bytes = Array("id,status\n1,open\n2,closed\n3,open\n".utf8)
    let reader = try ReaderFactory.makeReader(
      source: ByteSource(bytes: bytes, name: "input"), format: .csv,
      options: ReaderOptions(name: "input")
    ).reader
    let dataset = Dataset(inputs: [DatasetInput(reader: reader)], parallel: ParallelOptions(workers: 1))
    let plan = try dataset.plan(try Parser.parse(query), now: 0, for: intent)
    let summary = try dataset.run(plan, writer: nil)
    let bar = FeedbackBar(chips: [], summary: summary, limited: false, grouped: !plan.group.isEmpty)
    return (plan, summary, bar)
  }

  static func out(_ text: String) -> Piece { Piece(destination: .standardOutput, bytes: Array(text.utf8)) }
  static func err(_ text: String) -> Piece { Piece(destination: .standardError, bytes: Array(text.utf8)) }
  static func paged(_ text: String) -> Piece { Piece(destination: .pager, bytes: Array(text.utf8)) }

  static let table = "id │ status\n1  │ open\n3  │ open\n"

  @Test func aTableOnATerminalHasTitleAndBarAboveItAndIsPaged() throws {
    let (plan, summary, bar) = try Self.run("status:open")
    let p = Presentation(
      format: .table, title: "Open — input", stdoutIsTerminal: true, stderrIsTerminal: true,
      width: 80)
    let pieces = p.pieces(plan, summary, bar: bar, body: Array(Self.table.utf8))
    let barLine = bar.render(FeedbackBar.Style(width: 80))
    #expect(pieces == [Self.paged("Open — input\n" + barLine + "\n" + Self.table)])
    #expect(p.laysOutBody && p.tableOnTerminal)
  }

  @Test func aTableToAPipeHasItsBarOnStandardErrorAndNoTitle() throws {
    let (plan, summary, bar) = try Self.run("status:open")
    let p = Presentation(format: .table, summary: .text, title: "Open")
    let pieces = p.pieces(plan, summary, bar: bar, body: Array(Self.table.utf8))
    #expect(pieces == [Self.err(bar.sentence() + "\n"), Self.out(Self.table)])
    #expect(!p.tableOnTerminal)
  }

  @Test func csvToAPipeStreamsAndPutsTheBarOnStandardError() throws {
    let (plan, summary, bar) = try Self.run("status:open")
    let p = Presentation(format: .csv, title: "Open", stdoutIsTerminal: false, stderrIsTerminal: true, width: 80)
    #expect(!p.laysOutBody)
    let pieces = p.pieces(plan, summary, bar: bar, body: nil)
    #expect(pieces == [Self.err(bar.render(FeedbackBar.Style(width: 80)) + "\n")])
  }

  @Test func markdownHasTitleAndBarInItsBody() throws {
    let (plan, summary, bar) = try Self.run("status:open")
    let p = Presentation(format: .markdown, title: "Open", stdoutIsTerminal: true, stderrIsTerminal: true, width: 80)
    let body = "| id | status |\n"
    let pieces = p.pieces(plan, summary, bar: bar, body: Array(body.utf8))
    // The bar in the body is plain text without the terminal's width, whatever stdout is.
    #expect(pieces == [Self.out("# Open\n\n" + bar.render(FeedbackBar.Style()) + "\n\n"), Self.out(body)])
  }

  @Test func anHTMLReportIsOneDocumentOnStandardOutputWithTheBarInside() throws {
    let (plan, summary, bar) = try Self.run("status:open")
    var p = Presentation(format: .html, stdoutIsTerminal: true, stderrIsTerminal: true, width: 80)
    let report = HTMLReport(title: nil, subtitle: "input", made: 0, commandLine: "sift status:open")
    p.report = report
    let body = "<table></table>\n"
    let pieces = p.pieces(plan, summary, bar: bar, body: Array(body.utf8))
    // Nothing on standard error or through the pager, even on terminals: the bar is in the report.
    #expect(pieces == [
      Piece(destination: .standardOutput, bytes: report.start(bar: bar)), Self.out(body),
      Piece(destination: .standardOutput, bytes: report.end()),
    ])
    p.summary = .none
    #expect(p.pieces(plan, summary, bar: bar, body: [])[0].bytes == report.start(bar: nil))
  }

  @Test func countToAPipeIsTheNumberAndTheBarOnStandardError() throws {
    let (plan, summary, bar) = try Self.run("status:open", for: .count)
    let p = Presentation(format: .csv, summary: .text)
    #expect(p.pieces(plan, summary, bar: bar, body: nil) == [Self.out("2\n"), Self.err(bar.sentence() + "\n")])
  }

  @Test func countOfGroupsToAPipeIsAValueAndCountPerLine() throws {
    let (plan, summary, bar) = try Self.run("group:status", for: .count)
    let p = Presentation(format: .csv, summary: .none)
    #expect(p.pieces(plan, summary, bar: bar, body: nil) == [Self.out("closed\t1\nopen\t2\n")])
  }

  @Test func countOnATerminalIsATableUnderTheBar() throws {
    let (plan, summary, bar) = try Self.run("status:open", for: .count)
    let p = Presentation(
      format: .table, summary: .json, stdoutIsTerminal: true, width: 80)
    #expect(p.pieces(plan, summary, bar: bar, body: []) == [Self.paged(bar.json() + "\n2\n")])
  }

  @Test(arguments: [SummaryStyle.none, .json, .text])
  func summaryFormsOnStandardError(style: SummaryStyle) throws {
    let (plan, summary, bar) = try Self.run("status:open")
    let p = Presentation(format: .ndjson, summary: style)
    let pieces = p.pieces(plan, summary, bar: bar, body: nil)
    switch style {
    case .none: #expect(pieces.isEmpty)
    case .json:
      #expect(pieces == [Self.err(bar.json() + "\n")])
      #expect(pieces.first?.text.hasPrefix("{") == true)
    default: #expect(pieces == [Self.err(bar.sentence() + "\n")])
    }
  }
}
