import SiftCore

/// What an option's value may be: the parser checks it, `--help` and `--man` describe it,
/// the completion scripts offer it.
enum OptionValue: Sendable, Equatable {
  /// A flag: no value.
  case none
  /// One of these words.
  case choice([String])
  /// A file name.
  case file
  /// Free text, described in words ("one character, or \t").
  case text(String)

  /// What the value may be, for "needs a value (…)".
  var hint: String {
    switch self {
    case .none: return ""
    case .choice(let words): return words.joined(separator: ", ")
    case .file: return "a file"
    case .text(let description): return description
    }
  }
}

/// One option, declared once (Docs/CommandLine.md, Options): its names, its value, its help
/// line and what it sets. Parsing, `--help`, `--man` and the completion scripts are all
/// generated from `OptionTable.all`.
struct OptionSpec: Sendable {
  let long: String
  let short: Character?
  let value: OptionValue
  /// The value's name in help: `FORMAT`, `C`, `FILE`; empty for a flag.
  let placeholder: String
  /// What the option does; for a choice, its words, the default marked, are added to it.
  /// `nil` hides the option from help, man page and completions (the completions' helpers).
  let summary: String?
  /// The choice used when the option is not given, shown as "(default: …)".
  let defaultChoice: String?
  /// Whether the value may be left out: the option is last, or the next argument is an option
  /// (`sift @holds --changes -o html`); the option then gets an empty value.
  var valueMayBeOmitted = false
  let apply: @Sendable (inout Options, String) throws(UsageError) -> Void

  /// The help line: the summary, and for a choice its words and default.
  var help: String {
    guard let summary else { return "" }
    guard case .choice(let words) = value else { return summary }
    let marked = words.map { $0 == defaultChoice ? $0 + " (default)" : $0 }
    let list = summary + ": " + marked.joined(separator: ", ")
    guard let defaultChoice, !words.contains(defaultChoice) else { return list }
    return list + " (default: \(defaultChoice))"
  }

  /// `-f, --format FORMAT` as help and the man page show it.
  var synopsis: String {
    let names = (short.map { "-\($0), " } ?? "    ") + "--" + long
    return placeholder.isEmpty ? names : names + " " + placeholder
  }
}

