/// Builds the chips of a planned query (Docs/FeedbackBar.md): sort (when not the default), group, then one
/// chip per top-level filter term, in query order.
public struct FilterChips {
  let plan: Plan
  let labels: Labels
  let ascii: Bool

  public init(plan: Plan, labels: Labels = Labels(), ascii: Bool = false) {
    self.plan = plan
    self.labels = labels
    self.ascii = ascii
  }

  /// The sort chip, when the query's sort differs from `defaultSort` (names and directions).
  public func sortChip(defaultSort: [(field: String, descending: Bool)] = []) -> Chip? {
    let keys = plan.sort.map { (field: $0.field.name, descending: $0.descending) }
    guard !keys.isEmpty, !keys.elementsEqual(defaultSort, by: { $0.field == $1.field && $0.descending == $1.descending })
    else { return nil }
    let (down, up) = ascii ? ("v", "^") : ("↓", "↑")
    let text = keys.map { "\(labels.label($0.field)) \($0.descending ? down : up)" }.joined(separator: ", ")
    let words = keys.map { "\(labels.label($0.field).lowercased()), \($0.descending ? "descending" : "ascending")" }
    return Chip(
      kind: .sort, field: keys.first?.field, label: "Sort", text: text,
      sentence: "Sorted by " + words.joined(separator: ", then by "), active: true)
  }

  public func groupChip() -> Chip? {
    guard !plan.group.isEmpty else { return nil }
    // `group:customer,status`: `Group: Customer, Status`, its field as the query names them;
    // `group:date/month`: `Group: Date by month` (Docs/QueryLanguage.md, Time buckets).
    let buckets = plan.groupBuckets
    let labels = plan.group.map { self.labels.label($0.name) }
    let texts = zip(labels, buckets).map { label, bucket in label + (bucket.map { " by \($0.rawValue)" } ?? "") }
    let words = zip(labels, buckets).map { label, bucket in
      bucket.map { "\($0.rawValue) of \(label.lowercased())" } ?? label.lowercased()
    }
    let fields = zip(plan.group, buckets).map { field, bucket in field.name + (bucket.map { "/\($0.rawValue)" } ?? "") }
    return Chip(
      kind: .group, field: fields.joined(separator: ","), label: "Group",
      text: texts.joined(separator: ", "),
      sentence: "Grouped by " + words.joined(separator: ", then by "),
      active: true)
  }

  /// One chip per aggregate directive, in query order (`[Sum: Amount, Qty]`); they never count
  /// as filters (Docs/Aggregates.md).
  public func aggregateChips() -> [Chip] {
    plan.directives.compactMap { directive in
      guard case .aggregate(let columns) = directive, let function = columns.first?.function
      else { return nil }
      let names = columns.map { labels.label($0.field!.name) }
      let label = function.name.prefix(1).uppercased() + function.name.dropFirst()
      let words: String
      switch function {
      case .sum: words = "Sum of"
      case .avg: words = "Mean of"
      case .min: words = "Smallest"
      case .max: words = "Largest"
      case .distinct: words = "Distinct values of"
      case .median: words = "Median of"
      case .percentile(let n): words = "\(ordinal(n)) percentile of"
      }
      return Chip(
        kind: .aggregate, field: columns.first?.field?.name, label: label,
        text: names.joined(separator: ", "),
        sentence: words + " " + names.map { $0.lowercased() }.joined(separator: ", "), active: true)
    }
  }

  /// One chip per top-level filter term.
  public func filterChips() -> [Chip] {
    plan.query.topLevelFilters.map(chip)
  }

