/// One saved screen of the views file (Docs/Views.md, The views file): where its records come from, its preset query,
/// default sort, fast filters and labels.
public struct View: Sendable {
  /// The name after `@`.
  public var name: String
  public var title: String?
  /// The records file, already resolved against the views file's folder.
  public var source: String?
  /// The `sort` text as written (`-date`), and its keys parsed from `sort:TEXT`.
  public var sort: (text: String, keys: [SortKey])?
  /// The fields offered for sorting, as written.
  public var sortOptions: [String]
  /// The preset query, as written and parsed.
  public var query: (text: String, parsed: Query)
  public var fastFilters: [FastFilter]
  /// Field name → chip label.
  public var labels: [String: String]
  /// The query whose matches are counted on the view's tab (Docs/Views.md, The views overview), as written and parsed.
  public var badge: (text: String, parsed: Query)?
  /// The field whose value names a record (`grn_no`): the title of the record's page on the
  /// interactive screen (Docs/Views.md, The views file).
  public var key: String? = nil

  /// The name shown on the view's tab and title line: the title, else the name.
  public var displayTitle: String { title ?? name }

  /// The query to run: the preset `query` (unless `reset`) AND `given`, the given directives
  /// winning, sorted by the view's default when nothing else sorts (Docs/Views.md, Running a view; Docs/Views.md, Reset).
  /// `counting`: the run counts (`-c`), so a count per group takes no default sort.
  public func compose(given: Query, text: String, reset: Bool, counting: Bool = false) -> ComposedQuery {
    var parts = [(key: "", text: text, query: given)]
    if !reset { parts.insert((key: "query", text: query.text, query: query.parsed), at: 0) }
    return ComposedQuery(parts, defaultSort: sort, counting: counting)
  }

  /// The query counted for the view's badge: the preset query AND the badge query; `sorted`, in
  /// the view's default sort (for the records the digest shows, Docs/Reports.md).
  public func badgeQuery(sorted: Bool = false) -> ComposedQuery? {
    guard let badge else { return nil }
    return ComposedQuery(
      [
        (key: "query", text: query.text, query: query.parsed),
        (key: "badge", text: badge.text, query: badge.parsed),
      ], defaultSort: sorted ? sort : nil)
  }
}

/// A predefined filter of a view, shown in the bar whether applied or not (Docs/FeedbackBar.md; Docs/Views.md, The views file).
public enum FastFilter: Sendable {
  /// A field name: its chip shows the field's label and turns active, with the value, when the
  /// query filters that field.
  case field(FieldName, text: String)
  /// A complete term (`updated:today`): active when the query contains an equivalent term.
  case term(Expr, text: String)

  /// The fast filter as written in the views file.
  public var text: String {
    switch self {
    case .field(_, let text), .term(_, let text): return text
    }
  }
}

extension View {
  /// The lines describing the view for `sift --views @VIEW`: how it is run, its default sort,
  /// the sort options and the fast filters, by their labels. One line when it fits `maxWidth`:
  ///
  ///      @grn · Sort: Date ↓ · sort options: Date, GRN No · fast filters: Status, Customer, Items
  ///
  /// else broken between the parts (continuation lines indented), a part wider than the screen
  /// cut with `…`. Each line ends in a line feed.
  public func details(ascii: Bool, maxWidth: Int? = nil) -> String {
    let separator = ascii ? " | " : " · "
    guard let maxWidth else { return " " + detailParts(ascii: ascii).map { VisibleText.of($0, ascii: ascii) }.joined(separator: separator) + "\n" }
    var lines: [String] = []
    for part in detailParts(ascii: ascii).map({ VisibleText.of($0, ascii: ascii) }) {
      if let last = lines.last, displayWidth(of: last + separator + part) <= maxWidth {
        lines[lines.count - 1] = last + separator + part
      } else {
        let indent = lines.isEmpty ? " " : "   "
        lines.append(indent + truncate(part, toWidth: maxWidth - indent.count, ellipsis: ascii ? "..." : "…"))
      }
    }
    return lines.joined(separator: "\n") + "\n"
  }

  private func detailParts(ascii: Bool) -> [String] {
    let labels = Labels(labels)
    var parts = ["@" + name]
    if let sort {
      let (down, up) = ascii ? ("v", "^") : ("↓", "↑")
      parts.append(
        "Sort: "
          + sort.keys.map { "\(labels.label($0.field.name)) \($0.descending ? down : up)" }
          .joined(separator: ", "))
    }
    if !sortOptions.isEmpty {
      parts.append("sort options: " + sortOptions.map(labels.label).joined(separator: ", "))
    }
    if !fastFilters.isEmpty {
      let shown = fastFilters.map { filter in
        if case .field(let name, _) = filter { return labels.label(name.name) }
        return filter.text
      }
      parts.append("fast filters: " + shown.joined(separator: ", "))
    }
    return parts
  }
}
