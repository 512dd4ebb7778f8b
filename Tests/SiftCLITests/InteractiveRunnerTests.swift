#if canImport(Glibc)
  import Glibc
#endif
import SiftCore
import SiftScreen
import Testing

@testable import SiftCLI

/// The interactive screen's runs (Docs/Interactive.md, Runs) over the sample data.
@Suite struct InteractiveRunnerTests {
  private func runner(views: [View?] = [nil], files: [String]) -> InteractiveRunner {
    var options = Options()
    options.files = files
    let context = ProcessContext(
      arguments: [], environment: ["LANG": "C.UTF-8"], stdin: ByteSource(bytes: [], name: "stdin"),
      stdout: MemorySink(), stderr: MemorySink())
    return InteractiveRunner(
      views: views, viewsFile: "SampleData/sift.json", options: options, frontend: Frontend(context: context),
      now: Clock.parse("2024-06-12T12:00")!, unicode: true, problem: nil)
  }

  private func run(
    _ runner: InteractiveRunner, _ query: String, _ purpose: RunRequest.Purpose = .list
  ) -> RunOutcome {
    runner.run(
      RunRequest(id: 7, view: 0, purpose: purpose, query: query, afterPause: false),
      cancellation: RunCancellation(), progress: { _ in })
  }

  private func views() throws -> [View?] {
    let source = try ByteSource(path: "SampleData/sift.json")
    var bytes: [UInt8] = []
    while try source.read(into: &bytes, maxCount: 1 << 16) > 0 {}
    return try ViewsFile.parse(bytes, path: "SampleData/sift.json").views
  }

  @Test func aListRunKeepsTheMatchesAsShownTextWithTheBarsChips() throws {
    let outcome = run(runner(files: ["SampleData/grn.csv"]), "status:received")
    guard case .list(let id, let list) = outcome else { Issue.record("\(outcome)"); return }
    #expect(id == 7)
    #expect(list.summary.matched == 874 && list.summary.total == 1500)
    #expect(list.rows.count == 874)
    #expect(list.columns.first == "grn_no")
    #expect(list.rows.allSatisfy { $0[2] == "received" })
    #expect(list.chips.map { $0.text } == ["received"] && list.chips.map { $0.label } == ["Status"])
    #expect(list.fields.map { $0.name }.contains("qty"))
  }

  @Test func aViewsRunComposesItsQueryAndSortAndShowsItsInactiveFastFilters() throws {
    let all = try views()
    let outcome = run(runner(views: [all[0]], files: []), "")
    guard case .list(_, let list) = outcome else { Issue.record("\(outcome)"); return }
    #expect(list.sort.first?.field == "date" && list.sort.first?.descending == true)
    #expect(list.chips.filter { !$0.active }.map { $0.label } == ["Status", "Customer", "Items"])
  }

  @Test func theValuesOfAFieldComeMostFrequentFirst() {
    let outcome = run(runner(files: ["SampleData/grn.csv"]), "", .values(field: "status"))
    guard case .values(_, let field, let values, let complete) = outcome else {
      Issue.record("\(outcome)")
      return
    }
    #expect(field == "status" && complete)
    #expect(values.first == ValueCount(value: "received", count: 874))
    #expect(values.map(\.count) == values.map(\.count).sorted(by: >))
    #expect(values.reduce(0) { $0 + $1.count } == 1500)
  }

  @Test func aBadgeCountsTheViewsBadgeQuery() throws {
    let outcome = run(runner(views: [try views()[0]], files: []), "", .badge)
    guard case .badge(_, let count) = outcome else { Issue.record("\(outcome)"); return }
    #expect(count == 330)
  }

  /// The caret's span counts characters, not bytes: `ü` is one.
  @Test func anUnknownFieldPointsAtItsCharactersInTheTypedQuery() {
    let outcome = run(runner(files: ["SampleData/grn.csv"]), "\"ü\" nosuch:1")
    guard case .queryError(_, let message, let span) = outcome else { Issue.record("\(outcome)"); return }
    #expect(message.contains("nosuch"))
    #expect(span?.lowerBound == 4)
  }

