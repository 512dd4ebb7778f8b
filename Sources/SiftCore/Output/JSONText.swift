/// Writing JSON text: string literals, minified values and the canonical-number test.
enum JSONText {
  /// True when `text` holds a line feed or carriage return (such JSON must be minified to stay on
  /// one NDJSON line).
  static func containsLineBreak(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
    text.contains { $0 == .lineFeed || $0 == .carriageReturn }
  }

  /// Appends the JSON value `text` without the whitespace between its tokens (strings untouched).
  /// JSON text without the whitespace outside its strings, as a `String`.
  static func minified(_ text: UnsafeBufferPointer<UInt8>) -> String {
    var out: [UInt8] = []
    appendMinified(text, to: &out)
    return String(decoding: out, as: UTF8.self)
  }

  static func appendMinified<Output: ByteOutput>(
    _ text: UnsafeBufferPointer<UInt8>, to out: inout Output
  ) {
    var runStart = 0
    var inString = false
    var escaped = false
    for i in 0..<text.count {
      let b = text[i]
      if inString {
        if escaped {
          escaped = false
        } else if b == .backslash {
          escaped = true
        } else if b == .quote {
          inString = false
        }
        continue
      }
      switch b {
      case .quote:
        inString = true
      case .space, .tab, .lineFeed, .carriageReturn:
        if runStart < i { out.append(UnsafeBufferPointer(rebasing: text[runStart..<i])) }
        runStart = i + 1
      default:
        break
      }
    }
    if runStart < text.count { out.append(UnsafeBufferPointer(rebasing: text[runStart...])) }
  }

  /// Appends `text` as a JSON string literal: `"` and `\` escaped, control characters as `\n`,
  /// `\r`, `\t`, `\b`, `\f` or `\u00XX`; each ill-formed UTF-8 sequence becomes U+FFFD, or
  /// with `keepingIllFormed` stays as it is (a summary's values, kept as bytes inside sift and
  /// written as record output writes them: Docs/Aggregates.md, Output).
  static func appendString<Output: ByteOutput>(
    _ text: UnsafeBufferPointer<UInt8>, keepingIllFormed: Bool = false, to out: inout Output
  ) {
    out.append(.quote)
    var runStart = 0
    var i = 0
    while i < text.count {
      let b = text[i]
      if b >= 0x20, b != .quote, b != .backslash, b < 0x80 {
        i += 1
        continue
      }
      var length = 1
      if b >= 0x80 {
        let (scalar, scalarLength) = text.scalar(at: i)
        if scalar != nil || keepingIllFormed {
          i += scalarLength
          continue
        }
        length = scalarLength
      }
      if runStart < i { out.append(UnsafeBufferPointer(rebasing: text[runStart..<i])) }
      switch b {
      case .quote: out.append(literal: "\\\"")
      case .backslash: out.append(literal: "\\\\")
      case .lineFeed: out.append(literal: "\\n")
      case .carriageReturn: out.append(literal: "\\r")
      case .tab: out.append(literal: "\\t")
      case 0x08: out.append(literal: "\\b")
      case 0x0C: out.append(literal: "\\f")
      case 0x00..<0x20:
        out.append(literal: "\\u00")
        out.append(hexDigits[Int(b >> 4)])
        out.append(hexDigits[Int(b & 0x0F)])
      default: out.append(literal: replacementCharacterBytes)
      }
      i += length
      runStart = i
    }
    if runStart < text.count { out.append(UnsafeBufferPointer(rebasing: text[runStart...])) }
    out.append(.quote)
  }

  /// Appends JSON text as it is but for each ill-formed UTF-8 sequence, which becomes U+FFFD:
  /// JSON output is always UTF-8, though a value may hold other bytes inside sift.
  static func appendWellFormed<Output: ByteOutput>(
    _ text: UnsafeBufferPointer<UInt8>, to out: inout Output
  ) {
    var runStart = 0
    var i = 0
    while i < text.count {
      guard text[i] >= 0x80 else {
        i += 1
        continue
      }
      let (scalar, length) = text.scalar(at: i)
      if scalar == nil {
        if runStart < i { out.append(UnsafeBufferPointer(rebasing: text[runStart..<i])) }
        out.append(literal: replacementCharacterBytes)
        runStart = i + length
      }
      i += length
    }
    if runStart < text.count { out.append(UnsafeBufferPointer(rebasing: text[runStart...])) }
  }

  private static let hexDigits = Array("0123456789abcdef".utf8)

  /// Appends text (not JSON) as a JSON value: bare when it is a number in canonical form, else a
  /// string (Docs/Formats.md, Output), its ill-formed UTF-8 kept with `keepingIllFormed`.
  static func appendTextValue<Output: ByteOutput>(
    _ text: UnsafeBufferPointer<UInt8>, keepingIllFormed: Bool = false, to out: inout Output
  ) {
    if isCanonicalNumber(text) {
      out.append(text)
    } else {
      appendString(text, keepingIllFormed: keepingIllFormed, to: &out)
    }
  }

  /// True when `text` is a number in canonical form, written bare in JSON output: an optional
  /// `-`, then `0` or digits not starting with `0`, then optionally `.` and at least one digit.
  /// `007`, `+5`, `1.`, `.5`, `1,234`, `1e5` and ` 12` are not canonical.
  static func isCanonicalNumber(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
    let digits = UInt8(ascii: "0")...UInt8(ascii: "9")
    var i = 0
    if i < text.count, text[i] == UInt8(ascii: "-") { i += 1 }
    guard i < text.count, digits.contains(text[i]) else { return false }
    if text[i] == UInt8(ascii: "0") {
      i += 1
    } else {
      while i < text.count, digits.contains(text[i]) { i += 1 }
    }
    guard i < text.count else { return true }
    guard text[i] == UInt8(ascii: "."), i + 1 < text.count else { return false }
    i += 1
    while i < text.count, digits.contains(text[i]) { i += 1 }
    return i == text.count
  }
}
