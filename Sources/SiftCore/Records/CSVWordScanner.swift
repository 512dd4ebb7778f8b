/// Reads one CSV or TSV row eight bytes at a time, quoted fields included (Docs/Performance.md,
/// Eight bytes at a time).
///
/// A word with no quote, outside quoted text (most words), has its delimiters and line ends
/// flagged by the classic zero-byte test, as cheap as a plain row's scan. A word holding a quote,
/// or inside or just after quoted text, has its delimiters, quotes, LFs and CRs flagged exactly
/// (the high bit of each byte that equals the pattern), then a prefix XOR over the quote flags
/// marks the bytes inside quoted text: a byte is inside when an odd number of quotes precede it
/// or sit on it, in this word and the ones before it in the row. Delimiters and line ends outside
/// quotes end fields; the others are field text. Doubled quotes toggle twice and stay inside.
///
/// The scan gives up (`nil`) whenever the row needs the byte-at-a-time scanner's rules, which
/// then reads it from its start: a quote that neither opens a field nor follows a closing quote
/// (a literal byte of an unquoted field), a closing quote followed by anything but a quote, a
/// delimiter or a line end (an error to report), a line end inside quotes (lines to count), more
/// than `limit` fields, or a row whose line end is not in a whole word of `b`. So every row it
/// reads is read exactly as that scanner reads it.
struct CSVWordScanner {
  let delimiter: UInt8
  let quoting: Bool

  private static let ones: UInt64 = 0x0101_0101_0101_0101
  private static let highBits: UInt64 = 0x8080_8080_8080_8080
  private static let lowBits: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
  /// Every byte below SO (0x0E): LF and CR, and the other control bytes the cheap test flags.
  private static let belowShiftOut: UInt64 = 0x0E0E_0E0E_0E0E_0E0E
  /// The flag of a word's first byte, and of its last.
  private static let firstByte: UInt64 = 0x80
  private static let lastByte: UInt64 = 0x80 << 56

  /// The delimiter in every byte of a word.
  private var delimiterPattern: UInt64 { Self.ones &* UInt64(delimiter) }

  /// The high bit of every zero byte of `v`; the lowest is exact, a flag above a zero byte may
  /// be false (a borrow from `0x00` into a `0x01` above it).
  @inline(__always)
  static func zeroBytes(_ v: UInt64) -> UInt64 {
    (v &- ones) & ~v & highBits
  }

  /// The high bit of every byte of `w` equal to the byte repeated in `pattern`, and no other:
  /// the low seven bits of each byte are added to 0x7F without carrying into the next byte.
  @inline(__always)
  static func equalBytes(_ w: UInt64, _ pattern: UInt64) -> UInt64 {
    let t = w ^ pattern
    return ~(((t & lowBits) &+ lowBits) | t) & highBits
  }

  /// The delimiters and line ends of word `w` that lie outside quoted text, flagged exactly, or
  /// `nil` when the row must be read byte by byte. `inside` (`highBits` or 0) and `afterClosing`
  /// (the flag of a first byte) carry the quote state from the word before to the next one;
  /// `startsField`: the word's first byte starts a field. Kept out of line, so the loop over
  /// words without quotes keeps its registers.
  @inline(never)
  static func quotedWord(
    _ w: UInt64, delimiters: UInt64, startsField: Bool, inside: inout UInt64,
    afterClosing: inout UInt64
  ) -> UInt64? {
    let q = equalBytes(w, ones &* UInt64(UInt8.quote))
    let d = equalBytes(w, delimiters)
    let lineEnds =
      equalBytes(w, ones &* UInt64(UInt8.lineFeed))
      | equalBytes(w, ones &* UInt64(UInt8.carriageReturn))
    var x = q
    x ^= x << 8
    x ^= x << 16
    x ^= x << 32
    let quoted = (x ^ inside) & highBits
    if lineEnds & quoted != 0 { return nil }
    let structural = (d | lineEnds) & ~quoted
    let opening = q & quoted
    let closing = q & ~quoted
    let fieldStarts = (structural << 8) | (startsField ? firstByte : 0)
    let afterClose = (closing << 8) | afterClosing
    if opening & ~(fieldStarts | afterClose) != 0 { return nil }
    if afterClose & ~(d | lineEnds | q) != 0 { return nil }
    afterClosing = (closing & lastByte) >> 56
    inside = (0 &- (quoted >> 63)) & highBits
    return structural
  }

