/// DEFLATE (RFC 1951) data inflated on the fly as the reader pulls bytes: table-driven Huffman
/// decoding, a 32 KiB window, 64-bit bit refills. One inflater serves both framings: a gzip
/// (RFC 1952) stream of one or more members (Docs/Formats.md "Compressed input"), and one
/// deflated ZIP entry, checked against the CRC-32 and size its archive records and capped in
/// size against ZIP bombs (Docs/Formats.md "Workbooks"). Errors name the compressed byte offset.
final class Inflater: ByteStage {
  /// What wraps the DEFLATE data.
  enum Framing {
    /// gzip members, each with its header and CRC-32/size trailer.
    case gzip
    /// One ZIP entry's raw DEFLATE data: its CRC-32 and inflated size as the archive records
    /// them, and the most bytes it may inflate to.
    case zipEntry(ZipEntryCheck)
  }

  private let inner: ByteSource
  private let name: String
  private let framing: Framing

  // Compressed input: `inCount` bytes at `input`, `inPos` the next unread one; `inBase` is the
  // compressed offset of `input[0]`.
  private let input: UnsafeMutablePointer<UInt8>
  private static let inCapacity = 1 << 16
  private var inCount = 0
  private var inPos = 0
  private var inBase = 0
  private var inputEnded = false
  private var bits: UInt64 = 0
  private var bitCount = 0

  // Output: `window[0..<outCount]`; the first `outRead` bytes were handed out; the 32 KiB
  // before `outCount` are the history back-references copy from.
  private let window: UnsafeMutablePointer<UInt8>
  private static let history = 1 << 15
  private static let outTarget = 1 << 18
  private static let outCapacity = history + outTarget + 512
  private var outCount = 0
  private var outRead = 0

  private enum State { case memberHeader, blockHeader, stored(Int), huffman, memberEnd, done }
  private var state: State
  private var lastBlock = false
  private var crc: UInt32 = 0
  private var size: UInt32 = 0
  private var memberCount = 0

  private var lit = HuffmanTable()
  private var dist = HuffmanTable()

  init(inner: ByteSource, initial: [UInt8], framing: Framing = .gzip) {
    self.inner = inner
    self.name = inner.name
    self.framing = framing
    switch framing {
    case .gzip: state = .memberHeader
    case .zipEntry: state = .blockHeader
    }
    input = .allocate(capacity: Self.inCapacity + 8)
    window = .allocate(capacity: Self.outCapacity)
    input.update(from: initial, count: min(initial.count, Self.inCapacity))
    inCount = min(initial.count, Self.inCapacity)
  }

  deinit {
    input.deallocate()
    window.deallocate()
  }

  /// An error met after some bytes were inflated: those bytes are handed out first, so the
  /// records before the damage are read (Docs/Formats.md, Compressed input).
  private var heldError: InputError?

  func read(to target: UnsafeMutablePointer<UInt8>, maxCount: Int) throws(InputError) -> Int {
    while outRead == outCount {
      if let heldError { throw heldError }
      if case .done = state { return 0 }
      if outCount > Self.history + Self.outTarget - 300 || outCount + 300 > Self.outCapacity {
        // Keep the last 32 KiB as history.
        let keep = min(outCount, Self.history)
        (window).update(from: window + (outCount - keep), count: keep)
        historyFloor = max(0, historyFloor - (outCount - keep))
        outCount = keep
        outRead = keep
      }
      do throws(InputError) {
        try step()
        if case .zipEntry(let check) = framing, inflated > check.limit {
          throw check.bomb(inflated: inflated)
        }
      } catch { heldError = error }
    }
    let n = min(maxCount, outCount - outRead)
    target.update(from: window + outRead, count: n)
    outRead += n
    return n
  }

  // MARK: Input bits

  /// The compressed offset of the next unread bit's byte.
  private var offset: Int { inBase + inPos - bitCount / 8 }

  private func fail(_ what: String, at position: Int? = nil) -> InputError {
    switch framing {
    case .gzip:
      return InputError(
        name: name, line: 0, column: 0,
        message: "corrupt gzip data at byte \(position ?? offset): \(what)")
    case .zipEntry(let check):
      return InputError(
        name: check.archive, line: 0, column: 0,
        message: "part \(check.part) is damaged at its compressed byte \(position ?? offset): \(what)")
    }
  }

