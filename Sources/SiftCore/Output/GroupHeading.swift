/// What a group's heading shows (Docs/Output.md): the group key and its summary values, in the
/// order the query asks for them. Today the one summary is the record count; aggregates such as
/// a sum are further values.
public struct GroupHeading: Sendable, Equatable {
  /// One summary value of the group.
  public enum Value: Sendable, Equatable {
    /// How many records the group shows.
    case count(Int)
  }

  /// The group value's text; empty for the group of empty, missing and null values.
  public var key: String
  public var values: [(name: String, value: Value)]

  public init(key: String, values: [(name: String, value: Value)]) {
    self.key = key
    self.values = values
  }

  /// The heading of a group of `count` records.
  public static func counted(_ key: String, _ count: Int) -> GroupHeading {
    GroupHeading(key: key, values: [("count", .count(count))])
  }

  /// The summary values as a heading shows them after the key, digits grouped: `1,203`.
  public var summaryText: String {
    values.map { v in
      switch v.value {
      case .count(let n): return groupedDigits(n)
      }
    }.joined(separator: ", ")
  }

  public static func == (a: GroupHeading, b: GroupHeading) -> Bool {
    a.key == b.key && a.values.map(\.name) == b.values.map(\.name)
      && a.values.map(\.value) == b.values.map(\.value)
  }
}
