/// A number as `NumberParser.read` finds it in a value: the nearest double, and whether that
/// double alone orders it exactly (Docs/QueryLanguage.md, How numbers compare).
public struct NumberReading: Sendable {
  /// Significant digits a double tells apart: distinct decimals of at most 15 significant
  /// digits within its normal range read as distinct doubles, in the same order.
  static let doubleDigits = 15

  public let value: Double
  /// At most `doubleDigits` significant digits (as counted while reading: zeros after the first
  /// other digit count), within the double's normal range. Where two numbers both fit, their
  /// doubles compare as the numbers do; otherwise equal doubles say nothing and the digits decide.
  public let fitsDouble: Bool
}
