/// Turns the terminal's bytes into keys (Docs/Interactive.md, The terminal): UTF-8 text, the CSI and SS3
/// sequences of arrows, Home/End, PgUp/PgDn, Delete and Shift-Tab, Ctrl-letters, Backspace and
/// Enter. Each typed character is a key of its own, even when several come in one read (keys
/// typed over a slow connection); a bracketed paste is one text key, its line breaks and tabs as
/// spaces. Bytes that end inside a sequence or a character wait for the next read; `flush` gives
/// them up as keys when nothing more came (a lone Esc is told from a sequence's start by that).
public struct KeyDecoder {
  private var pending: [UInt8] = []

  public init() {}

  /// Whether bytes wait for the rest of their sequence.
  public var isWaiting: Bool { !pending.isEmpty }

  /// The keys of `bytes` (one read); an Esc at the very end of a read is the Esc key.
  public mutating func decode(_ bytes: some Sequence<UInt8>) -> [Key] {
    pending.append(contentsOf: bytes)
    var keys: [Key] = []
    var i = 0
    while i < pending.count {
      switch Self.key(in: pending, at: i) {
      case .key(let key, let length):
        keys.append(key)
        i += length
      case .incomplete where pending[i] == .escape && i + 1 == pending.count:
        keys.append(.escape)
        i += 1
      case .incomplete:
        pending.removeFirst(i)
        return keys
      case .skip(let length):
        i += length
      }
    }
    pending.removeAll()
    return keys
  }

  /// The keys of bytes still waiting when no more came: an Esc and the bytes after it as typed.
  public mutating func flush() -> [Key] {
    guard !pending.isEmpty else { return [] }
    var keys: [Key] = []
    if pending[0] == .escape {
      keys.append(.escape)
      pending.removeFirst()
    }
    let text = String(decoding: pending, as: UTF8.self)
    pending.removeAll()
    if !text.isEmpty { keys.append(.text(text)) }
    return keys
  }

  private enum Step {
    case key(Key, length: Int)
    case incomplete
    /// Bytes that are no key (an unknown sequence, a control without a key).
    case skip(Int)
  }

  static let pasteStart = Array("\u{1B}[200~".utf8)
  static let pasteEnd = Array("\u{1B}[201~".utf8)

  /// A bracketed paste (`ESC [ 200 ~` … `ESC [ 201 ~`) as one text key: controls as spaces.
  private static func paste(in bytes: [UInt8], at i: Int) -> Step {
    let start = i + pasteStart.count
    var end = start
    while end + pasteEnd.count <= bytes.count {
      if bytes[end..<end + pasteEnd.count].elementsEqual(pasteEnd) {
        let text = bytes[start..<end].map { $0 < 0x20 || $0 == 0x7F ? UInt8.space : $0 }
        return .key(.text(String(decoding: text, as: UTF8.self)), length: end + pasteEnd.count - i)
      }
      end += 1
    }
    return .incomplete
  }

  private static func key(in bytes: [UInt8], at i: Int) -> Step {
    let b = bytes[i]
    switch b {
    case .escape: return escapeSequence(in: bytes, at: i)
    case 0x0D, 0x0A: return .key(.enter, length: 1)
    case 0x09: return .key(.tab, length: 1)
    case 0x7F, 0x08: return .key(.backspace, length: 1)
    case 0x01...0x1A: return .key(.control(Character(Unicode.Scalar(b + 0x60))), length: 1)
    case 0x00, 0x1C...0x1F: return .skip(1)
    case 0x20..<0x7F: return .key(.text(String(Unicode.Scalar(b))), length: 1)
    default: return character(in: bytes, at: i)
    }
  }

  /// A multi-byte UTF-8 character; an ill-formed byte is skipped.
  private static func character(in bytes: [UInt8], at i: Int) -> Step {
    let b = bytes[i]
    let length = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : b >= 0xC0 ? 2 : 0
    guard length > 0 else { return .skip(1) }
    guard i + length <= bytes.count else { return .incomplete }
    let slice = bytes[i..<i + length]
    guard slice.dropFirst().allSatisfy({ $0 & 0xC0 == 0x80 }) else { return .skip(1) }
    return .key(.text(String(decoding: slice, as: UTF8.self)), length: length)
  }

  /// `ESC [ … final` (CSI) or `ESC O x` (SS3); ESC and another byte is Esc and that byte.
  private static func escapeSequence(in bytes: [UInt8], at i: Int) -> Step {
    guard i + 1 < bytes.count else { return .incomplete }
    let introducer = bytes[i + 1]
    if introducer == UInt8(ascii: "O") {
      guard i + 2 < bytes.count else { return .incomplete }
      guard let key = finalKey(bytes[i + 2]) else { return .skip(3) }
      return .key(key, length: 3)
    }
    guard introducer == UInt8(ascii: "[") else { return .key(.escape, length: 1) }
    if bytes[i...].starts(with: pasteStart) { return paste(in: bytes, at: i) }
    var end = i + 2
    // Parameter and intermediate bytes, then one final byte (ECMA-48).
    while end < bytes.count, (0x20...0x3F).contains(bytes[end]) { end += 1 }
    guard end < bytes.count else { return .incomplete }
    let parameters = String(decoding: bytes[(i + 2)..<end], as: UTF8.self)
    let length = end - i + 1
    let final = bytes[end]
    if final == UInt8(ascii: "~") {
      // `1;5~`: the first number names the key; modifiers are ignored.
      let number = parameters.split(separator: ";").first.flatMap { Int($0) }
      switch number {
      case 1, 7: return .key(.home, length: length)
      case 4, 8: return .key(.end, length: length)
      case 3: return .key(.delete, length: length)
      case 5: return .key(.pageUp, length: length)
      case 6: return .key(.pageDown, length: length)
      default: return .skip(length)
      }
    }
    if final == UInt8(ascii: "Z") { return .key(.backTab, length: length) }
    guard let key = finalKey(final) else { return .skip(length) }
    return .key(key, length: length)
  }

  /// The key a CSI or SS3 sequence's final byte names: arrows, Home and End.
  private static func finalKey(_ final: UInt8) -> Key? {
    switch final {
    case UInt8(ascii: "A"): return .up
    case UInt8(ascii: "B"): return .down
    case UInt8(ascii: "C"): return .right
    case UInt8(ascii: "D"): return .left
    case UInt8(ascii: "H"): return .home
    case UInt8(ascii: "F"): return .end
    default: return nil
    }
  }
}

extension UInt8 {
  static let escape: UInt8 = 0x1B
  static let space = UInt8(ascii: " ")
}
