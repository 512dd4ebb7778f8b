/// Decides an input's text encoding from its first bytes, once per input, never per value
/// (Docs/Formats.md, Encodings).
public enum EncodingSniffer {
  /// What the first bytes of an input say about its encoding.
  public struct Decision: Sendable, Equatable {
    /// The encoding the input is read in.
    public var encoding: TextEncoding
    /// Where the first byte sequence that is not UTF-8 starts in the sample, when there is one
    /// (the reason for windows-1252; for UTF-8 the bytes are read as they are).
    public var firstInvalidUTF8: Int?
    /// True when the decision came from a byte order mark at byte 0.
    public var byteOrderMark: Bool
  }

  /// The encoding of an input starting with `sample` (`complete` when it is the whole input):
  /// - `FF FE` at byte 0 → UTF-16LE, `FE FF` → UTF-16BE (a mark anywhere else is text);
  /// - valid UTF-8 (a sequence cut by the sample's end counts as valid) → UTF-8;
  /// - else windows-1252 when no byte is one of the five it leaves undefined (81 8D 8F 90 9D);
  /// - else UTF-8, its bytes read as they are.
  public static func decide(_ sample: [UInt8], complete: Bool) -> Decision {
    if sample.starts(with: [0xFF, 0xFE]) {
      return Decision(encoding: .utf16LittleEndian, firstInvalidUTF8: nil, byteOrderMark: true)
    }
    if sample.starts(with: [0xFE, 0xFF]) {
      return Decision(encoding: .utf16BigEndian, firstInvalidUTF8: nil, byteOrderMark: true)
    }
    guard let invalid = firstInvalidUTF8(sample, complete: complete) else {
      return Decision(encoding: .utf8, firstInvalidUTF8: nil, byteOrderMark: false)
    }
    let undefined: Set<UInt8> = [0x81, 0x8D, 0x8F, 0x90, 0x9D]
    let windows1252 = !sample.contains { undefined.contains($0) }
    return Decision(
      encoding: windows1252 ? .windows1252 : .utf8, firstInvalidUTF8: invalid, byteOrderMark: false)
  }

  /// The offset of the first byte of `bytes` that does not start or continue a well-formed
  /// UTF-8 sequence (no overlong forms, surrogates or scalars past U+10FFFF); `nil` when all
  /// are. Unless `complete`, a sequence cut by the end is taken as well-formed.
  public static func firstInvalidUTF8(_ bytes: [UInt8], complete: Bool) -> Int? {
    bytes.withUnsafeBufferPointer { firstInvalidUTF8($0, complete: complete) }
  }

  static func firstInvalidUTF8(_ bytes: UnsafeBufferPointer<UInt8>, complete: Bool) -> Int? {
    guard let base = bytes.baseAddress else { return nil }
    let n = bytes.count
    var p = 0
    while p < n {
      // Most of a sample is ASCII: eight bytes without a high bit are passed in one step.
      if p &+ 8 <= n,
        UnsafeRawPointer(base + p).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 == 0
      {
        p &+= 8
        continue
      }
      let lead = bytes[p]
      if lead < 0x80 {
        p += 1
        continue
      }
      let length: Int
      var low: UInt8 = 0x80
      var high: UInt8 = 0xBF
      switch lead {
      case 0xC2...0xDF: length = 2
      case 0xE0:
        length = 3
        low = 0xA0
      case 0xE1...0xEC, 0xEE...0xEF: length = 3
      case 0xED:
        length = 3
        high = 0x9F
      case 0xF0:
        length = 4
        low = 0x90
      case 0xF1...0xF3: length = 4
      case 0xF4:
        length = 4
        high = 0x8F
      default: return p
      }
      for k in 1..<length {
        guard p + k < n else { return complete ? p : nil }
        let c = bytes[p + k]
        let range: ClosedRange<UInt8> = k == 1 ? low...high : 0x80...0xBF
        if !range.contains(c) { return p }
      }
      p += length
    }
    return nil
  }

  /// The 1-based line of `offset` in `bytes` (a line ends at LF).
  static func line(of offset: Int, in bytes: [UInt8]) -> Int {
    1 + bytes[..<min(offset, bytes.count)].reduce(0) { $0 + ($1 == .lineFeed ? 1 : 0) }
  }
}
