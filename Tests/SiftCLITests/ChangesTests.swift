// `--changes` over several runs (Docs/Reports.md, "Changes since the last run"): each test runs
// sift in-process against its own state directory.

import Foundation
import SiftCore
import Synchronization
import Testing

@testable import SiftCLI

/// A state directory and an input file of their own, removed at the end.
final class ChangesBench: Sendable {
  let folder: URL
  var state: String { folder.appendingPathComponent("state").path }
  var input: String { folder.appendingPathComponent("holds.csv").path }

  init() throws {
    folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "sift-changes-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  }

  deinit { try? FileManager.default.removeItem(at: folder) }

  /// Writes the input as CSV with a header `grn_no,status,qty`.
  func write(_ rows: [(String, String, Int)]) throws {
    let text = "grn_no,status,qty\n" + rows.map { "\($0.0),\($0.1),\($0.2)\n" }.joined()
    try Data(text.utf8).write(to: URL(fileURLWithPath: input))
  }

  /// One run of `sift --changes grn_no … QUERY holds.csv` with this state directory (`-q` unless
  /// `quiet` is false), and `environment` besides.
  func run(
    _ extra: [String] = [], query: String = "", now: String = "2026-11-24T06:00", quiet: Bool = true,
    environment: [String: String] = [:]
  ) -> SiftResult {
    sift(
      ["--changes", "grn_no", "-o", "csv"] + (quiet ? ["-q"] : []) + extra + [query, input],
      environment: ["LANG": "C.UTF-8", "SIFT_STATE_DIR": state, "SIFT_NOW": now]
        .merging(environment) { $1 })
  }

  /// The state files, by name, with their bytes.
  func stateFiles() -> [String: Data] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: state)) ?? []
    var out: [String: Data] = [:]
    for n in names where n.hasSuffix(".changes") {
      out[n] = FileManager.default.contents(atPath: state + "/" + n)
    }
    return out
  }
}

/// The `change,grn_no` pairs of a CSV output, in its order.
private func inOrder(_ result: SiftResult) -> [String] {
  result.text.split(separator: "\n").dropFirst().map { line in
    line.split(separator: ",", omittingEmptySubsequences: false).prefix(2).joined(separator: ",")
  }
}

/// The `change,grn_no` pairs of a CSV output, sorted.
private func changes(_ result: SiftResult) -> [String] {
  result.text.split(separator: "\n").dropFirst().map { line in
    line.split(separator: ",", omittingEmptySubsequences: false).prefix(2).joined(separator: ",")
  }.sorted()
}

