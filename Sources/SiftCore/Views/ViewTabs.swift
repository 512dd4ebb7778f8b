/// The views overview as a tab bar (Docs/Views.md, The views overview):
///
///      GRN List (12) │ Dispatch List (3) │ Invoice List │ Order List (5)
///      @grn             @dispatch           @invoices      @orders
///
/// Under each tab, the `@name` that runs the view. At most five tabs: with more views the fifth
/// tab is `More (N)` and the rest are listed below it, one per line, each with its `@name`. Labels are cut to 25 columns. The active view (with `@VIEW`) is drawn like
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
    /// The view's name, shown as `@name`; `nil` shows none.
    public var name: String?

    public init(label: String, badge: Badge, name: String? = nil) {
      self.label = label
      self.badge = badge
      self.name = name
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
  /// line feed. When the bar is wider than `maxWidth` (the terminal), the views are listed one a
  /// line instead, each with its `@name`.
  public func render(ascii: Bool = false, color: ColorMode = .none, maxWidth: Int? = nil)
    -> String
  {
    if let maxWidth, barWidth(ascii: ascii) > maxWidth {
      return tabs.indices.map { index in
        let line = " " + text(of: index, ascii: ascii, color: color).text
        return tabs[index].name.map { line + "  @" + $0 } ?? line
      }.joined(separator: "\n") + "\n"
    }
    let overflow = tabs.count > Self.maxTabs
    let inBar = overflow ? Self.maxTabs - 1 : tabs.count
    var bar = (0..<inBar).map { text(of: $0, ascii: ascii, color: color) }
    if overflow {
      let more = "More (\(groupedDigits(tabs.count - inBar)))"
      bar.append(highlighted(more, (active ?? -1) >= inBar, color: color))
    }
    let separator = ascii ? " | " : " │ "
    var lines = [" " + bar.map(\.text).joined(separator: separator)]
    // Each `@name` starts under its tab, at least a space after the one before.
    var names = ""
    var column = 1
    for (index, tab) in bar.enumerated() {
      if index < inBar, let name = tabs[index].name {
        names += String(repeating: " ", count: max(column - displayWidth(of: names), names.isEmpty ? 0 : 1))
        names += "@" + name
      }
      column += tab.width + separator.count
    }
    if !names.isEmpty { lines.append(names) }
    if overflow {
      lines += (inBar..<tabs.count).map { index in
        let line = "   " + text(of: index, ascii: ascii, color: color).text
        return tabs[index].name.map { line + "  @" + $0 } ?? line
      }
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// The width of the tab bar's first line.
  private func barWidth(ascii: Bool) -> Int {
    let shown = min(tabs.count, Self.maxTabs)
    let widths = (0..<shown).map { index in
      index == Self.maxTabs - 1 && tabs.count > Self.maxTabs
        ? displayWidth(of: "[More (\(groupedDigits(tabs.count - index)))]")
        : text(of: index, ascii: ascii, color: .none).width
    }
    return 1 + widths.reduce(0, +) + 3 * max(widths.count - 1, 0)
  }

  /// A tab's text as shown and its width in columns.
  private func text(of index: Int, ascii: Bool, color: ColorMode) -> (text: String, width: Int) {
    let tab = tabs[index]
    var text = truncate(tab.label, toWidth: Self.maxLabelWidth, ellipsis: ascii ? "..." : "…")
    switch tab.badge {
    case .none: break
    case .count(let n): text += " (\(groupedDigits(n)))"
    case .broken: text += " (!)"
    }
    return highlighted(text, index == active, color: color)
  }

  private func highlighted(_ text: String, _ isActive: Bool, color: ColorMode) -> (text: String, width: Int) {
    let width = displayWidth(of: text)
    guard isActive else { return (text, width) }
    return color == .none ? ("[\(text)]", width + 2) : (color.paint(text, active: true), width)
  }
}
