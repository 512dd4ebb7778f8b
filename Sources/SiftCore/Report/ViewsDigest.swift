/// The day's digest of the views (Docs/Reports.md, The views digest), the body of
/// `sift --views -o html`: the views as tabs with their badge counts as red badges, then, for each
/// view with a badge, a section with its title, badge, the badge query's chips and its first
/// records (`HTMLWriter`'s table), in view order.
public struct ViewsDigest: Sendable {
  /// How many records a section shows.
  public static let recordsPerSection = 20

  /// One view with a badge.
  public struct Section: Sendable {
    public var title: String
    /// What the section shows: the first records, or why the view could not be read.
    public enum Content: Sendable {
      /// The bar of the badge query, the table of its first records and how many more match.
      case records(bar: FeedbackBar, table: [UInt8], more: Int)
      case problem(String)
    }
    public var content: Content

    public init(title: String, content: Content) {
      self.title = title
      self.content = content
    }
  }

  public var tabs: [ViewTabs.Tab]
  public var sections: [Section]

  public init(tabs: [ViewTabs.Tab], sections: [Section]) {
    self.tabs = tabs
    self.sections = sections
  }

  /// The digest's part of the report's body.
  public func body() -> [UInt8] {
    var out: [UInt8] = []
    out.append(literal: "<div style=\"")
    out.append(literal: HTMLStyle.tabBar)
    out.append(literal: "\">\n")
    for tab in tabs {
      out.append(literal: "<span style=\"")
      out.append(literal: HTMLStyle.tab)
      out.append(literal: "\">")
      HTMLReport.append(
        text: truncate(tab.label, toWidth: ViewTabs.maxLabelWidth, ellipsis: "…"), to: &out)
      appendBadge(tab.badge, to: &out)
      out.append(literal: "</span>\n")
    }
    out.append(literal: "</div>\n")
    for section in sections {
      out.append(literal: "<div style=\"")
      out.append(literal: HTMLStyle.sectionTitle)
      out.append(literal: "\">")
      HTMLReport.append(text: section.title, to: &out)
      switch section.content {
      case .records(let bar, let table, let more):
        appendBadge(bar.changes.map { .changes($0) } ?? .count(bar.summary.matched), to: &out)
        out.append(literal: "</div>\n<div style=\"")
        out.append(literal: HTMLStyle.sectionBar)
        out.append(literal: "\">")
        HTMLReport.appendBar(bar, to: &out)
        out.append(literal: "</div>\n")
        out.append(contentsOf: table)
        if more > 0 {
          HTMLReport.appendElement("div", HTMLStyle.note, "and \(groupedDigits(more)) more", to: &out)
          out.append(.lineFeed)
        }
      case .problem(let reason):
        appendBadge(.broken, to: &out)
        out.append(literal: "</div>\n")
        HTMLReport.appendElement("div", HTMLStyle.problem, reason, to: &out)
        out.append(.lineFeed)
      }
    }
    return out
  }

  private func appendBadge(_ badge: ViewTabs.Tab.Badge, to out: inout [UInt8]) {
    switch badge {
    case .none: return
    case .count(let n): HTMLReport.appendElement("span", HTMLStyle.badge, groupedDigits(n), to: &out)
    case .broken: HTMLReport.appendElement("span", HTMLStyle.badge, "!", to: &out)
    case .changes(let counts):
      HTMLReport.appendElement(
        "span", HTMLStyle.badge, ViewTabs.Tab.Badge.changesText(counts, ascii: false), to: &out)
    }
  }
}
