/// Counts the rows of a chunk sixteen bytes at a time, across rows, for a run that needs only
/// how many records there are (Docs/Performance.md, Counting a chunk at a time).
///
/// Blocks of sixteen bytes are compared with LF, CR, the quote and the delimiter at once
/// (`SIMD16<UInt8>`). Blocks with no LF, CR or quote, outside quoted text (most blocks), go two
/// a step and only have their delimiters added per byte lane (the stops found by a `StopTest`:
/// LF and CR with one test where the delimiter allows it). A block with one of them has its
/// LFs turned into a 16-bit mask (the lanes' flags weighted 1, 2, 4 … 128 and summed eight at a
/// time by one multiplication), and its CRs, quotes and delimiters too when it holds a CR or a
/// quote or lies inside quotes; a prefix XOR over the quote mask (`x ^= x << 1; … x ^= x << 8`,
/// carried from block to block) marks the bytes inside quoted text, whose delimiters and line
/// ends are field text. Every line end outside quotes ends a row (a CRLF once, at its CR; a line
/// end at a row's start is a blank line, skipped); the row's fields are its delimiters outside
/// quotes plus one: the lanes summed, with the block's lanes before the line end added. A row
/// with the header's field count or fewer (a short row, counted) is kept as the full read keeps
/// it: its text range and the line it starts on.
///
/// The count stops at the start of a row the exact scanners must read, which then read it (so
/// its error or its fields come out as ever): a row with more fields than the header, a quote
/// that neither opens a field nor follows a closing quote (a literal byte of an unquoted field),
/// text after a closing quote, and the last bytes of the chunk (the row a block leaves open, and
/// anything within a block of the end, where a CR or a closing quote may wait on the next byte).
struct CSVBlockCounter {
  let delimiter: UInt8
  let quoting: Bool

  /// What a count of part of a chunk found.
  struct Counted {
    /// Where the exact scanners go on: the start of a row, or of a blank line.
    var next: Int
    /// The line on which `next` starts.
    var line: Int
    /// Rows kept with fewer fields than the header.
    var shortRows: Int
  }

  private static let ones: UInt64 = 0x0101_0101_0101_0101

  /// The 16-bit mask of the lanes `flags` sets: each lane's flag weighted 1, 2, 4 … 128 in its
  /// half (`weights`), each half's weighted lanes summed into its top byte by one multiplication
  /// (the weights are distinct bits, so nothing carries).
  @inline(__always)
  static func mask(_ flags: SIMDMask<SIMD16<Int8>>, weights: SIMD16<UInt8>) -> UInt32 {
    let weighted = unsafeBitCast(flags, to: SIMD16<UInt8>.self) & weights
    let halves = unsafeBitCast(weighted, to: SIMD2<UInt64>.self)
    let low = (halves[0] &* ones) >> 56
    let high = (halves[1] &* ones) >> 56
    return UInt32(truncatingIfNeeded: low | high << 8)
  }

  /// The lanes a 16-bit mask sets, the inverse of `mask`.
  @inline(__always)
  static func lanes(_ mask: UInt32, weights: SIMD16<UInt8>) -> SIMDMask<SIMD16<Int8>> {
    let halves = SIMD16<UInt8>(
      lowHalf: SIMD8(repeating: UInt8(truncatingIfNeeded: mask)),
      highHalf: SIMD8(repeating: UInt8(truncatingIfNeeded: mask >> 8)))
    return halves & weights .== weights
  }

  /// Whether `flags` sets any lane, tested as two words (`any` on a mask is a call to a generic
  /// horizontal minimum, not inlined).
  @inline(__always)
  static func any(_ flags: SIMDMask<SIMD16<Int8>>) -> Bool {
    let words = unsafeBitCast(flags, to: SIMD2<UInt64>.self)
    return words[0] | words[1] != 0
  }

