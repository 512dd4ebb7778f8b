import SiftCore

/// `sift @VIEW [QUERY] [FILE...]` (Docs/Views.md, Running a view): the view's preset query AND the given query over
/// the view's source (or the FILEs), sorted by the view's default unless the query sorts, with
/// the view's fast filters in the bar and its title above a table.
struct ViewCommand {
  let options: Options
  /// The given QUERY, parsed.
  let query: Query
  let context: ProcessContext
  /// "Now" for relative dates, resolved once with the job.
  let now: WallTime
  var console: Console { Console(context: context) }

  func run() -> ExitStatus {
    let file: ViewsFile
    let view: View
    do throws(Problem) {
      file = try ViewsFileLookup(options: options, context: context).load()
      view = try ViewsFileLookup.view(named: options.view ?? "", in: file)
    } catch {
      return console.report(error)
    }
    let composed = view.compose(given: query, text: options.query, reset: options.reset)
    if options.explain {
      return console.output(composed.query.canonicalForm + "\n") ?? .matched
    }
    var run = options
    run.files = options.files(of: view)
    let viewContext = ViewContext(
      file: file.path, view: view, composed: composed, sourceName: sourceNames(run.files))
    return QueryCommand(
      options: run, query: composed.query, view: viewContext, context: context, now: now
    ).run()
  }
}

/// The subtitle of a title line or report: the names of the files read, `nil` for none
/// (standard input has no name).
func sourceNames(_ files: [String]) -> String? {
  let names = files.filter { $0 != "-" }.map { String($0.split(separator: "/").last ?? "") }
  return names.isEmpty ? nil : names.joined(separator: ", ")
}

/// `sift --views [@VIEW]` (Docs/Views.md, The views overview): the views as a tab bar with badge counts; a view whose
/// source or badge cannot be used shows `(!)` and a note on standard error, and the others
/// still print. With `@VIEW`, that tab is highlighted and a line below describes the view.
/// With `-o html`, the views digest (Docs/Reports.md).
struct ViewsOverviewCommand {
  let options: Options
  let context: ProcessContext
  /// "Now" for relative dates, resolved once with the job.
  let now: WallTime
  var console: Console { Console(context: context) }

  func run() -> ExitStatus {
    do throws(Problem) { return try overview() } catch { return console.report(error) }
  }

  private func overview() throws(Problem) -> ExitStatus {
    let file = try ViewsFileLookup(options: options, context: context).load()
    var active: Int?
    if let name = options.view {
      let view = try ViewsFileLookup.view(named: name, in: file)
      active = file.views.firstIndex { $0.name == view.name }
    }
    if options.output == .xlsx {
      return try ViewsWorkbook(options: options, context: context).write(file, now: now)
    }
    let digest = options.output == .html
    var datasets: [String: Result<Dataset, Problem>] = [:]
    var broken = false
    var sections: [ViewsDigest.Section] = []
    let tabs = file.views.map { view in
      var badge = ViewTabs.Tab.Badge.none
      if let query = view.badgeQuery(sorted: digest), let source = view.source {
        do throws(Problem) {
          let opened = datasets[source] ?? openDataset(source)
          datasets[source] = opened
          let dataset = try opened.get()
          let badgeRun = BadgeRun(
            query: query, now: now,
            context: ViewContext(file: file.path, view: view, composed: query, sourceName: nil))
          if digest {
            let section = try badgeRun.section(over: dataset)
            sections.append(section.section)
            badge = .count(section.count)
          } else {
            badge = .count(try badgeRun.count(over: dataset))
          }
        } catch {
          _ = console.report(error)
          badge = .broken
          broken = true
          // The message's first line, without the program's name (the caret lines need a terminal).
          let first = error.text.split(separator: "\n").first ?? ""
          let reason = String(first.hasPrefix("sift: ") ? first.dropFirst(6) : first)
          sections.append(ViewsDigest.Section(title: view.displayTitle, content: .problem(reason)))
        }
      }
      return ViewTabs.Tab(label: view.displayTitle, badge: badge, name: view.name)
    }
    let text =
      digest
      ? digestReport(ViewsDigest(tabs: tabs, sections: sections), file: file, now: now)
      : tabBar(tabs, active: active, in: file)
    let piece = Presentation.Piece(destination: .standardOutput, bytes: text)
    if let status = console.show([piece], pager: .never, ifClosed: .matched) { return status }
    return broken ? .error : .matched
  }

  /// The overview: the tab bar, and with `@VIEW` a line describing that view.
  private func tabBar(_ tabs: [ViewTabs.Tab], active: Int?, in file: ViewsFile) -> [UInt8] {
    let ascii = !console.unicode(asciiRequested: options.ascii)
    let width = context.stdoutIsTerminal ? console.width : nil
    var text = ViewTabs(tabs: tabs, active: active).render(
      ascii: ascii, color: console.colorMode(options.color, terminal: context.stdoutIsTerminal),
      maxWidth: width)
    if let active { text += file.views[active].details(ascii: ascii, maxWidth: width) }
    return Array(text.utf8)
  }

