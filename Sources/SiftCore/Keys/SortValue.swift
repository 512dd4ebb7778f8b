/// A value as `sort:` and `group:` order it (Docs/QueryLanguage.md, Directives): numbers numerically, then dates
/// chronologically, then text case-insensitively; empty, missing and null values last.
/// Numbers order exactly at any length (Docs/QueryLanguage.md, How numbers compare).
enum SortValue {
  /// A number its double orders exactly (`NumberReading.fitsDouble`).
  case number(Double)
  /// A number its double may not tell apart from another: the double, then its exact digits.
  indirect case longNumber(Double, ExactNumber)
  case date(WallTime)
  case text([UInt8])
  case empty

  /// The order of `v`, its numbers read with the decimal `mark` and its dates in `convention`
  /// (Docs/Formats.md, Decimal commas; Dates).
  init(_ v: FieldValue, mark: DecimalMark = .point, _ convention: DateConvention) {
    if v.isNullLike {
      self = .empty
      return
    }
    self = withValueBytes(v) { SortValue(decoded: $0, mark: mark, convention) }
  }

  /// The order of a non-empty value's decoded bytes.
  init(decoded b: UnsafeBufferPointer<UInt8>, mark: DecimalMark = .point, _ convention: DateConvention) {
    if let n = NumberParser.read(b, mark: mark) {
      self = n.fitsDouble ? .number(n.value) : .longNumber(n.value, ExactNumber(accepted: b, mark: mark))
    } else if let d = DateParser.parse(b, convention) {
      self = .date(d.time)
    } else {
      self = .text(TextFold.fold(b))
    }
  }

  var isNumber: Bool { rank == 0 }

  private var rank: Int {
    switch self {
    case .number, .longNumber: return 0
    case .date: return 1
    case .text: return 2
    case .empty: return 3
    }
  }

  /// Three-way order: numbers, then dates, then text, then empty values, in both directions;
  /// `descending` reverses the order within numbers, dates and text only.
  @inline(__always)
  static func compare(_ a: SortValue, _ b: SortValue, descending: Bool) -> Int {
    let c: Int
    switch (a, b) {
    case (.number(let x), .number(let y)): c = x < y ? -1 : (x > y ? 1 : 0)
    case (.number, .longNumber), (.longNumber, .number), (.longNumber, .longNumber):
      c = compareNumbers(a, b)
    case (.date(let x), .date(let y)): c = x < y ? -1 : (x > y ? 1 : 0)
    case (.text(let x), .text(let y)): c = TextFold.compare(x, y)
    case (.empty, .empty): return 0
    default: return a.rank < b.rank ? -1 : 1
    }
    return descending ? -c : c
  }

  /// Two numbers, one of them long: their doubles when they differ (a double never reverses
  /// the order of the numbers it is read from), else their exact digits.
  @inline(never)
  private static func compareNumbers(_ a: SortValue, _ b: SortValue) -> Int {
    let (x, y) = (a.double, b.double)
    if x != y { return x < y ? -1 : 1 }
    return ExactNumber.compare(a.exactNumber, b.exactNumber)
  }

  private var double: Double {
    switch self {
    case .number(let n), .longNumber(let n, _): return n
    case .date, .text, .empty: return 0
    }
  }

  /// The number exactly: a double that fits is the decimal it was read from.
  private var exactNumber: ExactNumber {
    switch self {
    case .number(let n): return ExactNumber(n)
    case .longNumber(_, let e): return e
    case .date, .text, .empty: return ExactNumber(0)
    }
  }
}