  /// Reads more compressed bytes; false at the end of the input.
  private func refillInput() throws(InputError) -> Bool {
    if inputEnded { return false }
    inBase += inPos
    let rest = inCount - inPos
    if rest > 0 { input.update(from: input + inPos, count: rest) }
    inCount = rest
    inPos = 0
    let got = try inner.readBytes(to: input + inCount, maxCount: Self.inCapacity - inCount)
    if got == 0 { inputEnded = true }
    inCount += got
    return got > 0
  }

  /// Makes at least `n` (≤ 57) bits available, or throws at the end of the input.
  @inline(__always)
  private func need(_ n: Int) throws(InputError) {
    if bitCount >= n { return }
    try fill(n)
  }

  private func fill(_ n: Int) throws(InputError) {
    while bitCount < n {
      if inCount - inPos >= 8 {
        let word = UnsafeRawPointer(input + inPos).loadUnaligned(as: UInt64.self)
        bits |= UInt64(littleEndian: word) << UInt64(bitCount)
        inPos += (63 - bitCount) >> 3
        bitCount |= 56
      } else if inPos < inCount {
        bits |= UInt64(input[inPos]) << UInt64(bitCount)
        inPos += 1
        bitCount += 8
      } else if try !refillInput() {
        throw fail("unexpected end of file (the file is truncated)", at: inBase + inCount)
      }
    }
  }

  @inline(__always)
  private func take(_ n: Int) -> Int {
    let v = Int(truncatingIfNeeded: bits & ((1 << UInt64(n)) &- 1))
    bits >>= UInt64(n)
    bitCount -= n
    return v
  }

  private func getBits(_ n: Int) throws(InputError) -> Int {
    try need(n)
    return take(n)
  }

  private func alignToByte() { _ = take(bitCount & 7) }

  private func byte() throws(InputError) -> UInt8 { UInt8(try getBits(8)) }

  /// True when no byte is left (after aligning): the end of the last member.
  private func atEnd() throws(InputError) -> Bool {
    if bitCount >= 8 { return false }
    if inPos < inCount { return false }
    return try !refillInput()
  }

  // MARK: Decoding

  private func step() throws(InputError) {
    switch state {
    case .memberHeader: try readMemberHeader()
    case .blockHeader: try readBlockHeader()
    case .stored(let left): try copyStored(left)
    case .huffman: try decodeHuffman()
    case .memberEnd: try readMemberEnd()
    case .done: return
    }
  }

  private func readMemberHeader() throws(InputError) {
    let start = offset
    guard try byte() == 0x1F, try byte() == 0x8B else {
      throw fail("not a gzip member (no 1f 8b magic)", at: start)
    }
    guard try byte() == 8 else { throw fail("unknown compression method", at: start + 2) }
    let flags = try byte()
    if flags & 0xE0 != 0 { throw fail("reserved header flags set", at: start + 3) }
    for _ in 0..<6 { _ = try byte() }
    if flags & 4 != 0 {
      let length = try getBits(16)
      for _ in 0..<length { _ = try byte() }
    }
    if flags & 8 != 0 { while try byte() != 0 {} }
    if flags & 16 != 0 { while try byte() != 0 {} }
    if flags & 2 != 0 { _ = try getBits(16) }
    crc = 0
    size = 0
    lastBlock = false
    memberCount += 1
    state = .blockHeader
  }

  private func readBlockHeader() throws(InputError) {
    if lastBlock {
      state = .memberEnd
      return
    }
    try need(3)
    lastBlock = take(1) == 1
    switch take(2) {
    case 0:
      alignToByte()
      let length = try getBits(16)
      let check = try getBits(16)
      guard length == ~check & 0xFFFF else { throw fail("stored block length check fails") }
      state = .stored(length)
    case 1:
      lit.buildFixedLiterals()
      dist.buildFixedDistances()
      state = .huffman
    case 2:
      try readDynamicTables()
      state = .huffman
    default:
      throw fail("invalid block type")
    }
  }

