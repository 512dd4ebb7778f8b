/// The zone a date without an offset is in (`--tz`, Docs/QueryLanguage.md, Instants): a fixed
/// offset, or a named zone's offsets over time, which the CLI reads from the system's zone files
/// (the engine reads no files).
public struct ZoneRules: Sendable, Hashable {
  /// The UTC instants (microseconds) at which the offset changes, ascending.
  private let changes: [WallTime]
  /// The offsets east of UTC in microseconds: `offsets[0]` before `changes[0]`, `offsets[i + 1]`
  /// from `changes[i]` on.
  private let offsets: [WallTime]

  /// A zone that is always `offset` east of UTC.
  public init(offset: WallTime) {
    changes = []
    offsets = [offset]
  }

  /// A zone whose offset is `initial` before the first change and `offset` from each `at` on;
  /// the changes are sorted by time.
  public init(initial: WallTime, changes: [(at: WallTime, offset: WallTime)]) {
    let sorted = changes.sorted { $0.at < $1.at }
    self.changes = sorted.map(\.at)
    offsets = [initial] + sorted.map(\.offset)
  }

  private init(changes: [WallTime], offsets: [WallTime]) {
    self.changes = changes
    self.offsets = offsets
  }

  public static let utc = ZoneRules(offset: 0)

  /// The same rules in storage of their own: a worker reading them for every record then counts
  /// references to its own arrays, not to ones every core shares (Docs/Performance.md, Sixteen
  /// cores).
  func unshared() -> ZoneRules {
    ZoneRules(changes: changes.map { $0 }, offsets: offsets.map { $0 })
  }

  /// The one offset of a zone that never changes; `nil` for a zone that does.
  public var fixedOffset: WallTime? { changes.isEmpty ? offsets[0] : nil }

  /// The offset east of UTC at the UTC instant `utc` (microseconds).
  public func offset(atUTC utc: WallTime) -> WallTime {
    var low = 0
    var high = changes.count
    while low < high {
      let mid = (low + high) / 2
      if changes[mid] <= utc { low = mid + 1 } else { high = mid }
    }
    return offsets[low]
  }
}