@Suite struct ChangesTests {
  @Test func firstRunIsAllNewThenNothingChangedThenTheEdits() throws {
    let bench = try ChangesBench()
    try bench.write([("G1", "hold", 5), ("G2", "hold", 3), ("G3", "released", 1)])
    let first = bench.run()
    #expect(first.status == .matched)
    #expect(changes(first) == ["new,G1", "new,G2", "new,G3"])
    let second = bench.run(now: "2026-11-25T06:00")
    #expect(second.status == .noMatch, "nothing changed: exit 1")
    #expect(second.text == "change,grn_no,status,qty,was\n")
    try bench.write([("G1", "released", 5), ("G3", "released", 1), ("G4", "hold", 9)])
    let third = bench.run()
    #expect(third.status == .matched)
    #expect(
      third.text == """
        change,grn_no,status,qty,was
        changed,G1,released,5,status=hold
        new,G4,hold,9,
        gone,G2,hold,3,

        """)
  }

  @Test func peekLooksWithoutMovingTheBaseline() throws {
    let bench = try ChangesBench()
    try bench.write([("G1", "hold", 5)])
    _ = bench.run()
    let before = bench.stateFiles()
    try bench.write([("G1", "hold", 6)])
    #expect(changes(bench.run(["--peek"])) == ["changed,G1"])
    #expect(bench.stateFiles() == before)
    #expect(changes(bench.run(["--peek"])) == ["changed,G1"], "still against the same baseline")
  }

  @Test func aFailedRunLeavesTheBaselineAsItWas() throws {
    let bench = try ChangesBench()
    try bench.write([("G1", "hold", 5), ("G2", "hold", 3)])
    _ = bench.run()
    let before = bench.stateFiles()
    #expect(before.count == 1)
    // A key that repeats stops the run with exit 2, after the records before it.
    try bench.write([("G1", "hold", 6), ("G1", "hold", 7)])
    let failed = bench.run()
    #expect(failed.status == .error)
    #expect(failed.stderr.contains("the key grn_no=G1 repeats: \(bench.input):2 and \(bench.input):3 have it"))
    #expect(bench.stateFiles() == before)
    // A run cut short by a malformed record too.
    try Data("grn_no,status,qty\nG1,hold,6\nG2,\"hold\n".utf8).write(
      to: URL(fileURLWithPath: bench.input))
    #expect(bench.run().status == .error)
    #expect(bench.stateFiles() == before)
    try bench.write([("G1", "hold", 6), ("G2", "hold", 3)])
    #expect(changes(bench.run()) == ["changed,G1"], "compared with the first run's records")
  }

  @Test func anUnwritableStateDirectoryIsExit2BeforeAnyOutput() throws {
    let bench = try ChangesBench()
    try bench.write([("G1", "hold", 5)])
    // A state directory under a file cannot be made, even by root.
    let underAFile = sift(
      ["--changes", "grn_no", "", bench.input],
      environment: ["LANG": "C.UTF-8", "SIFT_STATE_DIR": bench.input + "/state"])
    #expect(underAFile.status == .error)
    #expect(underAFile.stdout.isEmpty)
    #expect(underAFile.stderr.contains("cannot write the state of --changes in \(bench.input)/state"))
    // A state file whose new baseline cannot be written: the old one stays.
    _ = bench.run()
    let before = bench.stateFiles()
    let (name, _) = try #require(before.first)
    try FileManager.default.createDirectory(
      atPath: bench.state + "/" + name + ".tmp", withIntermediateDirectories: false)
    try bench.write([("G1", "hold", 6)])
    let result = bench.run()
    #expect(result.status == .error)
    #expect(result.stdout.isEmpty)
    #expect(result.stderr.contains("the baseline is unchanged"))
    #expect(bench.stateFiles() == before)
  }

  @Test func aDamagedStateFileIsExit2WithTheCommandToStartOver() throws {
    let bench = try ChangesBench()
    try bench.write([("G1", "hold", 5)])
    _ = bench.run()
    let (name, bytes) = try #require(bench.stateFiles().first)
    var damaged = bytes
    damaged[damaged.count / 2] ^= 0xff
    try damaged.write(to: URL(fileURLWithPath: bench.state + "/" + name))
    let result = bench.run()
    #expect(result.status == .error)
    #expect(result.stdout.isEmpty)
    #expect(result.stderr.contains("is damaged"))
    #expect(result.stderr.contains("rm '\(bench.state)/\(name)'"))
    #expect(bench.stateFiles()[name] == damaged, "never silently replaced")
  }

  @Test func aRunWithNothingChangedWritesOnlyItsTimeBesideTheState() throws {
    let bench = try ChangesBench()
    try bench.write([("G1", "hold", 5), ("G2", "hold", 3)])
    _ = bench.run(now: "2026-11-24T06:00")
    let first = bench.stateFiles()
    let (name, _) = try #require(first.first)
    let sincePath = bench.state + "/" + name + ".since"
    func since(_ result: SiftResult) -> String? {
      guard let r = result.stderr.range(of: #""since":""#) else { return nil }
      return String(result.stderr[r.upperBound...].prefix { $0 != "\"" })
    }
    // Nothing changed: the state file keeps its bytes, and the run's time goes beside it.
    let quiet = bench.run(["--summary", "json"], now: "2026-11-25T06:00", quiet: false)
    #expect(quiet.status == .noMatch)
    #expect(since(quiet) == "2026-11-24 06:00")
    #expect(bench.stateFiles() == first)
    #expect(FileManager.default.fileExists(atPath: sincePath))
    // The next run's bar says since that run, though the state file is the first run's.
    let again = bench.run(["--summary", "json"], now: "2026-11-26T06:00", quiet: false)
    #expect(again.status == .noMatch)
    #expect(since(again) == "2026-11-25 06:00")
    #expect(bench.stateFiles() == first)
    // A change writes a new state and drops the time beside the old one.
    try bench.write([("G1", "released", 5), ("G2", "hold", 3)])
    let edited = bench.run(["--summary", "json"], now: "2026-11-27T06:00", quiet: false)
    #expect(changes(edited) == ["changed,G1"])
    #expect(since(edited) == "2026-11-26 06:00")
    #expect(bench.stateFiles() != first)
    #expect(!FileManager.default.fileExists(atPath: sincePath))
    #expect(since(bench.run(["--summary", "json"], now: "2026-11-28T06:00", quiet: false)) == "2026-11-27 06:00")
    // A damaged time file is exit 2 with the command to start over, like a damaged state.
    _ = bench.run(now: "2026-11-29T06:00")
    var bytes = try Data(contentsOf: URL(fileURLWithPath: sincePath))
    bytes[bytes.count / 2] ^= 0xff
    try bytes.write(to: URL(fileURLWithPath: sincePath))
    let damaged = bench.run()
    #expect(damaged.status == .error)
    #expect(damaged.stderr.contains("is damaged"))
    #expect(damaged.stderr.contains("rm '\(sincePath)'"))
  }

  /// Records gone from the middle are found passed over a few records on; one of them met again
  /// later (moved to the end) is not gone, and a key that repeats is still found.
  @Test func recordsGoneFromTheMiddleAndOneMovedToTheEnd() throws {
    let bench = try ChangesBench()
    let all = (0..<100).map { ("G\($0)", "hold", $0) }
    try bench.write(all)
    _ = bench.run()
    var edited = all.filter { !["G10", "G11", "G20", "G50"].contains($0.0) }
    edited[edited.firstIndex { $0.0 == "G70" }!].1 = "released"
    edited.append(("G20", "hold", 20))
    try bench.write(edited)
    #expect(changes(bench.run(["--peek"])) == ["changed,G70", "gone,G10", "gone,G11", "gone,G50"])
    edited.append(("G30", "hold", 30))
    try bench.write(edited)
    let repeated = bench.run(["--peek"])
    #expect(repeated.status == .error)
    #expect(repeated.stderr.contains("the key grn_no=G30 repeats"))
  }

  /// Night after night of a few edits: each run reports exactly its edits, and keeps the state
  /// file as it is, with the edits beside it (`NAME.since`); a run in another order writes the
  /// whole state again, after which a time file beside the old state is void; a damaged edits
  /// file is exit 2 with the command to start over (Docs/Reports.md, The state).
  @Test(arguments: [11, 12, 13] as [UInt64])
  func nightsOfAFewEditsKeepTheStateFileAndTheEditsBesideIt(seed: UInt64) throws {
    var random = SeededRandom(seed: seed)
    let bench = try ChangesBench()
    var rows = (0..<400).map { ("K\($0)", "hold", Int(random.next() % 100)) }
    try bench.write(rows)
    _ = bench.run(now: "2026-11-01T06:00")
    let first = bench.stateFiles()
    let (name, _) = try #require(first.first)
    let sincePath = bench.state + "/" + name + ".since"
    var nextKey = 1000
    for night in 2...8 {
      var expected: [String] = []
      for _ in 0..<Int(random.next() % 3 + 1) {
        randomEdit(&rows, expected: &expected, nextKey: &nextKey, random: &random)
      }
      try bench.write(rows)
      let result = bench.run(now: "2026-11-0\(night)T06:00")
      #expect(changes(result) == expected.sorted(), "night \(night)")
      #expect(bench.stateFiles() == first, "night \(night): the state file kept")
      #expect(FileManager.default.fileExists(atPath: sincePath))
    }
    let edits = try Data(contentsOf: URL(fileURLWithPath: sincePath))
    #expect(bench.run(now: "2026-11-09T06:00").status == .noMatch)
    // Another order: the whole state again, and the edits beside the old one are void.
    rows.reverse()
    try bench.write(rows)
    #expect(bench.run(now: "2026-11-10T06:00").status == .noMatch)
    #expect(bench.stateFiles() != first)
    #expect(!FileManager.default.fileExists(atPath: sincePath))
    try edits.write(to: URL(fileURLWithPath: sincePath))
    rows[0].2 += 1000
    try bench.write(rows)
    #expect(changes(bench.run(now: "2026-11-11T06:00")) == ["changed,\(rows[0].0)"])
    // A damaged edits file: exit 2, the command to start over.
    var damaged = try Data(contentsOf: URL(fileURLWithPath: sincePath))
    damaged[damaged.count / 2] ^= 0xff
    try damaged.write(to: URL(fileURLWithPath: sincePath))
    let refused = bench.run()
    #expect(refused.status == .error)
    #expect(refused.stderr.contains("is damaged") && refused.stderr.contains("rm '\(sincePath)'"))
  }

  /// A new record first (its key neither where the baseline's order says nor a few records on),
  /// one moved earlier unchanged and one moved and changed: their keys are settled at the end of
  /// the run, without the key table, and the rows still come in the run's order, in CSV and in
  /// HTML (struck through); more new records than are held build the table and give the same
  /// rows; a malformed record after them lets the rows before it out; a held key that a later
  /// record has is the error naming both, in order (Docs/Performance.md, "New records without
  /// the key table").
  @Test func newAndMovedRecordsComeInTheRunsOrder() throws {
    let bench = try ChangesBench()
    let all = (0..<100).map { ("K\($0)", "hold", $0) }
    try bench.write(all)
    _ = bench.run()
    var edited = [("N1", "new", 1), ("K50", "hold", 50), ("K60", "released", 60)]
    for row in all where !["K50", "K60", "K30"].contains(row.0) {
      edited.append(row.0 == "K20" ? ("K20", "released", 20) : row)
    }
    try bench.write(edited)
    let expected = ["new,N1", "changed,K60", "changed,K20", "gone,K30"]
    #expect(inOrder(bench.run(["--peek"])) == expected)
    let html = bench.run(["--peek", "-o", "html"]).text
    let places = ["N1", "K60", "K20", "K30"].map { html.range(of: ">\($0)<")?.lowerBound }
    #expect(places.allSatisfy { $0 != nil } && places == places.sorted { $0! < $1! })
    #expect(html.components(separatedBy: "<del").count == 3)
    // More new records than are held: the key table settles them, the same rows in order.
    var many = edited
    for n in 0..<100 { many.insert(("M\(n)", "new", n), at: 2 * n + 1) }
    try bench.write(many)
    let manyRows = inOrder(bench.run(["--peek"]))
    #expect(manyRows.count == 104)
    #expect(manyRows.filter { !$0.hasPrefix("new,M") } == expected)
    #expect(manyRows.filter { $0.hasPrefix("new,M") } == (0..<100).map { "new,M\($0)" })
    // A malformed record after them: the rows before it, in order, then the error.
    let text = "grn_no,status,qty\n" + edited.prefix(50).map { "\($0.0),\($0.1),\($0.2)\n" }.joined()
    try Data((text + "K99,\"hold,99\n").utf8).write(to: URL(fileURLWithPath: bench.input))
    let malformed = bench.run(["--peek"])
    #expect(malformed.status == .error)
    #expect(inOrder(malformed) == ["new,N1", "changed,K60", "changed,K20"])
    // A held key that a later record has: both records named, in order.
    try bench.write([("K70", "hold", 1)] + all)
    let repeated = bench.run(["--peek"])
    #expect(repeated.status == .error)
    #expect(repeated.stderr.contains("the key grn_no=K70 repeats: \(bench.input):2 and \(bench.input):73"))
  }

  /// `--against` an earlier export reports what a `--peek` at the state of a first run over
  /// that export reports: with enough new records that the key table is needed (the earlier
  /// export's own table taken as the baseline's, Docs/Performance.md, "Comparing with an earlier
  /// export"), moved, changed and gone ones, on one thread and in parts; and a key that repeats
  /// is the same error.
  @Test(arguments: [["-j", "1"], ["-j", "2"]])
  func againstAnEarlierExportReportsWhatPeekReports(threads: [String]) throws {
    let bench = try ChangesBench()
    let old = (0..<3000).map { ("K\($0)", $0 % 7 == 0 ? "hold" : "received", $0) }
    try bench.write(old)
    let earlier = bench.folder.appendingPathComponent("earlier.csv").path
    try FileManager.default.copyItem(atPath: bench.input, toPath: earlier)
    let parts = ["SIFT_PART_SIZE": "4K"]
    for query in ["", "status:hold"] { _ = bench.run(threads, query: query, environment: parts) }
    var edited: [(String, String, Int)] = []
    for (i, row) in old.enumerated() where i % 30 != 5 {
      if i % 25 == 0 { edited.append(("N\(i)", "new", i)) }
      edited.append(i % 40 == 3 ? (row.0, "released", row.2) : row)
    }
    edited.append(old[7])
    edited.remove(at: 7)
    try bench.write(edited)
    for query in ["", "status:hold"] {
      let peek = bench.run(threads + ["--peek"], query: query, environment: parts)
      let against = bench.run(threads + ["--against", earlier], query: query, environment: parts)
      #expect(peek.status == .matched && against.status == .matched, "\(threads) \(query)")
      #expect(against.text == peek.text, "\(threads) \(query)")
      if query.isEmpty {
        let counts = Dictionary(grouping: changes(against)) { String($0.prefix { $0 != "," }) }
          .mapValues(\.count)
        #expect(counts == ["new": 100, "changed": 75, "gone": 100])
      }
    }
    try bench.write(edited + [("K100", "received", 1)])
    let peek = bench.run(threads + ["--peek"], environment: parts)
    let against = bench.run(threads + ["--against", earlier], environment: parts)
    #expect(against.status == .error && peek.status == .error)
    #expect(against.text == peek.text)
    #expect(against.stderr == peek.stderr)
  }

  /// CSV rows of `new`, `changed` and `gone` records written as their own text (copied whole by
  /// the writer) read back as the records the NDJSON output writes: values with `,`, quotes,
  /// line ends, spaces and none (Docs/Performance.md, "Rows as text"; a gone record whose values
  /// were not kept: ChangeTrackerTests).
  @Test func rowsWrittenAsTextReadBackAsTheRecords() throws {
    let bench = try ChangesBench()
    let odd = ["a,b", "say \"hi\"", "line1\nline2", "", " spaced ", "x\r\ny", "\"", ","]
    func write(_ rows: [(String, String, String)]) throws {
      func field(_ v: String) -> String {
 v.unicodeScalars.contains(where: { ",\"\r\n".unicodeScalars.contains($0) }) ? "\"" + v.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : v
      }
      let text = "grn_no,status,note\n" + rows.map { "\(field($0.0)),\(field($0.1)),\(field($0.2))\n" }.joined()
      try Data(text.utf8).write(to: URL(fileURLWithPath: bench.input))
    }
    var rows = (0..<40).map { ("K\($0)", odd[$0 % odd.count], odd[($0 + 3) % odd.count]) }
    try write(rows)
    _ = bench.run()
    rows[3].1 = "now, \"quoted\""
    rows[5].2 = ""
    rows.remove(at: 20)
    rows.remove(at: 30)
    rows.insert(("K,new", "a\nb", "\""), at: 7)
    try write(rows)
    let csv = bench.run(["--peek"])
    let ndjson = bench.run(["--peek", "-o", "ndjson"])
    #expect(csv.status == .matched && ndjson.status == .matched, "\(csv.stderr)")
    let path = bench.folder.appendingPathComponent("out.csv").path
    try Data(csv.text.utf8).write(to: URL(fileURLWithPath: path))
    let readBack = sift(["-q", "-o", "ndjson", "", path], environment: ["LANG": "C.UTF-8"])
    #expect(readBack.text == ndjson.text)
    #expect(ndjson.text.split(separator: "\n").count == 5)
  }

  @Test func aRunInAnotherOrderWritesTheWholeState() throws {
    let bench = try ChangesBench()
    try bench.write([("G1", "hold", 5), ("G2", "hold", 3)])
    _ = bench.run(now: "2026-11-24T06:00")
    let first = bench.stateFiles()
    // The same records in another order: nothing changed, but gone records of a later run come
    // in this run's order, so the state is written again (with this run's time inside it).
    try bench.write([("G2", "hold", 3), ("G1", "hold", 5)])
    #expect(bench.run(now: "2026-11-25T06:00").status == .noMatch)
    #expect(bench.stateFiles() != first)
    let (name, _) = try #require(first.first)
    #expect(!FileManager.default.fileExists(atPath: bench.state + "/" + name + ".since"))
  }

  /// A file named relative to the current directory, with `./` or absolutely is one input: its
  /// runs share one state (Docs/Reports.md, The state).
  @Test func aFileNamedRelativelyOrAbsolutelyHasOneState() {
    func name(_ file: String, cwd: String) -> String {
      ChangesState.fileName(
        view: nil, typed: "", query: Query(), files: [file], keys: ["grn_no"], cwd: cwd)
    }
    let absolute = name("/srv/reports/grn.csv", cwd: "/elsewhere")
    #expect(name("grn.csv", cwd: "/srv/reports") == absolute)
    #expect(name("./grn.csv", cwd: "/srv/reports/") == absolute)
    #expect(name("grn.csv", cwd: "/srv") != absolute)
    // The process's own directory, when the context says only `.`.
    let here = FileManager.default.currentDirectoryPath
    #expect(name("Package.swift", cwd: ".") == name(here + "/Package.swift", cwd: "/"))
    #expect(name("-", cwd: ".") == name("-", cwd: "/srv"), "standard input has no path")
  }

  @Test func anEmptyStateFileIsRefused() throws {
    let bench = try ChangesBench()
    try bench.write([("G1", "hold", 5)])
    _ = bench.run()
    let (name, _) = try #require(bench.stateFiles().first)
    try Data().write(to: URL(fileURLWithPath: bench.state + "/" + name))
    let result = bench.run()
    #expect(result.status == .error)
    #expect(result.stderr.contains("is not a state file of sift"))
    #expect(bench.stateFiles()[name] == Data(), "never silently replaced")
  }

  @Test func fieldsThatChangedAreComparedOnTheFieldsBothHave() throws {
    let bench = try ChangesBench()
    try bench.write([("G1", "hold", 5), ("G2", "hold", 3)])
    _ = bench.run()
    try Data("grn_no,status,site\nG1,hold,North\nG2,released,North\n".utf8).write(
      to: URL(fileURLWithPath: bench.input))
    let result = sift(
      ["--changes", "grn_no", "-o", "csv", "", bench.input],
      environment: ["LANG": "C.UTF-8", "SIFT_STATE_DIR": bench.state])
    #expect(result.text == "change,grn_no,status,site,was\nchanged,G2,released,North,status=hold\n")
    #expect(
      result.stderr.contains(
        "the fields changed since the baseline (new: site; gone: qty); records are compared on the 2 fields both have"))
  }

  /// A run stopped by SIGTERM in the middle of its input leaves the baseline as it was.
  @Test func aRunInterruptedMidFileLeavesTheBaseline() throws {
    let binary = GoldenTests.packageRoot.appendingPathComponent(".build/debug/sift")
    try #require(FileManager.default.isExecutableFile(atPath: binary.path), "swift build first")
    let bench = try ChangesBench()
    let environment = ["LANG": "C.UTF-8", "SIFT_STATE_DIR": bench.state]
    let rows = (1...5000).map { "G\($0),hold,\($0)\n" }.joined()
    let first = sift(
      ["--changes", "grn_no", "-o", "csv", ""], stdin: Array(("grn_no,status,qty\n" + rows).utf8),
      environment: environment)
    #expect(first.status == .matched)
    let before = bench.stateFiles()
    #expect(before.count == 1)
    // Half of a changed file, then SIGTERM while sift waits for the rest.
    let half = Array(("grn_no,status,qty\n" + rows.replacing("hold", with: "released")).utf8.prefix(40_000))
    let signal = try spawnAndTerminate(
      binary.path, ["--changes", "grn_no", "-o", "csv", ""],
      environment: environment.map { "\($0)=\($1)" }, input: half)
    #expect(signal == SIGTERM, "sift ended by SIGTERM")
    #expect(bench.stateFiles() == before)
    let again = sift(
      ["--changes", "grn_no", "-o", "csv", "-q", ""], stdin: Array(("grn_no,status,qty\n" + rows).utf8),
      environment: environment)
    #expect(again.status == .noMatch, "the first run's baseline: nothing changed")
  }

  /// Concurrent runs of the same query: each sees a whole baseline (never a damaged one), and
  /// the last to finish leaves its records as the baseline.
  @Test func concurrentRunsNeitherCorruptNorLoseTheBaseline() throws {
    let bench = try ChangesBench()
    try bench.write((1...2000).map { ("G\($0)", "hold", $0) })
    _ = bench.run()
    let results = Mutex<[SiftResult]>([])
    DispatchQueue.concurrentPerform(iterations: 6) { _ in
      let r = bench.run(["--peek"])
      let s = bench.run()
      results.withLock { $0 += [r, s] }
    }
    for r in results.withLock({ $0 }) {
      #expect(r.status == .noMatch, "\(r.stderr)")
    }
    try bench.write((1...2000).map { ("G\($0)", $0 == 7 ? "released" : "hold", $0) })
    #expect(changes(bench.run()) == ["changed,G7"])
  }

  /// The records before the first that changed were not copied as they passed (they were the
  /// baseline's): the baseline written still has their values, so a later change says what
  /// they were.
  @Test func recordsBeforeTheFirstChangeKeepTheirEarlierValues() throws {
    let bench = try ChangesBench()
    try bench.write([("G1", "hold", 5), ("G2", "hold", 3), ("G3", "hold", 1)])
    _ = bench.run()
    try bench.write([("G1", "hold", 5), ("G2", "hold", 3), ("G3", "released", 1)])
    #expect(changes(bench.run()) == ["changed,G3"])
    try bench.write([("G1", "released", 5), ("G2", "hold", 3), ("G3", "released", 1)])
    #expect(bench.run().text == "change,grn_no,status,qty,was\nchanged,G1,released,5,status=hold\n")
  }

  /// A record is first looked up as the baseline record after the last one found, else in the
  /// key table: a repeated key is found whichever way each of its records was found, and a run
  /// in another order than the baseline's is still "nothing changed".
  @Test(arguments: [
    (["G1", "G2", "G3"], ["G3", "G2", "G1"], nil),
    (["G1", "G2", "G3"], ["G2", "G1", "G2"], "G2"),  // table first, then in order
    (["G1", "G2", "G3"], ["G1", "G3", "G1"], "G1"),  // in order first, then the table
    (["G1", "G2", "G3"], ["G1", "G9", "G2", "G9", "G3"], "G9"),  // a new key twice
    (["G1", "G2", "G3"], ["G1", "G2", "G3", "G3"], "G3"),
  ] as [([String], [String], String?)])
  func aRepeatedKeyIsFoundInAnyOrder(baseline: [String], current: [String], repeated: String?)
    throws
  {
    let bench = try ChangesBench()
    try bench.write(baseline.map { ($0, "hold", 1) })
    #expect(bench.run().status == .matched)
    try bench.write(current.map { ($0, "hold", 1) })
    let result = bench.run()
    if let repeated {
      #expect(result.status == .error)
      #expect(result.stderr.contains("the key grn_no=\(repeated) repeats"), "\(result.stderr)")
    } else {
      #expect(result.status == .noMatch)
      #expect(result.text == "change,grn_no,status,qty,was\n")
    }
  }

  /// New records read as written wait to be handed to the CSV writer together, until another
  /// row is written or the batch ends (Docs/Performance.md, "A first run's rows written in the
  /// parts"): a changed row after them comes after them, and a repeated key stops the run after
  /// every row before it. The records come after 100,000 unchanged ones, past the sample the
  /// calling thread reads with fields, so that their rows are read as written, and after 100
  /// new ones, more than are held before the key table is built.
  @Test func newRowsWaitingGoOutBeforeTheRowsAfterThemAndBeforeARepeatedKey() throws {
    let bench = try ChangesBench()
    let unchanged = (0..<100_000).map { ("K\($0)", "hold", 1) }
    let new = (0..<100).map { ("M\($0)", "hold", 1) }
    let newRows = new.map { "new,\($0.0),hold,1,\n" }.joined()
    try bench.write(unchanged + [("G1", "hold", 1), ("G2", "hold", 2)])
    _ = bench.run()
    try bench.write(
      unchanged + new + [("N1", "hold", 1), ("N2", "hold", 1), ("G1", "done", 1), ("N3", "hold", 1), ("G2", "hold", 2)])
    let changed = bench.run(["--peek", "-j", "1"])
    #expect(changed.status == .matched)
    #expect(
      changed.text == "change,grn_no,status,qty,was\n" + newRows + """
        new,N1,hold,1,
        new,N2,hold,1,
        changed,G1,done,1,status=hold
        new,N3,hold,1,

        """)
    try bench.write(
      unchanged + new + [("N1", "hold", 1), ("G1", "hold", 1), ("N2", "hold", 1), ("N1", "again", 1)])
    let repeated = bench.run(["-j", "1"])
    #expect(repeated.status == .error)
    #expect(
      repeated.text == "change,grn_no,status,qty,was\n" + newRows + """
        new,N1,hold,1,
        new,N2,hold,1,

        """)
    #expect(repeated.stderr.contains("the key grn_no=N1 repeats"))
  }

  /// Many gone rows are made two chunks at a time, the second of each pair on a thread of its
  /// own (Docs/Performance.md, "A first run's rows written in the parts"): three workers write
  /// byte for byte what one does, with CRLF line ends and quoted values, whether every record
  /// before the gone ones was the baseline's in order (the second chunk begun before the next
  /// baseline is completed) or not (the first record changed).
  @Test(arguments: [false, true])
  func manyGoneRowsInChunksAreWhatOneThreadWrites(firstChanged: Bool) throws {
    let bench = try ChangesBench()
    func rows(_ count: Int, changed: Bool) -> String {
      let lines = (0..<count).map { i in
        "GRN-\(i),\(i % 5 == 0 ? "\"on hold, QA\"" : "hold"),\(changed && i == 0 ? 99 : i % 10)"
      }
      return "grn_no,status,qty\r\n" + lines.joined(separator: "\r\n") + "\r\n"
    }
    var outputs: [String] = []
    for threads in ["1", "3"] {
      let state = bench.folder.appendingPathComponent("state-\(threads)").path
      let environment = [
        "LANG": "C.UTF-8", "SIFT_STATE_DIR": state, "SIFT_NOW": "2026-11-24T06:00",
        "SIFT_PART_SIZE": "16K",
      ]
      func run() -> SiftResult {
        sift(["--changes", "grn_no", "-q", "-j", threads, "", bench.input], environment: environment)
      }
      try Data(rows(30_000, changed: false).utf8).write(to: URL(fileURLWithPath: bench.input))
      #expect(run().status == .matched)
      try Data(rows(10_000, changed: firstChanged).utf8).write(to: URL(fileURLWithPath: bench.input))
      let result = run()
      #expect(result.status == .matched)
      #expect(result.stderr == "")
      outputs.append(result.text)
    }
    #expect(outputs[1] == outputs[0])
    let lines = outputs[0].components(separatedBy: "\r\n")
    #expect(lines.count == 1 + 20_000 + (firstChanged ? 1 : 0) + 1)
    #expect(lines.contains("gone,GRN-10000,\"on hold, QA\",0,"))
    #expect(lines.contains("gone,GRN-29999,hold,9,"))
  }

  /// A first run writes each record as the plain run writes it, between `new` and an empty
  /// `was`: quoted fields, another delimiter, a short row, CRLF line ends and TSV included (a
  /// CSV record is written from its own text, Docs/Performance.md, "Changes since the last run").
  @Test(arguments: [
    ("csv", "grn_no,status,qty\nG1,hold,5\nG2,hold,3\n"),
    ("csv", "grn_no,status,qty\nG1,\"a, b\",5\n\"G2\",\"x \"\"y\"\"\",3\n\"G3\",\"two words\",\"\"\n"),
    ("csv", "grn_no;status;qty\nG1;a,b;5\nG2;\"c;d\";3\n"),
    ("csv", "grn_no,status,qty\nG1,hold\nG2,hold,3\nG3,,\n"),
    ("csv", "grn_no,status,qty\r\nG1,hold,5\r\nG2,\"hold\",3\r\n"),
    ("tsv", "grn_no\tstatus\tqty\nG1\thold\t5\nG2\ta,b\t3\n"),
  ])
  func aFirstRunWritesEachRecordAsThePlainRunDoes(format: String, text: String) throws {
    let bench = try ChangesBench()
    let input = bench.folder.appendingPathComponent("first.\(format)").path
    try Data(text.utf8).write(to: URL(fileURLWithPath: input))
    let environment = ["LANG": "C.UTF-8", "SIFT_STATE_DIR": bench.state]
    let plain = sift(["-q", "", input], environment: environment)
    let first = sift(["--changes", "grn_no", "-q", "", input], environment: environment)
    #expect(plain.status == .matched && first.status == .matched, "\(first.stderr)")
    // Cut at each LF byte (a Swift string keeps CR LF together as one character).
    func lines(_ text: String) -> [String] {
      text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        .map { String(decoding: $0, as: UTF8.self) }
    }
    let plainLines = lines(plain.text)
    let lines = lines(first.text)
    try #require(lines.count == plainLines.count && lines[0].count > 6, "\(first.text)")
    let delimiter = String(lines[0].dropFirst(6).prefix(1))
    #expect([",", ";", "\t"].contains(delimiter))
    for (n, (line, plainLine)) in zip(lines, plainLines).enumerated() where !plainLine.isEmpty {
      let end = plainLine.hasSuffix("\r") ? "\r" : ""
      let fields = plainLine.dropLast(end.count)
      let expected = n == 0
        ? "change" + delimiter + fields + delimiter + "was" + end
        : "new" + delimiter + fields + delimiter + end
      #expect(String(line) == expected, "line \(n + 1) of \(format): \(text)")
    }
  }

  /// Each record's key and content hash are made on the worker that reads its part
  /// (Docs/Performance.md, "Keys and values hashed in the parts"): a file read in many small
  /// parts on three workers gives the output and state file of one read on the calling thread,
  /// byte for byte, on a first run and on a run with edits in another order; and a state one
  /// wrote reads to the other as nothing changed. The calling thread hashes the sample's
  /// records from their fields, the workers the rest from their rows' bytes where the rows are
  /// read as written (Docs/Performance.md, "A record's digest from its bytes"): the inputs have
  /// values quoted as the CSV writer quotes them (a delimiter, doubled quotes), and, not as
  /// written, empty values, needless quotes and CRLF line ends, or `;` as delimiter. NDJSON
  /// output decodes every value where CSV output copies a new record's text.
  @Test(arguments: ["csv", "ndjson"], ["quoted", "crlf", "semicolon"])
  func partsOnWorkersHashAsTheCallingThreadDoes(format: String, input: String) throws {
    let bench = try ChangesBench()
    // Past the 1 MiB the sample reads, so the rest is cut into parts.
    let count = 80_000
    let d = input == "semicolon" ? ";" : ","
    func rows(edited: Bool) -> String {
      var lines: [String] = []
      for i in 0..<count where !(edited && i % 997 == 5) {
        var status =
          i % 7 == 0 ? "\"on hold\(d) QA\"" : i % 11 == 0 ? "\"say \"\"x\"\"\"" : "hold"
        if input == "crlf" && i % 13 == 0 { status = "" }
        if input == "crlf" && i % 20_000 == 7 { status = "\"hold\"" }
        let qty = edited && i % 1009 == 3 ? i + 1 : i % 100
        lines.append("GRN-\(i)\(d)\(status)\(d)\(qty)")
      }
      if edited {
        lines.append("GRN-new\(d)fresh\(d)1")
        lines.swapAt(10, lines.count - 10)
      }
      let end = input == "crlf" ? "\r\n" : "\n"
      return "grn_no\(d)status\(d)qty" + end + lines.joined(separator: end) + end
    }
    func run(_ threads: String, state: String, now: String, query: String = "") -> SiftResult {
      var environment = ["LANG": "C.UTF-8", "SIFT_STATE_DIR": state, "SIFT_NOW": now]
      if threads != "1" { environment["SIFT_PART_SIZE"] = "16K" }
      return sift(
        ["--changes", "grn_no", "-o", format, "-q", "-j", threads, query, bench.input],
        environment: environment)
    }
    func stateFile(_ state: String) -> Data? {
      let names = (try? FileManager.default.contentsOfDirectory(atPath: state)) ?? []
      return names.first { $0.hasSuffix(".changes") }.flatMap {
        FileManager.default.contents(atPath: state + "/" + $0)
      }
    }
    let one = bench.folder.appendingPathComponent("one").path
    let three = bench.folder.appendingPathComponent("three").path
    let filtered = bench.folder.appendingPathComponent("filtered").path
    for (edited, now) in [(false, "2026-11-24T06:00"), (true, "2026-11-25T06:00")] {
      try Data(rows(edited: edited).utf8).write(to: URL(fileURLWithPath: bench.input))
      let a = run("1", state: one, now: now)
      let b = run("3", state: three, now: now)
      #expect(a.status == .matched)
      #expect(a.stderr == "")
      #expect(b.text == a.text)
      #expect(b.status == a.status)
      let stateOne = try #require(stateFile(one))
      #expect(stateFile(three) == stateOne)
      // A filter every record passes: every row read with its fields, none as written.
      let c = run("3", state: filtered, now: now, query: "qty:>=0")
      #expect(c.text == a.text)
      #expect(c.status == a.status)
      #expect(stateFile(filtered) == stateOne)
      let lines = a.text.utf8.split(separator: UInt8(ascii: "\n"))
      if edited {
        #expect(lines.count == (format == "csv" ? 1 : 0) + 1 + 81 + 80)
      } else {
        #expect(lines.count == count + (format == "csv" ? 1 : 0))
      }
    }
    // The state three workers wrote, read by one, and the other way: nothing changed.
    #expect(run("1", state: three, now: "2026-11-26T06:00").status == .noMatch)
    #expect(run("3", state: one, now: "2026-11-26T06:00").status == .noMatch)
  }

  /// A first run's rows are written on the parts' workers ahead of the merge
  /// (Docs/Performance.md, "A first run's rows written in the parts"): with parts of 16 KiB
  /// and three workers the output, the message and the state are byte for byte one worker's,
  /// for the whole file and with a key repeated in a later part: the rows before it written,
  /// then exit 2 with the lines of the file that have it (not of the parts).
  @Test(arguments: [false, true])
  func aFirstRunInPartsWritesWhatOneWorkerWrites(repeated: Bool) throws {
    let bench = try ChangesBench()
    var lines = (0..<80_000).map { i in
      "GRN-\(i),\(i % 7 == 0 ? "\"on hold, QA\"" : "hold"),\(i % 100)"
    }
    if repeated { lines[60_000] = "GRN-30000,again,1" }
    try Data(("grn_no,status,qty\n" + lines.joined(separator: "\n") + "\n").utf8).write(
      to: URL(fileURLWithPath: bench.input))
    func run(_ threads: String) -> (SiftResult, Data?) {
      let state = bench.folder.appendingPathComponent("state-\(threads)").path
      var environment = ["LANG": "C.UTF-8", "SIFT_STATE_DIR": state, "SIFT_NOW": "2026-11-24T06:00"]
      if threads != "1" { environment["SIFT_PART_SIZE"] = "16K" }
      let result = sift(
        ["--changes", "grn_no", "-q", "-j", threads, "", bench.input],
        environment: environment)
      let names = (try? FileManager.default.contentsOfDirectory(atPath: state)) ?? []
      let file = names.first { $0.hasSuffix(".changes") }
      return (result, file.flatMap { FileManager.default.contents(atPath: state + "/" + $0) })
    }
    let (one, oneState) = run("1")
    let (three, threeState) = run("3")
    #expect(three.text == one.text)
    #expect(three.stderr == one.stderr)
    #expect(three.status == one.status)
    #expect(threeState == oneState)
    let rows = one.text.split(separator: "\n")
    if repeated {
      #expect(one.status == .error)
      #expect(one.stderr.contains("the key grn_no=GRN-30000 repeats: \(bench.input):30002 and \(bench.input):60002 have it"))
      #expect(rows.count == 1 + 60_000)
      #expect(oneState == nil)
    } else {
      #expect(one.status == .matched)
      #expect(rows.count == 1 + 80_000)
      #expect(rows[8] == "new,GRN-7,\"on hold, QA\",7,")
    }
  }

  /// Random inserts, deletes and changes of a file, its records in their order or shuffled (the
  /// look-up of a record then goes by the key table, not the baseline's order): `--changes`
  /// reports exactly those.
  @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8], [false, true])
  func reportsExactlyTheEdits(seed: UInt64, shuffled: Bool) throws {
    var random = SeededRandom(seed: seed)
    let bench = try ChangesBench()
    var rows = (0..<200).map { ("K\($0)", "hold", Int(random.next() % 100)) }
    try bench.write(rows)
    _ = bench.run()
    var expected: [String] = []
    var nextKey = 1000
    for _ in 0..<Int(random.next() % 30 + 1) {
      randomEdit(&rows, expected: &expected, nextKey: &nextKey, random: &random)
    }
    if shuffled {
      for i in rows.indices.reversed() where i > 0 {
        rows.swapAt(i, Int(random.next() % UInt64(i + 1)))
      }
    }
    try bench.write(rows)
    let result = bench.run()
    #expect(changes(result) == expected.sorted())
    #expect(result.status == (expected.isEmpty ? .noMatch : .matched))
    // The baseline that run wrote is the edited file: run again, nothing changed.
    let again = bench.run()
    #expect(again.status == .noMatch)
    #expect(again.text == "change,grn_no,status,qty,was\n")
  }
}