  @Test func aSyntaxErrorPointsIntoTheTypedQuery() {
    let outcome = run(runner(files: ["SampleData/grn.csv"]), "status:")
    guard case .queryError(_, _, let span) = outcome else { Issue.record("\(outcome)"); return }
    #expect(span != nil)
  }

  @Test func aMissingSourceIsASourceError() {
    let outcome = run(runner(files: ["SampleData/missing.csv"]), "")
    guard case .sourceError(_, let message) = outcome else { Issue.record("\(outcome)"); return }
    #expect(message.hasPrefix("sift: SampleData/missing.csv: "))
  }

  /// The records before a malformed one stay, its message in the list area, and the bar counts
  /// the records read before it (Docs/Interactive.md, List).
  @Test func anInputErrorKeepsTheRowsBeforeIt() {
    let outcome = run(runner(files: ["Tests/SiftCLITests/Fixtures/bad.ndjson"]), "")
    guard case .list(_, let list) = outcome else { Issue.record("\(outcome)"); return }
    #expect(list.rows.count == 2)
    #expect(list.summary.total == 2)
    #expect(list.summary.matched == 2)
    #expect(list.inputError?.hasPrefix("sift: Tests/SiftCLITests/Fixtures/bad.ndjson:4:") == true)
  }

  /// A stale run stops at its next batch instead of reading the whole file.
  @Test func aCancelledRunStopsEarly() throws {
    let path = "/tmp/sift-interactive-\(getpid()).csv"
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    try #require(fd >= 0)
    defer { unlink(path) }
    var text = "id,qty\n"
    for i in 0..<300_000 { text += "\(i),\(i % 97)\n" }
    try text.withUTF8 { try DescriptorSink(fd: fd).write($0) }
    close(fd)
    let cancelled = RunCancellation()
    cancelled.cancel()
    let outcome = runner(files: [path]).run(
      RunRequest(id: 1, view: 0, purpose: .list, query: "sort:qty", afterPause: false),
      cancellation: cancelled, progress: { _ in })
    guard case .list(_, let list) = outcome else { Issue.record("\(outcome)"); return }
    #expect(list.summary.total < 300_000)
    #expect(list.rows.isEmpty)
  }

  /// Each run after the first reads the file again: the second query sees every record.
  @Test func theDatasetServesManyRuns() {
    let runner = runner(files: ["SampleData/grn.csv"])
    _ = run(runner, "status:received")
    guard case .list(_, let list) = run(runner, "status:pending") else { Issue.record(); return }
    #expect(list.summary.total == 1500 && list.summary.matched == 330)
  }

