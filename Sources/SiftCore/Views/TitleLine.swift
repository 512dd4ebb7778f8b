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
    self.title = truncate(title, toWidth: subtitle == nil ? 37 : 24, ellipsis: ellipsis)
    self.subtitle = subtitle
    self.dash = ascii ? "-" : "—"
  }

  /// `GRN List — grn.csv`.
  public var text: String { subtitle.map { "\(title) \(dash) \($0)" } ?? title }
}
