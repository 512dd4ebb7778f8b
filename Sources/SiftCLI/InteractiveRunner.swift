import SiftCore
import SiftScreen

/// The interactive screen's runs over SiftCore (Docs/Interactive.md, Runs): the views that read
/// the same files share a lane and one dataset, opened on its first run; each request composes
/// the view's query with the typed one, plans it and runs it as `sift @VIEW QUERY` would.
final class InteractiveRunner: ScreenRunner, @unchecked Sendable {
  /// One tab: its view (`nil` for the FILEs alone) and the lane of its files.
  struct Tab {
    var view: View?
    var lane: Int
  }

  /// The files of views on one lane and their dataset; touched only by that lane's runs, one
  /// at a time.
  private final class Lane {
    let files: [String]
    var dataset: Result<Dataset, Problem>?
    /// Standard input while it arrives (Docs/Interactive.md, Piped standard input): its reader,
    /// and the dataset over what had arrived at the last run, which runs share until more has.
    var arriving: ArrivingInput?
    var partial: (counts: ArrivingInput.Counts, dataset: Dataset)?
    /// The last list over what had arrived, given again until it is due to run again.
    var followed: FollowedList?

    init(files: [String]) { self.files = files }
  }

  private let tabs: [Tab]
  private let lanes: [Lane]
  private let options: Options
  /// The runs' frontend: standard error goes nowhere, since the screen holds the terminal.
  private let frontend: Frontend
  private let viewsFile: String
  private let now: WallTime
  private let unicode: Bool
  /// A views file that cannot be read: every run answers with its message.
  private let problem: Problem?

  /// The runs of `views` (FILEs given replace each view's source), `now` resolved once.
  init(
    views: [View?], viewsFile: String, options: Options, frontend: Frontend, now: WallTime,
    unicode: Bool, problem: Problem?
  ) {
    var laneOfFiles: [[String]: Int] = [:]
    var lanes: [Lane] = []
    tabs = views.map { view in
      let files = options.files(of: view)
      let lane = laneOfFiles[files] ?? lanes.count
      if lane == lanes.count { lanes.append(Lane(files: files)) }
      laneOfFiles[files] = lane
      return Tab(view: view, lane: lane)
    }
    self.lanes = lanes
    self.options = options
    self.frontend = frontend.silenced
    self.viewsFile = viewsFile
    self.now = now
    self.unicode = unicode
    self.problem = problem
  }

  func lane(of request: RunRequest) -> Int { tabs[request.view].lane }

  func run(
    _ request: RunRequest, cancellation: RunCancellation,
    progress report: @escaping @Sendable (RunCount) -> Void
  ) -> RunOutcome {
    let id = request.id
    if let problem { return .sourceError(id: id, message: firstLine(problem)) }
    let given: Query
    do throws(QueryError) { given = try Parser.parse(request.query) } catch {
      return .queryError(id: id, message: error.message, span: characters(error.span, in: request.query))
    }
    let tab = tabs[request.view]
    let composed =
      tab.view?.compose(given: given, text: request.query, reset: false)
      ?? ComposedQuery([(key: "", text: request.query, query: given)])
    let progress = RunProgress(cancellation: cancellation, report: report)
    let lane = lanes[tab.lane]
    if request.purpose == .list, let list = lane.followed?.again(request, arrived: lane.arriving?.counts) {
      return .list(id: id, list)
    }
    let dataset: Dataset
    let arrived: ArrivingInput.Counts?
    do throws(Problem) {
      (dataset, arrived) = try openDataset(lane, progress: progress, cancellation: cancellation)
    } catch {
      return .sourceError(id: id, message: firstLine(error))
    }
    let watch = progress.watch
    let viewContext = tab.view.map { view in
      ViewContext(
        file: viewsFile, view: view, composed: composed,
        sourceName: sourceNames(lanes[tab.lane].files))
    }
    do throws(Problem) {
      switch request.purpose {
      case .list:
        let started = MonotonicClock.now()
        var outcome = try list(
          composed, over: dataset, view: viewContext, request: request, progress: progress)
        if let arrived, case .list(_, var result) = outcome {
          // Over what has arrived: an input error at its end may be a record cut by the pipe.
          result.inputError = nil
          result.arriving = arrived
          outcome = .list(id: id, result)
          lane.followed = FollowedList(
            request, result: result, took: MonotonicClock.now() - started)
        }
        return outcome
      case .values(let field):
        return try values(
          of: field, composed, over: dataset, view: viewContext, request: request, watch: watch)
      case .badge:
        let badge = tab.view?.badgeQuery() ?? composed
        let plan = try plan(badge.query, over: dataset, query: "", view: viewContext, for: .count)
        let summary = try run(plan, over: dataset, writer: nil, view: viewContext, watch: watch)
        return .badge(id: id, count: summary.matched)
      case .export(let order):
        let plan = try plan(composed.query, over: dataset, query: request.query, view: viewContext)
        let sheetName = workbookSheetName(files: lanes[tab.lane].files, view: viewContext)
        return try ScreenExport(order: order, sheetName: sheetName)
          .write(plan, over: dataset, id: id, watch: watch, view: viewContext, frontend: frontend)
      }
    } catch {
      return outcome(of: error, request: request, composed: composed, view: viewContext)
    }
  }