  /// Scans the row starting at `start`, writing its field spans to `out` (at most `limit`
  /// pairs); `nil` when the row must be read byte by byte (see the type's summary).
  @inline(__always)
  func scanRow(
    _ b: UnsafeBufferPointer<UInt8>, from start: Int, limit: Int,
    into out: UnsafeMutablePointer<Int32>
  ) -> CSVReader.RowScan? {
    guard let base = b.baseAddress else { return nil }
    let raw = UnsafeRawPointer(base)
    let n = b.count
    let h = Self.highBits
    let delimiters = delimiterPattern
    let quotes = Self.ones &* UInt64(UInt8.quote)
    var fieldStart = start
    var fields = 0
    var word = start
    /// `highBits` while the word before ended inside quoted text, else 0.
    var inside: UInt64 = 0
    /// The last byte of the word before was a closing quote.
    var afterClosing: UInt64 = 0
    while word &+ 8 <= n {
      let w = raw.loadUnaligned(fromByteOffset: word, as: UInt64.self)
      // Most words hold no quote and lie outside quoted text: their candidates are flagged by
      // the cheaper zero-byte test, which may flag a byte above a true match (a borrow) and
      // flags every control byte below SO (0x0E) for LF and CR, so each is checked below.
      var structural =
        Self.zeroBytes(w ^ delimiters) | ((w &- Self.belowShiftOut) & ~w & h)
      if quoting, Self.zeroBytes(w ^ quotes) | afterClosing | inside != 0 {
        guard
          let exact = Self.quotedWord(
            w, delimiters: delimiters, startsField: fieldStart == word,
            inside: &inside, afterClosing: &afterClosing)
        else { return nil }
        structural = exact
      }
      while structural != 0 {
        let p = word &+ structural.trailingZeroBitCount >> 3
        structural &= structural &- 1
        let c = base[p]
        if c == delimiter {
          guard fields < limit else { return nil }
          out[2 &* fields] = Int32(truncatingIfNeeded: fieldStart)
          out[2 &* fields &+ 1] = Int32(truncatingIfNeeded: p)
          fields &+= 1
          fieldStart = p &+ 1
          continue
        }
        guard c == .lineFeed || c == .carriageReturn else { continue }
        guard fields < limit else { return nil }
        out[2 &* fields] = Int32(truncatingIfNeeded: fieldStart)
        out[2 &* fields &+ 1] = Int32(truncatingIfNeeded: p)
        fields &+= 1
        var next = p &+ 1
        if c == .carriageReturn {
          guard next < n else { return nil }
          if base[next] == .lineFeed { next &+= 1 }
        }
        return CSVReader.RowScan(
          outcome: .complete, next: next, end: p, fields: fields, extraField: -1, lineEnds: 1)
      }
      word &+= 8
    }
    return nil
  }

  /// How many bytes `flags` flags (high bits only): the flags moved to the low bits, summed
  /// into the top byte by one multiplication (a portable build has no population count
  /// instruction, and its emulation costs a dozen operations).
  @inline(__always)
  static func flagCount(_ flags: UInt64) -> Int {
    laneSum(flags >> 7)
  }

  /// The sum of the eight bytes of `lanes`, when it is below 256: one multiplication adds them
  /// all into the top byte.
  @inline(__always)
  static func laneSum(_ lanes: UInt64) -> Int {
    Int(truncatingIfNeeded: (lanes &* ones) >> 56)
  }

