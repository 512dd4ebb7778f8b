extension FeedbackBar {
  /// Says what `--changes` found: a `[Changes: GRN No]` chip after the others, and
  /// `3 new · 2 changed · 1 gone since …` before the record counts (Docs/Reports.md, "Changes
  /// since the last run").
  public mutating func addChanges(_ counts: ChangeCounts) {
    changes = counts
    chips.append(
      Chip(
        kind: .changes, field: nil, label: "Changes", text: counts.keyLabel,
        sentence: "changes by \(counts.keyLabel)", active: true))
  }
}