  /// The sum of a block's byte lanes, each at most 31.
  @inline(__always)
  static func laneSum(_ lanes: SIMD16<UInt8>) -> Int {
    let words = unsafeBitCast(lanes, to: SIMD2<UInt64>.self)
    return Int(truncatingIfNeeded: (words[0] &* ones) >> 56)
      &+ Int(truncatingIfNeeded: (words[1] &* ones) >> 56)
  }

  /// Counts the rows of `b` from the row start `start`, on line `line`, into `extents` and
  /// `lines` (each row's text range and first line, as `CSVReader` keeps them), up to the first
  /// row the exact scanners must read (see the type's summary). Rows have `width` fields.
  func countRows(
    _ b: UnsafeBufferPointer<UInt8>, from start: Int, line: Int, width: Int,
    extents: PointerStore<Int32>, lines: PointerStore<Int32>
  ) -> Counted {
    // A delimiter outside 0x08...0x0F lets the steps find LF and CR with one test; a tab (or
    // another byte there) would stop every step that holds one, so it gets exact tests.
    if delimiter & 0xF8 != 0x08 {
      let stops = TwoStops(folding: 0x07, into: 0x0F, or: quoting ? .quote : .lineFeed)
      return countRows(
        b, from: start, line: line, width: width, extents: extents, lines: lines, stops: stops)
    }
    if !quoting {
      let stops = TwoStops(folding: 0, into: .lineFeed, or: .carriageReturn)
      return countRows(
        b, from: start, line: line, width: width, extents: extents, lines: lines, stops: stops)
    }
    return countRows(
      b, from: start, line: line, width: width, extents: extents, lines: lines,
      stops: ThreeStops())
  }

  /// What stops a step of the count's plain bytes: a LF, a CR, or a quote when quoting (a test
  /// may also stop at other bytes: the block they are in is then read exactly).
  protocol StopTest {
    func stops(_ v: SIMD16<UInt8>) -> SIMDMask<SIMD16<Int8>>
  }

  /// Two tests a block: the bytes that OR `folding` make `into` (LF and CR, 0x0A and 0x0D, both
  /// make 0x0F with 0x07, as do 0x08...0x0F), and the byte `or`.
  struct TwoStops: StopTest {
    let folding: SIMD16<UInt8>
    let into: SIMD16<UInt8>
    let or: SIMD16<UInt8>

    init(folding: UInt8, into: UInt8, or: UInt8) {
      self.folding = SIMD16(repeating: folding)
      self.into = SIMD16(repeating: into)
      self.or = SIMD16(repeating: or)
    }

    @inline(__always)
    func stops(_ v: SIMD16<UInt8>) -> SIMDMask<SIMD16<Int8>> {
      (v | folding) .== into .| v .== or
    }
  }

  /// Three exact tests a block: LF, CR and the quote.
  struct ThreeStops: StopTest {
    @inline(__always)
    func stops(_ v: SIMD16<UInt8>) -> SIMDMask<SIMD16<Int8>> {
      v .== SIMD16(repeating: .lineFeed) .| v .== SIMD16(repeating: .carriageReturn)
        .| v .== SIMD16(repeating: .quote)
    }
  }

