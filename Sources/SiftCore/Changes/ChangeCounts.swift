/// What `--changes` found: the bar's `3 new · 2 changed · 1 gone since …` (Docs/Reports.md,
/// "Changes since the last run").
public struct ChangeCounts: Sendable, Equatable {
  public var new = 0
  public var changed = 0
  public var gone = 0
  public var unchanged = 0
  /// When the baseline was made, or `nil` when there was none (or it was an earlier export).
  public var since: String?
  /// The key fields' labels for the bar's chip (`GRN No`).
  public var keyLabel: String
  /// Records whose earlier values were not kept, compared by key only because the input's
  /// fields changed since the baseline.
  public var comparedByKeyOnly = 0

  public init(keyLabel: String, since: String?) {
    self.keyLabel = keyLabel
    self.since = since
  }

  /// Whether any record is new, changed or gone: the run's exit status is 0, else 1.
  public var anything: Bool { new + changed + gone > 0 }

  /// `3 new · 2 changed · 1 gone since 2026-11-24 06:00`, as the bar's parts.
  public var parts: [String] {
    var out = [
      "\(groupedDigits(new)) new", "\(groupedDigits(changed)) changed",
      "\(groupedDigits(gone)) gone",
    ]
    if let since { out[out.count - 1] += " since \(since)" }
    return out
  }
}

/// Why the records of a `--changes` run cannot be compared.
public enum ChangeError: Error, Sendable {
  /// Two matching records have the same key: the key's text (`grn_no=GRN-1`), the two
  /// records' places among the matches, 1-based, and where the engine said, their inputs (by
  /// index) and lines.
  case duplicateKey(
    key: String, first: Int, second: Int,
    lines: (first: (source: Int, line: Int), second: (source: Int, line: Int))?)
}

/// A writer told where each record it is handed comes from: the source that read it and the
/// line the record starts on. Streamed runs say it; sorted and grouped runs do not.
public protocol RecordPlaceTaking: AnyObject {
  func takePlace(source: Int, line: Int)
  /// The records of `source`, a part of input `input` read on a worker (or the rest of it read
  /// after such a part), are that input's, each `lineOffset` lines further on than it says.
  /// A source never named here is the input of its number.
  func takeOrigin(source: Int, input: Int, lineOffset: Int)
}

extension ChangeCounts {
  /// A local wall time as the bar's `since` shows it: `2026-11-24 06:00`.
  public static func sinceText(_ t: WallTime) -> String {
    let days = t >= 0 ? t / Calendar.microsPerDay : (t - Calendar.microsPerDay + 1) / Calendar.microsPerDay
    let minutes = (t - days * Calendar.microsPerDay) / 60_000_000
    func two(_ v: WallTime) -> String { v < 10 ? "0\(v)" : "\(v)" }
    return Calendar.isoDate(days: days) + " " + two(minutes / 60) + ":" + two(minutes % 60)
  }
}
