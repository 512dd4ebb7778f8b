#if canImport(Glibc)
  import Glibc
#endif
import GNUCalls
import SiftCore

/// How the feedback bar is written (Docs/FeedbackBar.md).
public enum SummaryStyle: String, Sendable, CaseIterable {
  case bar, text, json, none
}

/// When output is coloured (`--color`, Docs/FeedbackBar.md).
public enum ColorChoice: String, Sendable, CaseIterable {
  case auto, always, never
}

/// When a table goes through a pager (`--pager`, Docs/CommandLine.md, The pager).
public enum PagerChoice: String, Sendable, CaseIterable {
  case auto, always, never
}

/// An SQL engine `--engine` runs a query on (Docs/Engines.md, Engines).
public enum SQLEngine: String, Sendable, CaseIterable {
  case duckdb, spark

  /// The dialect of its statements.
  public var dialect: SQLDialect {
    switch self {
    case .duckdb: return .duckdb
    case .spark: return .spark
    }
  }
}

/// A shell `--completion` writes a script for (Docs/CommandLine.md, Completions).
public enum Shell: String, Sendable, CaseIterable {
  case bash, zsh, fish
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
    /// `-i`, `--interactive`: the interactive screen (Docs/Interactive.md).
    case interactive
    /// `--fields`: list the fields of the FILEs.
    case fields
    /// `--views`: the views overview (Docs/Views.md, The views overview).
    case views
    /// `-h`, `--help`.
    case help
    /// `--version`.
    case version
    /// `--man`: the manual page.
    case man
    /// `--completion SHELL`: the completion script.
    case completion(Shell)
    /// `--complete-views`: the view names, one a line (for the completion scripts).
    case completeViews
    /// `--complete-fields [FILE...|@VIEW]`: what a query term may start with, one a line.
    case completeFields
  }

  public var mode = Mode.query
  /// `-f, --format`; `nil`: by extension, else sniffed.
  public var format: InputFormat?
  /// `-o, --output`; `nil`: the default of Docs/Formats.md, Output.
  public var output: OutputFormat?
  /// `-d, --delimiter`: one byte.
  public var delimiter: UInt8?
  /// `--encoding`: the input text encoding; `nil`: sniffed per input (Docs/Formats.md "Encodings").
  public var encoding: TextEncoding?
  /// `--quote none|"`: whether `"` quotes CSV/TSV fields; `nil`: CSV quotes, TSV when its sample
  /// does (Docs/Formats.md "TSV").
  public var quoting: Bool?
  /// `--decimal , | .`: how CSV/TSV inputs write numbers; `nil`: decided per file from its
  /// sample (Docs/Formats.md, Decimal commas).
  public var decimalMark: DecimalMark?
  /// `--sheet`: the workbook sheet to read, by name or number (Docs/Formats.md "Workbooks").
  public var sheet: String?
  public var noHeader = false
  /// `-c, --count`
  public var count = false
  /// `-q, --quiet`: no feedback bar.
  public var quiet = false
  public var summary = SummaryStyle.bar
  public var color = ColorChoice.auto
  public var pager = PagerChoice.auto
  /// `--dates ORDER`: the order of every field's numeric dates (Docs/Formats.md, Dates).
  public var dates: DateOrder?
  /// `--tz ZONE`: a zone name, UTC or an offset, read when the inputs are opened; `nil` for the
  /// machine's zone.
  public var zone: String?
  /// `--now DATETIME` as given (not yet parsed).
  public var now: String?
  public var explain = false
  public var skipBad = false
  /// `--sql DIALECT`: print the statement instead of running the query (Docs/Engines.md).
  public var sql: SQLDialect?
  /// `--engine ENGINE`: run the query on an SQL engine (Docs/Engines.md).
  public var engine: SQLEngine?
  /// `--table NAME`: with `--sql`/`--engine`, the table read instead of FILE.
  public var table: String?
  /// `-j N`: threads reading a large file; `nil` for the cores online.
  public var threads: Int?
  /// `--memory SIZE` in bytes: what `sort:` and `group:` keep before spilling to temporary
  /// files; `nil` for a quarter of physical memory.
  public var memory: Int?
  /// `--config FILE`: the views file.
  public var config: String?
  public var reset = false
  /// `--changes KEY[,KEY…]`: only what changed since the last run, by these key fields
  /// (Docs/Reports.md, "Changes since the last run"); empty: by the view's `key`.
  public var changes: [String]?
  /// `--attach FORMAT`: with `-o eml`, the same rows attached (Docs/Reports.md, The e-mail
  /// report).
  var attach: AttachFormat?
  /// `--title TEXT`: the heading of an HTML or e-mail report (Docs/Reports.md, The document).
  public var title: String?
  /// `--against FILE` (repeatable): compare with an earlier export instead of the state.
  public var against: [String] = []
  /// `--peek`: compare without moving the baseline.
  public var peek = false
  /// `--ascii`: plain ASCII in the feedback bar (Docs/FeedbackBar.md).
  public var ascii = false
  /// The view of `@VIEW`, without the `@`.
  public var view: String?
  /// The QUERY argument; `""` when a view is run without one, and in `--fields` / `--views`.
  public var query = ""
  /// FILE arguments; empty means standard input. `-` is standard input too.
  public var files: [String] = []

  public init() {}

  /// Parses the arguments (without the program name). `--help` and `--version` end the parse
  /// where they stand; `--` ends the options.
  public static func parse(_ arguments: [String]) throws(UsageError) -> Options {
    var options = Options()
    var positionals: [String] = []
    var index = 0
    /// The value of an option: attached (`--format=csv`, `-fcsv`) or the next argument.
    func value(for spec: OptionSpec, attached: String?) throws(UsageError) -> String {
      if let attached { return attached }
      index += 1
      guard index < arguments.count else {
        throw UsageError("option '--\(spec.long)' needs a value (\(spec.value.hint))")
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
        guard let spec = OptionTable.byLong[name] else {
          throw UsageError("unknown option '--\(name)'")
        }
        if spec.value == .none {
          guard attached == nil else { throw UsageError("option '--\(name)' takes no value") }
          try spec.apply(&options, "")
        } else if spec.valueMayBeOmitted && attached == nil
          && (index + 1 == arguments.count || arguments[index + 1].hasPrefix("-"))
        {
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
            guard let spec = OptionTable.byShort[letter] else {
              throw unknownShortOption(letter, in: argument)
            }
            if spec.value == .none {
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
    case .fields, .completeFields:
      // `sift --fields @VIEW` lists the fields of the view's file.
      var rest = positionals[...]
      if let first = rest.first, first.hasPrefix("@"), first.count > 1 {
        view = String(first.dropFirst())
        rest = rest.dropFirst()
      }
      files = Array(rest)
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
    case .query, .interactive:
      var rest = positionals[...]
      if let first = rest.first, first.hasPrefix("@"), first.count > 1 {
        view = String(first.dropFirst())
        rest = rest.dropFirst()
        query = rest.popFirst() ?? ""
      } else if mode == .interactive {
        // The screen opens without a query too: `sift -i`, `sift -i '' FILE`.
        query = rest.popFirst() ?? ""
      } else {
        guard let given = rest.popFirst() else {
          throw UsageError(
            "missing QUERY", hint: "usage: sift [OPTIONS] QUERY [FILE...]; try 'sift --help'")
        }
        query = given
      }
      files = Array(rest)
    case .help, .version, .man, .completion, .completeViews:
      break
    }
  }
}

extension Options {
  /// How many threads read a large file: `-j N`, else every core this process may run on (its
  /// affinity, as `nproc` counts), else every core online; how much memory
  /// sorting keeps before it spills to temporary files in `$TMPDIR`: `--memory SIZE`, else a
  /// quarter of physical memory (Docs/CommandLine.md, Options). `environment` is the process's,
  /// which the frontend hands over (Docs/Architecture.md, The front). `SIFT_PART_SIZE`, a test
  /// seam and no option, cuts a file into parts of that size, from any rest, so a small file
  /// takes the paths of a large one (Docs/Testing.md, What the suite costs).
  func parallel(environment: [String: String]) -> ParallelOptions {
    let physical = sysconf(Int32(_SC_PHYS_PAGES)) * sysconf(Int32(_SC_PAGESIZE))
    let directory = environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 }
    var options = ParallelOptions(
      workers: threads ?? Self.usableCores,
      memoryBudget: memory ?? (physical > 0 ? physical / 4 : 1 << 30),
      temporaryDirectory: directory ?? "/tmp")
    if let partSize = environment["SIFT_PART_SIZE"].flatMap(Self.parseSize) {
      options.partSize = partSize
      options.minimumSize = 0
    }
    return options
  }

  /// The cores this process may run on: under `taskset -c 0,1` or a container's cpuset, two
  /// workers on a 16-core machine, not sixteen taking turns on two.
  static var usableCores: Int {
    let allowed = Int(sift_usable_cores())
    return allowed > 0 ? allowed : max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))
  }

  /// Bytes from a size: digits, then optionally `K`, `M`, `G` or `T` (powers of 1024, either
  /// case, an optional `B` after); `nil` if it is not one, or is 0.
  static func parseSize(_ text: String) -> Int? {
    var digits = Substring(text)
    if digits.last == "B" || digits.last == "b", digits.count > 1,
      !(digits.dropLast().last?.isNumber ?? true)
    {
      digits = digits.dropLast()
    }
    var shift = 0
    if let unit = digits.last?.uppercased(), let k = ["K", "M", "G", "T"].firstIndex(of: unit) {
      shift = 10 * (k + 1)
      digits = digits.dropLast()
    }
    guard !digits.isEmpty, digits.allSatisfy({ $0 >= "0" && $0 <= "9" }), let n = Int(digits),
      n > 0, n <= Int.max >> shift
    else { return nil }
    return n << shift
  }
}

