import SiftCore

/// How the feedback bar is written (Docs/FeedbackBar.md).
public enum SummaryStyle: String, Sendable, CaseIterable {
  case bar, text, json, none
}

/// When output is coloured (`--color`, Docs/FeedbackBar.md).
public enum ColorChoice: String, Sendable, CaseIterable {
  case auto, always, never
}

/// A command line that cannot be run: exit 2 with the message and a one-line hint.
public struct UsageError: Error, Sendable, Equatable {
  public var message: String
  public var hint: String

  public init(_ message: String, hint: String = "try 'sift --help'") {
    self.message = message
    self.hint = hint
  }

  /// `sift: MESSAGE` and the hint, as written to standard error.
  public var rendered: String { "sift: \(message)\n\(hint)\n" }
}

/// The parsed command line (`sift --help`; README.md, A tour).
public struct Options: Sendable, Equatable {
  /// What sift is asked to do.
  public enum Mode: Sendable, Equatable {
    /// Run QUERY over the FILEs (or `@VIEW`).
    case query
    /// `--fields`: list the fields of the FILEs.
    case fields
    /// `--views`: the views overview (Docs/Views.md, The views overview).
    case views
    /// `-h`, `--help`.
    case help
    /// `--version`.
    case version
  }

  public var mode = Mode.query
  /// `-f, --format`; `nil`: by extension, else sniffed.
  public var format: InputFormat?
  /// `-o, --output`; `nil`: the default of Docs/Formats.md, Output.
  public var output: OutputFormat?
  /// `-d, --delimiter`: one byte.
  public var delimiter: UInt8?
  /// `--encoding`: the input text encoding (Docs/Formats.md "Encodings").
  public var encoding = TextEncoding.utf8
  public var noHeader = false
  /// `-c, --count`
  public var count = false
  /// `-q, --quiet`: no feedback bar.
  public var quiet = false
  public var summary = SummaryStyle.bar
  public var color = ColorChoice.auto
  /// `--now DATETIME` as given (not yet parsed).
  public var now: String?
  public var explain = false
  public var skipBad = false
  /// `--config FILE`: the views file.
  public var config: String?
  public var reset = false
  /// `--ascii`: plain ASCII in the feedback bar (Docs/FeedbackBar.md).
  public var ascii = false
  /// The view of `@VIEW`, without the `@`.
  public var view: String?
  /// The QUERY argument; `""` when a view is run without one, and in `--fields` / `--views`.
  public var query = ""
  /// FILE arguments; empty means standard input. `-` is standard input too.
  public var files: [String] = []

  public init() {}

  /// One option of the table below: how it is spelled, whether it takes a value, what it sets.
  private struct Spec: Sendable {
    let long: String
    let short: Character?
    /// What the value may be, for "needs a value (…)"; `nil` for options without a value.
    let valueHint: String?
    let apply: @Sendable (inout Options, String) throws(UsageError) -> Void
  }

  private static func flag(
    _ long: String, _ short: Character? = nil, _ set: @escaping @Sendable (inout Options) -> Void
  ) -> Spec {
    Spec(long: long, short: short, valueHint: nil) { options, _ in set(&options) }
  }

  private static func choice<T: RawRepresentable & CaseIterable & Sendable>(
    _ long: String, _ short: Character?, _ set: @escaping @Sendable (inout Options, T) -> Void
  ) -> Spec where T.RawValue == String {
    let names = T.allCases.map(\.rawValue).joined(separator: ", ")
    return Spec(long: long, short: short, valueHint: names) { options, value throws(UsageError) in
      guard let choice = T(rawValue: value) else {
        throw UsageError("option '--\(long)' needs one of \(names), not '\(value)'")
      }
      set(&options, choice)
    }
  }

  private static let specs: [Spec] = [
    choice("format", "f") { (o, v: InputFormat) in o.format = v },
    choice("output", "o") { (o, v: OutputFormat) in o.output = v },
    Spec(long: "delimiter", short: "d", valueHint: "one character, or \\t") {
      options, value throws(UsageError) in
      if value == "\\t" || value == "\t" {
        options.delimiter = UInt8(ascii: "\t")
      } else if value.utf8.count == 1, let byte = value.utf8.first {
        options.delimiter = byte
      } else {
        throw UsageError("option '--delimiter' needs one character, or \\t, not '\(value)'")
      }
    },
    Spec(long: "encoding", short: nil, valueHint: "utf-8, latin-1 or windows-1252") {
      options, value throws(UsageError) in
      guard let encoding = TextEncoding(name: value) else {
        throw UsageError(
          "option '--encoding' needs utf-8, latin-1 or windows-1252, not '\(value)'")
      }
      options.encoding = encoding
    },
    flag("no-header") { $0.noHeader = true },
    flag("count", "c") { $0.count = true },
    flag("quiet", "q") { $0.quiet = true },
    choice("summary", nil) { (o, v: SummaryStyle) in o.summary = v },
    choice("color", nil) { (o, v: ColorChoice) in o.color = v },
    Spec(long: "now", short: nil, valueHint: "a date-time, e.g. 2024-03-15T09:00") { o, v in
      o.now = v
    },
    flag("explain") { $0.explain = true },
    flag("skip-bad") { $0.skipBad = true },
    Spec(long: "config", short: nil, valueHint: "the views file") { o, v in o.config = v },
    flag("reset") { $0.reset = true },
    flag("ascii") { $0.ascii = true },
    flag("fields") { $0.mode = .fields },
    flag("views") { $0.mode = .views },
    flag("help", "h") { $0.mode = .help },
    flag("version") { $0.mode = .version },
  ]