  /// Counts the fields of the row starting at `start` without recording them, eight bytes at a
  /// time, for a run that needs only how many records there are (Docs/Performance.md, Counting
  /// without fields); `nil` when the row holds a quote (with quoting on), has more than `limit`
  /// fields or ends past the last whole word of `b`, and `scanRow` or the byte-at-a-time
  /// scanner must read it. Sixteen bytes at a time (SIMD) while they hold no quote, LF or CR:
  /// their delimiters are counted per byte lane, the lanes summed at most every 31 blocks;
  /// the block with one of those bytes, and the row's last bytes, go a word at a time, the
  /// delimiters and line ends flagged exactly.
  @inline(never)
  func countRow(
    _ b: UnsafeBufferPointer<UInt8>, from start: Int, limit: Int
  ) -> CSVReader.RowScan? {
    guard let base = b.baseAddress else { return nil }
    let raw = UnsafeRawPointer(base)
    let n = b.count
    let h = Self.highBits
    let delimiters = delimiterPattern
    let quotes = quoting ? Self.ones &* UInt64(UInt8.quote) : 0
    let (delimiterLanes, lineFeedLanes, returnLanes) = (
      SIMD16<UInt8>(repeating: delimiter), SIMD16<UInt8>(repeating: .lineFeed),
      SIMD16<UInt8>(repeating: .carriageReturn)
    )
    // Without quoting a quote is field text: the lanes look for a LF twice instead.
    let quoteLanes = SIMD16<UInt8>(repeating: quoting ? .quote : .lineFeed)
    var found = 0
    var word = start
    while word &+ 8 <= n {
      var lanes = SIMD16<UInt8>()
      // At most 31 blocks: eight lanes then sum to at most 248, a byte.
      let lastBlock = min(n &- 16, word &+ 16 &* 30)
      while word <= lastBlock {
        let v = raw.loadUnaligned(fromByteOffset: word, as: SIMD16<UInt8>.self)
        // Tested as two words: `any` on a mask is a horizontal minimum, not inlined.
        let stops = (v .== quoteLanes) .| (v .== lineFeedLanes) .| (v .== returnLanes)
        let special = unsafeBitCast(
          SIMD16<UInt8>().replacing(with: 0xFF, where: stops), to: SIMD2<UInt64>.self)
        if special[0] | special[1] != 0 { break }
        lanes &+= SIMD16<UInt8>().replacing(with: 1, where: v .== delimiterLanes)
        word &+= 16
      }
      let sums = unsafeBitCast(lanes, to: SIMD2<UInt64>.self)
      found &+= Self.laneSum(sums[0]) &+ Self.laneSum(sums[1])
      // The block that stopped it (or the last bytes), a word at a time.
      let stop = min(word &+ 16, n)
      while word &+ 8 <= stop {
        let w = raw.loadUnaligned(fromByteOffset: word, as: UInt64.self)
        let d = Self.equalBytes(w, delimiters)
        // A quote, LF or CR, or a false flag: any control byte below SO (a tab too), or, without
        // quoting, a NUL byte (the quote pattern is then 0).
        let q = w ^ quotes
        if ((w &- Self.belowShiftOut) & ~w | (q &- Self.ones) & ~q) & h != 0 {
          let lineEnds =
            Self.equalBytes(w, Self.ones &* UInt64(UInt8.lineFeed))
            | Self.equalBytes(w, Self.ones &* UInt64(UInt8.carriageReturn))
          // The flags of the bytes before the first line end (all of them without one).
          let before = lineEnds == 0 ? ~0 : ((lineEnds & (0 &- lineEnds)) >> 7) &- 1
          if quoting && Self.equalBytes(w, quotes) & before != 0 { return nil }
          if lineEnds != 0 {
            let fields = found &+ Self.flagCount(d & before) &+ 1
            guard fields <= limit else { return nil }
            let p = word &+ lineEnds.trailingZeroBitCount >> 3
            var next = p &+ 1
            if base[p] == .carriageReturn {
              guard next < n else { return nil }
              if base[next] == .lineFeed { next &+= 1 }
            }
            return CSVReader.RowScan(
              outcome: .complete, next: next, end: p, fields: fields, extraField: -1, lineEnds: 1)
          }
        }
        found &+= Self.flagCount(d)
        word &+= 8
      }
    }
    return nil
  }

