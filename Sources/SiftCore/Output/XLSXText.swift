/// Text inside a workbook's XML (Docs/Formats.md, Writing workbooks): `&`, `<`, `>` (and in
/// attributes `"` and `'`) as entities; a carriage return as `&#13;`, which XML readers keep
/// (a raw one they turn into a line feed); characters XML 1.0 cannot hold (C0 controls but tab
/// and line feed, U+FFFE, U+FFFF) as Excel's `_xHHHH_` escape, which Excel, LibreOffice and
/// openpyxl turn back into the character; a `_` that starts text looking like such an escape as
/// `_x005F_`, so it is not read as one; ill-formed UTF-8 as U+FFFD `�`.
enum XLSXText {
  /// Appends `text` escaped.
  static func append(_ text: UnsafeBufferPointer<UInt8>, attribute: Bool = false, to out: inout [UInt8]) {
    var runStart = 0
    var i = 0
    func flush(upTo end: Int) {
      if end > runStart { out.append(contentsOf: UnsafeBufferPointer(rebasing: text[runStart..<end])) }
    }
    while i < text.count {
      let b = text[i]
      switch b {
      case 0x20..<0x7F where b != ampersand && b != .less && b != .greater && b != underscore
        && !(attribute && (b == .quote || b == .singleQuote)):
        i += 1
        continue
      case .tab, .lineFeed:
        i += 1
        continue
      default: break
      }
      if b >= 0x80 {
        let (scalar, length) = text.scalar(at: i)
        if let scalar, scalar.value != 0xFFFE && scalar.value != 0xFFFF {
          i += length
          continue
        }
        flush(upTo: i)
        if let scalar { appendEscape(scalar.value, to: &out) } else { out.append(literal: replacementCharacterBytes) }
        i += length
        runStart = i
        continue
      }
      flush(upTo: i)
      switch b {
      case ampersand: out.append(literal: "&amp;")
      case .less: out.append(literal: "&lt;")
      case .greater: out.append(literal: "&gt;")
      case .quote: out.append(literal: "&quot;")
      case .singleQuote: out.append(literal: "&apos;")
      case .carriageReturn: out.append(literal: "&#13;")
      case underscore:
        if looksLikeEscape(text, at: i) { out.append(literal: "_x005F_") } else { out.append(b) }
      default: appendEscape(UInt32(b), to: &out)
      }
      i += 1
      runStart = i
    }
    flush(upTo: i)
  }

  /// Appends a `String` escaped.
  static func append(_ text: String, attribute: Bool = false, to out: inout [UInt8]) {
    var text = text
    text.withUTF8 { append($0, attribute: attribute, to: &out) }
  }

  /// Whether `_xHHHH_` (four hex digits) starts at `i`.
  private static func looksLikeEscape(_ text: UnsafeBufferPointer<UInt8>, at i: Int) -> Bool {
    guard i + 7 <= text.count, text[i + 1] == UInt8(ascii: "x"), text[i + 6] == underscore else {
      return false
    }
    return (i + 2..<i + 6).allSatisfy { text[$0].isHexDigit }
  }

  private static func appendEscape(_ value: UInt32, to out: inout [UInt8]) {
    let digits: StaticString = "0123456789ABCDEF"
    out.append(literal: "_x")
    for shift in stride(from: 12, through: 0, by: -4) {
      out.append(digits.utf8Start[Int((value >> UInt32(shift)) & 0xF)])
    }
    out.append(underscore)
  }
}

extension XLSXText {
  private static let ampersand = UInt8(ascii: "&")
  private static let underscore = UInt8(ascii: "_")
}