  /// The list: the records kept as shown text, the chips of the bar, the input's fields.
  private func list(
    _ composed: ComposedQuery, over dataset: Dataset, view: ViewContext?, request: RunRequest,
    progress: RunProgress
  ) throws(Problem) -> RunOutcome {
    let plan = try plan(composed.query, over: dataset, query: request.query, view: view)
    var fastFilterChips: [Chip] = []
    if let view {
      do throws(FastFilterError) { fastFilterChips = try view.inactiveChips(plan, ascii: !unicode) }
      catch { throw .fastFilter(error, view: view) }
    }
    let collector = ListCollector(ascii: !unicode, firstRow: request.firstRow)
    var summary = RunSummary()
    var inputError: String?
    do throws(Problem) {
      summary = try run(plan, over: dataset, writer: collector, view: view, watch: progress.watch)
    } catch .input(let error, _) {
      // The records before an input error stay, the message in the list area, the bar counting
      // the records read before it (Docs/Interactive.md, List).
      inputError = "sift: \(error)"
      summary.total = progress.recordsRead
      summary.matched = collector.written
      summary.shown = collector.written
    }
    let bar = FeedbackBar(
      plan, summary, view: view, unicode: unicode, fastFilterChips: fastFilterChips)
    let schema = plan.schema
    let fields = schema.names.enumerated().map { index, name in
      (name: name, type: dataset.type(of: ResolvedField(index: index, path: [], name: name)))
    }
    var result = ListResult(
      columns: collector.columns, numeric: plan.outputTypes.map { $0 == .number },
      rows: collector.rows, groups: collector.groups, summary: summary, chips: bar.chips,
      limited: plan.query.limit != nil && summary.shown < summary.rows, fields: fields,
      sort: plan.sort.map { ($0.field.name, $0.descending) }, group: plan.group.first?.name,
      inputError: inputError)
    result.firstRow = request.firstRow
    return .list(id: request.id, result)
  }

  /// The most values of a field the filter sheet is given.
  static let valueLimit = 1_000

  /// The values of `field` under the query, most frequent first: the tally of `-c group:FIELD`.
  private func values(
    of field: String, _ composed: ComposedQuery, over dataset: Dataset, view: ViewContext?,
    request: RunRequest, watch: @escaping RunWatch
  ) throws(Problem) -> RunOutcome {
    let grouping = DirectiveClause(.group([FieldName(field, span: Span(0, 0))]), span: Span(0, 0))
    let tally = Query(filter: composed.query.filter, directives: [grouping])
    let plan = try plan(tally, over: dataset, query: request.query, view: view, for: .count)
    let counts = try run(plan, over: dataset, writer: nil, view: view, watch: watch).groupCounts
      .map { (value: String(decoding: $0.values[0], as: UTF8.self), count: $0.count) }
      .sorted { $0.count != $1.count ? $0.count > $1.count : $0.value < $1.value }
    return .values(
      id: request.id, field: field,
      counts.prefix(Self.valueLimit).map { ValueCount(value: $0.value, count: $0.count) },
      complete: counts.count <= Self.valueLimit)
  }

