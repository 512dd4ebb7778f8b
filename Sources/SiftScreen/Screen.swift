import SiftCore

// The seam of the interactive screen (Docs/Interactive.md): the screen's logic is a pure state
// machine (key or run outcome in, effects out) with a pure renderer (state and size in, styled
// lines out); the session around it owns the terminal, the keyboard and the runs.

/// A key the screen reacts to, decoded from the terminal's bytes.
public enum Key: Hashable, Sendable {
  /// Printable text: one key's character, or several at once from a paste.
  case text(String)
  case enter, escape, tab, backTab, backspace, delete
  case up, down, left, right, home, end, pageUp, pageDown
  /// A letter with Ctrl held, as the lower-case letter: Ctrl-W is `.control("w")`.
  case control(Character)
}

/// What a span of the screen is, for the painter to colour (Docs/Interactive.md, Colours). The
/// renderer writes every bracket and mark itself, so the text reads the same without colour.
public enum TextStyle: Hashable, Sendable {
  case plain
  /// The navigation bar's title.
  case title
  /// Secondary text: the subtitle, the position line, progress, hints.
  case dim
  /// An active chip: white on the primary orange `#f69000`.
  case chipActive
  /// An inactive fast filter chip: `#1D2D3E` on `#F2F2F7`.
  case chipInactive
  /// The element that has the focus: a chip, the list's row, a cell of the filter sheet
  /// (reverse video).
  case focused
  /// The table's header row.
  case header
  /// A group's heading line.
  case groupHeading
  /// An error message and its caret.
  case error
  /// The active tab (`#f69000`) and other tabs.
  case tabActive
  case tab
  /// A tab's badge (red `#D32030`).
  case badge
  /// A choice that cannot be taken (the sort field in the Group section).
  case disabled
  /// A chosen cell or a switch that is on (orange).
  case selected
}

/// A run of text in one style.
public struct StyledSpan: Hashable, Sendable {
  public var text: String
  public var style: TextStyle

  public init(_ text: String, _ style: TextStyle = .plain) {
    self.text = text
    self.style = style
  }
}

/// One line of the screen, never wider than the screen (measured with `DisplayWidth`).
public struct StyledLine: Hashable, Sendable {
  public var spans: [StyledSpan]

  public init(_ spans: [StyledSpan] = []) { self.spans = spans }

  /// The line's text without styles.
  public var text: String { spans.map(\.text).joined() }
}

/// The terminal's size in columns and rows.
public struct ScreenSize: Hashable, Sendable {
  public var columns: Int
  public var rows: Int

  public init(columns: Int, rows: Int) {
    self.columns = columns
    self.rows = rows
  }
}

/// A rendered screen: exactly `size.rows` lines, and where the cursor stands (the query line's
/// insertion point while it has the focus; `nil` hides the cursor).
public struct Frame: Hashable, Sendable {
  /// A place on the screen, from 0.
  public struct Position: Hashable, Sendable {
    public var row: Int
    public var column: Int

    public init(row: Int, column: Int) {
      self.row = row
      self.column = column
    }
  }

  public var lines: [StyledLine]
  public var cursor: Position?

  public init(lines: [StyledLine], cursor: Position? = nil) {
    self.lines = lines
    self.cursor = cursor
  }
}

/// One view the screen can show: a view of the views file (a tab), or the FILEs given without one.
public struct ScreenView: Sendable {
  /// The views file's view; `nil` for the FILEs given without a view.
  public var view: View?
  /// The name of what is read, for the subtitle (`grn.csv`, `stdin`).
  public var sourceName: String

  public init(view: View?, sourceName: String) {
    self.view = view
    self.sourceName = sourceName
  }
}

