/// The memory a group count (`-c group:`) or a summary (aggregates) may take, held to
/// `--memory` (Docs/Performance.md, Bounds). Groups are not spilled to disk: past the budget the
/// run stops with an error naming `--memory`, before anything is written (a count or a summary
/// is written only at its end), rather than taking more memory than it was given.
struct GroupBudget {
  /// Bytes a group holds besides its key at its peak (its number, its slot, its count, and its
  /// values and place in the ordering made at the end); measured on 1,000,000 groups of 8-byte
  /// keys, `-c group:k` held 170 MB more than `-c` alone.
  static let perGroup = 160
  /// Bytes each aggregate adds to a group of a summary (its running state).
  static let perAggregate = 48

  /// `--memory`, in bytes.
  let budget: Int
  /// Bytes per group besides its key.
  let groupBytes: Int

  init(budget: Int, aggregates: Int = 0) {
    self.budget = budget
    groupBytes = Self.perGroup + aggregates * Self.perAggregate
  }

  /// About how many bytes `groups` groups whose keys take `keyBytes` in all hold at their peak:
  /// each key is held twice (in the index, and as values when ordered).
  func estimate(groups: Int, keyBytes: Int) -> Int {
    groups.multipliedReportingOverflow(by: groupBytes).partialValue + 2 * keyBytes
  }

  /// Throws when `groups` groups whose keys take `keyBytes` would pass the budget.
  func check(groups: Int, keyBytes: Int) throws(SiftError) {
    let need = estimate(groups: groups, keyBytes: keyBytes)
    guard need > budget else { return }
    throw .input(
      InputError(
        name: "--memory", line: 0, column: 0,
        message: "\(groupedDigits(groups)) groups need about \(Self.sizeText(need)), more than the "
          + "\(Self.sizeText(budget)) memory budget (groups are held in memory, about "
          + "\(groupBytes) bytes each besides their values); give a larger --memory, or group by "
          + "fields with fewer distinct values"))
  }

  /// `bytes` in KiB below a MiB, else in MiB, rounded up.
  static func sizeText(_ bytes: Int) -> String {
    if bytes < 1 << 20 { return "\(groupedDigits((bytes + 1023) >> 10)) KiB" }
    return "\(groupedDigits((bytes + (1 << 20) - 1) >> 20)) MiB"
  }
}
