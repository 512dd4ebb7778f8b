/// Which way round a numeric date that is not year-first is written (Docs/Formats.md, Dates).
public enum DateOrder: String, Sendable, CaseIterable {
  /// Only year-first dates are numeric dates (`2026-11-25`); `25.11.2026` is text.
  case ymd
  /// Day first: `25.11.2026`, `25/11/2026`, `25-11-26`.
  case dmy
  /// Month first: `11/25/2026`.
  case mdy

  /// In words, for notes: `day-first`.
  public var words: String {
    switch self {
    case .ymd: return "year-first"
    case .dmy: return "day-first"
    case .mdy: return "month-first"
    }
  }
}

/// How a field's dates are read (Docs/Formats.md, Dates): the order of its numeric dates and
/// the zone whose wall clock a value with an offset is moved onto.
public struct DateConvention: Hashable, Sendable {
  public var order: DateOrder
  /// The `--tz` zone.
  public var zone: ZoneRules
  /// Whether some sampled value of the field has an offset other than the zone's, so reading
  /// it as an instant moves it (the SQL, which keeps the wall time as written, refuses then).
  public var movesInstants: Bool
  /// Whether some sampled date of the field is not in ISO 8601's calendar form (`25.11.2026`,
  /// `25 Nov 2026`, `2026-W48-3`), which the SQL does not read.
  public var otherStyles: Bool

  public init(
    order: DateOrder, zone: ZoneRules = .utc, movesInstants: Bool = false, otherStyles: Bool = false
  ) {
    self.order = order
    self.zone = zone
    self.movesInstants = movesInstants
    self.otherStyles = otherStyles
  }

  /// ISO dates only, offsets moved to UTC.
  public static let iso = DateConvention(order: .ymd)
}
