/// `sift --explain QUERY FILE` (Docs/QueryLanguage.md, "Explain"): the canonical form, then what
/// the plan made of it against the FILE's schema: each field the query uses with its inferred
/// type, each term's test with its values already read as numbers, dates or text, how the
/// records flow (streamed, ordered, or only counted), and on how many threads each input is read.
extension Plan {
  /// `inputs` are each input's name and how it will be read (`Dataset.threading(for:)`).
  public func explanation(inputs: [(name: String, threading: String)]) -> String {
    var lines = [query.canonicalForm, ""]
    let used = fields.sorted { $0.key.span.start < $1.key.span.start }
    var seen = Set<ResolvedField>()
    let named = used.filter { seen.insert($0.value).inserted }
    if !named.isEmpty {
      lines.append("fields:")
      let width = named.map { displayWidth(of: $0.value.name) }.max() ?? 0
      for (_, field) in named {
        let pad = String(repeating: " ", count: width - displayWidth(of: field.name))
        // A decimal-comma number and a date not written year-first say so (Docs/Formats.md,
        // Decimal commas; Dates).
        let order = convention(of: field).order
        let style =
          type(of: field) == .number && decimalMark == .comma
          ? " (decimal comma)"
          : type(of: field).isTemporal && order != .ymd ? ", " + order.words : ""
        lines.append("  \(field.name)\(pad)  \(type(of: field).rawValue)\(style)")
      }
    }
    if let filter {
      lines.append("tests:")
      describe(filter, depth: 1, into: &lines)
    }
    lines.append("flow: " + flow)
    let shape = "shape: \(self.shape)"
    if inputs.count == 1 {
      lines.append(shape + ", " + inputs[0].threading)
    } else {
      lines.append(shape)
      for input in inputs { lines.append("  \(input.name): \(input.threading)") }
    }
    return lines.joined(separator: "\n") + "\n"
  }

  private func describe(_ filter: TypedFilter, depth: Int, into lines: inout [String]) {
    let indent = String(repeating: "  ", count: depth)
    switch filter {
    case .all(let parts), .any(let parts):
      let all: Bool
      if case .all = filter { all = true } else { all = false }
      lines.append(indent + (all ? "all of:" : "any of:"))
      for p in parts { describe(p, depth: depth + 1, into: &lines) }
    case .not(let inner):
      lines.append(indent + "not:")
      describe(inner, depth: depth + 1, into: &lines)
    case .anyFieldContains(let text):
      lines.append(indent + "any field contains \(quoted(text)), ignoring case")
    case .field(let field, let tests):
      let each = tests.flatMap(describe)
      if each.count == 1 {
        lines.append(indent + field.name + " " + each[0])
      } else {
        let items = each.map { $0.hasPrefix("is ") ? String($0.dropFirst(3)) : $0 }
        lines.append(indent + field.name + " is any of: " + items.joined(separator: "; "))
      }
    }
  }

  /// A typed test in words: one line per text of an any-of text test, else one.
  private func describe(_ test: TypedTest) -> [String] {
    switch test {
    case .switchIs(let on):
      return [on ? "is on (yes, true, 1 or on)" : "is off (no, false, 0 or off)"]
    case .inPeriod(let p, _, let word):
      return ["is within " + period(p) + (word.map { " (\($0))" } ?? "")]
    case .numberEquals(let n, let text):
      return ["is the number \(n) (or the text \(quoted(text)))"]
    case .textIn(let texts):
      return texts.map { "is the text \(quoted($0)), ignoring case" }
    case .dateCompare(let op, let p):
      // A date-time written to the second or finer is an instant, not a span to be inside of.
      let instantOnly = p.end - p.start <= 1_000_000
      switch op {
      case .less: return ["is a date before \(instant(p.start))"]
      case .lessOrEqual:
        return [instantOnly
          ? "is a date at or before \(instant(p.start))" : "is a date before \(instant(p.end))"]
      case .greater:
        return [instantOnly
          ? "is a date after \(instant(p.start))" : "is a date at or after \(instant(p.end))"]
      case .greaterOrEqual: return ["is a date at or after \(instant(p.start))"]
      }
    case .numberCompare(let op, let n): return ["is a number \(op.rawValue) \(n)"]
    case .textCompare(let op, let text):
      return ["is text \(op.rawValue) \(quoted(text)), ignoring case"]
    case .numberRange(let low, let high):
      return [range("number", low.map(\.description), high.map(\.description))]
    case .dateRange(let low, let high):
      return [range("date", low.map { instant($0.start) }, high.map { instant($0.end) })]
    case .textRange(let low, let high):
      return [range("text", low.map(quoted), high.map(quoted))]
    case .glob(let pattern):
      return ["matches the pattern \(quoted(pattern)), ignoring case"]
    case .regex(let pattern, let caseInsensitive, _):
      return ["matches the regular expression /\(pattern)/" + (caseInsensitive ? "i" : "")]
    case .empty: return ["is empty"]
    case .present: return ["is not empty"]
    }
  }

