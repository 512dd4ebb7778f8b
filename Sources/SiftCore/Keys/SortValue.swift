/// A value as `sort:` and `group:` order it (Docs/QueryLanguage.md, Directives): numbers numerically, then dates
/// chronologically, then text case-insensitively; empty, missing and null values last.
enum SortValue {
  case number(Double)
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
    if let n = NumberParser.parse(b, mark: mark) {
      self = .number(n)
    } else if let d = DateParser.parse(b, convention) {
      self = .date(d.time)
    } else {
      self = .text(TextFold.fold(b))
    }
  }

  private var rank: Int {
    switch self {
    case .number: return 0
    case .date: return 1
    case .text: return 2
    case .empty: return 3
    }
  }

  /// Three-way order: numbers, then dates, then text, then empty values, in both directions;
  /// `descending` reverses the order within numbers, dates and text only.
  static func compare(_ a: SortValue, _ b: SortValue, descending: Bool) -> Int {
    let c: Int
    switch (a, b) {
    case (.number(let x), .number(let y)): c = x < y ? -1 : (x > y ? 1 : 0)
    case (.date(let x), .date(let y)): c = x < y ? -1 : (x > y ? 1 : 0)
    case (.text(let x), .text(let y)): c = TextFold.compare(x, y)
    case (.empty, .empty): return 0
    default: return a.rank < b.rank ? -1 : 1
    }
    return descending ? -c : c
  }
}
