import SiftCore

/// Text to standard output and standard error, and the terminal facts that shape it; the
/// frontend hands them over (Docs/Architecture.md, The front).
struct Console {
  let stdout: ByteSink
  let stderr: ByteSink
  let stdoutIsTerminal: Bool
  let stderrIsTerminal: Bool
  /// The terminal's size when standard output is one; `COLUMNS` and `LINES` come first.
  let terminalWidth: Int?
  let terminalHeight: Int?
  /// The process's environment: the locale, colour, the pager, `COLUMNS` and `LINES`.
  let environment: [String: String]
  /// `-q`: notes are not written (Docs/CommandLine.md, Notes).
  let quiet: Bool

  /// Writes `text` to standard error; a failure is ignored, as there is nowhere to report it.
  func error(_ text: String) {
    try? write(text, to: stderr)
  }

  /// Writes a note (a guess sift made, a hint) to standard error unless `-q` asked for quiet
  /// (Docs/CommandLine.md, Notes).
  func note(_ text: String) {
    if !quiet { error(text) }
  }

  /// Writes `text` to standard output: `nil` when written, else the status to end with
  /// (`Problem.output`).
  func output(_ text: String, ifClosed closedStatus: ExitStatus = .matched) -> ExitStatus? {
    do throws(OutputError) {
      try write(text, to: stdout)
      return nil
    } catch {
      return report(.output(error, ifClosed: closedStatus))
    }
  }

  private func write(_ text: String, to sink: ByteSink) throws(OutputError) {
    var t = text
    let failure: OutputError? = t.withUTF8 { bytes in
      do throws(OutputError) {
        try sink.write(bytes)
        return nil
      } catch {
        return error
      }
    }
    if let failure { throw failure }
  }

  /// True when the locale is UTF-8 (`LC_ALL`, else `LC_CTYPE`, else `LANG`) and `--ascii` is off.
  func unicode(asciiRequested: Bool) -> Bool {
    if asciiRequested { return false }
    let env = environment
    let locale = [env["LC_ALL"], env["LC_CTYPE"], env["LANG"]].compactMap { $0 }.first { !$0.isEmpty } ?? ""
    let l = locale.lowercased()
    return l.contains("utf-8") || l.contains("utf8")
  }

  /// Colour for a destination per `--color` (Docs/FeedbackBar.md, Colour and plain text): `auto` only on a terminal, with `NO_COLOR`
  /// unset or empty (no-color.org) and `TERM` not `dumb`; 24-bit when `COLORTERM` says so.
  func colorMode(_ choice: ColorChoice, terminal: Bool) -> ColorMode {
    let env = environment
    switch choice {
    case .never: return .none
    case .auto:
      guard terminal, (env["NO_COLOR"] ?? "").isEmpty, env["TERM"] != "dumb" else { return .none }
    case .always: break
    }
    let colorterm = env["COLORTERM"]?.lowercased() ?? ""
    return colorterm == "truecolor" || colorterm == "24bit" ? .trueColor : .palette256
  }

  /// The terminal height: `LINES` when set, else the terminal's.
  var height: Int? {
    if let l = environment["LINES"], let n = Int(l), n > 0 { return n }
    return terminalHeight
  }

  /// Writes a table for the terminal to standard output (Docs/CommandLine.md, The pager): through
  /// the pager when `--pager` says so (`auto`: when it does not fit above the prompt), else, or
  /// when no pager can be run, plainly. `nil` when written, else the status to end with.
  func page(_ text: [UInt8], _ choice: PagerChoice, ifClosed closedStatus: ExitStatus) -> ExitStatus? {
    let paged: Bool
    switch choice {
    case .never: paged = false
    case .always: paged = stdoutIsTerminal
    case .auto:
      let lines = text.reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
      paged = stdoutIsTerminal && height.map { lines >= $0 } ?? false
    }
    if paged, let pager = Pager(environment: environment), pager.run(text) { return nil }
    return output(text, ifClosed: closedStatus)
  }

  /// Writes `bytes` to standard output: `nil` when written, else the status to end with.
  func output(_ bytes: [UInt8], ifClosed closedStatus: ExitStatus) -> ExitStatus? {
    do throws(OutputError) {
      try bytes.withUnsafeBufferPointer { b throws(OutputError) in try stdout.write(b) }
      return nil
    } catch {
      return report(.output(error, ifClosed: closedStatus))
    }
  }

  /// The terminal width: `COLUMNS` when set, else the terminal's.
  var width: Int? {
    if let c = environment["COLUMNS"], let n = Int(c), n > 0 { return n }
    return terminalWidth
  }
}