/// What the screen opens with (Docs/Interactive.md).
public struct ScreenSetup: Sendable {
  /// The tabs, in the views file's order; one entry without a views file.
  public var views: [ScreenView]
  /// The index in `views` shown first.
  public var active: Int
  /// The query typed after `sift -i [@VIEW]`, as written.
  public var query: String
  /// The FILEs given on the command line (they replace the view's source), for the
  /// reproducing command line.
  public var files: [String]
  /// `v ^ | ...` instead of `↓ ↑ · …` (Docs/FeedbackBar.md).
  public var ascii: Bool
  /// The format `y` copies a record in (`-o`; CSV without it).
  public var copyFormat: OutputFormat
  /// The words the reproducing command line repeats after `sift`, before the view and query:
  /// the options that change what the screen shows (`--config FILE`, `--now`, `--reset`), and
  /// `@VIEW` when its views file could not be read (no view holds the name then).
  public var leadingArguments: [String]
  /// Today's date as `2024-06-12`, for the export's default file name (`--now` when given).
  public var today: String

  public init(
    views: [ScreenView], active: Int, query: String, files: [String], ascii: Bool,
    leadingArguments: [String] = [], copyFormat: OutputFormat = .csv, today: String = ""
  ) {
    self.today = today
    self.copyFormat = copyFormat
    self.views = views
    self.active = active
    self.query = query
    self.files = files
    self.ascii = ascii
    self.leadingArguments = leadingArguments
  }
}

/// A run the screen asks for: the session runs it off the input thread and answers with a
/// `RunOutcome` of the same `id`.
public struct RunRequest: Hashable, Sendable {
  public enum Purpose: Hashable, Sendable {
    /// The list: the records (or summary) of the view's query AND `query`.
    case list
    /// The filter sheet's values of `field` with their counts, under the view's query AND
    /// `query` (the sheet sends the query without that field's own filters).
    case values(field: String)
    /// The badge of the view's tab: its badge query counted.
    case badge
    /// The records of the query written into a file (Docs/Interactive.md, Export).
    case export(ExportOrder)
  }

  /// Increases with every request; a newer request of the same view and purpose makes an older
  /// one stale, and the session cancels it.
  public var id: Int
  /// The index of the view in `ScreenSetup.views`.
  public var view: Int
  public var purpose: Purpose
  /// The query text as the query line holds it (the view's preset query is added by the runner).
  public var query: String
  /// Whether to wait for a pause in typing before running (Docs/Interactive.md, Live results).
  public var afterPause: Bool
  /// A list keeps the rows from this one on (from 0): a window of the result further down
  /// (Docs/Interactive.md, List).
  public var firstRow: Int

  public init(
    id: Int, view: Int, purpose: Purpose, query: String, afterPause: Bool, firstRow: Int = 0
  ) {
    self.id = id
    self.view = view
    self.purpose = purpose
    self.query = query
    self.afterPause = afterPause
    self.firstRow = firstRow
  }
}

/// What the screen asks of the session around it.
public enum ScreenEffect: Hashable, Sendable {
  case run(RunRequest)
  /// Leave the screen, restore the terminal and print `arguments` as a shell command line on
  /// standard output (`sift @grn 'status:received sort:grn_no'`).
  case quit(arguments: [String])
  /// Put `text` on the terminal's clipboard (OSC 52).
  case copy(text: String)
}

/// The records of a list run, as the screen shows them.
public struct ListResult: Sendable {
  /// The header of each column, and whether its values are numbers (right-aligned).
  public var columns: [String]
  public var numeric: [Bool]
  /// The shown text of each cell (controls already made visible, as the table writer does),
  /// row by row; at most `ListResult.rowLimit` rows are kept, from the result's row `firstRow`.
  public var rows: [[String]]
  /// The place in the result of the first row kept (a window further down, RunRequest.firstRow).
  public var firstRow = 0
  /// The group headings, each before the row of index `row` (with `group:`).
  public var groups: [(row: Int, heading: GroupHeading)]
  /// The counts for the bar and the position line (`shown` rows in all).
  public var summary: RunSummary
  /// The feedback bar's chips in bar order: sort, group, aggregates, active filters, then the
  /// view's inactive fast filters (Docs/FeedbackBar.md).
  public var chips: [Chip]
  /// Whether `limit:` cut the result.
  public var limited: Bool
  /// The input's fields and their types, for the filter sheet.
  public var fields: [(name: String, type: ColumnType)]
  /// The sort keys in effect (the view's default when the query has none) and the group field
  /// (the first, outermost one of `group:a,b`).
  public var sort: [(field: String, descending: Bool)]
  public var group: String?
  /// An input error met after some records were read (`sift: FILE:LINE:COL: …`): the rows before
  /// it are kept and the message shows in the list area.
  public var inputError: String?
  /// Standard input is a pipe still open: what has arrived from it so far. The result is the
  /// records up to its last line break; the screen runs the query again as more arrives
  /// (Docs/Interactive.md, Piped standard input).
  public var arriving: ArrivingInput.Counts?

