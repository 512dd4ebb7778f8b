import SiftCore

/// `sift --views [@VIEW]` (Docs/Views.md, The views overview): the views as a tab bar with badge counts; a view whose
/// source or badge cannot be used shows `(!)` and a note on standard error, and the others
/// still print. With `@VIEW`, that tab is highlighted and a line below describes the view.
/// With `-o html`, the views digest (Docs/Reports.md). With `--engine`, the badges and the
/// digest's records come from the engine, every view in one run of its client; with `--sql`,
/// each view's statement (`ViewsOnEngine`).
struct ViewsOverview: ModeSteps {
  let job: Job
  let frontend: Frontend

  func run() -> ExitStatus {
    do throws(Problem) { return try overview() } catch { return frontend.report(error) }
  }

  private func overview() throws(Problem) -> ExitStatus {
    let file = try frontend.viewsFile(options)
    var active: Int?
    if let name = options.view {
      let view = try ViewsFileLookup.view(named: name, in: file)
      active = file.views.firstIndex { $0.name == view.name }
    }
    if options.output == .xlsx {
      return try ViewsWorkbook(job: job, frontend: frontend).write(file)
    }
    if options.sql != nil {
      // `--sql DIALECT --views`: each view's statement (Docs/Engines.md, Views on an engine).
      let statements = ViewsOnEngine(job: job, frontend: frontend).statements(file)
      if let status = console.output(statements.text), status != .matched { return status }
      return statements.broken ? .error : .matched
    }
    let digest = options.output == .html || options.output == .eml
    // `--engine`: every view's badge in one run of the engine's client.
    var onEngine: [Int: Result<ViewsOnEngine.Answer, Problem>] = [:]
    if let engine = options.engine {
      onEngine = try ViewsOnEngine(job: job, frontend: frontend)
        .answers(file, engine: engine, digest: digest)
    }
    var datasets: [String: Result<Dataset, Problem>] = [:]
    var broken = false
    var sections: [ViewsDigest.Section] = []
    var changed = false
    let tabs = file.views.enumerated().compactMap { (index, view) -> ViewTabs.Tab? in
      var badge = ViewTabs.Tab.Badge.none
      // With `--changes`, only the views with changes, their counts as badges (Docs/Reports.md).
      let comparing = options.changes != nil
      if comparing && (view.key == nil || view.source == nil) { return nil }
      let query = view.badgeQuery(sorted: digest)
      if let source = view.source, comparing || query != nil {
        do throws(Problem) {
          if let answer = onEngine[index] {
            // Counted by the engine, in its one run for every view.
            let got = try answer.get()
            badge = .count(got.count)
            if let section = got.section { sections.append(section) }
            return ViewTabs.Tab(label: view.displayTitle, badge: badge, name: view.name)
          }
          let opened = datasets[source] ?? openDataset(source)
          datasets[source] = opened
          let dataset = try opened.get()
          if comparing {
            let table = digest ? MemorySink() : nil
            guard let found = try changes(of: view, in: file, over: dataset, table: table),
              found.counts.anything
            else { return nil }
            changed = true
            badge = .changes(found.counts)
            if let table {
              sections.append(
                ViewsDigest.Section(
                  title: view.displayTitle,
                  content: .records(bar: found.bar, table: table.bytes, more: 0)))
            }
          } else if let query {
            let badgeRun = BadgeRun(
              frontend: frontend, query: query, now: now,
              viewContext: ViewContext(file: file.path, view: view, composed: query, sourceName: nil))
            if digest {
              let section = try badgeRun.section(over: dataset)
              sections.append(section.section)
              badge = .count(section.count)
            } else {
              badge = .count(try badgeRun.count(over: dataset))
            }
          }
        } catch {
          _ = frontend.report(error)
          badge = .broken
          broken = true
          sections.append(
            ViewsDigest.Section(title: view.displayTitle, content: .problem(Self.reason(error))))
        }
      }
      return ViewTabs.Tab(label: view.displayTitle, badge: badge, name: view.name)
    }
    if options.changes != nil && tabs.isEmpty && !digest {
      console.note("note: --views --changes: no view changed since its last --changes run\n")
      return broken ? .error : .noMatch
    }
    let text =
      digest
      ? digestReport(ViewsDigest(tabs: tabs, sections: sections), file: file, now: now)
      : tabBar(tabs, active: active, in: file)
    let piece = Presentation.Piece(destination: .standardOutput, bytes: text)
    if let status = console.show([piece], pager: .never, ifClosed: .matched) { return status }
    if broken { return .error }
    // With `--changes`, as a query's run: 1 when no view changed, so cron sends nothing.
    return options.changes == nil || changed ? .matched : .noMatch
  }

  /// Why a view's section could not be made: the message's first line, without the program's
  /// name (the caret lines need a terminal).
  static func reason(_ error: Problem) -> String {
    let first = error.text.split(separator: "\n").first ?? ""
    return String(first.hasPrefix("sift: ") ? first.dropFirst(6) : first)
  }

  /// The overview: the tab bar, and with `@VIEW` a line describing that view.
  private func tabBar(_ tabs: [ViewTabs.Tab], active: Int?, in file: ViewsFile) -> [UInt8] {
    let ascii = !console.unicode(asciiRequested: options.ascii)
    let width = frontend.stdoutIsTerminal ? console.width : nil
    var text = ViewTabs(tabs: tabs, active: active).render(
      ascii: ascii, color: console.colorMode(options.color, terminal: frontend.stdoutIsTerminal),
      maxWidth: width)
    if let active { text += file.views[active].details(ascii: ascii, maxWidth: width) }
    return Array(text.utf8)
  }

  /// `-o html`: the digest as a report (Docs/Reports.md, The views digest).
  private func digestReport(_ digest: ViewsDigest, file: ViewsFile, now: WallTime) -> [UInt8] {
    let report = HTMLReport(
      title: options.title ?? file.title, subtitle: sourceNames([file.path]), made: now,
      commandLine: frontend.commandLine)
    let html = report.start(bar: nil) + digest.body() + report.end()
    guard options.output == .eml else { return html }
    // `-o eml`: the digest as a message, the tab bar and its badges as the plain text
    // (Docs/Reports.md, The e-mail report).
    let tabs = ViewTabs(tabs: digest.tabs, active: nil).render(
      ascii: false, color: .none, maxWidth: nil)
    let text = Array((report.title + "\n\n" + tabs + "\n" + report.footerText + "\n").utf8)
    return MailMessage(subject: report.title, html: html, text: text).bytes()
  }

  /// The dataset of a view's source: views on the same source share it, so each source is opened
  /// and sampled once (Docs/Architecture.md, The dataset). Standard input (`-`) is kept, so
  /// that every badge on it counts all of it.
  func openDataset(_ source: String) -> Result<Dataset, Problem> {
    var request = Options()
    request.files = [source]
    do throws(Problem) {
      let inputs = try frontend.open(request, keepStreams: true)
      return .success(inputs.dataset(parallel: frontend.parallel(options)))
    } catch {
      return .failure(error)
    }
  }
}
