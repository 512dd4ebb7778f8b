/// Compresses bytes as raw DEFLATE (RFC 1951) for the ZIP writer (Docs/Formats.md, Writing
/// workbooks), simply: the input is cut into blocks of 64 KiB, each matched against itself only
/// (LZ77 over a hash of three bytes, a few candidates per position) and coded with the fixed
/// Huffman codes, so no code tables are built or written. A workbook's XML repeats its tags on
/// every cell, which this alone shrinks five- to tenfold.
struct Deflater {
  /// Input bytes per block.
  static let blockSize = 1 << 16
  private static let hashBits = 15
  /// Earlier positions tried per position.
  private static let maxCandidates = 8
  private static let minMatch = 3
  private static let maxMatch = 258
  /// The longest match whose inner positions are hashed.
  private static let insertLimit = 16
  /// The farthest back a match may start.
  private static let window = 32_768

  private var pending: [UInt8] = []
  private var bits: UInt64 = 0
  private var bitCount = 0
  private var head: [Int32]
  private var previous: [Int32]

  init() {
    pending.reserveCapacity(Self.blockSize)
    head = [Int32](repeating: -1, count: 1 << Self.hashBits)
    previous = [Int32](repeating: -1, count: Self.blockSize)
  }

  /// Takes `input`, appending to `out` the compressed bytes of every block it fills.
  mutating func compress(_ input: UnsafeBufferPointer<UInt8>, into out: inout [UInt8]) {
    var i = 0
    while i < input.count {
      let n = min(Self.blockSize - pending.count, input.count - i)
      pending.append(contentsOf: UnsafeBufferPointer(rebasing: input[i..<(i + n)]))
      i += n
      if pending.count == Self.blockSize { writeBlock(final: false, into: &out) }
    }
  }

  /// Compresses what is left as the last block and ends the stream on a byte boundary.
  mutating func finish(into out: inout [UInt8]) {
    writeBlock(final: true, into: &out)
    if bitCount > 0 {
      out.append(UInt8(truncatingIfNeeded: bits))
      bits = 0
      bitCount = 0
    }
  }

  /// The whole compressed stream of `bytes`.
  static func deflate(_ bytes: [UInt8]) -> [UInt8] {
    var deflater = Deflater()
    var out: [UInt8] = []
    bytes.withUnsafeBufferPointer { deflater.compress($0, into: &out) }
    deflater.finish(into: &out)
    return out
  }

  /// Writes `pending` as one fixed-Huffman block.
  private mutating func writeBlock(final: Bool, into out: inout [UInt8]) {
    put(final ? 1 : 0, 1, into: &out)
    put(1, 2, into: &out)  // BTYPE 01: fixed Huffman codes
    var head = [Int32]()
    swap(&head, &self.head)
    var previous = [Int32]()
    swap(&previous, &self.previous)
    defer {
      swap(&head, &self.head)
      swap(&previous, &self.previous)
    }
    let data = pending
    data.withUnsafeBufferPointer { d in
      head.withUnsafeMutableBufferPointer { head in
        previous.withUnsafeMutableBufferPointer { previous in
          for k in head.indices { head[k] = -1 }
          var i = 0
          let count = d.count
          while i < count {
            var bestLength = 0
            var bestDistance = 0
            if i + Self.minMatch <= count {
              let h = Self.hash(d[i], d[i + 1], d[i + 2])
              var candidate = Int(head[h])
              var tries = 0
              let limit = min(Self.maxMatch, count - i)
              while candidate >= 0 && tries < Self.maxCandidates && i - candidate <= Self.window {
                if bestLength == 0 || d[candidate + bestLength] == d[i + bestLength] {
                  var length = 0
                  while length < limit && d[candidate + length] == d[i + length] { length += 1 }
                  if length > bestLength {
                    bestLength = length
                    bestDistance = i - candidate
                    if length == limit { break }
                  }
                }
                candidate = Int(previous[candidate])
                tries += 1
              }
              previous[i] = head[h]
              head[h] = Int32(i)
            }
            if bestLength >= Self.minMatch {
              putLength(bestLength, into: &out)
              putDistance(bestDistance, into: &out)
              // The positions inside a short match join the hash chains too; inside a long one
              // they are skipped, as zlib's faster levels do.
              let end = i + bestLength
              if bestLength <= Self.insertLimit {
                var k = i + 1
                while k < end && k + Self.minMatch <= count {
                  let h = Self.hash(d[k], d[k + 1], d[k + 2])
                  previous[k] = head[h]
                  head[h] = Int32(k)
                  k += 1
                }
              }
              i = end
            } else {
              putLiteral(Int(d[i]), into: &out)
              i += 1
            }
          }
        }
      }
    }
    putLiteral(256, into: &out)  // end of block
    pending.removeAll(keepingCapacity: true)
  }

  private static func hash(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> Int {
    let v = UInt32(a) << 16 | UInt32(b) << 8 | UInt32(c)
    return Int((v &* 2_654_435_761) >> UInt32(32 - hashBits))
  }

  /// Appends the low `count` bits of `value`, least significant first.
  private mutating func put(_ value: Int, _ count: Int, into out: inout [UInt8]) {
    bits |= UInt64(value) << UInt64(bitCount)
    bitCount += count
    while bitCount >= 8 {
      out.append(UInt8(truncatingIfNeeded: bits))
      bits >>= 8
      bitCount -= 8
    }
  }

  /// A Huffman code (given most significant bit first) bit-reversed for `put`.
  private static func reversed(_ code: Int, _ length: Int) -> Int {
    var r = 0
    for k in 0..<length where code & (1 << k) != 0 { r |= 1 << (length - 1 - k) }
    return r
  }

  /// The fixed literal/length code of each symbol (RFC 1951, 3.2.6), reversed: code | length << 16.
  private static let literalCodes: [Int] = (0..<288).map { symbol in
    let (code, length) =
      switch symbol {
      case 0...143: (0x30 + symbol, 8)
      case 144...255: (0x190 + symbol - 144, 9)
      case 256...279: (symbol - 256, 7)
      default: (0xC0 + symbol - 280, 8)
      }
    return reversed(code, length) | length << 16
  }

  /// The fixed distance codes, five bits each, reversed.
  private static let distanceCodes: [Int] = (0..<30).map { reversed($0, 5) }

  private mutating func putLiteral(_ symbol: Int, into out: inout [UInt8]) {
    let entry = Self.literalCodes[symbol]
    put(entry & 0xFFFF, entry >> 16, into: &out)
  }

  private static let lengthBases = [
    3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115,
    131, 163, 195, 227, 258,
  ]
  private static let lengthExtra = [
    0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
  ]
  private static let distanceBases = [
    1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537,
    2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577,
  ]
  private static let distanceExtra = [
    0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13,
    13,
  ]

  private mutating func putLength(_ length: Int, into out: inout [UInt8]) {
    var code = Self.lengthBases.count - 1
    while Self.lengthBases[code] > length { code -= 1 }
    putLiteral(257 + code, into: &out)
    put(length - Self.lengthBases[code], Self.lengthExtra[code], into: &out)
  }

  private mutating func putDistance(_ distance: Int, into out: inout [UInt8]) {
    var code = Self.distanceBases.count - 1
    while Self.distanceBases[code] > distance { code -= 1 }
    put(Self.distanceCodes[code], 5, into: &out)
    put(distance - Self.distanceBases[code], Self.distanceExtra[code], into: &out)
  }
}
