/// Why a state file of `--changes` cannot be read (Docs/Reports.md, "Changes since the last
/// run"). Each is exit 2: a baseline is never silently replaced.
public enum ChangeStateError: Error, Sendable, Equatable {
  /// The file does not start as a state file of sift.
  case foreign
  /// A state file of another format version.
  case version(UInt32)
  /// The file is cut short, or its checksum does not match its bytes.
  case damaged
}

/// The state file's bytes, and the stable hashes of keys and values (64 bits, the same on every
/// run and machine, unlike Swift's seeded `Hasher`).
public enum ChangeCoding {
  /// The first bytes of every state file.
  static let magic: [UInt8] = Array("SIFTCHG\n".utf8)

  /// Where every hash starts (FNV's offset basis, kept so that state files keep their hashes).
  static let fnvOffset: UInt64 = 0xcbf2_9ce4_8422_2325

  /// A hash of `bytes`, continuing from `hash`: eight bytes (little-endian) at a time, each
  /// step a multiply and a shift, then the length, so the result is the same on every machine.
  @inline(__always)
  static func hash(_ bytes: UnsafeBufferPointer<UInt8>, into hash: UInt64 = fnvOffset) -> UInt64 {
    let n = bytes.count
    guard n > 0, let base = bytes.baseAddress else { return (hash ^ 0xff) &* wordPrime }
    let words = n & ~7
    let h = hashWords(UnsafeBufferPointer(start: base, count: words), into: hash)
    return hashEnd(UnsafeBufferPointer(start: base + words, count: n &- words), into: h, length: n)
  }

  /// The word steps of `hash` over `bytes`, whose count is a multiple of 8: a hash of many
  /// pieces (a state file written as it is encoded) goes on from where the last piece left it.
  @inline(__always)
  static func hashWords(_ bytes: UnsafeBufferPointer<UInt8>, into hash: UInt64) -> UInt64 {
    var h = hash
    guard let base = bytes.baseAddress else { return h }
    let n = bytes.count
    var i = 0
    while i &+ 8 <= n {
      let w = UInt64(littleEndian: UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self))
      h = (h ^ w) &* wordPrime
      h ^= h >> 32
      i &+= 8
    }
    return h
  }

  /// The last step of `hash`: the last 0 to 7 bytes, `rest`, and the whole length hashed, `length`
  /// (more than 0).
  @inline(__always)
  static func hashEnd(_ rest: UnsafeBufferPointer<UInt8>, into hash: UInt64, length n: Int) -> UInt64 {
    var h = hash
    // The last 0 to 7 bytes, little-endian, as at most three loads (4, 2, 1 bytes) rather than
    // a step per byte: the same number a byte-by-byte loop makes, so state files keep their
    // hashes.
    var tail: UInt64 = 0
    if let base = rest.baseAddress {
      let count = rest.count
      var p = UnsafeRawPointer(base)
      var shift: UInt64 = 0
      if count & 4 != 0 {
        tail = UInt64(UInt32(littleEndian: p.loadUnaligned(as: UInt32.self)))
        shift = 32
        p += 4
      }
      if count & 2 != 0 {
        tail |= UInt64(UInt16(littleEndian: p.loadUnaligned(as: UInt16.self))) << shift
        shift &+= 16
        p += 2
      }
      if count & 1 != 0 { tail |= UInt64(p.load(as: UInt8.self)) << shift }
    }
    h = (h ^ tail ^ (UInt64(n) << 56)) &* wordPrime
    return h ^ (h >> 29)
  }

  static let wordPrime: UInt64 = 0x9e37_79b9_7f4a_7c15

  /// The same hash of any bytes.
  static func hash<C: Collection<UInt8>>(_ bytes: C, into hash: UInt64 = fnvOffset) -> UInt64 {
    if let h = bytes.withContiguousStorageIfAvailable({ Self.hash($0, into: hash) }) { return h }
    return Array(bytes).withUnsafeBufferPointer { Self.hash($0, into: hash) }
  }

  /// The hash of a name, for state file names.
  public static func hash(text: String) -> UInt64 { hash(Array(text.utf8)) }

  /// How many bytes `appendVarint` writes for `value`.
  @inline(__always)
  static func varintSize(_ value: Int) -> Int {
    var v = UInt64(truncatingIfNeeded: value) >> 7
    var n = 1
    while v > 0 {
      n &+= 1
      v >>= 7
    }
    return n
  }

  static func appendVarint(_ value: Int, to out: inout [UInt8]) {
    var v = UInt64(value)
    while v >= 0x80 {
      out.append(UInt8(v & 0x7f) | 0x80)
      v >>= 7
    }
    out.append(UInt8(v))
  }

  static func readVarint(_ bytes: [UInt8], at: inout Int) -> Int? {
    bytes.withUnsafeBufferPointer { readVarint($0, at: &at) }
  }

  @inline(__always)
  static func readVarint(_ bytes: UnsafeBufferPointer<UInt8>, at: inout Int) -> Int? {
    var v: UInt64 = 0
    var shift: UInt64 = 0
    while at < bytes.count, shift < 63 {
      let b = bytes[at]
      at += 1
      v |= UInt64(b & 0x7f) << shift
      if b < 0x80 { return v <= UInt64(Int32.max) ? Int(v) : nil }
      shift += 7
    }
    return nil
  }

  @inline(__always)
  static func appendUInt64(_ value: UInt64, to out: inout [UInt8]) {
    withUnsafeBytes(of: value.littleEndian) { out.append(contentsOf: $0) }
  }

  static func readUInt64(_ bytes: [UInt8], at: inout Int) -> UInt64? {
    bytes.withUnsafeBufferPointer { readUInt64($0, at: &at) }
  }

  @inline(__always)
  static func readUInt64(_ bytes: UnsafeBufferPointer<UInt8>, at: inout Int) -> UInt64? {
    guard at + 8 <= bytes.count, let base = bytes.baseAddress else { return nil }
    let v = UInt64(littleEndian: UnsafeRawPointer(base + at).loadUnaligned(as: UInt64.self))
    at += 8
    return v
  }

  static func appendText(_ s: String, to out: inout [UInt8]) {
    appendVarint(s.utf8.count, to: &out)
    out.append(contentsOf: s.utf8)
  }

  static func readText(_ bytes: UnsafeBufferPointer<UInt8>, at: inout Int) -> String? {
    guard let n = readVarint(bytes, at: &at), at + n <= bytes.count else { return nil }
    defer { at += n }
    return String(decoding: UnsafeBufferPointer(rebasing: bytes[at..<at + n]), as: UTF8.self)
  }
}
