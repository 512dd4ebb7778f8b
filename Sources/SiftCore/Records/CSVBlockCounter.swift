/// Counts the rows of a chunk sixteen bytes at a time, across rows, for a run that needs only
/// how many records there are (Docs/Performance.md, Counting a chunk at a time).
///
/// Each block of sixteen bytes is compared with LF, CR, the quote and the delimiter at once
/// (`SIMD16<UInt8>`). A block with no LF, CR or quote, outside quoted text (most blocks), only
/// has its delimiters counted per byte lane. A block with one of them has each of the four turned
/// into a 16-bit mask (the lanes' flags weighted 1, 2, 4 … 128 and summed eight at a time by one
/// multiplication); a prefix XOR over the quote mask (`x ^= x << 1; … x ^= x << 8`, carried from
/// block to block) marks the bytes inside quoted text, whose delimiters and line ends are field
/// text. Every line end outside quotes ends a row (a CRLF once, at its CR; a line end at a row's
/// start is a blank line, skipped); the row's fields are the delimiters counted since it started,
/// plus one. A row with the header's field count or fewer (a short row, counted) is kept as the
/// full read keeps it: its text range and the line it starts on.
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

  /// The weight of each byte lane in its half of a block's mask.
  private static let laneWeights = SIMD16<UInt8>(
    1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128)
  private static let ones: UInt64 = 0x0101_0101_0101_0101

  /// The 16-bit mask of the lanes `flags` sets: each half's weighted lanes summed into its top
  /// byte by one multiplication (the weights are distinct bits, so nothing carries).
  @inline(__always)
  static func mask(_ flags: SIMDMask<SIMD16<Int8>>) -> UInt32 {
    let weighted = unsafeBitCast(flags, to: SIMD16<UInt8>.self) & laneWeights
    let halves = unsafeBitCast(weighted, to: SIMD2<UInt64>.self)
    let low = (halves[0] &* ones) >> 56
    let high = (halves[1] &* ones) >> 56
    return UInt32(truncatingIfNeeded: low | high << 8)
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
  @inline(never)
  func countRows(
    _ b: UnsafeBufferPointer<UInt8>, from start: Int, line: Int, width: Int,
    extents: PointerStore<Int32>, lines: PointerStore<Int32>
  ) -> Counted {
    var counted = Counted(next: start, line: line, shortRows: 0)
    guard let base = b.baseAddress else { return counted }
    let raw = UnsafeRawPointer(base)
    let n = b.count
    let delimiterLanes = SIMD16<UInt8>(repeating: delimiter)
    let lineFeedLanes = SIMD16<UInt8>(repeating: .lineFeed)
    let returnLanes = SIMD16<UInt8>(repeating: .carriageReturn)
    // Without quoting a quote is field text: the lanes look for a LF again instead.
    let quoteLanes = SIMD16<UInt8>(repeating: quoting ? .quote : .lineFeed)
    /// Where the row being counted starts, and its line; `line`: the line of the next byte.
    var rowStart = start
    var rowLine = line
    var line = line
    /// The row's delimiters in the blocks before this one: `delimiters`, plus `lanes`' sum.
    var delimiters = 0
    var lanes = SIMD16<UInt8>()
    var laneBlocks = 0
    /// 0xFFFF while the block before ended inside quoted text.
    var inside: UInt32 = 0
    /// Bit 0 set: the byte before this block was a closing quote, a CR, or the end of a field
    /// (the block's first byte starts a field), each outside quoted text.
    var afterClosing: UInt32 = 0
    var afterReturn: UInt32 = 0
    var fieldStart: UInt32 = 1
    /// The block before had no LF, CR or quote and lay outside quotes (its delimiters are in
    /// `lanes`, its last byte's meaning is read back when needed).
    var plainBefore = false
    var block = start
    // A byte always follows the block: a CR or a closing quote at its end is settled by it.
    while block &+ 16 < n {
      let v = raw.loadUnaligned(fromByteOffset: block, as: SIMD16<UInt8>.self)
      let lineFeeds = v .== lineFeedLanes
      let returns = v .== returnLanes
      let quotes = v .== quoteLanes
      let stops = lineFeeds .| returns .| quotes
      if inside | afterClosing | afterReturn == 0, !Self.any(stops) {
        lanes &+= SIMD16<UInt8>().replacing(with: 1, where: v .== delimiterLanes)
        laneBlocks &+= 1
        // At most 31 blocks a lane sum: eight lanes then add up to a byte.
        if laneBlocks == 31 {
          delimiters &+= Self.laneSum(lanes)
          lanes = SIMD16<UInt8>()
          laneBlocks = 0
        }
        plainBefore = true
        block &+= 16
        continue
      }
      if plainBefore {
        fieldStart = base[block &- 1] == delimiter ? 1 : 0
        plainBefore = false
      }
      let d = Self.mask(v .== delimiterLanes)
      let lf = Self.mask(lineFeeds)
      let cr = Self.any(returns) ? Self.mask(returns) : 0
      let lineEnds = lf | cr
      var quoted: UInt32 = 0
      if quoting, Self.any(quotes) || inside | afterClosing != 0 {
        let q = Self.mask(quotes)
        var x = q
        x ^= x << 1
        x ^= x << 2
        x ^= x << 4
        x ^= x << 8
        quoted = (x ^ inside) & 0xFFFF
        let structural = (d | lineEnds) & ~quoted
        let closing = q & ~quoted
        let fieldStarts = (structural << 1) | fieldStart
        let afterClose = (closing << 1) | afterClosing
        // A quote that opens quoted text must start a field or double a closing quote, and a
        // closing quote must be followed by a delimiter, a line end or a quote.
        if (q & quoted) & ~(fieldStarts | afterClose) & 0xFFFF != 0
          || afterClose & ~(d | lineEnds | q) & 0xFFFF != 0
        {
          break
        }
        afterClosing = closing >> 15
        inside = (quoted >> 15) != 0 ? 0xFFFF : 0
        fieldStart = (structural >> 15) & 1
      } else {
        fieldStart = (d | lineEnds) >> 15
      }
      // Each line end once, at its first byte (the LF of a CRLF is not one).
      let firstBytes = lineEnds & ~(lf & ((cr << 1) | afterReturn))
      afterReturn = cr >> 15
      var rowEnds = firstBytes & ~quoted
      var quotedEnds = firstBytes & quoted
      var rest = d & ~quoted
      if rowEnds != 0 {
        extents.reserve(32)
        lines.reserve(16)
        var keptExtents = extents.base + extents.count
        var keptLines = lines.base + lines.count
        defer {
          extents.count = keptExtents - extents.base
          lines.count = keptLines - lines.base
        }
        delimiters &+= Self.laneSum(lanes)
        lanes = SIMD16<UInt8>()
        laneBlocks = 0
        repeat {
          let bit = rowEnds.trailingZeroBitCount
          let end = block &+ bit
          let before: UInt32 = (1 << bit) &- 1
          if quotedEnds & before != 0 {
            line &+= (quotedEnds & before).nonzeroBitCount
            quotedEnds &= ~before
          }
          if end != rowStart {
            let fields = delimiters &+ (rest & before).nonzeroBitCount &+ 1
            if fields > width {
              counted.next = rowStart
              counted.line = rowLine
              return counted
            }
            if fields < width { counted.shortRows &+= 1 }
            keptExtents[0] = Int32(truncatingIfNeeded: rowStart)
            keptExtents[1] = Int32(truncatingIfNeeded: end)
            keptExtents += 2
            keptLines[0] = Int32(truncatingIfNeeded: rowLine)
            keptLines += 1
          }
          rest &= ~before
          delimiters = 0
          line &+= 1
          rowLine = line
          rowStart = end &+ 1
          if base[end] == .carriageReturn && base[rowStart] == .lineFeed { rowStart &+= 1 }
          rowEnds &= rowEnds &- 1
        } while rowEnds != 0
        counted.next = rowStart
        counted.line = rowLine
      }
      delimiters &+= rest.nonzeroBitCount
      line &+= quotedEnds.nonzeroBitCount
      block &+= 16
    }
    return counted
  }
}