  private static let byLong = Dictionary(uniqueKeysWithValues: specs.map { ($0.long, $0) })
  private static let byShort = Dictionary(
    uniqueKeysWithValues: specs.compactMap { spec in spec.short.map { ($0, spec) } })

  /// Parses the arguments (without the program name). `--help` and `--version` end the parse
  /// where they stand; `--` ends the options.
  public static func parse(_ arguments: [String]) throws(UsageError) -> Options {
    var options = Options()
    var positionals: [String] = []
    var index = 0
    /// The value of an option: attached (`--format=csv`, `-fcsv`) or the next argument.
    func value(for spec: Spec, attached: String?) throws(UsageError) -> String {
      if let attached { return attached }
      index += 1
      guard index < arguments.count else {
        throw UsageError("option '--\(spec.long)' needs a value (\(spec.valueHint ?? ""))")
      }
      return arguments[index]
    }
    while index < arguments.count {
      let argument = arguments[index]
      if argument == "--" {
        positionals += arguments[(index + 1)...]
        break
      } else if argument.hasPrefix("--") {
        let body = argument.dropFirst(2)
        let name = String(body.prefix { $0 != "=" })
        let attached = body.firstIndex(of: "=").map { String(body[body.index(after: $0)...]) }
        guard let spec = byLong[name] else {
          throw UsageError("unknown option '--\(name)'")
        }
        if spec.valueHint == nil {
          guard attached == nil else { throw UsageError("option '--\(name)' takes no value") }
          try spec.apply(&options, "")
        } else {
          try spec.apply(&options, try value(for: spec, attached: attached))
        }
      } else if argument.hasPrefix("-") && argument.count > 1 {
        // A query may start with `-` (`-status:cancelled`): when the letters cannot be options
        // and the argument holds what only a query holds, it is the query (Docs/QueryLanguage.md).
        let saved = (options, index)
        do throws(UsageError) {
          var letters = Substring(argument.dropFirst())
          while let letter = letters.first {
            letters = letters.dropFirst()
            guard let spec = byShort[letter] else {
              throw unknownShortOption(letter, in: argument)
            }
            if spec.valueHint == nil {
              try spec.apply(&options, "")
            } else {
              try spec.apply(
                &options, try value(for: spec, attached: letters.isEmpty ? nil : String(letters)))
              break
            }
          }
        } catch {
          guard looksLikeQuery(argument) else { throw error }
          (options, index) = saved
          positionals.append(argument)
        }
      } else {
        positionals.append(argument)
      }
      if options.mode == .help || options.mode == .version { return options }
      index += 1
    }
    try options.assign(positionals)
    return options
  }

  /// Whether an argument starting with `-` holds what no option holds: `:`, `(`, `"` or
  /// whitespace.
  static func looksLikeQuery(_ argument: String) -> Bool {
    argument.contains { $0 == ":" || $0 == "(" || $0 == "\"" || $0.isWhitespace }
  }

  private static func unknownShortOption(_ letter: Character, in argument: String) -> UsageError {
    guard argument.contains(":") || argument.contains(" ") || argument.count > 3 else {
      return UsageError("unknown option '-\(letter)'")
    }
    return UsageError(
      "unknown option '\(argument)'",
      hint: "to start a query with '-', put '--' before it: sift -- '\(argument)' FILE")
  }

  /// QUERY then FILEs; with `@VIEW` first, the next argument is still the QUERY.
  private mutating func assign(_ positionals: [String]) throws(UsageError) {
    switch mode {
    case .fields:
      files = positionals
    case .views:
      // `sift --views @VIEW` highlights that view's tab.
      var rest = positionals[...]
      if let first = rest.first, first.hasPrefix("@"), first.count > 1 {
        view = String(first.dropFirst())
        rest = rest.dropFirst()
      }
      if let extra = rest.first {
        throw UsageError("'--views' takes no arguments but @VIEW, not '\(extra)'")
      }
    case .query:
      var rest = positionals[...]
      if let first = rest.first, first.hasPrefix("@"), first.count > 1 {
        view = String(first.dropFirst())
        rest = rest.dropFirst()
        query = rest.popFirst() ?? ""
      } else {
        guard let given = rest.popFirst() else {
          throw UsageError(
            "missing QUERY", hint: "usage: sift [OPTIONS] QUERY [FILE...]; try 'sift --help'")
        }
        query = given
      }
      files = Array(rest)
    case .help, .version:
      break
    }
  }
}
