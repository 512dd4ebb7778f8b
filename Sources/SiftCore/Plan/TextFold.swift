/// Case-insensitive text comparison on bytes: ASCII folded in place, other text lowercased by
/// Unicode rules (so `Müller` matches `MÜLLER`).
public enum TextFold {
  /// The lowercased UTF-8 bytes of `text`.
  public static func fold(_ text: String) -> [UInt8] {
    Array(text.lowercased().utf8)
  }

  /// The lowercased bytes of a value.
  public static func fold(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8] {
    if isASCII(bytes) { return bytes.map(lowerASCII) }
    return fold(String(decoding: bytes, as: UTF8.self))
  }

  public static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    var i = 0
    let n = bytes.count
    // Eight bytes at a time.
    if let base = bytes.baseAddress {
      let raw = UnsafeRawPointer(base)
      while i + 8 <= n {
        if raw.loadUnaligned(fromByteOffset: i, as: UInt64.self) & 0x8080_8080_8080_8080 != 0 {
          return false
        }
        i += 8
      }
    }
    while i < n {
      if bytes[i] >= 0x80 { return false }
      i += 1
    }
    return true
  }

  static func lowerASCII(_ b: UInt8) -> UInt8 {
    b &- UInt8(ascii: "A") < 26 ? b | 0x20 : b
  }

  /// Whether the value equals `folded` (already lowercased) ignoring case.
  public static func equals(_ value: UnsafeBufferPointer<UInt8>, folded: [UInt8]) -> Bool {
    Needle(folded: folded).matches(value)
  }

  /// A lowercased literal that values are compared with, case-insensitively.
  struct Needle: Sendable {
    let bytes: [UInt8]
    /// Only a value holding the Kelvin sign (which lowercases to `k`) can fold to all-ASCII text
    /// with non-ASCII bytes in it; every other non-ASCII value differs from an ASCII literal.
    let ascii: Bool

    init(_ literal: String) { self.init(folded: TextFold.fold(literal)) }

    init(folded: [UInt8]) {
      bytes = folded
      ascii = folded.allSatisfy { $0 < 0x80 }
    }

    /// Whether `value` folds to these bytes. One pass: while the value is ASCII, its folded
    /// bytes line up with its own, so the first difference decides; at the first non-ASCII byte
    /// the whole value is folded by Unicode rules (unless the literal is ASCII and no Kelvin sign
    /// follows, which cannot match).
    @inline(__always)
    func matches(_ value: UnsafeBufferPointer<UInt8>) -> Bool {
      bytes.withUnsafeBufferPointer { f in
        let n = value.count
        var i = 0
        while i < n {
          let b = value[i]
          if b >= 0x80 {
            if ascii && !TextFold.holdsKelvinSign(value, from: i) { return false }
            return TextFold.fold(value) == bytes
          }
          if i >= f.count || lowerASCII(b) != f[i] { return false }
          i += 1
        }
        return i == f.count
      }
    }
  }

  /// Whether the bytes from `start` hold U+212A KELVIN SIGN (`E2 84 AA`).
  static func holdsKelvinSign(_ value: UnsafeBufferPointer<UInt8>, from start: Int) -> Bool {
    var i = start
    while i + 2 < value.count {
      if value[i] == 0xE2 && value[i + 1] == 0x84 && value[i + 2] == 0xAA { return true }
      i += 1
    }
    return false
  }

  /// Whether the value contains `folded` (already lowercased, non-empty) ignoring case.
  public static func contains(_ value: UnsafeBufferPointer<UInt8>, folded: [UInt8]) -> Bool {
    if isASCII(value) { return containsASCIIFolded(value, folded) }
    let f = fold(value)
    return f.withUnsafeBufferPointer { containsASCIIFolded($0, folded) }
  }

  /// Substring search where `haystack`'s ASCII letters are folded on the fly.
  static func containsASCIIFolded(_ haystack: UnsafeBufferPointer<UInt8>, _ needle: [UInt8]) -> Bool {
    let n = needle.count
    let h = haystack.count
    guard n > 0 else { return true }
    guard n <= h else { return false }
    return needle.withUnsafeBufferPointer { nd in
      let first = nd[0]
      let firstUpper = first &- UInt8(ascii: "a") < 26 ? first & ~0x20 : first
      var i = 0
      let last = h - n
      while i <= last {
        let b = haystack[i]
        if b == first || b == firstUpper {
          var k = 1
          while k < n && lowerASCII(haystack[i + k]) == nd[k] { k += 1 }
          if k == n { return true }
        }
        i += 1
      }
      return false
    }
  }

  /// Three-way case-insensitive order of two byte strings (folded bytes compared).
  public static func compare(_ a: [UInt8], _ b: [UInt8]) -> Int {
    let n = min(a.count, b.count)
    for i in 0..<n where a[i] != b[i] { return a[i] < b[i] ? -1 : 1 }
    return a.count == b.count ? 0 : (a.count < b.count ? -1 : 1)
  }

  /// Whole-value glob match: `*` is any run of bytes; both sides already folded.
  public static func globMatches(_ value: [UInt8], pattern parts: [[UInt8]]) -> Bool {
    // `parts` is the pattern split at `*`: first must be a prefix, last a suffix, the rest in order.
    guard let first = parts.first else { return value.isEmpty }
    if parts.count == 1 { return value == first }
    guard value.count >= first.count, value.starts(with: first) else { return false }
    let lastPart = parts[parts.count - 1]
    guard value.count - first.count >= lastPart.count,
      value[(value.count - lastPart.count)...].elementsEqual(lastPart)
    else { return false }
    var position = first.count
    let limit = value.count - lastPart.count
    for part in parts[1..<(parts.count - 1)] where !part.isEmpty {
      guard let found = find(part, in: value, from: position, to: limit) else { return false }
      position = found + part.count
    }
    return true
  }

  private static func find(_ needle: [UInt8], in hay: [UInt8], from: Int, to: Int) -> Int? {
    guard to - from >= needle.count else { return nil }
    var i = from
    while i + needle.count <= to {
      if hay[i] == needle[0] && hay[i..<(i + needle.count)].elementsEqual(needle) { return i }
      i += 1
    }
    return nil
  }
}