/// One random edit of `rows` (a record inserted with a new key, one deleted, or one's value
/// changed), and what `--changes` then reports of it in `expected` (`new,K…`, `gone,K…`,
/// `changed,K…`; a record new and then deleted is not reported).
private func randomEdit(
  _ rows: inout [(String, String, Int)], expected: inout [String], nextKey: inout Int,
  random: inout SeededRandom
) {
  switch rows.isEmpty ? 0 : random.next() % 3 {
  case 0:
    rows.insert(("K\(nextKey)", "new", 1), at: Int(random.next() % UInt64(rows.count + 1)))
    expected.append("new,K\(nextKey)")
    nextKey += 1
  case 1:
    let key = rows.remove(at: Int(random.next() % UInt64(rows.count))).0
    if let n = expected.firstIndex(of: "new,\(key)") {
      expected.remove(at: n)
    } else {
      expected.removeAll { $0 == "changed,\(key)" }
      expected.append("gone,\(key)")
    }
  default:
    let i = Int(random.next() % UInt64(rows.count))
    rows[i].2 += 1000
    if !expected.contains("new,\(rows[i].0)") && !expected.contains("changed,\(rows[i].0)") {
      expected.append("changed,\(rows[i].0)")
    }
  }
}

/// A small deterministic generator (SplitMix64), so a failing seed can be run again.
struct SeededRandom {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9e37_79b9_7f4a_7c15
    var z = state
    z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
    z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
    return z ^ (z >> 31)
  }
}

