/// What a run counted, for the feedback bar (Docs/FeedbackBar.md) and the exit status (README.md, Exit status).
public struct RunSummary: Sendable, Equatable {
  /// Records read.
  public var total = 0
  /// Records that matched the filter.
  public var matched = 0
  /// Records written (fewer than `matched` when `limit:` cut the result).
  public var shown = 0
  /// Groups, with `group:`.
  public var groups = 0
  /// Bad records skipped with `--skip-bad`.
  public var skipped = 0
  /// Short CSV/TSV rows padded with empty values.
  public var shortRows = 0
  /// With aggregates: the summary's rows before `limit:` (its groups, or the one row without
  /// `group:`); `nil` for a run that did not summarize.
  public var summaryRows: Int?
  /// The rows of the result before `limit:`: a summary's rows, else the matching records.
  public var rows: Int { summaryRows ?? matched }
  /// With aggregates: non-empty values left out of a column for not being numbers (or dates,
  /// for `min:`/`max:` of a date field), Docs/Aggregates.md.
  public var valuesLeftOut = 0
  /// With `group:`: each group's values (one per group field, outermost first) and the
  /// records it shows (with `-c`, counts), in group order. The values are the bytes the input
  /// holds, ill-formed UTF-8 too, as record output writes them (Docs/CommandLine.md, Counting).
  public var groupCounts: [(values: [[UInt8]], count: Int)] = []
  /// JSON keys met after the sample that are not fields of the plan: they are in each record's
  /// JSON text but not in the columns of CSV, TSV, table or markdown output.
  public var keysAfterSample: [String] = []
  /// The output's reader went away (a closed pipe): the run stopped early, and `matched`
  /// counts the matches up to then.
  public var outputClosed = false
  /// With `sort:` or `group:` past the memory budget: the most bytes of temporary files held
  /// at once, written less freed (Docs/Performance.md, Sorting beyond memory). How the run was
  /// done, not what it found: `==` leaves it out.
  public var temporaryPeak = 0

  public init() {}

  public static func == (a: RunSummary, b: RunSummary) -> Bool {
    a.total == b.total && a.matched == b.matched && a.shown == b.shown && a.groups == b.groups
      && a.skipped == b.skipped && a.valuesLeftOut == b.valuesLeftOut
      && a.summaryRows == b.summaryRows && a.shortRows == b.shortRows
      && a.groupCounts.map(\.values) == b.groupCounts.map(\.values)
      && a.groupCounts.map(\.count) == b.groupCounts.map(\.count)
  }
}

/// Watches a run (the interactive screen's progress and cancellation, Docs/Interactive.md,
/// Runs): told the records read so far after each batch or part; returning false stops the run
/// as a closed output would (`RunSummary.outputClosed`).
public typealias RunWatch = (_ recordsRead: Int) -> Bool
