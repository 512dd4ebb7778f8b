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
    guard let file = ViewsFileLookup(options: options, context: context).load(),
      let view = ViewsFileLookup.view(named: options.view ?? "", in: file, console: console)
    else { return .error }
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
    guard let file = ViewsFileLookup(options: options, context: context).load() else {
      return .error
    }
    var active: Int?
    if let name = options.view {
      guard let view = ViewsFileLookup.view(named: name, in: file, console: console) else {
        return .error
      }
      active = file.views.firstIndex { $0.name == view.name }
    }
    guard
      let now = QueryCommand(options: options, query: Query(), view: nil, context: context)
        .resolveNow()
    else { return .error }
    var broken = false
    let tabs = file.views.map { view in
      var badge = ViewTabs.Tab.Badge.none
      if let query = view.badgeQuery() {
        if let n = count(query, view: view, file: file.path, now: now) {
          badge = .count(n)
        } else {
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
    if let status = console.output(text) { return status }
    return broken ? .error : .matched
  }

  /// The records of the view's source matching `query`, or `nil` after writing a note.
  private func count(_ query: ComposedQuery, view: View, file: String, now: WallTime) -> Int? {
    var request = Options()
    request.files = view.source.map { [$0] } ?? []
    guard let inputs = Inputs.open(request, context: context) else { return nil }
    let engine = Engine(readers: inputs.readers, parallel: options.parallel)
    do throws(SiftError) {
      try engine.readSample()
      let plan: Plan
      do throws(PlanError) { plan = try engine.plan(query.query, now: now) } catch {
        throw .plan(error)
      }
      return try engine.run(plan, writer: nil).matched
    } catch {
      switch error {
      case .plan(let e):
        let context = ViewContext(file: file, view: view, composed: query, sourceName: nil)
        console.error(context.render(e, given: ""))
      case .input(let e): console.error("sift: \(e)\n")
      case .output: break
      }
      return nil
    }
  }
}

/// Finds and reads the views file (Docs/Views.md, The views file): `--config FILE`, else `$SIFT_CONFIG`, else
/// `./sift.json`, else `$XDG_CONFIG_HOME/sift/config.json` (`~/.config/sift/config.json`).
struct ViewsFileLookup {
  let options: Options
  let context: ProcessContext
  var console: Console { Console(context: context) }

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

  /// The parsed views file, or `nil` after reporting why there is none.
  func load() -> ViewsFile? {
    for (path, explicit) in candidates {
      let bytes: [UInt8]
      do throws(InputError) {
        bytes = try read(path)
      } catch {
        if !explicit && error.message == "no such file" { continue }
        console.error("sift: views file \(error)\n")
        return nil
      }
      do throws(ViewsFileError) { return try ViewsFile.parse(bytes, path: path) } catch {
        console.error(error.rendered)
        return nil
      }
    }
    console.error(
      "sift: no views file: give --config FILE, set SIFT_CONFIG, or create ./sift.json or "
        + "~/.config/sift/config.json\n"
        + "  it is JSON: {\"views\": {\"NAME\": {\"source\": \"FILE.csv\", \"query\": \"…\"}}}\n")
    return nil
  }

  private func read(_ path: String) throws(InputError) -> [UInt8] {
    let source = try ByteSource(path: path)
    var bytes: [UInt8] = []
    while try source.read(into: &bytes, maxCount: 1 << 16) > 0 {}
    return bytes
  }

  /// The view `name` of `file`, or `nil` after reporting it unknown.
  static func view(named name: String, in file: ViewsFile, console: Console) -> View? {
    if let view = file.view(named: name) { return view }
    var message = "sift: no view '\(name)' in \(file.path)"
    if let near = file.suggestion(for: name) { message += "; did you mean '@\(near)'?" }
    let names = file.views.map(\.name)
    message += "\n  views: " + (names.isEmpty ? "(none)" : names.joined(separator: ", ")) + "\n"
    console.error(message)
    return nil
  }
}
