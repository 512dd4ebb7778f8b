/// Cuts the unread rest of a stream (a pipe) into parts at record boundaries as its bytes
/// arrive, for the workers to filter while it reads on (Docs/Architecture.md, Standard input in
/// parts).
///
/// The rest starts at a record, and the cutter reads it in order, so it knows which line ends
/// are outside quoted text: an even number of quote bytes since the part's start (a doubled
/// quote inside a quoted field counts twice). A part ends after the last such line end once it
/// holds `partSize` bytes, or earlier when the stream pauses (`ByteSource.wouldWait`), so a slow
/// pipe's records are filtered and written as they arrive. Where the reader sees quotes
/// differently (a quote inside an unquoted field, which the reader takes as a literal byte),
/// the count may never be even again: past `partSize` four times over, a part ends at its last
/// line end whatever the quotes, so memory stays bounded; the part before such a cut is not
/// clean if the cut was inside quoted text, and the engine reads on from its start in order, as
/// for a file.
final class StreamCutter {
  /// A part: its bytes, and whether it was cut early because the stream paused.
  struct Cut {
    var bytes: [UInt8]
    var idle: Bool
  }

  let source: ByteSource
  let partSize: Int
  let rule: PartBoundary
  let quote: UInt8?
  /// Bytes read after the last part handed out; they start a record.
  private var carry: [UInt8]
  /// Quote bytes in the part's first `counted` bytes; line ends before `checked` (and, quoted
  /// or not, before `lineEndsChecked`) are no part's end.
  private var quotes = 0
  private var counted = 0
  private var checked = 0
  private var lineEndsChecked = 0
  private var ended = false
  /// The read failure that ended the stream, thrown after the records before it.
  private(set) var failure: InputError?

  init(_ rest: StreamRest, partSize: Int, rule: PartBoundary, quote: UInt8?) {
    source = rest.source
    self.partSize = max(partSize, 1)
    self.rule = rule
    self.quote = quote
    carry = rest.carried
  }

  /// Bytes asked for a call: a pipe hands out at most its buffer (64 KiB on Linux) per
  /// `read(2)`.
  private static let readSize = 1 << 16

  /// How filling a part's buffer ended.
  private enum Filled {
    /// A part ends at this offset (early, when `idle`, because the stream paused).
    case cut(Int, idle: Bool)
    /// The buffer is full before any boundary: a larger one is needed.
    case full
    /// The stream ended (or failed, with `failure` set).
    case end
  }

  /// The next part, or `nil` once the stream has ended and every byte was handed out. The part's
  /// bytes are read straight into its own array; only the start of the next record is copied.
  func next() -> Cut? {
    var capacity = max(partSize, carry.count) + Self.readSize
    while true {
      var filled = Filled.end
      let buffer = [UInt8](unsafeUninitializedCapacity: capacity) { b, count in
        let base = b.baseAddress!
        carry.withUnsafeBufferPointer { c in
          if let from = c.baseAddress { base.initialize(from: from, count: c.count) }
        }
        count = carry.count
        filled = fill(base, count: &count, capacity: b.count)
        switch filled {
        case .cut(let end, _):
          carry = Array(UnsafeBufferPointer(start: base + end, count: count - end))
          count = end
        case .full, .end: break
        }
      }
      switch filled {
      case .cut(_, let idle):
        (quotes, counted, checked, lineEndsChecked) = (0, 0, 0, 0)
        return Cut(bytes: buffer, idle: idle)
      case .full:
        carry = buffer
        capacity = 2 * buffer.count + Self.readSize
      case .end:
        carry = []
        return buffer.isEmpty ? nil : Cut(bytes: buffer, idle: false)
      }
    }
  }

