/// A fast filter that cannot be shown against this input: its field is unknown or ambiguous.
public struct FastFilterError: Error, Sendable {
  public var filter: FastFilter
  /// What is wrong; its span points into `filter.text`.
  public var error: PlanError
}

extension FilterChips {
  /// The chips of the fast filters the query does not apply, in the view's order (Docs/FeedbackBar.md).
  ///
  /// A fast filter given by field name is applied when a top-level filter of the query is on
  /// that field (compared after resolution, so `Status:x` applies `status`); that filter keeps
  /// its own chip, in query order. A fast filter given as a term is applied when a top-level
  /// filter is the same term (same field, same values ignoring case), and otherwise shows as
  /// that term's chip, e.g. `(Updated: today)`.
  ///
  /// `typeOf` types the fields of a fast filter given as a term: the plan's own types by default,
  /// which a plain count does not have beyond the fields its directives name (`Plan.types`).
  public func inactiveChips(
    for fastFilters: [FastFilter], typeOf: ((ResolvedField) -> ColumnType)? = nil
  ) throws(FastFilterError) -> [Chip] {
    let applied = plan.query.topLevelFilters
    let appliedFields = Set(applied.compactMap { chip($0).field })
    let appliedTerms = Set(applied.map { comparisonKey($0, fields: plan.fields) })
    var chips: [Chip] = []
    for (index, filter) in fastFilters.enumerated() {
      switch filter {
      case .field(let name, _):
        let field: ResolvedField
        do throws(PlanError) { field = try FieldResolver(schema: plan.schema).resolve(name) } catch
        {
          throw FastFilterError(filter: filter, error: error)
        }
        guard !appliedFields.contains(field.name) else { continue }
        let label = labels.label(field.name)
        chips.append(
          Chip(
            kind: .filter, field: field.name, label: label, text: "",
            sentence: label.lowercased(), active: false, fastFilter: index))
      case .term(let term, _):
        let own: Plan
        do throws(PlanError) {
          own = try Plan(
            query: Query(filter: term), schema: plan.schema, now: plan.now,
            decimalMark: plan.decimalMark
          ) {
            typeOf?($0) ?? plan.type(of: $0)
          }
        } catch {
          throw FastFilterError(filter: filter, error: error)
        }
        guard !appliedTerms.contains(comparisonKey(term, fields: own.fields)) else { continue }
        var c = FilterChips(plan: own, labels: labels, ascii: ascii).chip(term)
        c.active = false
        c.fastFilter = index
        chips.append(c)
      }
    }
    return chips
  }

  /// A text that is equal for two filters meaning the same: resolved field names, values in
  /// canonical form (case-folded except regular expressions), operators spelled out.
  private func comparisonKey(_ e: Expr, fields: [FieldName: ResolvedField]) -> String {
    func name(_ n: FieldName) -> String { fields[n]?.name ?? n.name }
    switch e {
    case .and(let parts, _):
      return "(" + parts.map { comparisonKey($0, fields: fields) }.joined(separator: " AND ") + ")"
    case .or(let parts, _):
      return "(" + parts.map { comparisonKey($0, fields: fields) }.joined(separator: " OR ") + ")"
    case .not(let inner, _):
      return "NOT " + comparisonKey(inner, fields: fields)
    case .term(.field(let n, let values, _)):
      let shown = values.map { v in
        if case .regex = v { return v.canonicalText }
        return v.canonicalText.lowercased()
      }
      return "(\(quotedText(name(n))) = \(shown.joined(separator: ",")))"
    case .term(.has(let n, _)):
      return "has:" + quotedText(name(n))
    case .term(.text(let literal, _)):
      return literal.canonicalText.lowercased()
    }
  }
}