  private func copyStored(_ left: Int) throws(InputError) {
    var left = left
    // Bytes still in the bit buffer first (the header left it byte aligned).
    let start = outCount
    while left > 0 && bitCount >= 8 && outCount < Self.outCapacity - 1 {
      window[outCount] = UInt8(take(8))
      outCount += 1
      left -= 1
    }
    checksum(from: start, count: outCount - start)
    // The bit buffer is empty now; clear the bytes ahead that a wide refill left in it, as the
    // copy below moves past them.
    if bitCount == 0 { bits = 0 }
    while left > 0 && outCount < Self.history + Self.outTarget {
      if inPos == inCount, try !refillInput() {
        throw fail("unexpected end of file (the file is truncated)", at: inBase + inCount)
      }
      let n = min(left, inCount - inPos, Self.history + Self.outTarget - outCount)
      (window + outCount).update(from: input + inPos, count: n)
      checksum(from: outCount, count: n)
      outCount += n
      inPos += n
      left -= n
    }
    state = left > 0 ? .stored(left) : .blockHeader
  }

  private static let lengthBase: [UInt16] = [
    3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115,
    131, 163, 195, 227, 258,
  ]
  private static let lengthExtra: [UInt8] = [
    0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
  ]
  private static let distBase: [UInt16] = [
    1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537,
    2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577,
  ]
  private static let distExtra: [UInt8] = [
    0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13,
    13,
  ]
  private static let codeLengthOrder = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

  private func readDynamicTables() throws(InputError) {
    try need(14)
    let literalCount = take(5) + 257
    let distanceCount = take(5) + 1
    let codeCount = take(4) + 4
    guard literalCount <= 286, distanceCount <= 30 else { throw fail("too many codes") }
    var codeLengths = [UInt8](repeating: 0, count: 19)
    for i in 0..<codeCount { codeLengths[Self.codeLengthOrder[i]] = UInt8(try getBits(3)) }
    var lengthCode = HuffmanTable()
    guard lengthCode.build(codeLengths) else { throw fail("bad code length code") }
    var lengths = [UInt8](repeating: 0, count: literalCount + distanceCount)
    var i = 0
    while i < lengths.count {
      let symbol = try decode(lengthCode)
      if symbol < 16 {
        lengths[i] = UInt8(symbol)
        i += 1
        continue
      }
      var repeatCount = 0
      var value: UInt8 = 0
      switch symbol {
      case 16:
        guard i > 0 else { throw fail("repeat with no previous length") }
        value = lengths[i - 1]
        repeatCount = 3 + (try getBits(2))
      case 17: repeatCount = 3 + (try getBits(3))
      default: repeatCount = 11 + (try getBits(7))
      }
      guard i + repeatCount <= lengths.count else { throw fail("too many code lengths") }
      for _ in 0..<repeatCount {
        lengths[i] = value
        i += 1
      }
    }
    guard lengths[256] != 0 else { throw fail("no end-of-block code") }
    guard lit.build(lengths[..<literalCount]) else { throw fail("bad literal/length code") }
    guard dist.build(lengths[literalCount...]) else { throw fail("bad distance code") }
  }

  @inline(__always)
  private func decode(_ table: HuffmanTable) throws(InputError) -> Int {
    if bitCount < 15 { try fillSoft(15) }
    let entry = table.entries[Int(truncatingIfNeeded: bits) & table.mask]
    let length = Int(entry & 15)
    guard length != 0, length <= bitCount else {
      if bitCount < 15 && inputEnded && inPos == inCount {
        throw fail("unexpected end of file (the file is truncated)", at: inBase + inCount)
      }
      throw fail("invalid Huffman code")
    }
    _ = take(length)
    return Int(entry >> 4)
  }

  /// Like `need`, but near the end of the input settles for fewer bits (a short last code).
  private func fillSoft(_ n: Int) throws(InputError) {
    while bitCount < n {
      let more = inPos < inCount ? true : try refillInput()
      if more {
        try fill(min(n, bitCount + 8))
      } else {
        if bitCount == 0 {
          throw fail("unexpected end of file (the file is truncated)", at: inBase + inCount)
        }
        return
      }
    }
  }