  /// `countRows` with the steps' stops found by `stops`.
  @inline(never)
  private func countRows<Stops: StopTest>(
    _ b: UnsafeBufferPointer<UInt8>, from start: Int, line: Int, width: Int,
    extents: PointerStore<Int32>, lines: PointerStore<Int32>, stops: Stops
  ) -> Counted {
    guard let base = b.baseAddress else { return Counted(next: start, line: line, shortRows: 0) }
    let raw = UnsafeRawPointer(base)
    let n = b.count
    let delimiter = self.delimiter
    let delimiterLanes = SIMD16<UInt8>(repeating: delimiter)
    let lineFeedLanes = SIMD16<UInt8>(repeating: .lineFeed)
    let returnLanes = SIMD16<UInt8>(repeating: .carriageReturn)
    // Without quoting a quote is field text: the lanes look for a LF again instead.
    let quoteLanes = SIMD16<UInt8>(repeating: quoting ? .quote : .lineFeed)
    let weights = SIMD16<UInt8>(1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128)
    let laneIndex = SIMD16<UInt8>(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)
    /// Where the row being counted starts, and its line; `line`: the line of the next byte.
    var rowStart = start
    var rowLine = line
    var line = line
    var shortRows = 0
    /// The row's delimiters outside quotes in the blocks before this one: `delimiters`, plus
    /// the sum of `lanes`, summed when `laneBlocks` reaches 28 (so with two blocks' flags added
    /// a lane is at most 29, and eight lanes still sum to a byte).
    var delimiters = 0
    var lanes = SIMD16<UInt8>()
    var laneBlocks = 0
    /// What the block before leaves to this one, one bit each (`Carry`).
    var carry: UInt32 = 0
    /// Where the next row's text range and line go, and how many rows fit there.
    var keptExtents = extents.base + extents.count
    var keptLines = lines.base + lines.count
    var room = 0
    var block = start
    // A byte always follows the block: a CR or a closing quote at its end is settled by it.
    blocks: while block &+ 16 < n {
      if carry & (Carry.inside | Carry.closing | Carry.carriageReturn) == 0 {
        // Thirty-two bytes a step while they hold no LF, CR or quote: their delimiters are
        // added per lane (two blocks a step).
        let entered = block
        while block &+ 32 < n {
          let v0 = raw.loadUnaligned(fromByteOffset: block, as: SIMD16<UInt8>.self)
          let v1 = raw.loadUnaligned(fromByteOffset: block &+ 16, as: SIMD16<UInt8>.self)
          let stops0 = stops.stops(v0)
          let stops1 = stops.stops(v1)
          if Self.any(stops0 .| stops1) {
            // The first block counted here when only the second holds a stop, without a branch
            // (which half holds it is a coin toss a predictor loses).
            let plain = Self.any(stops0) ? 0 : 1
            let counted = UInt8(truncatingIfNeeded: plain)
            lanes &+= SIMD16<UInt8>().replacing(with: counted, where: v0 .== delimiterLanes)
            laneBlocks &+= plain
            block &+= 16 &* plain
            break
          }
          lanes &+= SIMD16<UInt8>().replacing(with: 1, where: v0 .== delimiterLanes)
          lanes &+= SIMD16<UInt8>().replacing(with: 1, where: v1 .== delimiterLanes)
          laneBlocks &+= 2
          if laneBlocks >= 28 {
            delimiters &+= Self.laneSum(lanes)
            lanes = SIMD16<UInt8>()
            laneBlocks = 0
          }
          block &+= 32
        }
        if block != entered { carry = 0 }
        guard block &+ 16 < n else { break }
      }
      let v = raw.loadUnaligned(fromByteOffset: block, as: SIMD16<UInt8>.self)
      let lineFeeds = v .== lineFeedLanes
      let returns = v .== returnLanes
      let quotes = v .== quoteLanes
      var blockDelimiters = SIMD16<UInt8>().replacing(with: 1, where: v .== delimiterLanes)
      let lf = Self.mask(lineFeeds, weights: weights)
      let cr = Self.any(returns) ? Self.mask(returns, weights: weights) : 0
      let lineEnds = lf | cr
      let afterReturn = (carry >> 2) & 1
      var quoted: UInt32 = 0
      if quoting, Self.any(quotes) || carry & (Carry.inside | Carry.closing) != 0 {
        var fieldStart = (carry >> 3) & 1
        if carry & Carry.followed == 0 {
          let c = block == start ? delimiter : base[block &- 1]
          fieldStart = c == delimiter || c == .lineFeed || c == .carriageReturn ? 1 : 0
        }
        let q = Self.mask(quotes, weights: weights)
        let d = Self.mask(v .== delimiterLanes, weights: weights)
        var x = q
        x ^= x << 1
        x ^= x << 2
        x ^= x << 4
        x ^= x << 8
        quoted = (x ^ (0 &- (carry & Carry.inside))) & 0xFFFF
        let structural = (d | lineEnds) & ~quoted
        let closing = q & ~quoted
        let fieldStarts = (structural << 1) | fieldStart
        let afterClose = (closing << 1) | ((carry >> 1) & 1)
        // A quote that opens quoted text must start a field or double a closing quote, and a
        // closing quote must be followed by a delimiter, a line end or a quote.
        if (q & quoted) & ~(fieldStarts | afterClose) & 0xFFFF != 0
          || afterClose & ~(d | lineEnds | q) & 0xFFFF != 0
        {
          break
        }
        carry =
          (quoted >> 15) | (closing >> 15) << 1 | (structural >> 15) << 3 | Carry.followed
        if quoted != 0 {
          blockDelimiters = blockDelimiters.replacing(
            with: 0, where: Self.lanes(quoted, weights: weights))
        }
      } else {
        carry = 0
      }
      carry |= (cr >> 15) << 2
      // Each line end once, at its first byte (the LF of a CRLF is not one).
      let firstBytes = lineEnds & ~(lf & ((cr << 1) | afterReturn))
      var rowEnds = firstBytes & ~quoted
      var quotedEnds = firstBytes & quoted
      if rowEnds != 0 {
        if room < 16 {
          extents.count = keptExtents - extents.base
          lines.count = keptLines - lines.base
          extents.reserve(2 * 1024)
          lines.reserve(1024)
          keptExtents = extents.base + extents.count
          keptLines = lines.base + lines.count
          room = min((extents.capacity - extents.count) / 2, lines.capacity - lines.count)
        }
        repeat {
          let bit = rowEnds.trailingZeroBitCount
          let end = block &+ bit
          if quotedEnds != 0 {
            let before: UInt32 = (1 << bit) &- 1
            line &+= (quotedEnds & before).nonzeroBitCount
            quotedEnds &= ~before
          }
          let ahead = laneIndex .< SIMD16<UInt8>(repeating: UInt8(truncatingIfNeeded: bit))
          if end != rowStart {
            let fields =
              delimiters
              &+ Self.laneSum(lanes &+ blockDelimiters.replacing(with: 0, where: .!ahead)) &+ 1
            if fields > width { break blocks }
            if fields < width { shortRows &+= 1 }
            keptExtents[0] = Int32(truncatingIfNeeded: rowStart)
            keptExtents[1] = Int32(truncatingIfNeeded: end)
            keptExtents += 2
            keptLines[0] = Int32(truncatingIfNeeded: rowLine)
            keptLines += 1
            room &-= 1
          }
          blockDelimiters = blockDelimiters.replacing(with: 0, where: ahead)
          lanes = SIMD16<UInt8>()
          laneBlocks = 0
          delimiters = 0
          line &+= 1
          rowLine = line
          rowStart = end &+ 1
          if base[end] == .carriageReturn && base[rowStart] == .lineFeed { rowStart &+= 1 }
          rowEnds &= rowEnds &- 1
        } while rowEnds != 0
      }
      lanes &+= blockDelimiters
      laneBlocks &+= 1
      if laneBlocks >= 28 {
        delimiters &+= Self.laneSum(lanes)
        lanes = SIMD16<UInt8>()
        laneBlocks = 0
      }
      if quotedEnds != 0 { line &+= quotedEnds.nonzeroBitCount }
      block &+= 16
    }
    extents.count = keptExtents - extents.base
    lines.count = keptLines - lines.base
    return Counted(next: rowStart, line: rowLine, shortRows: shortRows)
  }

  /// The bits of what one block leaves to the next.
  private enum Carry {
    /// It ended inside quoted text.
    static let inside: UInt32 = 1
    /// Its last byte was a closing quote.
    static let closing: UInt32 = 2
    /// Its last byte was a CR (a LF first in the next block is part of a CRLF).
    static let carriageReturn: UInt32 = 4
    /// Its last byte ended a field outside quotes (the next block's first byte starts one);
    /// known only when its quotes were followed.
    static let fieldEnd: UInt32 = 8
    /// Its quotes were followed (else `fieldEnd` is read back from its last byte).
    static let followed: UInt32 = 16
  }
}