  func chip(_ e: Expr) -> Chip {
    switch e {
    case .term(.field(let name, let values, _)):
      let f = fieldName(name)
      return Chip(kind: .filter, field: f, label: labels.label(f), text: valuesText(values),
                  sentence: "\(labels.label(f).lowercased()) \(valuesSentence(values, negated: false))", active: true)
    case .term(.has(let name, _)):
      let f = fieldName(name)
      return Chip(kind: .filter, field: f, label: labels.label(f), text: "any",
                  sentence: "\(labels.label(f).lowercased()) is present", active: true)
    case .term(.text(let literal, _)):
      return Chip(kind: .filter, field: nil, label: "Search", text: "\"\(literal.text)\"",
                  sentence: "text contains \"\(literal.text)\"", active: true)
    case .not(.term(.field(let name, let values, _)), _):
      let f = fieldName(name)
      return Chip(kind: .filter, field: f, label: labels.label(f), text: "not " + valuesText(values),
                  sentence: "\(labels.label(f).lowercased()) \(valuesSentence(values, negated: true))", active: true)
    case .not(.term(.has(let name, _)), _):
      let f = fieldName(name)
      return Chip(kind: .filter, field: f, label: labels.label(f), text: "empty",
                  sentence: "\(labels.label(f).lowercased()) is empty", active: true)
    case .not(.term(.text(let literal, _)), _):
      return Chip(kind: .filter, field: nil, label: "Search", text: "not \"\(literal.text)\"",
                  sentence: "text does not contain \"\(literal.text)\"", active: true)
    case .not(let inner, _):
      let c = chip(inner)
      return Chip(kind: .filter, field: nil, label: "", text: "not " + c.caption, sentence: "not " + c.sentence, active: true)
    case .or(let parts, _), .and(let parts, _):
      let joiner: String
      if case .or = e { joiner = "or" } else { joiner = "and" }
      let cs = parts.map(chip)
      return Chip(
        kind: .filter, field: nil, label: "",
        text: "(" + cs.map(\.caption).joined(separator: " \(joiner) ") + ")",
        sentence: "(" + cs.map(\.sentence).joined(separator: " \(joiner) ") + ")", active: true)
    }
  }

  private func fieldName(_ name: FieldName) -> String {
    plan.fields[name]?.name ?? name.name
  }

  var ellipsis: String { ascii ? "..." : "…" }

  func valuesText(_ values: [Value]) -> String {
    values.map(valueText).joined(separator: ", ")
  }

  func valueText(_ v: Value) -> String {
    switch v {
    case .equals(let l): return literalText(l)
    case .compare(let op, let l): return "\(op.rawValue) \(literalText(l))"
    case .range(let a, let b, _): return (a.map(literalText) ?? "*") + ellipsis + (b.map(literalText) ?? "*")
    case .glob(let p, _): return p
    case .regex(let p, let i, _): return "/\(p)/" + (i ? "i" : "")
    case .empty: return "empty"
    }
  }

  func valuesSentence(_ values: [Value], negated: Bool) -> String {
    let parts = values.map(valueSentence)
    let verb = negated ? "is not" : "is"
    if values.count == 1, case .glob = values[0] { return (negated ? "does not match " : "matches ") + parts[0] }
    if values.count == 1, case .regex = values[0] { return (negated ? "does not match " : "matches ") + parts[0] }
    return "\(verb) " + parts.joined(separator: " or ")
  }

  func valueSentence(_ v: Value) -> String {
    switch v {
    case .equals(let l): return literalText(l)
    case .compare(let op, let l):
      let words: String
      switch op {
      case .less: words = "less than"
      case .lessOrEqual: words = "at most"
      case .greater: words = "more than"
      case .greaterOrEqual: words = "at least"
      }
      return "\(words) \(literalText(l))"
    case .range(let a, let b, _):
      switch (a, b) {
      case (let a?, let b?): return "from \(literalText(a)) to \(literalText(b))"
      case (let a?, nil): return "at least \(literalText(a))"
      case (nil, let b?): return "at most \(literalText(b))"
      case (nil, nil): return "anything"
      }
    case .glob(let p, _): return p
    case .regex(let p, let i, _): return "/\(p)/" + (i ? "i" : "")
    case .empty: return "empty"
    }
  }

  /// Relative date words read as words (`this-week` → `this week`, `last-7d` → `last 7 days`).
  func literalText(_ l: Literal) -> String {
    guard !l.quoted, plan.periods[l.span] != nil else { return l.text }
    let t = l.text.lowercased()
    if let unit = t.last, t.hasPrefix("last-"), let n = Int(t.dropFirst(5).dropLast()) {
      let name = unit == "d" ? "day" : (unit == "w" ? "week" : "month")
      return "last \(n) \(name)\(n == 1 ? "" : "s")"
    }
    return t.replacing("-", with: " ")
  }
}

/// `1st`, `2nd`, `3rd`, `11th`, `75th`: the English ordinal of a percentile.
private func ordinal(_ n: Int) -> String {
  let suffix =
    switch (n % 10, n % 100) {
    case (_, 11...13): "th"
    case (1, _): "st"
    case (2, _): "nd"
    case (3, _): "rd"
    default: "th"
    }
  return "\(n)\(suffix)"
}
