/// How an output column's values are read back into typed values (Docs/Formats.md, Writing
/// workbooks): its type, and the decimal mark and date convention its text is written in, so that
/// `-o xlsx` reads `1.234,50` and `25.11.2026` as the number and the date they are.
public struct ColumnReading: Hashable, Sendable {
  public var type: ColumnType
  /// How the column's numbers are written: the input's mark for its values and group values,
  /// `.point` for the numbers a summary computes.
  public var decimalMark: DecimalMark
  /// How the column's dates are written.
  public var convention: DateConvention

  public init(type: ColumnType, decimalMark: DecimalMark = .point, convention: DateConvention = .iso) {
    self.type = type
    self.decimalMark = decimalMark
    self.convention = convention
  }
}
