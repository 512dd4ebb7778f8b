/// Infers column types from sampled values (Docs/Formats.md, How values are read): every non-empty sampled value must agree.
public struct TypeInference: Sendable {
  private var nonEmpty = 0
  private var numbers = 0
  private var dates = 0
  private var dateTimes = 0
  private var switches = 0
  private var numericSwitches = 0
  private var texts = 0

  public init() {}

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
      } else if let d = DateParser.parse(b) {
        if d.precision == .instant { dateTimes += 1 } else { dates += 1 }
      } else {
        texts += 1
      }
    }
  }

  /// The type all counted values agree on.
  public var type: ColumnType {
    if nonEmpty == 0 { return .empty }
    if switches == nonEmpty && numericSwitches < nonEmpty { return .boolean }
    if numbers == nonEmpty { return .number }
    if dates + dateTimes == nonEmpty { return dateTimes > 0 ? .dateTime : .date }
    return .text
  }
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
    for spelling in spellings where spelling.word == word { return (spelling.on, spelling.numeric) }
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
