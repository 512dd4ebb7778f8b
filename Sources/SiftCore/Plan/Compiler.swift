/// A compiled filter over one input's records.
public typealias RowPredicate = @Sendable (RowView) -> Bool

/// How one input's fields line up with the schema: `local[g]` is the input's own index of schema
/// field `g`, or -1 when the input lacks it.
public struct SourceLayout: Sendable, Equatable {
  public var local: [Int]
  public var encoding: FieldEncoding

  public init(local: [Int], encoding: FieldEncoding) {
    self.local = local
    self.encoding = encoding
  }

  /// The layout of an input whose fields are `names`, against `schema`.
  public init(names: [String], schema: Schema, encoding: FieldEncoding) {
    var first: [String: Int] = [:]
    for (i, n) in names.enumerated() where first[n] == nil { first[n] = i }
    self.local = schema.names.map { first[$0] ?? -1 }
    self.encoding = encoding
  }

  /// The input's fields (`names`, as given to `init`) that the schema lacks: JSON keys first
  /// seen after the sample (Docs/Formats.md, Several inputs).
  public func fieldsOutsideSchema(_ names: [String]) -> [String] {
    let mapped = Set(local)
    return names.indices.filter { !mapped.contains($0) }.map { names[$0] }
  }
}

/// Turns a resolved filter into closures over `RowView` (STYLE.md rule 4): no AST walking per record.
struct Compiler {
  let plan: Plan
  let layout: SourceLayout

  func compile(_ expr: Expr) throws(PlanError) -> RowPredicate {
    switch expr {
    case .and(let parts, _):
      let ps = try parts.map { (p: Expr) throws(PlanError) in try compile(p) }
      if ps.count == 2 {
        let a = ps[0]
        let b = ps[1]
        return { a($0) && b($0) }
      }
      return { row in
        for p in ps where !p(row) { return false }
        return true
      }
    case .or(let parts, _):
      let ps = try parts.map { (p: Expr) throws(PlanError) in try compile(p) }
      if ps.count == 2 {
        let a = ps[0]
        let b = ps[1]
        return { a($0) || b($0) }
      }
      return { row in
        for p in ps where p(row) { return true }
        return false
      }
    case .not(let inner, _):
      let p = try compile(inner)
      return { !p($0) }
    case .term(let term):
      return try compile(term)
    }
  }

  private func compile(_ term: Term) throws(PlanError) -> RowPredicate {
    switch term {
    case .field(let name, let values, _):
      let field = plan.field(name)
      for value in values { try plan.check(value, for: field) }
      if values.count > 1, let texts = plan.textEqualityLiterals(values, for: field) {
        return access(field, ValueTests.textEquals(anyOf: texts))
      }
      let tests = try values.map { (v: Value) throws(PlanError) in try plan.valueTest(v, for: field) }
      let test: ValueTest
      if tests.count == 1 {
        test = tests[0]
      } else {
        test = { v in
          for t in tests where t(v) { return true }
          return false
        }
      }
      return access(field, test)
    case .has(let name, _):
      return access(plan.field(name), ValueTests.isPresent)
    case .text(let literal, _):
      let folded = TextFold.fold(literal.text)
      let test = ValueTests.contains(folded)
      if folded.isEmpty { return { _ in true } }
      return { row in
        for f in 0..<row.width where test(row.field(f)) { return true }
        return false
      }
    }
  }

  /// Applies `test` to the field's value(s): any element of a JSON array, any value a nested
  /// path reaches; a field the input lacks is missing.
  func access(_ field: ResolvedField, _ test: @escaping ValueTest) -> RowPredicate {
    let index = field.index < layout.local.count ? layout.local[field.index] : -1
    guard index >= 0 else {
      let constant = test(FieldValue(missingWith: layout.encoding))
      return { _ in constant }
    }
    guard layout.encoding == .json else {
      return { test($0.field(index)) }
    }
    let path = field.path
    return { row in
      JSONPath.anyValue(at: path[...], in: row.field(index), where: test)
    }
  }
}
