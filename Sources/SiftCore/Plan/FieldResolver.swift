/// Resolves query field names against the schema (Docs/QueryLanguage.md, Filter terms): exact, then case-insensitive, then
/// normalized (lowercase without spaces, `_`, `-`, `.`); dotted names reach into nested JSON.
public struct FieldResolver: Sendable {
  public let schema: Schema
  /// Every name a query can use (`Schema.allNames`).
  private let candidates: [String]
  /// The candidates by each matching stage's key.
  private let index: NameIndex
  /// The field each usable name stands for.
  private let fields: [String: ResolvedField]

  public init(schema: Schema) {
    self.schema = schema
    let candidates = schema.allNames
    self.candidates = candidates
    index = NameIndex(candidates)
    // A top-level name first; a dotted name is the first field whose nested paths hold the rest.
    var fields: [String: ResolvedField] = [:]
    for (i, name) in schema.names.enumerated() where fields[name] == nil {
      fields[name] = ResolvedField(index: i, path: [], name: name)
    }
    for (i, name) in schema.names.enumerated() {
      for rest in schema.nestedPaths[i] ?? [] where fields[name + "." + rest] == nil {
        let path = rest.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        fields[name + "." + rest] = ResolvedField(index: i, path: path, name: name + "." + rest)
      }
    }
    self.fields = fields
  }

  /// How each matching stage keys a name: as written, lowercased, normalized.
  private static let stageKeys: [@Sendable (String) -> String] = [{ $0 }, { $0.lowercased() }, FieldResolver.normalize]

  /// The field `name` names, or an error with candidates or a suggestion.
  public func resolve(_ name: FieldName) throws(PlanError) -> ResolvedField {
    if let found = try match(name) {
      return fields[found] ?? ResolvedField(index: 0, path: [], name: found)
    }
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
  private func match(_ name: FieldName) throws(PlanError) -> String? {
    let found = index.candidates(for: name.name)
    guard found.count > 1 else { return found.first }
    throw PlanError(
      message: "field name '\(VisibleText.of(name.name, ascii: false))' is ambiguous",
      span: name.span,
      notes: [
        "it could be: " + found.map { "'\(VisibleText.of($0, ascii: false))'" }.joined(separator: ", ")
          + "; quote the exact name"
      ])
  }

  /// Names by the key each matching stage (exact, case-insensitive, normalized) gives them: the
  /// distinct names each key stands for, in their order. A name is matched with three
  /// look-ups, not a pass over every name, so many names over many fields cost names + fields
  /// (Docs/Performance.md, Bounds). A query's fields, and the names outside a query
  /// (`--changes KEY`, the fields a baseline and a run both have).
  public struct NameIndex: Sendable {
    private let stages: [[String: [String]]]

    public init(_ names: [String]) {
      stages = FieldResolver.stageKeys.map { key in
        var byKey: [String: [String]] = [:]
        for c in names {
          let k = key(c)
          if byKey[k]?.contains(c) != true { byKey[k, default: []].append(c) }
        }
        return byKey
      }
    }

    /// The names `name` stands for at the first stage that finds any: one, none, or several
    /// when it is ambiguous.
    public func candidates(for name: String) -> [String] {
      for (key, byKey) in zip(FieldResolver.stageKeys, stages) {
        if let found = byKey[key(name)] { return found }
      }
      return []
    }
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