extension Options {
  /// The files `view` reads (Docs/Views.md, Running a view): the FILEs given replace its
  /// source; without a view, the FILEs.
  func files(of view: View?) -> [String] {
    guard files.isEmpty, let source = view?.source else { return files }
    return [source]
  }
}

extension Options {
  /// The arguments read against the file system (Docs/CommandLine.md, Arguments a new user
  /// writes): a view named after the QUERY (`sift 'group:x' @invoices`) is the view, and a lone
  /// argument that names an existing file (`sift grn.csv`) is that FILE with an empty query.
  /// Returns the notes that say so. `isFile` tells whether a path names something to read.
  mutating func settleArguments(isFile: (String) -> Bool) -> [String] {
    guard mode == .query else { return [] }
    var notes: [String] = []
    if view == nil, let first = files.first, first.hasPrefix("@"), first.count > 1, !isFile(first) {
      view = String(first.dropFirst())
      files.removeFirst()
      notes.append("note: reading \(first) as the view; views come first: sift \(first) QUERY [FILE...]")
    }
    if view == nil, files.isEmpty, !query.isEmpty, isFile(query) {
      notes.append(
        "note: '\(query)' is a file, read with an empty query;"
          + " to search for that text, name the input: sift '\(query)' FILE")
      files = [query]
      query = ""
    }
    return notes
  }

  /// True when `path` names a file or pipe that can be read (not a directory, not missing).
  static func namesFile(_ path: String) -> Bool {
    var st = stat()
    return stat(path, &st) == 0 && (st.st_mode & S_IFMT) != S_IFDIR
  }
}