  /// `-o html`: the digest as a report (Docs/Reports.md, The views digest).
  private func digestReport(_ digest: ViewsDigest, file: ViewsFile, now: WallTime) -> [UInt8] {
    let report = HTMLReport(
      title: nil, subtitle: sourceNames([file.path]), made: now,
      commandLine: commandLineText(context.arguments))
    return report.start(bar: nil) + digest.body() + report.end()
  }

  /// The dataset of a view's source: views on the same source share it, so each source is opened
  /// and sampled once (Docs/Architecture.md, The dataset). Standard input (`-`) is kept, so
  /// that every badge on it counts all of it.
  func openDataset(_ source: String) -> Result<Dataset, Problem> {
    var request = Options()
    request.files = [source]
    do throws(Problem) {
      let inputs = try Inputs.open(request, context: context, keepStreams: true)
      return .success(inputs.dataset(parallel: options.parallel))
    } catch {
      return .failure(error)
    }
  }
}

/// A view's badge query run over its source (Docs/Views.md, The views overview): counted for the
/// tab, or, for the digest, with its first records (Docs/Reports.md, The views digest).
struct BadgeRun {
  let query: ComposedQuery
  let now: WallTime
  /// The view, for error messages and labels.
  let context: ViewContext

  /// The records of `dataset` matching the badge query.
  func count(over dataset: Dataset) throws(Problem) -> Int {
    try run(plan(query.query, on: dataset, for: .count), over: dataset, writer: nil).matched
  }

  /// The digest's section of the view: the badge query's chips and its first records, and how
  /// many records match.
  func section(over dataset: Dataset) throws(Problem) -> (section: ViewsDigest.Section, count: Int) {
    var first = query.query
    first.set(DirectiveClause(.limit(ViewsDigest.recordsPerSection, perGroup: false), span: Span(0, 0)))
    let plan = try plan(first, on: dataset)
    let table = MemorySink()
    let writer = HTMLWriter(
      output: OutputBuffer(sink: table), numericColumns: plan.outputTypes.map { $0 == .number })
    let summary = try run(plan, over: dataset, writer: writer)
    let chips = FilterChips(plan: plan, labels: context.labels(in: plan.schema)).filterChips()
    let bar = FeedbackBar(chips: chips, summary: summary, limited: false, grouped: false)
    let content = ViewsDigest.Section.Content.records(
      bar: bar, table: table.bytes, more: summary.rows - summary.shown)
    return (ViewsDigest.Section(title: context.view.displayTitle, content: content), summary.matched)
  }

  func plan(_ query: Query, on dataset: Dataset, for intent: Plan.Intent = .records) throws(Problem) -> Plan {
    try dataset.plan(query, now: now, for: intent, text: "", view: context)
  }

  func run(_ plan: Plan, over dataset: Dataset, writer: RecordWriter?) throws(Problem)
    -> RunSummary
  {
    try dataset.run(plan, writer: writer, text: "", view: context)
  }
}

/// Finds and reads the views file (Docs/Views.md, The views file): `--config FILE`, else `$SIFT_CONFIG`, else
/// `./sift.json`, else `$XDG_CONFIG_HOME/sift/config.json` (`~/.config/sift/config.json`).
struct ViewsFileLookup {
  let options: Options
  let context: ProcessContext

  /// The places to look, in order; `explicit` ones must exist.
  var candidates: [(path: String, explicit: Bool)] {
    let env = context.environment
    if let config = options.config { return [(config, true)] }
    if let config = env["SIFT_CONFIG"], !config.isEmpty { return [(config, true)] }
    let here = context.currentDirectory == "." ? "" : context.currentDirectory + "/"
    var paths = [(here + "sift.json", false)]
    if let xdg = env["XDG_CONFIG_HOME"], !xdg.isEmpty {
      paths.append((xdg + "/sift/config.json", false))
    } else if let home = env["HOME"], !home.isEmpty {
      paths.append((home + "/.config/sift/config.json", false))
    }
    return paths
  }

  /// The parsed views file.
  func load() throws(Problem) -> ViewsFile {
    for (path, explicit) in candidates {
      let bytes: [UInt8]
      do throws(InputError) {
        bytes = try read(path)
      } catch {
        if !explicit && error.message == "no such file" { continue }
        throw .unreadableViewsFile(error)
      }
      do throws(ViewsFileError) { return try ViewsFile.parse(bytes, path: path) } catch {
        throw .viewsFile(error)
      }
    }
    throw .noViewsFile
  }

  private func read(_ path: String) throws(InputError) -> [UInt8] {
    let source = try ByteSource(path: path)
    var bytes: [UInt8] = []
    while try source.read(into: &bytes, maxCount: 1 << 16) > 0 {}
    return bytes
  }

  /// The view `name` of `file`.
  static func view(named name: String, in file: ViewsFile) throws(Problem) -> View {
    guard let view = file.view(named: name) else { throw .unknownView(name, file: file) }
    return view
  }
}
