import SiftCore

extension ViewsOverview {
  /// `--views --changes` (Docs/Reports.md, Changes in the views): a view that names its `key`
  /// compared with the baseline of its own `sift @VIEW --changes`, only looking (as `--peek`:
  /// no baseline moves). Returns what changed, and for the digest (`table` given) the changed
  /// records written into `table` and the bar of the view's query; `nil` for a view without a
  /// key.
  func changes(
    of view: View, in file: ViewsFile, over dataset: Dataset, table: MemorySink?
  ) throws(Problem) -> (counts: ChangeCounts, bar: FeedbackBar)? {
    guard let key = view.key else { return nil }
    let composed = view.compose(given: Query(), text: "", reset: false)
    let viewContext = ViewContext(file: file.path, view: view, composed: composed, sourceName: nil)
    let plan = try frontend.plan(composed.query, over: dataset, now: now, text: "", view: viewContext)
    let keys = try RecordRun.resolveKeys([key], in: plan.outputNames, source: nil)
    let (stateDirectory, currentDirectory) = frontend.changesState
    guard let directory = stateDirectory else {
      throw .changes("--changes has no state directory: set SIFT_STATE_DIR")
    }
    // The state `sift @VIEW --changes` keeps: named by the view, its source and its key.
    let name = ChangesState.fileName(
      view: view.name, typed: "", query: composed.query, files: Options().files(of: view),
      keys: keys,
      cwd: currentDirectory)
    let state = try ChangesState.open(directory: directory, name: name, readOnly: true)
    defer { state.close() }
    let labels = viewContext.labels(in: plan.schema)
    let writer = table.map {
      HTMLWriter(
        output: OutputBuffer(sink: $0),
        numericColumns: [false] + plan.outputTypes.map { $0 == .number }, labels: labels,
        decimalMarks: [.point] + plan.outputReadings.map(\.decimalMark))
    }
    let tracker = ChangeTracker(
      inner: writer, keys: keys, keyLabel: keys.map { labels.label($0) }.joined(separator: ", "),
      baseline: try state.read(checksumAside: frontend.parallel(options).workers > 1),
      since: ChangeCounts.sinceText(now), nextIsWritten: false)
    let summary = try frontend.run(plan, over: dataset, writer: tracker, text: "", view: viewContext)
    var bar = FeedbackBar(
      chips: FilterChips(plan: plan, labels: labels).filterChips(), summary: summary,
      limited: false, grouped: false)
    bar.addChanges(tracker.counts)
    return (tracker.counts, bar)
  }
}
