/// The one-line summary of a run (Docs/FeedbackBar.md): chips, then the filter count and record counts.
public struct FeedbackBar: Sendable {
  /// Sort, group and active filter chips, then inactive fast filters.
  public var chips: [Chip]
  public var summary: RunSummary
  /// With `limit:` the bar says how many were shown when the limit cut the result.
  public var limited: Bool
  public var grouped: Bool

  public init(chips: [Chip], summary: RunSummary, limited: Bool, grouped: Bool) {
    self.chips = chips
    self.summary = summary
    self.limited = limited
    self.grouped = grouped
  }

  /// Active filter chips: the filter count (sort and group never count).
  public var filterCount: Int { chips.filter { $0.kind == .filter && $0.active }.count }

  /// How the bar is drawn.
  public struct Style: Sendable {
    /// `v ^ | ...` instead of `↓ ↑ · …`.
    public var ascii: Bool
    public var color: ColorMode
    /// The terminal width to fit, if any.
    public var width: Int?
    public init(ascii: Bool = false, color: ColorMode = .none, width: Int? = nil) {
      self.ascii = ascii
      self.color = color
      self.width = width
    }
  }

  /// The counts part: `N filters · M of T records · K shown · G groups · S skipped · R short rows`,
  /// one string per part; the filter count only when a filter is active.
  /// Without `groups`, the group count is left out (it goes with the group chip when the bar
  /// narrows).
  public func counts(groups: Bool = true) -> [String] {
    let n = filterCount
    return (changes?.parts ?? []) + (n > 0 ? ["\(n) \(n == 1 ? "filter" : "filters")"] : [])
      + recordCounts(groups: groups)
  }

  /// With `--changes`, what changed since the baseline, said before the other counts
  /// (Docs/Reports.md, "Changes since the last run").
  public var changes: ChangeCounts?

  /// The counts after the filter count: `M of T records` (or `T records`), then shown, groups,
  /// skipped and short rows where they apply. A summary's groups come first, since they are its
  /// rows, and it says how many values were left out for not being numbers.
  func recordCounts(groups: Bool = true) -> [String] {
    var parts: [String] = []
    let groupCount = "\(groupedDigits(summary.groups)) \(summary.groups == 1 ? "group" : "groups")"
    let summarizing = summary.summaryRows != nil
    if summarizing && grouped && groups { parts.append(groupCount) }
    let total = summary.total
    let noun = total == 1 ? "record" : "records"
    if filterCount > 0 {
      parts.append("\(groupedDigits(summary.matched)) of \(groupedDigits(total)) \(noun)")
    } else {
      parts.append("\(groupedDigits(total)) \(noun)")
    }
    if limited && summary.shown < summary.rows { parts.append("\(groupedDigits(summary.shown)) shown") }
    if !summarizing && grouped && groups { parts.append(groupCount) }
    if summary.valuesLeftOut > 0 {
      let n = summary.valuesLeftOut
      parts.append("\(groupedDigits(n)) \(n == 1 ? "value" : "values") not numbers")
    }
    if summary.skipped > 0 { parts.append("\(groupedDigits(summary.skipped)) skipped") }
    if summary.shortRows > 0 {
      parts.append("\(groupedDigits(summary.shortRows)) short \(summary.shortRows == 1 ? "row" : "rows")")
    }
    return parts
  }

  /// The narrowest a cut chip caption gets (Docs/FeedbackBar.md, "When space runs short").
  static let shortestCaption = 12

  /// The bar as one line (no line end), its chips painted per `style.color`.
  public func render(_ style: Style) -> String {
    let layout = fitted(style)
    let pieces = layout.pieces.map { piece in
      switch piece {
      case .chip(let index, let text):
        style.color == .none ? text : style.color.paint(text, active: chips[index].active)
      case .more(let count): "+\(count) more"
      }
    }
    if pieces.isEmpty { return layout.counts }
    return pieces.joined(separator: " ") + layout.separator + layout.counts
  }

  /// The bar fitted to a width: the chips kept, in order, and the counts after them. The one-shot
  /// bar and the interactive screen draw the same layout (Docs/FeedbackBar.md).
  public struct Layout: Sendable, Equatable {
    public enum Piece: Sendable, Equatable {
      /// `chips[index]` in its brackets (`[Status: received]`, `(Customer)`), its caption
      /// possibly cut with `…`.
      case chip(index: Int, text: String)
      /// `+N more`: active chips left out.
      case more(Int)
    }

    public var pieces: [Piece]
    /// `N filters · M of T records · …`, joined with `separator`.
    public var counts: String
    /// ` · ` (or ` | ` with ASCII) between the chips and the counts, and between the counts.
    public var separator: String
  }

