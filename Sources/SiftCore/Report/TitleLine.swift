/// The title line above a view's output (Docs/Views.md, Running a view): the view's title, then
/// `— SOURCE-NAME` as subtitle. A title longer than 37 columns (24 when a subtitle follows) is
/// cut with `…`.
public struct TitleLine: Sendable, Equatable {
  /// The title, cut to fit.
  public var title: String
  /// The name of what is read, if shown.
  public var subtitle: String?
  /// `—`, or `-` with ASCII.
  public var dash: String

  public init(title: String, subtitle: String?, ascii: Bool) {
    let ellipsis = ascii ? "..." : "…"
    // From the views file and the command line: controls shown visibly (Docs/Views.md).
    self.title = truncate(
      VisibleText.of(title, ascii: ascii), toWidth: subtitle == nil ? 37 : 24, ellipsis: ellipsis)
    self.subtitle = subtitle.map { VisibleText.of($0, ascii: ascii) }
    self.dash = ascii ? "-" : "—"
  }

  /// `GRN List — grn.csv`.
  public var text: String { subtitle.map { "\(title) \(dash) \($0)" } ?? title }
}
