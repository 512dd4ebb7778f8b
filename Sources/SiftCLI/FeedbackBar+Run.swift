import SiftCore

extension FeedbackBar {
  /// The bar of a run of `plan` that counted `summary` (Docs/FeedbackBar.md): the chips of its
  /// sort (a view's default sort shown as such), group, aggregates and filter, then `view`'s fast
  /// filters that the plan does not apply. A count has no limit to mention.
  init(
    _ plan: Plan, _ summary: RunSummary, view: ViewContext?, unicode: Bool, fastFilterChips: [Chip]
  ) {
    let labels = view?.labels(in: plan.schema) ?? Labels()
    let chipsMaker = FilterChips(plan: plan, labels: labels, ascii: !unicode)
    var chips: [Chip] = []
    if let s = chipsMaker.sortChip(defaultSort: view?.defaultSort(in: plan.schema) ?? []) {
      chips.append(s)
    }
    if let g = chipsMaker.groupChip() { chips.append(g) }
    chips += chipsMaker.aggregateChips() + chipsMaker.filterChips() + fastFilterChips
    self.init(
      chips: chips, summary: summary, limited: plan.query.limit != nil && plan.intent == .records,
      grouped: !plan.group.isEmpty)
    sortKeys = plan.sort.map { ($0.field.name, $0.descending) }
  }
}
