/// The type of a column, inferred from a sample of its values (Docs/Formats.md, How values are read).
public enum ColumnType: String, Sendable, CaseIterable {
  case number
  case date
  case dateTime = "date-time"
  case boolean
  case text
  /// No non-empty value in the sample.
  case empty

  /// True for `date` and `date-time`.
  public var isTemporal: Bool { self == .date || self == .dateTime }
}
