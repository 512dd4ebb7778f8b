/// Infers column types from sampled values (Docs/Formats.md, How values are read): every non-empty sampled value must agree.
public struct TypeInference: Sendable {
  private var nonEmpty = 0
  private var numbers = 0
  private var dates = 0
  private var dateTimes = 0
  private var switches = 0
  private var numericSwitches = 0
  private var texts = 0
  /// The order numeric dates are read in (`--dates`); `nil` to decide it from the values.
  private let order: DateOrder?
  /// Numeric dates that are not year-first (`25.11.2026`), and how many read day-first, how
  /// many month-first, and how many are written with `/`.
  private var numericDates = 0
  private var dayFirstFits = 0
  private var monthFirstFits = 0
  private var slashDates = 0
  /// The offsets dates were written with.
  public private(set) var offsets: Set<WallTime> = []
  /// Dates not in ISO 8601's calendar form.
  public private(set) var otherStyles = 0

  /// `order` is `--dates`; without it the order of numeric dates is decided from the values.
  public init(order: DateOrder? = nil) {
    self.order = order
  }

  /// How many records the sample holds (Docs/Formats.md, How values are read).
  public static let sampleSize = 1000

  /// Counts one value of an input whose numbers use the decimal `mark`.
  public mutating func add(_ value: FieldValue, mark: DecimalMark = .point) {
    if value.isNullLike { return }
    nonEmpty += 1
    switch value.form {
    case .jsonNumber:
      numbers += 1
      return
    case .jsonBool:
      switches += 1
      return
    case .jsonNested:
      texts += 1
      return
    default: break
    }
    withValueBytes(value) { b in
      if let s = Switch.reading(b) {
        switches += 1
        if s.numeric { numericSwitches += 1 }
      }
      if NumberParser.parse(b, mark: mark) != nil {
        numbers += 1
      } else if let d = DateParser.parse(b, DateConvention(order: order ?? .ymd)) {
        count(d)
      } else if order == nil, let (_, _, separator) = DateParser.numericParts(b) {
        let dayFirst = DateParser.parse(b, DateConvention(order: .dmy))
        let monthFirst = DateParser.parse(b, DateConvention(order: .mdy))
        guard let d = dayFirst ?? monthFirst else {
          texts += 1
          return
        }
        count(d)
        numericDates += 1
        if dayFirst != nil { dayFirstFits += 1 }
        if monthFirst != nil { monthFirstFits += 1 }
        if separator == .slash { slashDates += 1 }
      } else {
        texts += 1
      }
    }
  }

  private mutating func count(_ d: ParsedDate) {
    if d.precision == .instant { dateTimes += 1 } else { dates += 1 }
    if let offset = d.offset { offsets.insert(offset) }
    if !d.isISO { otherStyles += 1 }
  }

  /// What the values say about the order of their numeric dates (Docs/Formats.md, Dates).
  public var dateEvidence: DateEvidence {
    guard type.isTemporal, numericDates > 0 else { return .none }
    switch (dayFirstFits == numericDates, monthFirstFits == numericDates) {
    case (true, false): return .dayFirst
    case (false, true): return .monthFirst
    case (true, true): return .ambiguous(slashes: slashDates == numericDates)
    case (false, false): return .none
    }
  }


  /// Whether most counted values are numbers: a field a number aggregate may take even when a
  /// few values are not, wherever they stand (Docs/Aggregates.md, Values that are not numbers).
  public var mostlyNumbers: Bool { numbers * 2 > nonEmpty }

  /// The type all counted values agree on.
  public var type: ColumnType {
    if nonEmpty == 0 { return .empty }
    if switches == nonEmpty && numericSwitches < nonEmpty { return .boolean }
    if numbers == nonEmpty { return .number }
    let oneOrder =
      numericDates == 0 || dayFirstFits == numericDates || monthFirstFits == numericDates
    if dates + dateTimes == nonEmpty, oneOrder { return dateTimes > 0 ? .dateTime : .date }
    return .text
  }
}

/// What a field's sampled numeric dates say about their order (Docs/Formats.md, Dates).
public enum DateEvidence: Sendable, Equatable {
  /// No numeric date that is not year-first.
  case none
  /// Some first part is over 12.
  case dayFirst
  /// Some second part is over 12.
  case monthFirst
  /// Every value reads either way; `slashes` when all are written with `/`.
  case ambiguous(slashes: Bool)
}

/// The switch spellings of Docs/QueryLanguage.md, Filter terms: `on yes true 1 y` and `off no false 0 n`.
public enum Switch {
  /// Whether the bytes spell "on" or "off" (case-insensitive), and whether they are `1`/`0`.
  /// The bytes are folded to lower case and packed into one word with their length, then looked
  /// up among the spellings', without allocating: type inference asks for every sampled value
  /// and a switch test for every record.
  public static func reading(_ b: UnsafeBufferPointer<UInt8>) -> (on: Bool, numeric: Bool)? {
    guard b.count >= 1 && b.count <= 5 else { return nil }
    var word = UInt64(b.count) << 56
    for i in 0..<b.count { word |= UInt64(TextFold.lowerASCII(b[i])) << (8 * i) }
    let spellings = Switch.spellings
    for k in 0..<spellings.count where spellings[k].word == word {
      return (spellings[k].on, spellings[k].numeric)
    }
    return nil
  }

  private static let spellings: [(word: UInt64, on: Bool, numeric: Bool)] = [
    ("on", true, false), ("yes", true, false), ("true", true, false), ("y", true, false),
    ("off", false, false), ("no", false, false), ("false", false, false), ("n", false, false),
    ("1", true, true), ("0", false, true),
  ].map { text, on, numeric in
    let bytes = Array(text.utf8)
    var word = UInt64(bytes.count) << 56
    for (i, b) in bytes.enumerated() { word |= UInt64(b) << (8 * i) }
    return (word, on, numeric)
  }

  /// Whether a query word is a switch spelling, and which.
  public static func reading(_ word: String) -> Bool? {
    var w = word
    return w.withUTF8 { reading($0)?.on }
  }
}
