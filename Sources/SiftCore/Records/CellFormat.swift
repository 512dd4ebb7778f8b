/// What a workbook cell's number format makes of its number (Docs/Formats.md, Workbooks): the
/// built-in date formats 14–22 and 45–47, and custom codes whose first section holds d, m, y,
/// h or s outside quotes and brackets.
enum CellFormat: Sendable, Equatable {
  /// A plain number.
  case number
  /// A date, or a date and time.
  case date
  /// A time of day (or an elapsed time).
  case time

  /// The kind of the built-in format `id`, or `nil` for a custom one.
  static func builtIn(_ id: Int) -> CellFormat? {
    switch id {
    case 14...17, 22: return .date
    case 18...21, 45...47: return .time
    case 0..<164: return .number
    default: return nil
    }
  }

  /// The kind of a custom format code: its first section, outside quoted text, brackets (except
  /// the elapsed-time `[h]`, `[m]`, `[s]`), escaped characters and fill or padding characters.
  static func custom(_ code: String) -> CellFormat {
    var date = false
    var time = false
    var month = false
    var bytes = Array(code.utf8.lazy.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 })[...]
    while let b = bytes.popFirst() {
      switch b {
      case UInt8(ascii: ";"): return kind(date: date, time: time, month: month)
      case .quote:
        while let c = bytes.popFirst(), c != .quote {}
      case UInt8(ascii: "\\"), UInt8(ascii: "_"), UInt8(ascii: "*"):
        _ = bytes.popFirst()
      case .openBracket:
        var inside: [UInt8] = []
        while let c = bytes.popFirst(), c != .closeBracket { inside.append(c) }
        if let first = inside.first, inside.allSatisfy({ $0 == first }),
          first == UInt8(ascii: "h") || first == UInt8(ascii: "m") || first == UInt8(ascii: "s")
        {
          time = true
        }
      case UInt8(ascii: "d"), UInt8(ascii: "y"): date = true
      case UInt8(ascii: "h"), UInt8(ascii: "s"): time = true
      case UInt8(ascii: "m"): month = true
      default: continue
      }
    }
    return kind(date: date, time: time, month: month)
  }

  private static func kind(date: Bool, time: Bool, month: Bool) -> CellFormat {
    if date { return .date }
    if time { return .time }
    return month ? .date : .number
  }
}
