/// How a file writes the fraction of a number (Docs/Formats.md, Decimal commas): sift's own
/// `1,234.50` (a point, commas grouping thousands) or Europe's `1.234,50` (a comma, points
/// grouping thousands). Decided once per file, never per value.
public enum DecimalMark: String, Sendable, Equatable, CaseIterable {
  /// `1234.5`, `1,234.50`: the default, and the form of every number sift writes itself.
  case point = "."
  /// `1234,5`, `1.234,50`: German, French, Dutch and Polish exports.
  case comma = ","

  /// The byte that starts a number's fraction.
  @inline(__always)
  var fractionByte: UInt8 { self == .point ? .dot : .comma }

  /// The byte that may group a number's integer digits by three.
  @inline(__always)
  var groupingByte: UInt8 { self == .point ? .comma : .dot }

  /// The mark a `--decimal` value names: `.` or `,` (also `point` and `comma`).
  public init?(option: String) {
    switch option {
    case ".", "point": self = .point
    case ",", "comma": self = .comma
    default: return nil
    }
  }

  /// How a note names it: `','` with an example.
  public var described: String {
    switch self {
    case .point: return "'.' as the decimal mark (1,234.50)"
    case .comma: return "',' as the decimal mark (1.234,50)"
    }
  }
}
