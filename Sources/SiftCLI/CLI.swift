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
  let options: Options
  do {
    options = try Options.parse(context.arguments)
  } catch {
    context.stderr.write(text: error.rendered)
    return .error
  }
  switch options.mode {
  case .help:
    return Console(context: context).output(helpText) ?? .matched
  case .version:
    return Console(context: context).output("sift \(siftVersion)\n") ?? .matched
  case .man:
    return Console(context: context).output(ManPage.text) ?? .matched
  case .completion(let shell):
    return Console(context: context).output(CompletionScript.text(for: shell)) ?? .matched
  case .fields, .views, .completeViews, .completeFields:
    return execute(options: options, query: Query(), context: context)
  case .query:
    break
  }
  let query: Query
  do {
    query = try Parser.parse(options.query)
  } catch {
    context.stderr.write(text: error.rendered(against: options.query))
    return .error
  }
  if options.explain && options.view == nil && options.files.isEmpty {
    // Without a FILE the field types are unknown (Docs/QueryLanguage.md, "Explain").
    for word in query.unknownRelativeDateWords {
      context.stderr.write(text: "note: '\(word)' is not a relative date (\(Plan.relativeDateWords));"
        + " against a date field it is an error: give a FILE to check the query against it\n")
    }
    return Console(context: context).output(query.canonicalForm + "\n") ?? .matched
  }
  return execute(options: options, query: query, context: context)
}

extension ByteSink {
  /// Writes a message to standard error; a failed write is ignored.
  fileprivate func write(text: String) {
    var text = text
    text.withUTF8 { try? write($0) }
  }
}
