/// The records marked in a list (Docs/Interactive.md, Marking and export): every record of the
/// result (`M`), or some of the rows listed (`m`), by their place in the result.
struct RecordMarks: Hashable, Sendable {
  /// Every record of the result, even past the rows the list keeps.
  private(set) var all = false
  private(set) var rows: Set<Int> = []

  var isEmpty: Bool { !all && rows.isEmpty }

  func contains(_ row: Int) -> Bool { all || rows.contains(row) }

  /// Marks or unmarks the row at `row` (its place in the result); unmarking one of all marks
  /// every other row of the `listed` ones (the places of the rows kept).
  mutating func toggle(_ row: Int, listed: Range<Int>) {
    if all {
      all = false
      rows = Set(listed)
    }
    if rows.remove(row) == nil { rows.insert(row) }
  }

  /// `M`: marks every record, or clears the marks when there are any.
  mutating func toggleAll() {
    self = isEmpty ? RecordMarks(all: true) : RecordMarks()
  }

  /// The places of the records an export writes, in order; `nil` for all of them (every
  /// record marked, or none).
  var exported: [Int]? { all || rows.isEmpty ? nil : rows.sorted() }
}