/// Every option of sift, in the order `--help` lists them.
enum OptionTable {
  static let all: [OptionSpec] = [
    choice(
      "format", "f", "FORMAT", "input", InputFormat.self, default: "by extension"
    ) { $0.format = $1 },
    choice("output", "o", "FORMAT", "output", OutputFormat.self) { $0.output = $1 },
    OptionSpec(
      long: "delimiter", short: "d", value: .text("one character, or \\t"), placeholder: "C",
      summary: "CSV field delimiter: one character, or \\t", defaultChoice: nil
    ) { options, value throws(UsageError) in
      if value == "\\t" || value == "\t" {
        options.delimiter = UInt8(ascii: "\t")
      } else if value.utf8.count == 1, let byte = value.utf8.first {
        options.delimiter = byte
      } else {
        throw UsageError("option '--delimiter' needs one character, or \\t, not '\(value)'")
      }
    },
    OptionSpec(
      long: "encoding", short: nil,
      value: .choice(["utf-8", "latin-1", "windows-1252", "utf-16le", "utf-16be"]),
      placeholder: "NAME", summary: "input text", defaultChoice: "sniffed"
    ) { options, value throws(UsageError) in
      guard let encoding = TextEncoding(name: value) else {
        throw UsageError(
          "option '--encoding' needs one of utf-8, latin-1, windows-1252, utf-16le, utf-16be,"
            + " not '\(value)'")
      }
      options.encoding = encoding
    },
    OptionSpec(
      long: "quote", short: nil, value: .text("none, or \""), placeholder: "Q",
      summary: "CSV/TSV quote: none, or \" (default: \" for CSV, sniffed for TSV)",
      defaultChoice: nil
    ) { options, value throws(UsageError) in
      switch value {
      case "none": options.quoting = false
      case "\"": options.quoting = true
      default: throw UsageError("option '--quote' needs none, or \", not '\(value)'")
      }
    },
    OptionSpec(
      long: "decimal", short: nil, value: .text(", or ."), placeholder: "MARK",
      summary: "CSV/TSV decimal mark: , or . (default: each file's sample)", defaultChoice: nil
    ) { options, value throws(UsageError) in
      guard let mark = DecimalMark(option: value) else {
        throw UsageError("option '--decimal' needs , or ., not '\(value)'")
      }
      options.decimalMark = mark
    },
    OptionSpec(
      long: "sheet", short: nil, value: .text("a sheet name or number"), placeholder: "SHEET",
      summary: "workbook sheet, by name or number; * for all",
      defaultChoice: nil
    ) { options, value throws(UsageError) in options.sheet = value },
    flag("no-header", nil, "CSV/TSV has no header row; fields are 1, 2, ...") {
      $0.noHeader = true
    },
    flag("count", "c", "only the number of matches; per group with group:") {
      $0.count = true
    },
    flag("quiet", "q", "no feedback bar, no notes") { $0.quiet = true },
    choice("summary", nil, "STYLE", "feedback bar style", SummaryStyle.self, default: "bar") {
      $0.summary = $1
    },
    choice("color", nil, "WHEN", "colour", ColorChoice.self, default: "auto") { $0.color = $1 },
    choice("pager", nil, "WHEN", "page tall tables", PagerChoice.self,
      default: "auto") { $0.pager = $1 },
    flag("ascii", nil, "plain ASCII in the feedback bar") { $0.ascii = true },
    text(
      "now", "DATETIME", "a date-time, e.g. 2024-03-15T09:00",
      "reference time for relative dates (also SIFT_NOW)") { $0.now = $1 },
    choice(
      "dates", nil, "ORDER", "read numeric dates day-first, month-first or year-first",
      DateOrder.self
    ) {
      $0.dates = $1
    },
    OptionSpec(
      long: "tz", short: nil, value: .text("a zone name, UTC or an offset, e.g. Europe/Berlin"),
      placeholder: "ZONE",
      summary: "zone of dates without an offset: Europe/Berlin, UTC, +01:00 (default: the machine's)",
      defaultChoice: nil
    ) { options, value throws(UsageError) in
      options.zone = value
    },
    flag("explain", nil, "print the canonical query; with a FILE, also its plan") {
      $0.explain = true
    },
    flag("skip-bad", nil, "skip malformed records instead of stopping") { $0.skipBad = true },
    choice("sql", nil, "DIALECT", "print the query as SQL instead of running it", SQLDialect.self) {
      $0.sql = $1
    },
    choice("engine", nil, "ENGINE", "run the query on an SQL engine", SQLEngine.self) {
      $0.engine = $1
    },
    text("table", "NAME", "a table name", "with --sql/--engine: read this table, not FILE") {
      $0.table = $1
    },
    OptionSpec(
      long: "threads", short: "j", value: .text("a whole number, 1 or more"), placeholder: "N",
      summary: "threads for a large file (default: the cores sift may use)", defaultChoice: nil
    ) { options, value throws(UsageError) in
      guard let n = Int(value), n >= 1 else {
        throw UsageError("option '--threads' needs a whole number, 1 or more, not '\(value)'")
      }
      options.threads = n
    },
    OptionSpec(
      long: "memory", short: nil, value: .text("a size, e.g. 512M or 2G"), placeholder: "SIZE",
      summary: "memory for sorting (default: a quarter of RAM)",
      defaultChoice: nil
    ) { options, value throws(UsageError) in
      guard let bytes = Options.parseSize(value) else {
        throw UsageError(
          "option '--memory' needs a size such as 100K, 512M or 2G (or plain bytes), "
            + "not '\(value)'")
      }
      options.memory = bytes
    },
    OptionSpec(
      long: "config", short: nil, value: .file, placeholder: "FILE",
      summary: "the views file (also SIFT_CONFIG)", defaultChoice: nil
    ) { $0.config = $1 },
    flag("reset", nil, "with @VIEW: drop its preset query, keep its sort") {
      $0.reset = true
    },
    OptionSpec(
      long: "changes", short: nil, value: .text("field names, e.g. grn_no or order,line"),
      placeholder: "KEY,...",
      summary: "only records new, changed or gone since the last run (KEY: else the view's key)",
      defaultChoice: nil, valueMayBeOmitted: true
    ) { options, value throws(UsageError) in
      let keys = value.split(separator: ",").map { String($0) }
      guard value.isEmpty || !keys.contains(where: \.isEmpty) else {
        throw UsageError("option '--changes' needs the key fields, e.g. --changes grn_no, not '\(value)'")
      }
      options.changes = keys
    },
    OptionSpec(
      long: "against", short: nil, value: .file, placeholder: "OLD_FILE",
      summary: "with --changes: compare with an earlier export, not the last run",
      defaultChoice: nil
    ) { $0.against.append($1) },
    text(
      "title", "TEXT", "a heading, e.g. 'Quality holds'",
      "the heading of an HTML report (default: the view's title; the digest's: the views file's)"
    ) { $0.title = $1 },
    choice("attach", nil, "FORMAT", "with -o eml: attach the same rows as", AttachFormat.self) {
      $0.attach = $1
    },
    flag("peek", nil, "with --changes: look without moving the baseline") { $0.peek = true },
    flag("interactive", "i", "a live screen: results as you type, views as tabs") {
      $0.mode = .interactive
    },
    flag("fields", nil, "list the fields of the FILEs or @VIEW's file") { $0.mode = .fields },
    flag("views", nil, "list the views and the @name that runs each") { $0.mode = .views },
    choice("completion", nil, "SHELL", "print a completion script", Shell.self) {
      $0.mode = .completion($1)
    },
    flag("man", nil, "print the manual page: man <(sift --man)") { $0.mode = .man },
    flag("help", "h", "this help") { $0.mode = .help },
    flag("version", nil, "print the version") { $0.mode = .version },
    // Helpers of the completion scripts: not in help, man page or completions.
    flag("complete-views", nil, nil) { $0.mode = .completeViews },
    flag("complete-fields", nil, nil) { $0.mode = .completeFields },
  ]

