import SiftCore

/// `sift @VIEW [QUERY] [FILE...]` (Docs/Views.md, Running a view): the view's preset query AND the given query over
/// the view's source (or the FILEs), sorted by the view's default unless the query sorts, with
/// the view's fast filters in the bar and its title above a table.
struct ViewCommand {
  let options: Options
  /// The given QUERY, parsed.
  let query: Query
  let context: ProcessContext
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
    if run.files.isEmpty, let source = view.source { run.files = [source] }
    // The subtitle names the files read; standard input has none.
    let names = run.files.filter { $0 != "-" }.map { String($0.split(separator: "/").last ?? "") }
    let viewContext = ViewContext(
      file: file.path, view: view, composed: composed,
      sourceName: names.isEmpty ? nil : names.joined(separator: ", "))
    return QueryCommand(options: run, query: composed.query, view: viewContext, context: context)
      .run()
  }
}

/// `sift --views [@VIEW]` (Docs/Views.md, The views overview): the views as a tab bar with badge counts; a view whose
/// source or badge cannot be used shows `(!)` and a note on standard error, and the others
/// still print. With `@VIEW`, that tab is highlighted and a line below describes the view.
struct ViewsOverviewCommand {
  let options: Options
  let context: ProcessContext
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
    let now = try QueryCommand(options: options, query: Query(), view: nil, context: context)
      .resolveNow()
    var datasets: [String: Result<Dataset, Problem>] = [:]
    var broken = false
    let tabs = file.views.map { view in
      var badge = ViewTabs.Tab.Badge.none
      if let query = view.badgeQuery(), let source = view.source {
        do throws(Problem) {
          let opened = datasets[source] ?? openDataset(source)
          datasets[source] = opened
          let dataset = try opened.get()
          badge = .count(try count(query, of: view, in: file.path, over: dataset, now: now))
        } catch {
          _ = console.report(error)
          badge = .broken
          broken = true
        }
      }
      return ViewTabs.Tab(label: view.displayTitle, badge: badge, name: view.name)
    }
    let ascii = !console.unicode(asciiRequested: options.ascii)
    let width = context.stdoutIsTerminal ? console.width : nil
    var text = ViewTabs(tabs: tabs, active: active).render(
      ascii: ascii, color: console.colorMode(options.color, terminal: context.stdoutIsTerminal),
      maxWidth: width)
    if let active { text += file.views[active].details(ascii: ascii, maxWidth: width) }
    let tabBar = Presentation.Piece(destination: .standardOutput, bytes: Array(text.utf8))
    if let status = console.show([tabBar], pager: .never, ifClosed: .matched) { return status }
    return broken ? .error : .matched
  }

  /// The dataset of a view's source: views on the same source share it, so each source is opened
  /// and sampled once (Docs/Architecture.md, The dataset). Standard input (`-`) is kept, so
  /// that every badge on it counts all of it.
  private func openDataset(_ source: String) -> Result<Dataset, Problem> {
    var request = Options()
    request.files = [source]
    do throws(Problem) {
      let inputs = try Inputs.open(request, context: context, keepStandardInput: true)
      return .success(inputs.dataset(parallel: options.parallel))
    } catch {
      return .failure(error)
    }
  }

  /// The records of `dataset` matching the view's badge `query`.
  private func count(
    _ query: ComposedQuery, of view: View, in file: String, over dataset: Dataset, now: WallTime
  ) throws(Problem) -> Int {
    let context = ViewContext(file: file, view: view, composed: query, sourceName: nil)
    do throws(SiftError) {
      let plan: Plan
      do throws(PlanError) { plan = try dataset.plan(query.query, now: now) } catch {
        throw .plan(error)
      }
      return try dataset.run(plan, writer: nil).matched
    } catch {
      throw Problem(error, query: "", view: context)
    }
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
