/// An input text encoding (`--encoding`, Docs/Formats.md "Encodings").
public enum TextEncoding: Sendable, Equatable {
  case utf8, latin1, windows1252, utf16LittleEndian, utf16BigEndian

  /// The encoding a name means (`utf-8`, `latin-1`, `windows-1252`, `utf-16le`, `utf-16be` and
  /// common spellings).
  public init?(name: String) {
    switch name.lowercased().filter({ $0 != "-" && $0 != "_" }) {
    case "utf8": self = .utf8
    case "latin1", "iso88591", "l1": self = .latin1
    case "windows1252", "cp1252", "win1252": self = .windows1252
    case "utf16le": self = .utf16LittleEndian
    case "utf16be": self = .utf16BigEndian
    default: return nil
    }
  }

  /// The name notes and messages use (`windows-1252`, `UTF-16LE`).
  public var name: String {
    switch self {
    case .utf8: return "UTF-8"
    case .latin1: return "latin-1"
    case .windows1252: return "windows-1252"
    case .utf16LittleEndian: return "UTF-16LE"
    case .utf16BigEndian: return "UTF-16BE"
    }
  }
}

/// Transcodes Latin-1 or windows-1252 bytes to UTF-8 as the readers pull them (UTF-16 has its
/// own stage, `UTF16Transcoder`).
final class Transcoder: ByteStage {
  private let inner: ByteSource
  private var pending = PendingBytes()
  private var raw = [UInt8](repeating: 0, count: 1 << 16)
  /// The UTF-8 of each byte 0x80–0xFF.
  private let table: [[UInt8]]

  init(inner: ByteSource, encoding: TextEncoding) {
    self.inner = inner
    table = (0x80...0xFF).map { byte in
      let scalar = encoding == .windows1252 && byte < 0xA0 ? Self.windows1252[byte - 0x80] : UInt32(byte)
      return Array(String(Character(Unicode.Scalar(scalar) ?? "\u{FFFD}")).utf8)
    }
  }

  func read(to target: UnsafeMutablePointer<UInt8>, maxCount: Int) throws(InputError) -> Int {
    if pending.isDrained {
      pending.reset()
      let got = try raw.withUnsafeMutableBufferPointer { b throws(InputError) in
        try inner.readBytes(to: b.baseAddress!, maxCount: b.count)
      }
      if got == 0 { return 0 }
      pending.reserveCapacity(got * 2)
      for byte in raw[..<got] {
        if byte < 0x80 { pending.append(byte) } else { pending.append(contentsOf: table[Int(byte) - 0x80]) }
      }
    }
    return pending.copy(to: target, maxCount: maxCount)
  }

  /// windows-1252 0x80–0x9F; the five undefined bytes (81 8D 8F 90 9D) map to the C1 controls of
  /// the same value, as WHATWG's Encoding Standard does.
  private static let windows1252: [UInt32] = [
    0x20AC, 0x81, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039,
    0x0152, 0x8D, 0x017D, 0x8F, 0x90, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
    0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x9D, 0x017E, 0x0178,
  ]
}