  /// The most rows a list keeps at a time; moving past them asks for the window there. Keeping
  /// 100,000 took twice the time of a list run on 1,000,000 records (Docs/Interactive.md,
  /// Responsiveness).
  public static let rowLimit = 10_000

  public init(
    columns: [String], numeric: [Bool], rows: [[String]],
    groups: [(row: Int, heading: GroupHeading)], summary: RunSummary, chips: [Chip], limited: Bool,
    fields: [(name: String, type: ColumnType)], sort: [(field: String, descending: Bool)],
    group: String?, inputError: String?, arriving: ArrivingInput.Counts? = nil
  ) {
    self.columns = columns
    self.numeric = numeric
    self.rows = rows
    self.groups = groups
    self.summary = summary
    self.chips = chips
    self.limited = limited
    self.fields = fields
    self.sort = sort
    self.group = group
    self.inputError = inputError
    self.arriving = arriving
  }
}

/// One value of a field with how many records hold it, for the filter sheet.
public struct ValueCount: Hashable, Sendable {
  public var value: String
  public var count: Int

  public init(value: String, count: Int) {
    self.value = value
    self.count = count
  }
}

/// How far a long run has come (Docs/Interactive.md, Piped standard input).
public enum RunCount: Sendable, Equatable {
  /// The records read so far.
  case records(Int)
  /// Standard input is a pipe still open: the lines and bytes arrived so far, before the first
  /// line has (then the records arrived are listed, `ListResult.arriving`).
  case arriving(lines: Int, bytes: Int)
}

/// The session's answer to a `RunRequest`.
public enum RunOutcome: Sendable {
  /// A long run is under way: what it has read so far.
  case progress(id: Int, RunCount)
  case list(id: Int, ListResult)
  /// The values of the field asked for, most frequent first; `complete` is false when only the
  /// first ones were kept.
  case values(id: Int, field: String, [ValueCount], complete: Bool)
  case badge(id: Int, count: Int)
  /// The query cannot run: the message (`unknown field 'x'`), and the characters of the query
  /// text it points at (for the caret), when it points into the typed query.
  case queryError(id: Int, message: String, span: Range<Int>?)
  /// The view's source cannot be read (missing, unreadable, bad views file entry): the message
  /// shows in place of the list, and other tabs still work.
  case sourceError(id: Int, message: String)
  /// An export wrote `records` records into the file at `path`.
  case exported(id: Int, path: String, records: Int)
  /// An export was not written: the file exists and replacing it was not asked for
  /// (`exists`), or it failed with `message`.
  case exportRefused(id: Int, path: String, exists: Bool, message: String)

  /// The request this answers.
  public var id: Int {
    switch self {
    case .progress(let id, _), .list(let id, _), .values(let id, _, _, _), .badge(let id, _),
      .queryError(let id, _, _), .sourceError(let id, _), .exported(let id, _, _),
      .exportRefused(let id, _, _, _):
      return id
    }
  }
}

/// The screen's logic: a state machine fed keys and run outcomes, and a renderer of its state.
/// Both are pure; the session (Docs/Interactive.md, Design) owns the terminal and the runs.
public protocol ScreenLogic {
  /// The effects of a key: runs to start, or leaving the screen.
  mutating func handle(_ key: Key) -> [ScreenEffect]
  /// Takes a run's outcome; outcomes of stale requests are ignored.
  mutating func receive(_ outcome: RunOutcome) -> [ScreenEffect]
  /// The runs the screen needs when it opens (the list, the badges).
  mutating func start() -> [ScreenEffect]
  /// The screen at `size`.
  func render(_ size: ScreenSize) -> Frame
  /// The terminal's size, when the screen opens and on every resize: keys that move by a page
  /// and keep the highlighted row in view need it.
  mutating func resize(to size: ScreenSize)
}