  /// Reads into `base[count..<capacity]` until a part can end.
  private func fill(
    _ base: UnsafeMutablePointer<UInt8>, count: inout Int, capacity: Int
  ) -> Filled {
    while true {
      let bytes = UnsafeBufferPointer(start: base, count: count)
      if count >= partSize, let end = boundary(bytes) { return .cut(end, idle: false) }
      if count >= 4 * partSize, let end = lastLineEnd(bytes) { return .cut(end, idle: false) }
      if count > 0, !ended, source.wouldWait(), let end = boundary(bytes) {
        return .cut(end, idle: true)
      }
      if ended { return .end }
      if count == capacity { return .full }
      do throws(InputError) {
        let got = try source.readBytes(
          to: base + count, maxCount: min(capacity - count, Self.readSize))
        if got == 0 { ended = true }
        count += got
      } catch {
        // As when read in order: the records before the failure, not the one it cut.
        failure = error
        ended = true
        count = boundary(bytes) ?? 0
        return .end
      }
    }
  }

  /// Gives up the bytes read and not handed out (the engine reads them in order).
  func takePending() -> [UInt8] {
    defer { carry = [] }
    return carry
  }

  /// The end of the last record boundary in `b` after `checked`: just past a LF (or, for CSV,
  /// a CR that no LF follows) outside quoted text; `nil` when there is none yet.
  private func boundary(_ b: UnsafeBufferPointer<UInt8>) -> Int? {
    let n = b.count
    if let quote {
      quotes += Self.count(quote, in: b, from: counted)
      counted = n
    }
    var open = quotes & 1  // the parity of the quotes in b[..<p + 1]
    var p = n - 1
    while p >= checked {
      if open == 0 && endsLine(b, at: p) { break }
      if let quote, b[p] == quote { open ^= 1 }
      p -= 1
    }
    let found = p >= checked ? p + 1 : nil
    // A CR at the very end may yet be followed by a LF: looked at again with the next bytes.
    checked = n > 0 && b[n - 1] == .carriageReturn ? n - 1 : n
    return found
  }

  /// The end of the last line end in `b` after `lineEndsChecked`, quoted or not.
  private func lastLineEnd(_ b: UnsafeBufferPointer<UInt8>) -> Int? {
    let n = b.count
    var p = n - 1
    while p >= lineEndsChecked && !endsLine(b, at: p) { p -= 1 }
    let found = p >= lineEndsChecked ? p + 1 : nil
    lineEndsChecked = n > 0 && b[n - 1] == .carriageReturn ? n - 1 : n
    return found
  }

  /// Whether `b[p]` ends a line where a part may start after it: a LF, or for CSV a CR that no
  /// LF follows.
  private func endsLine(_ b: UnsafeBufferPointer<UInt8>, at p: Int) -> Bool {
    let c = b[p]
    if c == .lineFeed { return true }
    return c == .carriageReturn && rule == .afterLineEnd && p + 1 < b.count
      && b[p + 1] != .lineFeed
  }

  /// How many of `b[from...]` are `byte`, eight at a time: a byte of `x` is zero exactly when
  /// adding 0x7F to its low seven bits and or-ing it with itself leaves its top bit clear. Each
  /// word's matches, one bit per byte, are added bytewise (at most 255 words before the bytes
  /// are summed, so none overflows).
  private static func count(_ byte: UInt8, in b: UnsafeBufferPointer<UInt8>, from: Int) -> Int {
    guard let base = b.baseAddress else { return 0 }
    let raw = UnsafeRawPointer(base)
    let ones: UInt64 = 0x0101_0101_0101_0101
    let pattern = ones &* UInt64(byte)
    let low7: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
    var total = 0
    var k = from
    while k + 8 <= b.count {
      var perByte: UInt64 = 0
      let stop = min(b.count - 8, k + 254 * 8)
      while k <= stop {
        let x = raw.loadUnaligned(fromByteOffset: k, as: UInt64.self) ^ pattern
        perByte &+= ~(((x & low7) &+ low7) | x | low7) >> 7
        k += 8
      }
      total += Int((perByte &* ones) >> 56)
    }
    while k < b.count {
      if b[k] == byte { total += 1 }
      k += 1
    }
    return total
  }
}
