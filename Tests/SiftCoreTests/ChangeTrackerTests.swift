// What `--changes` writes for records past the values a baseline keeps (Docs/Reports.md, The
// state): every format says `(earlier values not kept)`, the HTML report too, which has no `was`
// column (it strikes the kept earlier values through instead).

import Testing

@testable import SiftCore

/// Runs a tracker over `records` (`grn_no`, `status`) with `baseline`, writing through `inner`.
private func track(
  _ records: [[String]], baseline: ChangeBaseline?, inner: RecordWriter?, budget: Int,
  inputBytes: Int? = nil
) throws -> ChangeTracker {
  let columns = ["grn_no", "status"]
  var harness = WriterHarness(.plain, columns: columns)
  for record in records { harness.add(record) }
  let tracker = ChangeTracker(
    inner: inner, keys: ["grn_no"], keyLabel: "GRN No", baseline: baseline,
    since: "2026-11-25 06:00", budget: budget)
  tracker.inputBytes = inputBytes
  let outputColumns = columns.enumerated().map { OutputColumn.field($1, at: $0) }
  try tracker.begin(columns: columns)
  try harness.batch().withRows { cursor in
    for r in 0..<cursor.count {
      try tracker.write(cursor.row(r), columns: outputColumns, verbatim: false)
    }
  }
  try tracker.end()
  return tracker
}

/// Monday's three holds, with the values of only the first kept (each record's values take 8
/// bytes: two length-prefixed texts); Tuesday G1 and G2 are released and G3 is gone. Returns
/// what each of `formats` wrote, all written in one run as the e-mail report writes its parts.
private func tuesday(_ formats: [OutputFormat]) throws -> [String] {
  let monday = try track(
    [["G1", "hold"], ["G2", "hold"], ["G3", "hold"]], baseline: nil, inner: nil, budget: 8)
  #expect(monday.next.values(0) != nil && monday.next.values(1) == nil)
  let sinks = formats.map { _ in MemorySink() }
  let writers = zip(formats, sinks).map {
    makeWriter(WriterOptions(format: $0), output: OutputBuffer(sink: $1))
  }
  let inner = writers.count == 1 ? writers[0] : FanOutWriter(writers[0], Array(writers.dropFirst()))
  let run = try track(
    [["G1", "released"], ["G2", "released"]], baseline: monday.next, inner: inner,
    budget: ChangeBaseline.valueBudget)
  #expect(run.counts.changed == 2 && run.counts.gone == 1)
  return sinks.map { String(decoding: $0.bytes, as: UTF8.self) }
}

private let csv = """
  change,grn_no,status,was
  changed,G1,released,status=hold
  changed,G2,released,(earlier values not kept)
  gone,G3,,(earlier values not kept)

  """

/// The HTML table strikes G1's kept value through and says of G2 and G3, after their `change`,
/// what the `was` column says; it has no `was` column.
private func expectNotKeptSaid(_ html: String) throws {
  let rows = html.split(separator: "<tr").dropFirst(2).map(String.init)
  try #require(rows.count == 3, "\(html)")
  #expect(rows[0].contains("hold</del> released") && !rows[0].contains("not kept"))
  let note = "(earlier values not kept)</span></td>"
  #expect(rows[1].contains(">changed <span style=\"") && rows[1].contains(note))
  #expect(!rows[1].contains("<del"))
  #expect(rows[2].contains(">gone <span style=\"") && rows[2].contains(note))
  #expect(!html.contains(">was<"))
}

@Suite struct ChangeTrackerTests {
  @Test func theWasColumnSaysWhenEarlierValuesWereNotKept() throws {
    #expect(try tuesday([.csv]) == [csv])
  }

  @Test func theHTMLReportSaysWhenEarlierValuesWereNotKept() throws {
    try expectNotKeptSaid(try tuesday([.html])[0])
  }

  /// The e-mail report's HTML part says it as the HTML report does; its other parts keep the
  /// `was` column.
  @Test func theMailsHTMLPartSaysItAndItsOtherPartsKeepTheWasColumn() throws {
    let parts = try tuesday([.html, .csv])
    try expectNotKeptSaid(parts[0])
    #expect(parts[1] == csv)
  }

  /// A record's values are kept while they fit what is left of the budget, also after one that
  /// did not fit: G2's 17 bytes do not fit after G1's 8, G3's 5 still do.
  @Test func aLaterRecordWhoseValuesStillFitKeepsThem() throws {
    let run = try track(
      [["G1", "hold"], ["G2", "released-long"], ["G3", "x"]], baseline: nil, inner: nil,
      budget: 17)
    #expect(run.next.values(0) != nil)
    #expect(run.next.values(1) == nil)
    #expect(run.next.values(2)?.map { String(decoding: $0, as: UTF8.self) } == ["G3", "x"])
  }

  /// Told the inputs' size, a first run makes room for the records up front (after the first
  /// 64): the next baseline is the one a run not told makes, and a key that repeats past the
  /// first 64 is still found, naming both records.
  @Test(arguments: [100, 1 << 20])
  func roomMadeUpFrontChangesNothing(inputBytes: Int) throws {
    let records = (0..<300).map { ["G\($0)", $0 % 3 == 0 ? "hold" : "released"] }
    let told = try track(records, baseline: nil, inner: nil, budget: 64, inputBytes: inputBytes)
    let untold = try track(records, baseline: nil, inner: nil, budget: 64)
    #expect(told.next == untold.next && told.next.count == 300)
    let repeated = records + [["G200", "hold"]]
    #expect(throws: OutputError.self) {
      try track(repeated, baseline: nil, inner: nil, budget: 64, inputBytes: inputBytes)
    }
    let tracker = ChangeTracker(
      inner: nil, keys: ["grn_no"], keyLabel: "GRN No", baseline: nil, since: "", budget: 64)
    tracker.inputBytes = inputBytes
    var harness = WriterHarness(.plain, columns: ["grn_no", "status"])
    for record in repeated { harness.add(record) }
    let columns = [OutputColumn.field("grn_no", at: 0), OutputColumn.field("status", at: 1)]
    try tracker.begin(columns: ["grn_no", "status"])
    try? harness.batch().withRows { cursor in
      for r in 0..<cursor.count { try tracker.write(cursor.row(r), columns: columns, verbatim: false) }
    }
    guard case .duplicateKey(let key, let first, let second, _) = tracker.failure else {
      Issue.record("no repeated key found: \(String(describing: tracker.failure))")
      return
    }
    #expect(key == "grn_no=G200" && first == 201 && second == 301)
  }
}
