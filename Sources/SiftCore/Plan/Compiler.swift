/// A compiled filter over one input's records.
public typealias RowPredicate = @Sendable (RowView) -> Bool

/// How one input's fields line up with the schema: `local[g]` is the input's own index of schema
/// field `g`, or -1 when the input lacks it.
public struct SourceLayout: Sendable, Equatable {
  public var local: [Int]
  public var encoding: FieldEncoding
  /// How the input writes numbers (Docs/Formats.md, Decimal commas).
  public var decimalMark: DecimalMark

  public init(local: [Int], encoding: FieldEncoding, decimalMark: DecimalMark = .point) {
    self.local = local
    self.encoding = encoding
    self.decimalMark = decimalMark
  }

  /// The layout of an input whose fields are `names`, against `schema`.
  public init(
    names: [String], schema: Schema, encoding: FieldEncoding, decimalMark: DecimalMark = .point
  ) {
    var first: [String: Int] = [:]
    for (i, n) in names.enumerated() where first[n] == nil { first[n] = i }
    self.local = schema.names.map { first[$0] ?? -1 }
    self.encoding = encoding
    self.decimalMark = decimalMark
  }

  /// The input's fields (`names`, as given to `init`) that the schema lacks: JSON keys first
  /// seen after the sample (Docs/Formats.md, Several inputs).
  public func fieldsOutsideSchema(_ names: [String]) -> [String] {
    let mapped = Set(local)
    return names.indices.filter { !mapped.contains($0) }.map { names[$0] }
  }
}

/// Turns a plan's typed filter into closures over `RowView` (Docs/Architecture.md, Plan): no
/// AST walking and no typing per record.
struct Compiler {
  let layout: SourceLayout
  /// How each field reads its dates.
  let convention: (ResolvedField) -> DateConvention

  func compile(_ filter: TypedFilter) -> RowPredicate {
    switch filter {
    case .all(let parts):
      let ps = parts.map(compile)
      if ps.count == 2 {
        let a = ps[0]
        let b = ps[1]
        return { a($0) && b($0) }
      }
      return { row in
        for p in ps where !p(row) { return false }
        return true
      }
    case .any(let parts):
      let ps = parts.map(compile)
      if ps.count == 2 {
        let a = ps[0]
        let b = ps[1]
        return { a($0) || b($0) }
      }
      return { row in
        for p in ps where p(row) { return true }
        return false
      }
    case .not(let inner):
      let p = compile(inner)
      return { !p($0) }
    case .field(let field, let tests):
      let convention = convention(field)
      let closures = tests.map { ValueTests.closure(for: $0, mark: layout.decimalMark, convention) }
      if closures.count == 1 { return access(field, closures[0]) }
      return access(field) { v in
        for t in closures where t(v) { return true }
        return false
      }
    case .anyFieldContains(let text):
      let folded = TextFold.fold(text)
      if folded.isEmpty { return { _ in true } }
      let test = ValueTests.contains(folded)
      return { row in
        for f in 0..<row.width where test(row.field(f)) { return true }
        for k in 0..<row.extraCount where test(row.extraField(k).value) { return true }
        return false
      }
    }
  }

  /// Applies `test` to the field's value(s): any element of a JSON array, any value a nested
  /// path reaches; a field the input lacks is missing, and so is a nested path that reaches no
  /// value (a key not in the object), as the field's value for output and order is
  /// (`FieldAccessor`): `medals.gold:""` matches it (Docs/Formats.md, How values are read).
  func access(_ field: ResolvedField, _ test: @escaping ValueTest) -> RowPredicate {
    let index = field.index < layout.local.count ? layout.local[field.index] : -1
    let missing = test(FieldValue(missingWith: layout.encoding))
    guard index >= 0 else { return { _ in missing } }
    guard layout.encoding == .json else {
      return { test($0.field(index)) }
    }
    let path = field.path
    // A top-level field always reaches a value (itself, or each element of its array).
    guard !path.isEmpty else {
      return { row in JSONPath.anyValue(at: [], in: row.field(index), where: test) }
    }
    return { row in
      var reached = false
      let passed = JSONPath.anyValue(at: path[...], in: row.field(index)) {
        reached = true
        return test($0)
      }
      return passed || (!reached && missing)
    }
  }
}