  /// The dataset of a lane, opened on its first run; a source that cannot be opened stays an
  /// error for the lane's later runs. Standard input is read on its own thread
  /// (`ArrivingInput`): until it ends, each run is over the records arrived so far (with their
  /// counts), once a line has arrived (`progress` told what has meanwhile).
  private func openDataset(
    _ lane: Lane, progress: RunProgress, cancellation: RunCancellation
  ) throws(Problem) -> (Dataset, arrived: ArrivingInput.Counts?) {
    if let dataset = lane.dataset { return (try dataset.get(), nil) }
    // Standard input (`-`, or no FILE) is read whole, from a pipe or a file (Docs/Interactive.md,
    // Piped standard input); the terminal is the keyboard's. A pipe given as a FILE is kept too:
    // each change runs the query again (Docs/Formats.md, Pipes and devices).
    let standardInput = lane.files.contains("-") || lane.files.isEmpty
    guard standardInput, !frontend.stdinIsTerminal else { return (try open(lane, stdin: nil), nil) }
    let input = lane.arriving ?? frontend.arrivingStandardInput()
    lane.arriving = input
    let report = { (counts: ArrivingInput.Counts) in
      progress.arriving(lines: counts.lines, bytes: counts.bytes)
    }
    _ = input.wait(cancelled: { cancellation.isCancelled }, report: report)
    var (bytes, counts, error) = input.snapshot()
    if !counts.ended {
      if let partial = lane.partial, partial.counts.complete == counts.complete {
        return (partial.dataset, counts)
      }
      lane.partial = nil  // its copy of the bytes goes before the next is made
      if let dataset = try? openInputs(lane, stdin: bytes) {
        lane.partial = (counts, dataset)
        return (dataset, counts)
      }
      // What has arrived cannot be opened yet (the sample cut mid-record): the whole input is.
      _ = input.wait(whole: true, cancelled: { cancellation.isCancelled }, report: report)
      (bytes, counts, error) = input.snapshot()
      guard counts.ended else { throw .noInput }
    }
    lane.arriving = nil
    lane.partial = nil
    lane.followed = nil
    if let error { lane.dataset = .failure(.input(error, hint: nil)) }
    return (try open(lane, stdin: error == nil ? bytes : nil), nil)
  }

  /// Opens the lane's dataset for good (standard input given as `stdin`'s bytes).
  private func open(_ lane: Lane, stdin: [UInt8]?) throws(Problem) -> Dataset {
    if lane.dataset == nil {
      do throws(Problem) { lane.dataset = .success(try openInputs(lane, stdin: stdin)) } catch {
        lane.dataset = .failure(error)
      }
    }
    return try lane.dataset!.get()
  }

  /// The lane's files opened, standard input over `stdin` when given.
  private func openInputs(_ lane: Lane, stdin: [UInt8]?) throws(Problem) -> Dataset {
    var request = options
    request.files = lane.files
    if (lane.files.contains("-") || lane.files.isEmpty) && frontend.stdinIsTerminal {
      throw .noInput
    }
    let inputs = try frontend.open(request, keepStreams: true, standardInput: stdin)
    return inputs.dataset(parallel: frontend.parallel(options))
  }

  private func plan(
    _ query: Query, over dataset: Dataset, query text: String, view: ViewContext?,
    for intent: Plan.Intent = .records
  ) throws(Problem) -> Plan {
    try frontend.plan(query, over: dataset, now: now, for: intent, text: text, view: view)
  }

  private func run(
    _ plan: Plan, over dataset: Dataset, writer: RecordWriter?, view: ViewContext?,
    watch: @escaping RunWatch
  ) throws(Problem) -> RunSummary {
    try frontend.run(plan, over: dataset, writer: writer, watch: watch, text: "", view: view)
  }

  /// A problem as the screen shows it: an error in the typed query with the characters it
  /// points at; any other as its message.
  private func outcome(
    of problem: Problem, request: RunRequest, composed: ComposedQuery, view: ViewContext?
  ) -> RunOutcome {
    if case .plan(let error, _, _) = problem, let span = error.span {
      let local = view == nil ? (composed.parts[0], span) : composed.locate(span)
      if let (part, span) = local, part.key.isEmpty {
        return .queryError(id: request.id, message: error.message, span: characters(span, in: request.query))
      }
    }
    if case .input = problem { return .sourceError(id: request.id, message: firstLine(problem)) }
    return .queryError(id: request.id, message: firstLine(problem), span: nil)
  }

  /// The first line of a problem's message: `sift: grn.csv: no such file`.
  private func firstLine(_ problem: Problem) -> String {
    String(problem.text.split(separator: "\n").first ?? "")
  }

  /// The characters of `text` a byte span covers.
  private func characters(_ span: Span, in text: String) -> Range<Int> {
    let bytes = Array(text.utf8)
    func count(_ end: Int) -> Int {
      String(decoding: bytes.prefix(max(0, min(end, bytes.count))), as: UTF8.self).count
    }
    let start = count(span.start)
    return start..<max(start, count(span.end))
  }
}
