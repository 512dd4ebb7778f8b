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

  /// Counts one value.
  public mutating func add(_ value: FieldValue) {
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
    let bytes = value.isVerbatim ? Array(value.content) : value.decodedBytes()
    bytes.withUnsafeBufferPointer { b in
      if let s = Switch.reading(b) {
        switches += 1
        if s.numeric { numericSwitches += 1 }
      }
      if NumberParser.parse(b) != nil {
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
  public static func reading(_ b: UnsafeBufferPointer<UInt8>) -> (on: Bool, numeric: Bool)? {
    guard b.count >= 1 && b.count <= 5 else { return nil }
    var lower = [UInt8](repeating: 0, count: b.count)
    for i in 0..<b.count { lower[i] = TextFold.lowerASCII(b[i]) }
    switch String(decoding: lower, as: UTF8.self) {
    case "on", "yes", "true", "y": return (true, false)
    case "off", "no", "false", "n": return (false, false)
    case "1": return (true, true)
    case "0": return (false, true)
    default: return nil
    }
  }

  /// Whether a query word is a switch spelling, and which.
  public static func reading(_ word: String) -> Bool? {
    var w = word
    return w.withUTF8 { reading($0)?.on }
  }
}