  static let byLong = Dictionary(uniqueKeysWithValues: all.map { ($0.long, $0) })
  static let byShort = Dictionary(
    uniqueKeysWithValues: all.compactMap { spec in spec.short.map { ($0, spec) } })

  /// The options a user sees: in help, the man page and completions.
  static var visible: [OptionSpec] { all.filter { $0.summary != nil } }

  private static func flag(
    _ long: String, _ short: Character?, _ summary: String?,
    _ set: @escaping @Sendable (inout Options) -> Void
  ) -> OptionSpec {
    OptionSpec(
      long: long, short: short, value: .none, placeholder: "", summary: summary,
      defaultChoice: nil
    ) { options, _ in set(&options) }
  }

  private static func text(
    _ long: String, _ placeholder: String, _ description: String, _ summary: String,
    _ set: @escaping @Sendable (inout Options, String) -> Void
  ) -> OptionSpec {
    OptionSpec(
      long: long, short: nil, value: .text(description), placeholder: placeholder,
      summary: summary, defaultChoice: nil, apply: set)
  }

  private static func choice<T: RawRepresentable & CaseIterable & Sendable>(
    _ long: String, _ short: Character?, _ placeholder: String, _ summary: String,
    _ type: T.Type, default defaultChoice: String? = nil,
    _ set: @escaping @Sendable (inout Options, T) -> Void
  ) -> OptionSpec where T.RawValue == String {
    let words = T.allCases.map(\.rawValue)
    return OptionSpec(
      long: long, short: short, value: .choice(words), placeholder: placeholder,
      summary: summary, defaultChoice: defaultChoice
    ) { options, value throws(UsageError) in
      guard let choice = T(rawValue: value) else {
        throw UsageError(
          "option '--\(long)' needs one of \(words.joined(separator: ", ")), not '\(value)'")
      }
      set(&options, choice)
    }
  }
}