  private func range(_ kind: String, _ low: String?, _ high: String?) -> String {
    "is a \(kind) from \(low ?? "…") up to \(high ?? "…")"
      + (kind == "date" ? " (end excluded)" : " (both ends included)")
  }

  private var flow: String {
    // `customer`, or `customer, then status` with `group:customer,status`; a time bucket is
    // `month of date` (Docs/QueryLanguage.md, Time buckets).
    let names = zip(group, groupBuckets).map { field, bucket in
      bucket.map { "\($0.rawValue) of \(field.name)" } ?? field.name
    }
    let groups = names.joined(separator: ", then ")
    let order = sort.map { "\($0.field.name) \($0.descending ? "desc" : "asc")" }
    switch shape {
    case .summarize:
      let columns = summaryColumns.filter { $0.kind != .group }.map(\.name)
      var steps = [
        "summarize the matching records" + (group.isEmpty ? "" : " per \(groups)") + " into "
          + columns.joined(separator: ", ")
      ]
      if !order.isEmpty { steps.append("sort the summary by " + order.joined(separator: ", ")) }
      if let limit { steps.append("keep the first \(limit)") }
      if let limitPerGroup {
        let outer = names.dropLast().joined(separator: ", ")
        steps.append("keep the first \(limitPerGroup) of each \(outer)")
      }
      return steps.joined(separator: ", ") + ", then write them"
    case .count: return "count the matching records"
    case .tally:
      var steps = ["count the matching records per \(groups)"]
      if !tallySort.isEmpty { steps.append("sort the counts by " + order.joined(separator: ", ")) }
      if let limit { steps.append("keep the first \(limit)") }
      return steps.joined(separator: ", ")
    case .stream:
      guard let limit else { return "stream each matching record out as it is read" }
      return "stream the first \(limit) matching records out as they are read"
    case .order:
      var steps: [String] = []
      if !group.isEmpty { steps.append("group by \(groups)") }
      if !order.isEmpty { steps.append("sort by " + order.joined(separator: ", ")) }
      if let limit { steps.append("keep the first \(limit)") }
      if let limitPerGroup { steps.append("keep the first \(limitPerGroup) of each group") }
      return "keep the matching records, " + steps.joined(separator: ", ") + ", then write them"
    }
  }

  private func quoted(_ s: String) -> String { "\"" + s + "\"" }

  /// A period as its first and last day (`2024-03-01 to 2024-03-31`), or its two instants.
  private func period(_ p: Period) -> String {
    let day = Calendar.microsPerDay
    if p.start % day == 0 && p.end % day == 0 {
      let first = date(p.start / day)
      let last = date(p.end / day - 1)
      return first == last ? first : "\(first) to \(last)"
    }
    return "\(instant(p.start)) up to \(instant(p.end))"
  }

  private func instant(_ t: WallTime) -> String { Calendar.isoText(t) }

  private func date(_ days: WallTime) -> String { Calendar.isoDate(days: days) }
}
