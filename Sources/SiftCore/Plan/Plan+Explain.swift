/// `sift --explain QUERY FILE` (Docs/QueryLanguage.md, "Explain"): the canonical form, then what
/// the plan made of it against the FILE's schema: each field the query uses with its inferred
/// type, each term's test with its values already read as numbers, dates or text, and how the
/// records flow (streamed, ordered, or only counted).
extension Plan {
  public func explanation(countOnly: Bool) -> String {
    var lines = [query.canonicalForm, ""]
    let used = fields.sorted { $0.key.span.start < $1.key.span.start }
    var seen = Set<ResolvedField>()
    let named = used.filter { seen.insert($0.value).inserted }
    if !named.isEmpty {
      lines.append("fields:")
      let width = named.map { displayWidth(of: $0.value.name) }.max() ?? 0
      for (_, field) in named {
        let pad = String(repeating: " ", count: width - displayWidth(of: field.name))
        lines.append("  \(field.name)\(pad)  \(type(of: field).rawValue)")
      }
    }
    if let filter = query.filter {
      lines.append("tests:")
      describe(filter, depth: 1, into: &lines)
    }
    lines.append("flow: " + flow(countOnly: countOnly))
    return lines.joined(separator: "\n") + "\n"
  }

  private func describe(_ e: Expr, depth: Int, into lines: inout [String]) {
    let indent = String(repeating: "  ", count: depth)
    switch e {
    case .and(let parts, _), .or(let parts, _):
      let all: Bool
      if case .and = e { all = true } else { all = false }
      lines.append(indent + (all ? "all of:" : "any of:"))
      for p in parts { describe(p, depth: depth + 1, into: &lines) }
    case .not(let inner, _):
      lines.append(indent + "not:")
      describe(inner, depth: depth + 1, into: &lines)
    case .term(.has(let name, _)):
      lines.append(indent + "\(resolvedName(name)) is not empty")
    case .term(.text(let literal, _)):
      lines.append(indent + "any field contains \(quoted(literal.text)), ignoring case")
    case .term(.field(let name, let values, _)):
      let field = fields[name]
      let type = field.map { self.type(of: $0) } ?? .text
      let tests = values.map { describe($0, type: type) }
      let subject = resolvedName(name)
      if tests.count == 1 {
        lines.append(indent + subject + " " + tests[0])
      } else {
        let each = tests.map { $0.hasPrefix("is ") ? String($0.dropFirst(3)) : $0 }
        lines.append(indent + subject + " is any of: " + each.joined(separator: "; "))
      }
    }
  }

  private func resolvedName(_ name: FieldName) -> String { fields[name]?.name ?? name.name }

  /// One value of a field term as the test it became.
  private func describe(_ value: Value, type: ColumnType) -> String {
    switch value {
    case .equals(let literal):
      if !literal.quoted, type == .boolean, let on = Switch.reading(literal.text) {
        return on ? "is on (yes, true, 1 or on)" : "is off (no, false, 0 or off)"
      }
      switch meaning(of: literal, type: type) {
      case .period(let p, let relative):
        return "is within " + period(p) + (relative ? " (\(literal.text))" : "")
      case .number(let n): return "is the number \(number(n)) (or the text \(quoted(literal.text)))"
      case .text: return "is the text \(quoted(literal.text)), ignoring case"
      }
    case .compare(let op, let literal):
      switch meaning(of: literal, type: type) {
      case .period(let p, _):
        // A date-time written to the second or finer is an instant, not a span to be inside of.
        let instantOnly = p.end - p.start <= 1_000_000
        switch op {
        case .less: return "is a date before \(instant(p.start))"
        case .lessOrEqual:
          return instantOnly
            ? "is a date at or before \(instant(p.start))" : "is a date before \(instant(p.end))"
        case .greater:
          return instantOnly
            ? "is a date after \(instant(p.start))" : "is a date at or after \(instant(p.end))"
        case .greaterOrEqual: return "is a date at or after \(instant(p.start))"
        }
      case .number(let n): return "is a number \(op.rawValue) \(number(n))"
      case .text: return "is text \(op.rawValue) \(quoted(literal.text)), ignoring case"
      }
    case .range(let low, let high, _):
      let lo = low.map { meaning(of: $0, type: type) }
      let hi = high.map { meaning(of: $0, type: type) }
      func end(_ m: Meaning?, _ l: Literal?, start: Bool) -> String {
        guard let m, let l else { return "…" }
        switch m {
        case .number(let n): return number(n)
        case .period(let p, _): return instant(start ? p.start : p.end)
        case .text: return quoted(l.text)
        }
      }
      let kind: String
      switch lo ?? hi {
      case .number?: kind = "number"
      case .period?: kind = "date"
      default: kind = "text"
      }
      return "is a \(kind) from \(end(lo, low, start: true)) up to \(end(hi, high, start: false))"
        + (kind == "date" ? " (end excluded)" : " (both ends included)")
    case .glob(let pattern, _):
      return "matches the pattern \(quoted(pattern)), ignoring case"
    case .regex(let pattern, let caseInsensitive, _):
      return "matches the regular expression /\(pattern)/" + (caseInsensitive ? "i" : "")
    case .empty:
      return "is empty"
    }
  }

  private func flow(countOnly: Bool) -> String {
    let order =
      sort.map { "\($0.field.name) \($0.descending ? "desc" : "asc")" }.joined(separator: ", ")
    if countOnly {
      if let group { return "count the matching records per \(group.name)" }
      return "count the matching records"
    }
    var steps: [String] = []
    if let group { steps.append("group by \(group.name)") }
    if !order.isEmpty { steps.append("sort by \(order)") }
    if let limit = query.limit { steps.append("keep the first \(limit)") }
    if steps.isEmpty { return "stream each matching record out as it is read" }
    return "keep the matching records, " + steps.joined(separator: ", ") + ", then write them"
  }

  private func quoted(_ s: String) -> String { "\"" + s + "\"" }

  private func number(_ n: Double) -> String {
    if n == n.rounded(), abs(n) < 1e15 { return String(Int64(n)) }
    return String(n)
  }

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

  private func instant(_ t: WallTime) -> String {
    let day = Calendar.microsPerDay
    let days = t >= 0 ? t / day : (t - day + 1) / day
    let rest = t - days * day
    guard rest != 0 else { return date(days) }
    let seconds = rest / 1_000_000
    func two(_ v: WallTime) -> String { v < 10 ? "0\(v)" : "\(v)" }
    return date(days) + "T" + two(seconds / 3600) + ":" + two(seconds / 60 % 60) + ":"
      + two(seconds % 60)
  }

  private func date(_ days: WallTime) -> String {
    let (y, m, d) = Calendar.civil(fromDays: Int(days))
    func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
    return "\(y)-\(two(m))-\(two(d))"
  }
}
