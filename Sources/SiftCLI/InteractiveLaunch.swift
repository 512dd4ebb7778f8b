import SiftCore
import SiftScreen

/// `sift -i [@VIEW] [QUERY] [FILE...]` (Docs/Interactive.md): the interactive screen. Standard
/// output must be a terminal; standard input from a pipe or a file is read as records (`-`, or
/// no FILE and no view) while the keys come from the terminal (`/dev/tty`). With a views file,
/// its views are the tabs: `@VIEW`'s active, else the first (when no FILE is given); FILEs
/// alone are one view. A views file that
/// cannot be read opens the screen with its message in place of the list. On `q` the command
/// line that reproduces the screen is printed.
struct InteractiveLaunch: ModeSteps {
  let job: Job
  let frontend: Frontend

  /// The screen over the arguments the job settled (a lone `-` is standard input) and checked
  /// (standard output a terminal, standard input not one when it is read).
  func run() -> ExitStatus {
    let piped = !frontend.stdinIsTerminal
    // Records from a pipe: the keys come from the terminal itself (Docs/Interactive.md, Piped
    // standard input).
    var terminal = Terminal()
    if piped {
      guard let keyboard = Terminal.keyboardFromControllingTerminal() else {
        return frontend.report(.usage(UsageError(
          "'-i' with standard input from a pipe reads the keys from /dev/tty, which cannot be opened",
          hint: "run it in a terminal, or give the FILE: sift -i QUERY FILE")))
      }
      terminal = keyboard
    }
    do throws(Problem) {
      let unicode = console.unicode(asciiRequested: options.ascii)
      let tabs = try self.tabs()
      let setup = ScreenSetup(
        views: tabs.views.map { view in
          ScreenView(view: view, sourceName: sourceNames(options.files(of: view)) ?? (piped ? "stdin" : ""))
        },
        active: tabs.active, query: options.query, files: options.files, ascii: !unicode,
        leadingArguments: leadingArguments(viewsFileFailed: tabs.problem != nil),
        copyFormat: options.output ?? .csv,
        // Today from "now" (`--now`, `SIFT_NOW` or the clock), days rounded down.
        today: Calendar.isoDate(
          days: now >= 0 ? now / Calendar.microsPerDay : (now + 1) / Calendar.microsPerDay - 1))
      let runner = InteractiveRunner(
        views: tabs.views, viewsFile: tabs.file, options: options, frontend: frontend, now: now,
        unicode: unicode, problem: tabs.problem)
      let session = Session(
        logic: ScreenModel(setup: setup), terminal: terminal, runner: runner,
        color: console.colorMode(options.color, terminal: true))
      // The quit arguments start with the program's name (`sift @grn QUERY`).
      guard let words = session.run() else { return .error }
      return console.output(commandLineText(Array(words.dropFirst())) + "\n") ?? .matched
    }
    catch {
      return frontend.report(error)
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
    // FILEs, or records piped in without a view, are one view.
    if options.view == nil && (!options.files.isEmpty || !frontend.stdinIsTerminal) {
      return ([nil], 0, "", nil)
    }
    let lookup = frontend.viewsFileLookup(options)
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
