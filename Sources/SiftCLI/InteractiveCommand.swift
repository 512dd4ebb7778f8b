import SiftCore
import SiftScreen

/// `sift -i [@VIEW] [QUERY] [FILE...]` (Docs/Interactive.md): the interactive screen. Standard
/// input and output must be terminals. With a views file, its views are the tabs: `@VIEW`'s
/// active, else the first (when no FILE is given); FILEs alone are one view. A views file that
/// cannot be read opens the screen with its message in place of the list. On `q` the command
/// line that reproduces the screen is printed.
struct InteractiveCommand {
  let options: Options
  let context: ProcessContext
  var console: Console { Console(context: context) }

  func run() -> ExitStatus {
    guard context.stdinIsTerminal && context.stdoutIsTerminal else {
      return console.report(.usage(UsageError(
        "'-i' needs a terminal: standard input and output must both be terminals",
        hint: "run it in a terminal, without a pipe: sift -i @VIEW, or sift -i QUERY FILE")))
    }
    if options.files.contains("-") {
      return console.report(.usage(UsageError(
        "'-i' reads FILEs or a view's source, not standard input (-)",
        hint: "give the FILE: sift -i QUERY FILE")))
    }
    do throws(Problem) {
      let now = try QueryCommand(options: options, query: Query(), view: nil, context: context)
        .resolveNow()
      let unicode = console.unicode(asciiRequested: options.ascii)
      let tabs = try self.tabs()
      let setup = ScreenSetup(
        views: tabs.views.map { view in
          ScreenView(view: view, sourceName: sourceNames(options.files(of: view)) ?? "")
        },
        active: tabs.active, query: options.query, files: options.files, ascii: !unicode,
        leadingArguments: leadingArguments(viewsFileFailed: tabs.problem != nil))
      let runner = InteractiveRunner(
        views: tabs.views, viewsFile: tabs.file, options: options, context: context, now: now,
        unicode: unicode, problem: tabs.problem)
      let session = Session(
        logic: ScreenModel(setup: setup), terminal: Terminal(), runner: runner,
        color: console.colorMode(options.color, terminal: true))
      // The quit arguments start with the program's name (`sift @grn QUERY`).
      guard let words = session.run() else { return .error }
      return console.output(commandLineText(Array(words.dropFirst())) + "\n") ?? .matched
    }
    catch {
      return console.report(error)
    }
  }

  /// What the reproducing command line repeats before the view and query (Docs/Interactive.md,
  /// Leaving): the options that change the screen's records, and `@VIEW` where no view holds it.
  private func leadingArguments(viewsFileFailed: Bool) -> [String] {
    var words: [String] = []
    if let config = options.config { words += ["--config", config] }
    if let now = options.now { words += ["--now", now] }
    if options.reset { words.append("--reset") }
    if viewsFileFailed, let name = options.view { words.append("@" + name) }
    return words
  }

  /// The tabs: the views file's views (`@VIEW`'s active), or one view of the FILEs; with the
  /// views file's problem when it cannot be read (the screen shows it).
  private func tabs() throws(Problem) -> (views: [View?], active: Int, file: String, problem: Problem?) {
    guard options.view != nil || options.files.isEmpty else { return ([nil], 0, "", nil) }
    let lookup = ViewsFileLookup(options: options, context: context)
    let file: ViewsFile
    do throws(Problem) { file = try lookup.load() } catch {
      switch error {
      case .unreadableViewsFile, .viewsFile:
        return ([nil], 0, lookup.candidates.first?.path ?? "", error)
      case .noViewsFile where options.view == nil:
        throw .noInput
      default:
        throw error
      }
    }
    guard let name = options.view else {
      guard !file.views.isEmpty else { throw .noInput }
      return (file.views, 0, file.path, nil)
    }
    let view = try ViewsFileLookup.view(named: name, in: file)
    let active = file.views.firstIndex { $0.name == view.name } ?? 0
    return (file.views, active, file.path, nil)
  }
}