/// Starts `path` with `arguments`, signals unblocked (a test thread may block them), writes `input`
/// to its standard input and leaves it open, then sends SIGTERM; returns the signal that ended it.
private func spawnAndTerminate(
  _ path: String, _ arguments: [String], environment: [String], input: [UInt8]
) throws -> Int32 {
  var attributes = posix_spawnattr_t()
  posix_spawnattr_init(&attributes)
  defer { posix_spawnattr_destroy(&attributes) }
  var none = sigset_t()
  sigemptyset(&none)
  posix_spawnattr_setsigmask(&attributes, &none)
  var defaults = sigset_t()
  sigemptyset(&defaults)
  sigaddset(&defaults, SIGTERM)
  posix_spawnattr_setsigdefault(&attributes, &defaults)
  posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
  var pipeEnds: [Int32] = [0, 0]
  try #require(pipe(&pipeEnds) == 0)
  var actions = posix_spawn_file_actions_t()
  posix_spawn_file_actions_init(&actions)
  defer { posix_spawn_file_actions_destroy(&actions) }
  posix_spawn_file_actions_adddup2(&actions, pipeEnds[0], 0)
  posix_spawn_file_actions_addclose(&actions, pipeEnds[1])
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
  let argv = ([path] + arguments).map { strdup($0) } + [nil]
  let envp = environment.map { strdup($0) } + [nil]
  defer { (argv + envp).forEach { free($0) } }
  var pid: pid_t = 0
  try #require(posix_spawn(&pid, path, &actions, &attributes, argv, envp) == 0)
  close(pipeEnds[0])
  _ = input.withUnsafeBytes { write(pipeEnds[1], $0.baseAddress, $0.count) }
  Thread.sleep(forTimeInterval: 1)
  kill(pid, SIGTERM)
  var status: Int32 = 0
  waitpid(pid, &status, 0)
  close(pipeEnds[1])
  return status & 0x7f
}
