/// The inline styles of HTML reports (Docs/Reports.md): SAP Fiori's colours, every element with an
/// explicit foreground and background, so that e-mail clients in dark mode keep text readable.
enum HTMLStyle {
  static let body: StaticString =
    "margin:0;padding:0;background-color:#F5F6F7;color:#1D2D3E;font-family:'72','72full',Arial,Helvetica,sans-serif"
  /// The page and the sheet are laid out at the window's width whatever their content (a fixed
  /// layout), so that on a phone only a wide table scrolls, never the header, chips or counts.
  static let page: StaticString = "table-layout:fixed;background-color:#F5F6F7;color:#1D2D3E"
  static let sheet: StaticString =
    "table-layout:fixed;max-width:960px;background-color:#FFFFFF;color:#1D2D3E;border:1px solid #E5E5E5;border-radius:8px"
  /// The navigation bar: the shell's white bar with the title and subtitle.
  static let header: StaticString =
    "padding:12px 16px;background-color:#FFFFFF;color:#1D2D3E;border-bottom:1px solid #E5E5E5;border-radius:8px 8px 0 0"
  static let title: StaticString =
    "font-size:20px;line-height:26px;font-weight:bold;color:#1D2D3E;background-color:#FFFFFF"
  static let subtitle: StaticString =
    "font-size:14px;line-height:20px;color:#556B82;background-color:#FFFFFF"
  static let barCell: StaticString = "padding:12px 16px 4px 16px;background-color:#FFFFFF;color:#1D2D3E"
  /// Pill chips (Docs/FeedbackBar.md): active white on the primary orange, inactive fast filters
  /// dark on light grey with a border; 16px radius, 14px text, 8px apart.
  static let activeChip: StaticString =
    "display:inline-block;margin:0 8px 8px 0;padding:3px 12px;border:1px solid #f69000;border-radius:16px;font-size:14px;line-height:20px;background-color:#f69000;color:#FFFFFF;white-space:nowrap"
  static let inactiveChip: StaticString =
    "display:inline-block;margin:0 8px 8px 0;padding:3px 12px;border:1px solid #E5E5E5;border-radius:16px;font-size:14px;line-height:20px;background-color:#F2F2F7;color:#1D2D3E;white-space:nowrap"
  static let counts: StaticString =
    "display:inline-block;margin:0 0 8px 0;font-size:14px;line-height:22px;color:#556B82;background-color:#FFFFFF"
  static let content: StaticString = "padding:8px 16px 16px 16px;background-color:#FFFFFF;color:#1D2D3E"
  static let footer: StaticString =
    "padding:12px 16px;font-size:12px;line-height:18px;color:#556B82;background-color:#FFFFFF;border-top:1px solid #E5E5E5;border-radius:0 0 8px 8px"
  static let command: StaticString =
    "font-family:Menlo,Consolas,'Courier New',monospace;font-size:12px;color:#1D2D3E;background-color:#F2F2F7;word-break:break-all"

  /// Around the records table: a table wider than the window scrolls on its own.
  static let tableScroll: StaticString = "overflow-x:auto;max-width:100%"
  // The records table: colours, figures and wrapping set once on the table, cells inherit them.
  static let table: StaticString =
    "border-collapse:collapse;background-color:#FFFFFF;color:#1D2D3E;font-size:13px;line-height:18px;font-variant-numeric:tabular-nums;overflow-wrap:break-word"
  static let headerCell: StaticString =
    "font-weight:bold;white-space:nowrap;color:#556B82;background-color:#FFFFFF;border-bottom:2px solid #D9D9D9"
  static let shadedRow: StaticString = "background-color:#F7F8F9;color:#1D2D3E"
  static let totalRow: StaticString = "font-weight:bold;background-color:#EFF1F2;color:#1D2D3E"
  static let groupRow: StaticString = "background-color:#EFF1F2;color:#1D2D3E"
  static let groupCell: StaticString =
    "padding-top:12px;font-weight:bold;font-size:14px;border-bottom:1px solid #D9D9D9"
  /// A changed value's earlier one, struck through before the new (`--changes`).
  static let earlierValue: StaticString = "color:#AA0808;background-color:#FFEAF4"
  /// `(earlier values not kept)` after a record's `change`, when the baseline did not keep them.
  static let earlierNotKept: StaticString = "font-size:12px;font-style:italic;color:#556B82"
  static let groupCount: StaticString = "font-weight:normal;color:#556B82;background-color:#EFF1F2"

  // The views digest.
  static let tabBar: StaticString =
    "padding:4px 0 8px 0;border-bottom:1px solid #E5E5E5;background-color:#FFFFFF;color:#1D2D3E"
  static let sectionBar: StaticString = "background-color:#FFFFFF;color:#1D2D3E"
  static let tab: StaticString =
    "display:inline-block;margin:0 16px 8px 0;padding:6px 0;font-size:14px;line-height:20px;font-weight:bold;color:#1D2D3E;background-color:#FFFFFF;white-space:nowrap"
  /// A badge: white on Fiori's negative red.
  static let badge: StaticString =
    "display:inline-block;margin-left:6px;padding:0 7px;border-radius:10px;font-size:12px;line-height:18px;font-weight:bold;background-color:#D32030;color:#FFFFFF"
  static let sectionTitle: StaticString =
    "padding:20px 0 8px 0;font-size:16px;line-height:22px;font-weight:bold;color:#1D2D3E;background-color:#FFFFFF"
  static let note: StaticString =
    "padding:8px 0;font-size:13px;line-height:18px;color:#556B82;background-color:#FFFFFF"
  static let problem: StaticString =
    "padding:8px 0;font-size:13px;line-height:18px;color:#AA0808;background-color:#FFFFFF"
}
