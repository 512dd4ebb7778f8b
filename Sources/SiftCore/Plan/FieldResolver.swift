/// Resolves query field names against the schema (Docs/QueryLanguage.md, Filter terms): exact, then case-insensitive, then
/// normalized (lowercase without spaces, `_`, `-`, `.`); dotted names reach into nested JSON.
public struct FieldResolver: Sendable {
  public let schema: Schema

  public init(schema: Schema) {
    self.schema = schema
  }

  /// The field `name` names, or an error with candidates or a suggestion.
  public func resolve(_ name: FieldName) throws(PlanError) -> ResolvedField {
    let candidates = schema.allNames
    if let found = try match(name, among: candidates) { return field(named: found) }
    let suggestion = closest(to: name.name, among: candidates)
    // Names come from the input and the query: shown with their controls visible.
    var message = "unknown field '\(VisibleText.of(name.name, ascii: false))'"
    if let suggestion { message += "; did you mean '\(VisibleText.of(suggestion, ascii: false))'?" }
    let listed = candidates.map { VisibleText.of($0, ascii: false) }
    var error = PlanError(
      message: message, span: name.span,
      notes: ["fields: " + (candidates.isEmpty ? "(none: the input has no fields)" : listed.joined(separator: ", "))])
    error.unknownField = true
    throw error
  }

  /// Finds the one candidate `name` names at the first stage that matches anything.
  private func match(_ name: FieldName, among candidates: [String]) throws(PlanError) -> String? {
    let stages: [(String) -> String] = [{ $0 }, { $0.lowercased() }, FieldResolver.normalize]
    for key in stages {
      let wanted = key(name.name)
      var found: [String] = []
      for c in candidates where key(c) == wanted && !found.contains(c) { found.append(c) }
      if found.count == 1 { return found[0] }
      if found.count > 1 {
        throw PlanError(
          message: "field name '\(VisibleText.of(name.name, ascii: false))' is ambiguous",
          span: name.span,
          notes: [
            "it could be: " + found.map { "'\(VisibleText.of($0, ascii: false))'" }.joined(separator: ", ")
              + "; quote the exact name"
          ])
      }
    }
    return nil
  }

  /// The resolved field for a name from `schema.allNames`.
  private func field(named full: String) -> ResolvedField {
    if let i = schema.names.firstIndex(of: full) { return ResolvedField(index: i, path: [], name: full) }
    for (i, top) in schema.names.enumerated() where full.hasPrefix(top + ".") {
      let rest = String(full.dropFirst(top.count + 1))
      if schema.nestedPaths[i]?.contains(rest) == true {
        return ResolvedField(index: i, path: rest.split(separator: ".", omittingEmptySubsequences: false).map(String.init), name: full)
      }
    }
    return ResolvedField(index: 0, path: [], name: full)
  }

  /// Lowercase with spaces, `_`, `-` and `.` removed.
  public static func normalize(_ name: String) -> String {
    String(name.lowercased().unicodeScalars.filter { !" _-.".unicodeScalars.contains($0) })
  }

  /// The candidate nearest by edit distance (case-insensitive), if any is reasonably close.
  func closest(to name: String, among candidates: [String]) -> String? {
    let target = Array(name.lowercased().unicodeScalars)
    var best: (String, Int)?
    for c in candidates {
      let d = FieldResolver.editDistance(target, Array(c.lowercased().unicodeScalars))
      if let (_, bestDistance) = best, bestDistance <= d { continue }
      best = (c, d)
    }
    guard let (candidate, distance) = best, distance <= max(2, target.count / 2) else { return nil }
    return candidate
  }

  static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
      current[0] = i
      for j in 1...b.count {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
      }
      swap(&previous, &current)
    }
    return previous[b.count]
  }
}
