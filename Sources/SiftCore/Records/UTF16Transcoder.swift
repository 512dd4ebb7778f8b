/// Transcodes UTF-16 (little- or big-endian, Excel's "Unicode text") to UTF-8 as the readers pull
/// it (Docs/Formats.md, Encodings). The byte order mark becomes UTF-8's, which the readers drop
/// and CSV/TSV output keeps. A lone surrogate or an odd last byte is an error naming its line
/// and column: nothing is replaced in silence.
final class UTF16Transcoder: ByteStage {
  private let inner: ByteSource
  private let bigEndian: Bool
  private var pending = PendingBytes()
  /// The bytes of one read from `inner` (a test may make it small and odd).
  private var raw: [UInt8]
  /// A byte of a code unit whose other byte is in the next read.
  private var oddByte: UInt8?
  /// A high surrogate waiting for its low one.
  private var highSurrogate: UInt32?
  /// The line and byte column (of the UTF-8 written) of the next character, for errors.
  private var line = 1
  private var column = 1

  init(inner: ByteSource, bigEndian: Bool, readSize: Int = 1 << 16) {
    self.inner = inner
    self.bigEndian = bigEndian
    raw = [UInt8](repeating: 0, count: max(1, readSize))
  }

  func read(to target: UnsafeMutablePointer<UInt8>, maxCount: Int) throws(InputError) -> Int {
    while pending.isDrained {
      pending.reset()
      let got = try raw.withUnsafeMutableBufferPointer { b throws(InputError) in
        try inner.readBytes(to: b.baseAddress!, maxCount: b.count)
      }
      if got == 0 {
        if oddByte != nil { throw failure("the input ends inside a UTF-16 code unit (an odd byte)") }
        if highSurrogate != nil { throw failure("the input ends after half a UTF-16 surrogate pair") }
        return 0
      }
      try decode(count: got)
    }
    return pending.copy(to: target, maxCount: maxCount)
  }

  /// Decodes `raw[..<count]` into `pending`.
  private func decode(count: Int) throws(InputError) {
    pending.reserveCapacity(count * 2)
    var p = 0
    while p < count {
      let first: UInt8
      if let odd = oddByte {
        first = odd
        oddByte = nil
      } else {
        first = raw[p]
        p += 1
        if p == count {
          oddByte = first
          return
        }
      }
      let second = raw[p]
      p += 1
      let unit = bigEndian
        ? UInt32(first) << 8 | UInt32(second) : UInt32(second) << 8 | UInt32(first)
      try take(unit)
    }
  }

  /// Appends the UTF-8 of one code unit (or of a surrogate pair on its low half).
  private func take(_ unit: UInt32) throws(InputError) {
    let scalar: UInt32
    switch unit {
    case 0xD800...0xDBFF:
      if highSurrogate != nil { throw failure("a UTF-16 high surrogate is not followed by a low one") }
      highSurrogate = unit
      return
    case 0xDC00...0xDFFF:
      guard let high = highSurrogate else {
        throw failure("a UTF-16 low surrogate (\(hex(unit))) has no high one before it")
      }
      highSurrogate = nil
      scalar = 0x10000 + ((high - 0xD800) << 10) + (unit - 0xDC00)
    default:
      if highSurrogate != nil { throw failure("a UTF-16 high surrogate is not followed by a low one") }
      scalar = unit
    }
    appendUTF8(scalar)
  }

  private func appendUTF8(_ s: UInt32) {
    switch s {
    case 0..<0x80:
      pending.append(UInt8(s))
    case 0x80..<0x800:
      pending.append(UInt8(0xC0 | s >> 6))
      pending.append(UInt8(0x80 | s & 0x3F))
    case 0x800..<0x10000:
      pending.append(UInt8(0xE0 | s >> 12))
      pending.append(UInt8(0x80 | (s >> 6) & 0x3F))
      pending.append(UInt8(0x80 | s & 0x3F))
    default:
      pending.append(UInt8(0xF0 | s >> 18))
      pending.append(UInt8(0x80 | (s >> 12) & 0x3F))
      pending.append(UInt8(0x80 | (s >> 6) & 0x3F))
      pending.append(UInt8(0x80 | s & 0x3F))
    }
    // Columns count UTF-8 bytes, as the readers' do; the mark the readers drop is not one.
    if s == 0x0A {
      line += 1
      column = 1
    } else if s != 0xFEFF || line > 1 || column > 1 {
      column += s < 0x80 ? 1 : s < 0x800 ? 2 : s < 0x10000 ? 3 : 4
    }
  }

  private func hex(_ unit: UInt32) -> String {
    let digits = String(unit, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
  }

  private func failure(_ message: String) -> InputError {
    InputError(name: inner.name, line: line, column: column, message: message)
  }
}
