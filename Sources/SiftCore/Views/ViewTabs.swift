/// The views overview as a tab bar (Docs/Views.md, The views overview):
///
///      GRN List (12) │ Dispatch List (3) │ Invoice List │ Order List (5)
///
/// At most five tabs: with more views the fifth tab is `More (N)` and the rest are listed below
/// it, one per line. Labels are cut to 25 columns. The active view (with `@VIEW`) is drawn like
/// an active chip: in brackets, or white on orange with colour.
public struct ViewTabs: Sendable {
  /// One view's tab.
  public struct Tab: Sendable, Equatable {
    /// What the badge shows.
    public enum Badge: Sendable, Equatable {
      /// The view has no badge query.
      case none
      /// Records matching the badge query.
      case count(Int)
      /// The source or the badge query failed: `(!)`.
      case broken
    }

    public var label: String
    public var badge: Badge

    public init(label: String, badge: Badge) {
      self.label = label
      self.badge = badge
    }
  }

  /// Tabs shown before the rest go under `More`.
  public static let maxTabs = 5
  /// Labels are cut to this many columns.
  public static let maxLabelWidth = 25

  public var tabs: [Tab]
  /// The index of the active view, if any.
  public var active: Int?

  public init(tabs: [Tab], active: Int? = nil) {
    self.tabs = tabs
    self.active = active
  }

  /// The tab bar and, with more than five views, the views under `More`; each line ends in a
  /// line feed.
  public func render(ascii: Bool = false, color: ColorMode = .none) -> String {
    let overflow = tabs.count > Self.maxTabs
    let inBar = overflow ? Self.maxTabs - 1 : tabs.count
    var bar = (0..<inBar).map { text(of: $0, ascii: ascii, color: color) }
    if overflow {
      let more = "More (\(groupedDigits(tabs.count - inBar)))"
      bar.append(highlighted(more, (active ?? -1) >= inBar, color: color))
    }
    var lines = [" " + bar.joined(separator: ascii ? " | " : " │ ")]
    if overflow {
      lines += (inBar..<tabs.count).map { "   " + text(of: $0, ascii: ascii, color: color) }
    }
    return lines.joined(separator: "\n") + "\n"
  }

  private func text(of index: Int, ascii: Bool, color: ColorMode) -> String {
    let tab = tabs[index]
    var text = truncate(tab.label, toWidth: Self.maxLabelWidth, ellipsis: ascii ? "..." : "…")
    switch tab.badge {
    case .none: break
    case .count(let n): text += " (\(groupedDigits(n)))"
    case .broken: text += " (!)"
    }
    return highlighted(text, index == active, color: color)
  }

  private func highlighted(_ text: String, _ isActive: Bool, color: ColorMode) -> String {
    guard isActive else { return text }
    return color == .none ? "[\(text)]" : color.paint(text, active: true)
  }
}
