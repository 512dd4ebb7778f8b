/// A text value with its CSV field and JSON string forms worked out once, so writing a record
/// copies bytes instead of quoting text again.
struct EncodedText: Sendable {
  /// The text as one CSV field: quoted (with doubled quotes) only when it holds a comma, a quote
  /// or a line end.
  let csv: [UInt8]
  /// The text as a JSON string, quotes included; non-ASCII characters stay UTF-8.
  let json: [UInt8]

  /// Both forms of `text`.
  init(_ text: String) {
    csv = Self.csvField(text)
    json = Self.jsonString(text)
  }

  /// `text` as one CSV field (RFC 4180).
  static func csvField(_ text: String) -> [UInt8] {
    let bytes = Array(text.utf8)
    let needsQuotes = bytes.contains {
      $0 == .comma || $0 == .quote || $0 == .newline || $0 == .carriageReturn
    }
    guard needsQuotes else { return bytes }
    var field: [UInt8] = [.quote]
    for byte in bytes {
      if byte == .quote { field.append(.quote) }
      field.append(byte)
    }
    field.append(.quote)
    return field
  }

  /// `text` as a JSON string (RFC 8259), quotes included.
  static func jsonString(_ text: String) -> [UInt8] {
    let hex = Array("0123456789abcdef".utf8)
    var string: [UInt8] = [.quote]
    for byte in text.utf8 {
      switch byte {
      case .quote, .backslash: string += [.backslash, byte]
      case .newline: string += Array(#"\n"#.utf8)
      case .carriageReturn: string += Array(#"\r"#.utf8)
      case UInt8(ascii: "\t"): string += Array(#"\t"#.utf8)
      case ..<0x20: string += Array(#"\u00"#.utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 15)]]
      default: string.append(byte)
      }
    }
    string.append(.quote)
    return string
  }
}
