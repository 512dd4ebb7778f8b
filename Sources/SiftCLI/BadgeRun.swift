import SiftCore

/// A view's badge query run over its source (Docs/Views.md, The views overview): counted for the
/// tab, or, for the digest, with its first records (Docs/Reports.md, The views digest).
struct BadgeRun {
  let frontend: Frontend
  let query: ComposedQuery
  let now: WallTime
  /// The view, for error messages and labels.
  let viewContext: ViewContext

  /// The records of `dataset` matching the badge query.
  func count(over dataset: Dataset) throws(Problem) -> Int {
    try run(plan(query.query, on: dataset, for: .count), over: dataset, writer: nil).matched
  }

  /// The digest's section of the view: the badge query's chips and its first records, and how
  /// many records match.
  func section(over dataset: Dataset) throws(Problem) -> (section: ViewsDigest.Section, count: Int) {
    let plan = try plan(firstRecords, on: dataset)
    let table = MemorySink()
    let summary = try run(plan, over: dataset, writer: tableWriter(plan, into: table))
    return section(plan, table: table, summary: summary)
  }

  /// The badge query cut to the records a digest's section shows.
  var firstRecords: Query {
    var first = query.query
    first.set(DirectiveClause(.limit(ViewsDigest.recordsPerSection, perGroup: false), span: Span(0, 0)))
    return first
  }

  /// The writer of a section's table of records, typed and labelled by `plan`.
  func tableWriter(_ plan: Plan, into table: MemorySink) -> HTMLWriter {
    HTMLWriter(
      output: OutputBuffer(sink: table), numericColumns: plan.outputTypes.map { $0 == .number },
      labels: viewContext.labels(in: plan.schema), decimalMarks: plan.outputReadings.map(\.decimalMark))
  }

  /// The section of `plan`'s run (sift's own, or an engine's, Docs/Engines.md, Views on an
  /// engine): its chips and bar, the table written, and how many records match.
  func section(_ plan: Plan, table: MemorySink, summary: RunSummary)
    -> (section: ViewsDigest.Section, count: Int)
  {
    let chips = FilterChips(plan: plan, labels: viewContext.labels(in: plan.schema)).filterChips()
    let bar = FeedbackBar(chips: chips, summary: summary, limited: false, grouped: false)
    let content = ViewsDigest.Section.Content.records(
      bar: bar, table: table.bytes, more: summary.rows - summary.shown)
    return (ViewsDigest.Section(title: viewContext.view.displayTitle, content: content), summary.matched)
  }

  func plan(_ query: Query, on dataset: Dataset, for intent: Plan.Intent = .records) throws(Problem) -> Plan {
    try frontend.plan(query, over: dataset, now: now, for: intent, text: "", view: viewContext)
  }

  func run(_ plan: Plan, over dataset: Dataset, writer: RecordWriter?) throws(Problem)
    -> RunSummary
  {
    try frontend.run(plan, over: dataset, writer: writer, text: "", view: viewContext)
  }
}
