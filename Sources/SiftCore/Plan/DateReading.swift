/// What the command line says about dates (Docs/Formats.md, Dates): `--dates`, `--tz`, and
/// whether the input writes decimal commas (a decimal-comma file's ambiguous dates are
/// day-first).
public struct DateSettings: Sendable, Equatable {
  /// `--dates`: the order of every field's numeric dates; `nil` to decide it per field.
  public var order: DateOrder?
  /// `--tz`: a value or literal with an offset is moved onto this zone's wall clock, one
  /// without is in this zone already.
  public var zone: ZoneRules
  /// Whether the input writes decimal commas (Docs/Formats.md, Numbers).
  public var decimalComma: Bool

  public init(order: DateOrder? = nil, zone: ZoneRules = .utc, decimalComma: Bool = false) {
    self.order = order
    self.zone = zone
    self.decimalComma = decimalComma
  }
}

/// How the fields of one input read their numeric dates, decided once from the sample
/// (Docs/Formats.md, Dates): a field whose values show the order takes it; a field whose every
/// value reads either way takes the order the input's other date fields show, then day-first
/// in a decimal-comma input, then month-first for dates written with `/` and day-first for
/// `.` and `-`. `--dates` decides for every field.
public struct DateReading: Sendable {
  public let settings: DateSettings
  /// The order the other fields show, and the first field that shows it.
  private let shown: (order: DateOrder, field: String)?

  /// `fields` are the top-level fields with what their sampled values say.
  public init(settings: DateSettings, fields: [(name: String, evidence: DateEvidence)]) {
    self.settings = settings
    let dayFirst = fields.first { $0.evidence == .dayFirst }
    let monthFirst = fields.first { $0.evidence == .monthFirst }
    switch (dayFirst, monthFirst) {
    case (let d?, nil): shown = (.dmy, d.name)
    case (nil, let m?): shown = (.mdy, m.name)
    default: shown = nil
    }
  }

  /// The convention of a field whose values say `evidence`.
  /// `offsets` are those its sampled values were written with, `otherStyles` whether any
  /// is not in ISO 8601's calendar form.
  public func convention(
    for evidence: DateEvidence, offsets: Set<WallTime>, otherStyles: Bool
  ) -> DateConvention {
    DateConvention(
      order: decide(evidence).order, zone: settings.zone,
      movesInstants: offsets.contains { $0 != settings.zone.fixedOffset }, otherStyles: otherStyles)
  }

  /// The note that says how a field's dates are read and how to change it; `nil` where nothing
  /// was guessed (no numeric dates, or `--dates`).
  public func note(field: String, evidence: DateEvidence) -> String? {
    guard settings.order == nil, let why = decide(evidence).why else { return nil }
    let order = decide(evidence).order
    let other = order == .dmy ? "mdy" : "dmy"
    return "note: reading the dates in \(field) \(order.words) (\(why)); "
      + "--dates \(other) reads them \(DateOrder(rawValue: other)?.words ?? other)"
  }

  /// The order for `evidence` and, when it was decided rather than given, why.
  private func decide(_ evidence: DateEvidence) -> (order: DateOrder, why: String?) {
    if let forced = settings.order { return (forced, nil) }
    switch evidence {
    case .none: return (.ymd, nil)
    case .dayFirst: return (.dmy, "a first part over 12 shows it")
    case .monthFirst: return (.mdy, "a second part over 12 shows it")
    case .ambiguous(let slashes):
      let prefix = "assumed: every sampled value reads either way, and "
      if let shown { return (shown.order, prefix + "\(shown.field) is \(shown.order.words)") }
      if settings.decimalComma { return (.dmy, prefix + "the file writes decimal commas") }
      if slashes { return (.mdy, prefix + "dates written with '/' are read month-first") }
      return (.dmy, prefix + "dates written with '.' or '-' are read day-first")
    }
  }
}