  private func decodeHuffman() throws(InputError) {
    let limit = Self.history + Self.outTarget
    let start = outCount
    defer { checksum(from: start, count: outCount - start) }
    while outCount < limit {
      let symbol = try decode(lit)
      if symbol < 256 {
        window[outCount] = UInt8(truncatingIfNeeded: symbol)
        outCount += 1
        continue
      }
      if symbol == 256 {
        state = .blockHeader
        return
      }
      let index = symbol - 257
      guard index < 29 else { throw fail("invalid length code") }
      try need(5)
      let length = Int(Self.lengthBase[index]) + take(Int(Self.lengthExtra[index]))
      let d = try decode(dist)
      guard d < 30 else { throw fail("invalid distance code") }
      try need(13)
      let distance = Int(Self.distBase[d]) + take(Int(Self.distExtra[d]))
      guard distance <= outCount - historyFloor else {
        throw fail("distance too far back")
      }
      let from = window + (outCount - distance)
      let to = window + outCount
      if distance >= length {
        to.update(from: from, count: length)
      } else {
        for k in 0..<length { to[k] = from[k] }
      }
      outCount += length
    }
  }

  /// The lowest window index back-references may reach: the start of this member's output.
  private var historyFloor = 0

  private func readMemberEnd() throws(InputError) {
    alignToByte()
    if case .zipEntry(let check) = framing {
      try check.verify(crc: crc, size: inflated)
      state = .done
      return
    }
    let at = offset
    var stored: UInt32 = 0
    for k in 0..<4 { stored |= UInt32(try byte()) << UInt32(8 * k) }
    var length: UInt32 = 0
    for k in 0..<4 { length |= UInt32(try byte()) << UInt32(8 * k) }
    guard stored == crc else { throw fail("CRC-32 mismatch (the data is damaged)", at: at) }
    guard length == size else { throw fail("length mismatch (the data is damaged)", at: at + 4) }
    if try atEnd() {
      state = .done
      return
    }
    historyFloor = outCount
    state = .memberHeader
  }

  /// Bytes inflated so far (all members).
  private var inflated = 0

  private func checksum(from start: Int, count: Int) {
    size &+= UInt32(truncatingIfNeeded: count)
    inflated += count
    crc = CRC32.update(crc, window + start, count)
  }
}

/// A Huffman decoding table indexed by the next `bits` input bits: entry = symbol << 4 | length.
struct HuffmanTable {
  var entries: [UInt16] = []
  var mask = 0

  mutating func build<C: Collection>(_ lengths: C) -> Bool where C.Element == UInt8 {
    var counts = [Int](repeating: 0, count: 16)
    for l in lengths { counts[Int(l)] += 1 }
    counts[0] = 0
    var left = 1
    for l in 1...15 {
      left <<= 1
      left -= counts[l]
      if left < 0 { return false }
    }
    var maxLength = 15
    while maxLength > 1 && counts[maxLength] == 0 { maxLength -= 1 }
    var next = [Int](repeating: 0, count: 16)
    var code = 0
    for l in 1...15 {
      code = (code + counts[l - 1]) << 1
      next[l] = code
    }
    let size = 1 << maxLength
    entries = [UInt16](repeating: 0, count: size)
    mask = size - 1
    var symbol = 0
    for l in lengths {
      defer { symbol += 1 }
      let length = Int(l)
      if length == 0 { continue }
      var c = next[length]
      next[length] += 1
      var reversed = 0
      for _ in 0..<length {
        reversed = reversed << 1 | c & 1
        c >>= 1
      }
      let entry = UInt16(symbol << 4 | length)
      var k = reversed
      while k < size {
        entries[k] = entry
        k += 1 << length
      }
    }
    return true
  }

  mutating func buildFixedLiterals() {
    var lengths = [UInt8](repeating: 8, count: 288)
    for i in 144..<256 { lengths[i] = 9 }
    for i in 256..<280 { lengths[i] = 7 }
    _ = build(lengths)
  }

  mutating func buildFixedDistances() {
    _ = build([UInt8](repeating: 5, count: 30))
  }
}
