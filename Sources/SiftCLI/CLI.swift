import SiftCore

/// The outcome of a run (README.md, Exit status).
public enum ExitStatus: Int32, Sendable {
  /// At least one record matched (or an informational command succeeded).
  case matched = 0
  /// No record matched.
  case noMatch = 1
  /// Any error: usage, query, unknown field, unreadable file, malformed input.
  case error = 2
}

/// Everything a run touches from the outside world, so tests run the CLI in-process.
public struct ProcessContext {
  public var arguments: [String]
  public var environment: [String: String]
  public var stdin: ByteSource
  public var stdinIsTerminal: Bool
  public var stdout: ByteSink
  public var stdoutIsTerminal: Bool
  public var stderr: ByteSink
  public var stderrIsTerminal: Bool
  /// The terminal width in columns when stdout is a terminal.
  public var terminalWidth: Int?
  /// The terminal height in lines when stdout is a terminal (for the pager).
  public var terminalHeight: Int?
  /// The current directory, for finding `./sift.json`.
  public var currentDirectory: String
  /// `-q`: notes are not written (Docs/CommandLine.md, Notes); errors still are. Set once the
  /// options are parsed.
  var quiet = false

  public init(
    arguments: [String], environment: [String: String] = [:], stdin: ByteSource,
    stdinIsTerminal: Bool = false, stdout: ByteSink, stdoutIsTerminal: Bool = false,
    stderr: ByteSink, stderrIsTerminal: Bool = false, terminalWidth: Int? = nil,
    terminalHeight: Int? = nil, currentDirectory: String = "."
  ) {
    self.arguments = arguments
    self.environment = environment
    self.stdin = stdin
    self.stdinIsTerminal = stdinIsTerminal
    self.stdout = stdout
    self.stdoutIsTerminal = stdoutIsTerminal
    self.stderr = stderr
    self.stderrIsTerminal = stderrIsTerminal
    self.terminalWidth = terminalWidth
    self.terminalHeight = terminalHeight
    self.currentDirectory = currentDirectory
  }
}

/// Runs sift with `context.arguments` (without the program name).
public func run(_ context: ProcessContext) -> ExitStatus {
  var frontend = Frontend(context: context)
  let options: Options
  do throws(Problem) { options = try frontend.options() } catch {
    return frontend.report(error)
  }
  let job: Job
  do throws(Problem) { job = try frontend.job(options) } catch {
    return frontend.report(error)
  }
  return frontend.perform(job)
}