  /// Where the first delimiter, quote, LF or CR at or after `start` is, eight bytes at a time
  /// (the lowest flag of `zeroBytes` is exact, so the lowest of the four is a true match), then
  /// byte by byte; `nil`: none in `b`.
  @inline(__always)
  private func nextSpecial(
    _ base: UnsafePointer<UInt8>, count n: Int, from start: Int
  ) -> Int? {
    Self.nextSpecial(base, count: n, from: start, delimiter: delimiter)
  }

  /// `nextSpecial` for any delimiter (`CSVRowText.holdsQuotedByte`).
  @inline(__always)
  static func nextSpecial(
    _ base: UnsafePointer<UInt8>, count n: Int, from start: Int, delimiter: UInt8
  ) -> Int? {
    let raw = UnsafeRawPointer(base)
    let (delimiters, quotes) = (ones &* UInt64(delimiter), ones &* UInt64(UInt8.quote))
    let (lineFeeds, returns) = (
      Self.ones &* UInt64(UInt8.lineFeed), Self.ones &* UInt64(UInt8.carriageReturn)
    )
    var p = start
    while p &+ 8 <= n {
      let w = raw.loadUnaligned(fromByteOffset: p, as: UInt64.self)
      let found =
        Self.zeroBytes(w ^ delimiters) | Self.zeroBytes(w ^ quotes)
        | Self.zeroBytes(w ^ lineFeeds) | Self.zeroBytes(w ^ returns)
      if found != 0 { return p &+ found.trailingZeroBitCount >> 3 }
      p &+= 8
    }
    while p < n {
      let c = base[p]
      if c == delimiter || c == .quote || c == .lineFeed || c == .carriageReturn { return p }
      p &+= 1
    }
    return nil
  }

  /// Counts the fields of a row holding quotes without recording them (Docs/Performance.md,
  /// Counting without fields): each field is skipped to its end, a quoted one to its closing
  /// quote, eight bytes at a time, counting the line ends inside quotes. Also says whether the
  /// row is as `CSVWriter` writes it (`CSVRowText`): every quoted field holds a delimiter, a
  /// quote, LF or CR, and no unquoted field holds a quote. `nil` when the byte-at-a-time
  /// scanner must read the row: more than `limit` fields, text after a closing quote, or a row
  /// that goes on past `b` (or whose end `b` does not settle: a CR or a quote as its last byte).
  @inline(never)
  func countQuotedRow(
    _ b: UnsafeBufferPointer<UInt8>, from start: Int, limit: Int
  ) -> (row: CSVReader.RowScan, asWritten: Bool)? {
    guard quoting, let base = b.baseAddress else { return nil }
    let n = b.count
    var p = start
    var fields = 0
    var lineEnds = 0
    var asWritten = true
    while true {
      // `p` starts a field.
      fields &+= 1
      guard fields <= limit else { return nil }
      if p < n && base[p] == .quote {
        var needsQuotes = false
        p &+= 1
        while true {
          guard let q = nextSpecial(base, count: n, from: p), q &+ 1 < n else { return nil }
          let c = base[q]
          p = q &+ 1
          if c == .quote {
            guard base[p] == .quote else { break }
            p &+= 1
          } else if c == .lineFeed || (c == .carriageReturn && base[p] != .lineFeed) {
            lineEnds &+= 1
          }
          needsQuotes = true
        }
        if !needsQuotes { asWritten = false }
        let c = base[p]
        guard c == delimiter || c == .lineFeed || c == .carriageReturn else { return nil }
      } else {
        while true {
          guard let q = nextSpecial(base, count: n, from: p) else { return nil }
          p = q
          guard base[q] == .quote else { break }
          asWritten = false
          p &+= 1
        }
      }
      if base[p] == delimiter {
        p &+= 1
        continue
      }
      var next = p &+ 1
      if base[p] == .carriageReturn {
        guard next < n else { return nil }
        if base[next] == .lineFeed { next &+= 1 }
      }
      return (
        CSVReader.RowScan(
          outcome: .complete, next: next, end: p, fields: fields, extraField: -1,
          lineEnds: lineEnds &+ 1),
        asWritten
      )
    }
  }
}