  /// The layout of `chips` at `style.width`. When the bar is wider, it narrows in this order
  /// (Docs/FeedbackBar.md): inactive fast filters go, then the group chip with its count, then
  /// long chip captions are cut with `…` (not below 12 columns), and only then active chips make
  /// way for `+N more`. The sort chip stays first and the other counts always remain.
  public func fitted(_ style: Style) -> Layout {
    let dot = style.ascii ? " | " : " · "
    let ellipsis = style.ascii ? "..." : "…"
    var tail = counts().joined(separator: dot)
    // Captions hold query text and field names: controls shown visibly (Docs/FeedbackBar.md).
    func caption(_ c: Chip) -> String {
      VisibleText.of(style.ascii ? asciiCaption(c.caption) : c.caption, ascii: style.ascii)
    }
    var shown = chips.indices.map { (index: $0, chip: chips[$0], caption: caption(chips[$0])) }
    func plain(_ entry: (index: Int, chip: Chip, caption: String)) -> String {
      entry.chip.active ? "[\(entry.caption)]" : "(\(entry.caption))"
    }
    var hidden = 0
    if let width = style.width {
      func length(_ more: Int) -> Int {
        var parts = shown.map { displayWidth(of: plain($0)) }
        if more > 0 { parts.append(displayWidth(of: "+\(more) more")) }
        let chipsWidth = parts.reduce(0, +) + max(0, parts.count - 1)
        return chipsWidth + (parts.isEmpty ? 0 : dot.count) + displayWidth(of: tail)
      }
      // 1. Inactive fast filters, from the right.
      while length(0) > width, let last = shown.lastIndex(where: { !$0.chip.active }) {
        shown.remove(at: last)
      }
      // 2. The group chip; then, if still too wide, the group count: the groups are in the
      // output.
      if length(0) > width { shown.removeAll { $0.chip.kind == .group } }
      if length(0) > width { tail = counts(groups: false).joined(separator: dot) }
      // 3. Long captions, the longest first, down to 12 columns; 4. when that is not enough,
      // active chips from the right make way for `+N more` (with their captions whole again).
      // The sort chip stays.
      let whole = shown
      let keepFirst = whole.first?.chip.kind == .sort ? 1 : 0
      for more in 0...(whole.count - keepFirst) {
        shown = Array(whole.dropLast(more))
        hidden = more
        while length(hidden) > width {
          let widths = shown.map { displayWidth(of: $0.caption) }
          guard let longest = widths.indices.max(by: { widths[$0] < widths[$1] }),
            widths[longest] > Self.shortestCaption
          else { break }
          let target = max(Self.shortestCaption, widths[longest] - (length(hidden) - width))
          shown[longest].caption = truncate(
            shown[longest].caption, toWidth: target, ellipsis: ellipsis)
        }
        if length(hidden) <= width { break }
      }
    }
    var pieces = shown.map { Layout.Piece.chip(index: $0.index, text: plain($0)) }
    if hidden > 0 { pieces.append(.more(hidden)) }
    return Layout(pieces: pieces, counts: tail, separator: dot)
  }

  private func asciiCaption(_ s: String) -> String {
    s.replacing("↓", with: "v").replacing("↑", with: "^").replacing("…", with: "...")
  }

  /// The same content as sentences, for screen readers and logs (`--summary text`).
  public func sentence() -> String {
    var out: [String] = []
    for c in chips where c.active && c.kind != .filter { out.append(c.sentence + ".") }
    let filters = chips.filter { $0.kind == .filter && $0.active }
    if !filters.isEmpty {
      out.append("\(filters.count) \(filters.count == 1 ? "filter" : "filters"): " + filters.map(\.sentence).joined(separator: "; ") + ".")
    }
    let inactive = chips.filter { !$0.active }
    if !inactive.isEmpty {
      out.append("Available filters: " + inactive.map(\.caption).joined(separator: ", ") + ".")
    }
    out.append(((changes?.parts ?? []) + recordCounts()).joined(separator: ", ") + ".")
    return VisibleText.of(out.joined(separator: " "), ascii: false)
  }

  /// One JSON object (`--summary json`).
  public func json() -> String {
    var s = "{\"sort\":["
    let sort = chips.first { $0.kind == .sort }
    s += (sort.map { _ in sortKeys.map { "{\"field\":\(jsonString($0.field)),\"descending\":\($0.descending)}" }.joined(separator: ",") } ?? "")
    s += "],\"group\":" + (chips.first { $0.kind == .group }?.field.map(jsonString) ?? "null")
    s += ",\"filters\":["
    s += chips.filter { $0.kind == .filter }.map { c in
      "{\"field\":\(c.field.map(jsonString) ?? "null"),\"label\":\(jsonString(c.label)),\"text\":\(jsonString(c.text)),\"active\":\(c.active)}"
    }.joined(separator: ",")
    s += "],\"filterCount\":\(filterCount),\"matched\":\(summary.matched),\"total\":\(summary.total),\"shown\":\(summary.shown)"
    if grouped { s += ",\"groups\":\(summary.groups)" }
    if summary.valuesLeftOut > 0 { s += ",\"valuesNotNumbers\":\(summary.valuesLeftOut)" }
    if summary.skipped > 0 { s += ",\"skipped\":\(summary.skipped)" }
    if summary.shortRows > 0 { s += ",\"shortRows\":\(summary.shortRows)" }
    if let changes {
      s += ",\"changes\":{\"new\":\(changes.new),\"changed\":\(changes.changed),\"gone\":\(changes.gone)"
      s += ",\"since\":" + (changes.since.map(jsonString) ?? "null") + "}"
    }
    return s + "}"
  }

  /// The sort keys behind the sort chip (set by whoever builds the bar).
  public var sortKeys: [(field: String, descending: Bool)] = []
}

/// A JSON string literal of `s`.
func jsonString(_ s: String) -> String {
  var out: [UInt8] = []
  var text = s
  text.withUTF8 { JSONText.appendString($0, to: &out) }
  return String(decoding: out, as: UTF8.self)
}
