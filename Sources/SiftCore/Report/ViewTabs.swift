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
      /// `--views --changes`: what changed since the view's last `--changes` run:
      /// `(+3 · ~2 · −1)`, new, changed and gone, those that are not zero (Docs/Reports.md).
      case changes(ChangeCounts)

      /// `+3 · ~2 · −1`: the parts of `changes` that are not zero.
      static func changesText(_ counts: ChangeCounts, ascii: Bool) -> String {
        let parts = [
          ("+", counts.new), ("~", counts.changed), (ascii ? "-" : "−", counts.gone),
        ].filter { $0.1 > 0 }.map { $0.0 + groupedDigits($0.1) }
        return parts.joined(separator: ascii ? ", " : " · ")
      }
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
        return shownName(index, ascii: ascii).map { line + "  @" + $0 } ?? line
      }.joined(separator: "\n") + "\n"
    }
    let bar = items(ascii: ascii).map { highlighted($0.text, $0.active, color: color) }
    let overflow = tabs.count > Self.maxTabs
    let inBar = overflow ? Self.maxTabs - 1 : tabs.count
    let separator = ascii ? " | " : " │ "
    var lines = [" " + bar.map(\.text).joined(separator: separator)]
    // Each `@name` starts under its tab, at least a space after the one before.
    var names = ""
    var column = 1
    for (index, tab) in bar.enumerated() {
      if index < inBar, let name = shownName(index, ascii: ascii) {
        names += String(repeating: " ", count: max(column - displayWidth(of: names), names.isEmpty ? 0 : 1))
        names += "@" + name
      }
      column += tab.width + separator.count
    }
    if !names.isEmpty { lines.append(names) }
    if overflow {
      lines += (inBar..<tabs.count).map { index in
        let line = "   " + text(of: index, ascii: ascii, color: color).text
        return shownName(index, ascii: ascii).map { line + "  @" + $0 } ?? line
      }
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// A view's `@name` as the terminal shows it (from the views file: controls made visible).
  private func shownName(_ index: Int, ascii: Bool) -> String? {
    tabs[index].name.map { VisibleText.of($0, ascii: ascii) }
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

  /// One tab of the bar's first line.
  public struct Item: Sendable, Equatable {
    /// The label cut to 25 columns (`GRN List`), or `More`.
    public var label: String
    /// The badge in parentheses (`(12)`, `(!)`), or the count of views under `More`.
    public var badge: String?
    /// The views the tab stands for: one, or those under `More`.
    public var views: Range<Int>
    /// Whether the active view is among them.
    public var active: Bool

    /// `GRN List (12)`.
    public var text: String { badge.map { "\(label) \($0)" } ?? label }
  }

  /// The tabs of the bar, in order: at most five, the fifth `More (N)` with more views.
  public func items(ascii: Bool) -> [Item] {
    let overflow = tabs.count > Self.maxTabs
    let inBar = overflow ? Self.maxTabs - 1 : tabs.count
    var items = (0..<inBar).map { item(of: $0, ascii: ascii) }
    if overflow {
      items.append(
        Item(
          label: "More", badge: "(\(groupedDigits(tabs.count - inBar)))", views: inBar..<tabs.count,
          active: (active ?? -1) >= inBar))
    }
    return items
  }

  /// A view's tab: its label cut to 25 columns, with its badge.
  private func item(of index: Int, ascii: Bool) -> Item {
    let tab = tabs[index]
    let label = truncate(
      VisibleText.of(tab.label, ascii: ascii), toWidth: Self.maxLabelWidth,
      ellipsis: ascii ? "..." : "…")
    let badge: String? =
      switch tab.badge {
      case .none: nil
      case .count(let n): "(\(groupedDigits(n)))"
      case .broken: "(!)"
      case .changes(let counts): "(\(Tab.Badge.changesText(counts, ascii: ascii)))"
      }
    return Item(label: label, badge: badge, views: index..<index + 1, active: index == active)
  }

  /// A tab's text as shown and its width in columns.
  private func text(of index: Int, ascii: Bool, color: ColorMode) -> (text: String, width: Int) {
    highlighted(item(of: index, ascii: ascii).text, index == active, color: color)
  }

  private func highlighted(_ text: String, _ isActive: Bool, color: ColorMode) -> (text: String, width: Int) {
    let width = displayWidth(of: text)
    guard isActive else { return (text, width) }
    return color == .none ? ("[\(text)]", width + 2) : (color.paint(text, active: true), width)
  }
}