  /// Standard input from a pipe still open (Docs/Interactive.md, Piped standard input): each list
  /// run is over the records arrived so far (never half a line), with what has arrived; the same
  /// query is given again while nothing new has arrived; once the pipe ends, the whole input.
  @Test func aPipeStillOpenIsListedAsItArrives() throws {
    var ends: [Int32] = [-1, -1]
    try #require(pipe(&ends) == 0)
    defer { close(ends[0]) }
    let context = ProcessContext(
      arguments: [], environment: ["LANG": "C.UTF-8"],
      stdin: ByteSource(fileDescriptor: ends[0], name: "stdin"), stdout: MemorySink(),
      stderr: MemorySink())
    let runner = InteractiveRunner(
      views: [nil], viewsFile: "", options: Options(), frontend: Frontend(context: context),
      now: Clock.parse("2024-06-12T12:00")!, unicode: true, problem: nil)
    func send(_ text: String) {
      _ = Array(text.utf8).withUnsafeBytes { write(ends[1], $0.baseAddress, $0.count) }
    }
    var next = 1
    /// The list of `query` once `until` holds of it (the reading thread is its own), within 5 s.
    func list(_ query: String, until: (ListResult) -> Bool) -> ListResult? {
      for _ in 0..<250 {
        next += 1
        let outcome = runner.run(
          RunRequest(id: next, view: 0, purpose: .list, query: query, afterPause: false),
          cancellation: RunCancellation(), progress: { _ in })
        if case .list(_, let result) = outcome, until(result) { return result }
        usleep(20_000)
      }
      return nil
    }
    send("id,status\n1,open\n2,done\n3,op")
    let first = try #require(list("") { $0.rows.count == 2 })
    #expect(first.rows.map { $0[0] } == ["1", "2"], "the line not ended waits")
    #expect(first.arriving?.lines == 3 && first.arriving?.bytes == 28 && first.summary.total == 2)
    #expect(first.inputError == nil)
    send("en\n4,open\n")
    // Given again at once, not run: its counts are those of now, its rows those of its run.
    let again = try #require(list("") { $0.arriving?.lines == 5 })
    #expect(again.rows.count == 2)
    let typed = try #require(list("status:open") { _ in true })
    #expect(typed.rows.map { $0[0] } == ["1", "3", "4"], "another query runs over all that arrived")
    #expect(typed.summary.total == 4 && typed.arriving != nil)
    let followed = try #require(list("") { $0.rows.count == 4 }, "run again once due")
    #expect(followed.arriving?.ended == false)
    send("5,done\n")
    close(ends[1])
    let whole = try #require(list("") { $0.arriving == nil })
    #expect(whole.rows.map { $0[0] } == ["1", "2", "3", "4", "5"])
    #expect(whole.summary.total == 5)
  }

  /// A window of the result further down (Docs/Interactive.md, List): the rows from `firstRow`
  /// on, the same as the whole result's there; a group begun before it has its heading first.
  @Test func aWindowKeepsTheRowsFromItsFirstRowOn() throws {
    let runner = runner(files: ["SampleData/grn.csv"])
    func list(_ query: String, firstRow: Int) -> ListResult? {
      let outcome = runner.run(
        RunRequest(id: 1, view: 0, purpose: .list, query: query, afterPause: false, firstRow: firstRow),
        cancellation: RunCancellation(), progress: { _ in })
      if case .list(_, let result) = outcome { return result }
      Issue.record("\(outcome)")
      return nil
    }
    let whole = try #require(list("status:received", firstRow: 0))
    let window = try #require(list("status:received", firstRow: 870))
    #expect(window.firstRow == 870 && window.summary.shown == 874)
    #expect(window.rows == Array(whole.rows[870...]))
    let grouped = try #require(list("group:status", firstRow: 0))
    let inside = try #require(list("group:status", firstRow: 100))
    let begun = try #require(grouped.groups.last { $0.row <= 100 })
    #expect(inside.groups.first?.row == 0)
    #expect(inside.groups.first.map { "\($0.heading)" } == "\(begun.heading)")
    #expect(inside.rows == Array(grouped.rows[100...]))
    #expect(inside.groups.dropFirst().map(\.row) == grouped.groups.filter { $0.row > 100 }.map { $0.row - 100 })
  }

  /// A fresh path in a folder of its own, removed with `cleanup`.
  private func exportPath(_ name: String) -> (path: String, cleanup: () -> Void) {
    var template = Array("/tmp/sift-export-XXXXXX".utf8CString)
    let folder = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
    let path = folder + "/" + name
    return (path, { unlink(path); rmdir(folder) })
  }

  private func contents(_ path: String) throws -> String {
    let source = try ByteSource(path: path)
    var bytes: [UInt8] = []
    while try source.read(into: &bytes, maxCount: 1 << 16) > 0 {}
    return String(decoding: bytes, as: UTF8.self)
  }

