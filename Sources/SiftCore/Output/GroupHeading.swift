/// What a group's heading shows (Docs/Output.md): the group's values and its summary values, in
/// the order the query asks for them. Today the one summary is the record count; aggregates such
/// as a sum are further values.
public struct GroupHeading: Sendable, Equatable {
  /// One summary value of the group.
  public enum Value: Sendable, Equatable {
    /// How many records the group shows.
    case count(Int)
  }

  /// The group's value of each group field as text, outermost first (`group:a,b`); empty for
  /// the group of empty, missing and null values.
  public var keys: [String]
  public var values: [(name: String, value: Value)]

  public init(keys: [String], values: [(name: String, value: Value)]) {
    self.keys = keys
    self.values = values
  }

  /// The heading of a group of `count` records.
  public static func counted(_ keys: [String], _ count: Int) -> GroupHeading {
    GroupHeading(keys: keys, values: [("count", .count(count))])
  }

  /// The group's values as a heading shows them: `Acme · received`, `(empty)` for an empty
  /// one; with `ascii`, `Acme | received`.
  public func keyText(ascii: Bool = false) -> String {
    keys.map { $0.isEmpty ? "(empty)" : $0 }.joined(separator: ascii ? " | " : " · ")
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
    a.keys == b.keys && a.values.map(\.name) == b.values.map(\.name)
      && a.values.map(\.value) == b.values.map(\.value)
  }
}
