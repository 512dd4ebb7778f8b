/// The document of an HTML report (Docs/Reports.md): one self-contained HTML5 page for e-mail
/// and the browser, laid out with tables and inline styles only: a navigation-bar header, the
/// feedback bar as pill chips, the body (the records table of `HTMLWriter`, or the views
/// digest's tabs and sections), and a footer with the time and the command line.
public struct HTMLReport: Sendable {
  /// The view's title, else `sift report`.
  public var title: String
  /// The source names.
  public var subtitle: String?
  /// When the report was made ("now", passed in).
  public var made: WallTime
  /// The command line that makes the report again.
  public var commandLine: String

  public init(title: String?, subtitle: String?, made: WallTime, commandLine: String) {
    self.title = title ?? "sift report"
    self.subtitle = subtitle
    self.made = made
    self.commandLine = commandLine
  }

  /// The footer as plain text: `Made 2026-11-24T07:00:00 by sift …` (the e-mail report's
  /// plain-text part).
  public var footerText: String {
    "Made " + Calendar.isoText(made, alwaysTime: true) + " by " + commandLine
  }

  /// The document up to the body: the head, the header and, when given, the bar.
  public func start(bar: FeedbackBar?) -> [UInt8] {
    var out: [UInt8] = []
    out.append(literal: """
      <!DOCTYPE html>
      <html lang="en">
      <head>
      <meta charset="utf-8">
      <meta name="viewport" content="width=device-width, initial-scale=1">
      <meta name="color-scheme" content="light">
      <meta name="supported-color-schemes" content="light">
      <title>
      """)
    Self.append(text: title + (subtitle.map { " — " + $0 } ?? ""), to: &out)
    out.append(literal: "</title>\n</head>\n<body style=\"")
    out.append(literal: HTMLStyle.body)
    out.append(literal: "\">\n")
    // The page, and on it the sheet, centred: tables, as e-mail clients lay out nothing else alike.
    out.append(literal: Self.layoutTable)
    out.append(literal: HTMLStyle.page)
    out.append(literal: "\"><tr><td align=\"center\" style=\"padding:16px 8px\">\n")
    out.append(literal: Self.layoutTable)
    out.append(literal: HTMLStyle.sheet)
    out.append(literal: "\">\n<tr><td align=\"left\" style=\"")
    out.append(literal: HTMLStyle.header)
    out.append(literal: "\">")
    // Cut as the title line above a table (Docs/Views.md, The title line); the full text on hover.
    let cut = truncate(title, toWidth: subtitle == nil ? 37 : 24, ellipsis: "…")
    Self.appendElement("div", HTMLStyle.title, cut, hint: title, to: &out)
    if let subtitle {
      Self.appendElement("div", HTMLStyle.subtitle, subtitle, hint: subtitle, to: &out)
    }
    out.append(literal: "</td></tr>\n")
    if let bar {
      out.append(literal: "<tr><td align=\"left\" style=\"")
      out.append(literal: HTMLStyle.barCell)
      out.append(literal: "\">")
      Self.appendBar(bar, to: &out)
      out.append(literal: "</td></tr>\n")
    }
    out.append(literal: "<tr><td align=\"left\" style=\"")
    out.append(literal: HTMLStyle.content)
    out.append(literal: "\">\n")
    return out
  }

  /// A table for layout, up to its `style` value.
  private static let layoutTable: StaticString =
    "<table role=\"presentation\" cellpadding=\"0\" cellspacing=\"0\" border=\"0\" width=\"100%\" style=\""

  /// The document after the body: the footer with the time and the command line.
  public func end() -> [UInt8] {
    var out: [UInt8] = []
    out.append(literal: "</td></tr>\n<tr><td align=\"left\" style=\"")
    out.append(literal: HTMLStyle.footer)
    out.append(literal: "\">Made ")
    Self.append(text: Calendar.isoText(made, alwaysTime: true), to: &out)
    out.append(literal: " by <code style=\"")
    out.append(literal: HTMLStyle.command)
    out.append(literal: "\">")
    Self.append(text: commandLine, to: &out)
    out.append(literal: "</code></td></tr>\n</table>\n</td></tr></table>\n</body>\n</html>\n")
    return out
  }

  /// The feedback bar as pill chips in the bar's order, then the counts (Docs/FeedbackBar.md).
  /// No space between the chips: their margin alone sets them 8px apart.
  static func appendBar(_ bar: FeedbackBar, to out: inout [UInt8]) {
    for chip in bar.chips {
      appendElement(
        "span", chip.active ? HTMLStyle.activeChip : HTMLStyle.inactiveChip, chip.caption, to: &out)
    }
    appendElement("span", HTMLStyle.counts, bar.counts().joined(separator: " · "), to: &out)
  }

  /// `<name style="style" title="hint">text</name>`, the texts escaped.
  static func appendElement(
    _ name: StaticString, _ style: StaticString, _ text: String, hint: String? = nil,
    to out: inout [UInt8]
  ) {
    out.append(.lessThan)
    out.append(literal: name)
    out.append(literal: " style=\"")
    out.append(literal: style)
    out.append(.quote)
    if let hint {
      out.append(literal: " title=\"")
      append(text: hint, to: &out)
      out.append(.quote)
    }
    out.append(.greaterThan)
    append(text: text, to: &out)
    out.append(literal: "</")
    out.append(literal: name)
    out.append(.greaterThan)
  }

  static func append(text: String, to out: inout [UInt8]) {
    var text = text
    text.withUTF8 { HTMLText.append($0, to: &out) }
  }
}

extension UInt8 {
  static let lessThan = UInt8(ascii: "<")
  static let greaterThan = UInt8(ascii: ">")
}