  @Test func anExportWritesEveryRecordOfTheResultThroughTheFormatsWriter() throws {
    let (path, cleanup) = exportPath("received.ndjson")
    defer { cleanup() }
    let order = ExportOrder(path: path, format: .ndjson, records: nil, replace: false)
    let outcome = run(runner(files: ["SampleData/grn.csv"]), "status:received", .export(order))
    guard case .exported(let id, let written, let records) = outcome else { Issue.record("\(outcome)"); return }
    #expect(id == 7 && written == path && records == 874)
    let lines = try contents(path).split(separator: "\n")
    #expect(lines.count == 874)
    #expect(lines.allSatisfy { $0.contains("\"status\":\"received\"") })
  }

  @Test func anExportOfMarkedRecordsWritesThoseAloneInTheListsOrder() throws {
    let (path, cleanup) = exportPath("two.csv")
    defer { cleanup() }
    let runner = runner(files: ["SampleData/grn.csv"])
    guard case .list(_, let list) = run(runner, "status:received sort:grn_no") else { Issue.record("no list"); return }
    let order = ExportOrder(path: path, format: .csv, records: [3, 0], replace: false)
    let outcome = run(runner, "status:received sort:grn_no", .export(order))
    guard case .exported(_, _, let records) = outcome else { Issue.record("\(outcome)"); return }
    #expect(records == 2)
    let lines = try contents(path).split(separator: "\n")
    #expect(lines.count == 3)
    #expect(lines[1].hasPrefix(list.rows[0][0] + ","))
    #expect(lines[2].hasPrefix(list.rows[3][0] + ","))
  }

  @Test func anExistingFileIsReplacedOnlyWhenAskedTo() throws {
    let (path, cleanup) = exportPath("grn.md")
    defer { cleanup() }
    let runner = runner(files: ["SampleData/grn.csv"])
    let first = ExportOrder(path: path, format: .markdown, records: nil, replace: false)
    guard case .exported = run(runner, "status:cancelled", .export(first)) else { Issue.record("not written"); return }
    let written = try contents(path)
    #expect(written.hasPrefix("| grn_no |"))
    let refused = run(runner, "status:received", .export(first))
    guard case .exportRefused(_, _, let exists, _) = refused else { Issue.record("\(refused)"); return }
    #expect(exists)
    #expect(try contents(path) == written)
    var replace = first
    replace.replace = true
    guard case .exported(_, _, 874) = run(runner, "status:received", .export(replace)) else {
      Issue.record("not replaced"); return
    }
  }

  @Test func anExportIntoAFolderThatIsNotThereSaysWhy() {
    let order = ExportOrder(path: "/nonexistent/folder/x.csv", format: .csv, records: nil, replace: false)
    let outcome = run(runner(files: ["SampleData/grn.csv"]), "", .export(order))
    guard case .exportRefused(_, let path, let exists, let message) = outcome else { Issue.record("\(outcome)"); return }
    #expect(path == "/nonexistent/folder/x.csv" && !exists)
    #expect(message == "sift: /nonexistent/folder/x.csv: No such file or directory")
  }

  @Test func anXLSXExportIsAWholeWorkbook() throws {
    let (path, cleanup) = exportPath("grn.xlsx")
    defer { cleanup() }
    let order = ExportOrder(path: path, format: .xlsx, records: nil, replace: false)
    guard case .exported(_, _, 874) = run(runner(files: ["SampleData/grn.csv"]), "status:received", .export(order)) else {
      Issue.record("not written"); return
    }
    let source = try ByteSource(path: path)
    var bytes: [UInt8] = []
    while try source.read(into: &bytes, maxCount: 1 << 16) > 0 {}
    // A zip: its local header first, its end of central directory record at the end.
    #expect(bytes.prefix(4) == [0x50, 0x4B, 0x03, 0x04])
    #expect(bytes.suffix(22).prefix(4) == [0x50, 0x4B, 0x05, 0x06])
  }
}
