/// HTML escaping (Docs/Reports.md, Escaping): every value and every text of a report is written
/// as text, never as markup.
enum HTMLText {
  /// Appends `text` escaped for an element's content or a quoted attribute: `&`, `<`, `>`, `"`
  /// and `'` as character references; with `lineBreaks`, CRLF, CR and LF as `<br>`.
  static func append<Output: ByteOutput>(
    _ text: UnsafeBufferPointer<UInt8>, lineBreaks: Bool = false, to out: inout Output
  ) {
    var runStart = 0
    var i = 0
    while i < text.count {
      let b = text[i]
      let replacement: StaticString
      switch b {
      case UInt8(ascii: "&"): replacement = "&amp;"
      case UInt8(ascii: "<"): replacement = "&lt;"
      case UInt8(ascii: ">"): replacement = "&gt;"
      case .quote: replacement = "&quot;"
      case UInt8(ascii: "'"): replacement = "&#39;"
      case .lineFeed where lineBreaks, .carriageReturn where lineBreaks: replacement = "<br>"
      default:
        i += 1
        continue
      }
      out.append(UnsafeBufferPointer(rebasing: text[runStart..<i]))
      out.append(literal: replacement)
      if b == .carriageReturn, i + 1 < text.count, text[i + 1] == .lineFeed { i += 1 }
      i += 1
      runStart = i
    }
    out.append(UnsafeBufferPointer(rebasing: text[runStart...]))
  }

  /// `text` escaped as `append` escapes it.
  static func escaped(_ text: String) -> String {
    var out: [UInt8] = []
    var text = text
    text.withUTF8 { append($0, to: &out) }
    return String(decoding: out, as: UTF8.self)
  }
}
