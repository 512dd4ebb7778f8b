#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads a `ByteSource` in large chunks, carrying the unfinished end of one chunk (a record cut
/// by the chunk boundary) into the next.
///
/// A record larger than a chunk grows the buffer geometrically: each buffer reads at least as many
/// new bytes as it carries, so the carried bytes are copied O(1) times each on average and a
/// 400 MB field costs a few passes over it, not one pass per chunk (Docs/Formats.md, Input).
/// New bytes are read straight into the buffer's free capacity, at most a chunk per call (a pipe
/// hands out 64 KiB at a time), without clearing the rest first.
struct ChunkedInput {
  /// The default number of new bytes read per chunk: a chunk stays in a core's cache from the
  /// `read(2)` copy through the scan, and the sample's first chunk (about the 1,000 records it
  /// types fields by) is all that is read on the calling thread before a file's rest goes to
  /// the workers (Docs/Performance.md, Chunks that stay in the cache).
  static let defaultChunkSize = 256 << 10

  /// The chunk size for reading `range` of a file: the default, or less for a smaller range
  /// (one more byte, so the first read already sees the end).
  static func chunkSize(for range: Range<Int>) -> Int {
    min(defaultChunkSize, range.count + 1)
  }

  let source: ByteSource
  let chunkSize: Int
  /// True once the source has reported its end: the last buffer holds every remaining byte.
  private(set) var atEnd = false
  /// True when the last buffer ended early because its stream had no more bytes ready: the
  /// records so far are handed on now rather than when a chunk is full (Docs/Formats.md,
  /// Streaming input).
  private(set) var wentIdle = false
  /// The last buffer, whose bytes from `carriedFrom` on were not consumed.
  private var carried: [UInt8]
  private var carriedFrom = 0
  private var atStart = true
  /// True until the first buffer: bytes given as `prefix` are scanned before waiting for more.
  private var prefixUnscanned: Bool
  /// True when a UTF-8 byte order mark at the start of the source was dropped.
  private(set) var droppedByteOrderMark = false
  /// Every byte written into the buffers so far: the ones read and the carried ones copied
  /// forward (the measure tests use to check that carrying a long record stays linear).
  private(set) var bytesWritten = 0
  /// A read failure met after some bytes of a buffer were read.
  private var heldFailure: InputError?

  /// `prefix` holds bytes already taken from the source (by sniffing); they come first. A part
  /// of a file (`atStart` false) keeps a leading byte order mark: it is not the file's start.
  init(source: ByteSource, chunkSize: Int, prefix: [UInt8] = [], atStart: Bool = true) {
    self.source = source
    self.chunkSize = max(chunkSize, 1)
    self.carried = prefix
    self.atStart = atStart
    self.prefixUnscanned = !prefix.isEmpty
  }

  /// Bytes carried over from the last buffer, not consumed yet.
  var carriedCount: Int { carried.count - carriedFrom }

  /// The bytes carried over and not consumed, when no read failure is held back: where the
  /// unread rest of a stream starts (Docs/Architecture.md, Standard input in parts).
  var unconsumedBytes: [UInt8]? {
    heldFailure == nil ? Array(carried[carriedFrom...]) : nil
  }

  /// The next buffer: the carried bytes followed by new bytes, at least a chunk's worth (or as
  /// many as are carried, so a record larger than a chunk doubles the buffer) unless the source
  /// ends or fails first. A UTF-8 byte order mark at the very start is dropped.
  mutating func nextBuffer() throws(InputError) -> [UInt8] {
    if let heldFailure { throw heldFailure }
    let kept = carriedCount
    // A part of a stream, in memory: its bytes are the one buffer, not copied
    // (Docs/Architecture.md, Standard input in parts).
    if kept == 0, !atStart, !atEnd, let whole = source.takeWholeMemory(ifAtMost: chunkSize) {
      atEnd = true
      bytesWritten += whole.count
      return whole
    }
    let wanted = max(chunkSize, kept)
    guard kept + wanted < Int(Int32.max) else {
      throw InputError(
        name: source.name, line: 0, column: 0, message: "a record is larger than 2 GiB")
    }
    // At the start, at least 3 bytes, to see a byte order mark.
    let capacity = kept + max(wanted, atStart ? 3 : 0)
    var failure: InputError?
    var buffer = [UInt8](unsafeUninitializedCapacity: capacity) { b, count in
      let base = b.baseAddress!
      carried.withUnsafeBufferPointer { c in
        if kept > 0 { base.initialize(from: c.baseAddress! + carriedFrom, count: kept) }
      }
      count = kept
      // Sniffed bytes from a stream that waits for its writer are handed on before waiting.
      wentIdle = prefixUnscanned && !(atStart && count < 3) && source.wouldWait()
      prefixUnscanned = false
      do throws(InputError) {
        while !wentIdle && !atEnd && (count - kept < wanted || (atStart && count < 3)) {
          let n = try source.readBytes(
            to: base + count, maxCount: min(capacity - count, chunkSize))
          if n == 0 { atEnd = true }
          count += n
          if n > 0, !(atStart && count < 3), source.wouldWait() {
            wentIdle = true
            break
          }
        }
      } catch {
        failure = error
      }
    }
    bytesWritten += buffer.count
    carried = []
    carriedFrom = 0
    if let failure {
      // The bytes read before a failure are handed out (not as the last buffer: the record
      // they end in is not whole); the failure comes with the next buffer.
      guard buffer.count > kept else { throw failure }
      heldFailure = failure
    }
    if atStart {
      atStart = false
      if buffer.count >= 3 && buffer[0] == 0xEF && buffer[1] == 0xBB && buffer[2] == 0xBF {
        buffer.removeFirst(3)
        droppedByteOrderMark = true
      }
    }
    return buffer
  }

  /// Keeps `buffer[offset...]`, the bytes not consumed yet, for the next buffer.
  mutating func carry(_ buffer: [UInt8], from offset: Int) {
    carried = buffer
    carriedFrom = offset
  }
}

/// A growable run of plain values (field spans, extents, line numbers, a JSON reader's keys)
/// filled through a pointer in the readers' inner loops. Reading `base` from a loop takes no
/// reference count, unlike copying an array out of a class.
final class PointerStore<Element: BitwiseCopyable> {
  private(set) var base: UnsafeMutablePointer<Element>
  private(set) var capacity: Int
  var count = 0

  init(capacity: Int = 4096) {
    self.capacity = max(capacity, 16)
    base = .allocate(capacity: self.capacity)
    Self.askForHugePages(base, capacity: self.capacity)
  }

  /// A store holding a copy of `values`.
  convenience init(copying values: [Element]) {
    self.init(capacity: values.count)
    values.withUnsafeBufferPointer { v in
      if let from = v.baseAddress { base.initialize(from: from, count: v.count) }
    }
    count = values.count
  }

  private init(base: UnsafeMutablePointer<Element>, capacity: Int, count: Int) {
    self.base = base
    self.capacity = capacity
    self.count = count
  }

  /// The values as they stand (valid while the store is, and until it changes).
  var values: UnsafeBufferPointer<Element> { UnsafeBufferPointer(start: base, count: count) }

  deinit { base.deallocate() }

  /// Makes room for `extra` more values after `count`.
  @inline(__always)
  func reserve(_ extra: Int) {
    if count + extra > capacity { grow(to: count + extra) }
  }

  private func grow(to needed: Int) {
    var newCapacity = capacity * 2
    while newCapacity < needed { newCapacity *= 2 }
    let newBase = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
    Self.askForHugePages(newBase, capacity: newCapacity)
    newBase.update(from: base, count: count)
    base.deallocate()
    base = newBase
    capacity = newCapacity
  }

  /// Asks the system to back a store of 4 MiB or more with huge pages where it gives them
  /// (Linux's `MADV_HUGEPAGE`, over the whole pages inside it): a next baseline's tens of
  /// megabytes then take hundreds of page faults, not thousands (Docs/Performance.md, "A first
  /// run's rows written in the parts").
  private static func askForHugePages(_ base: UnsafeMutablePointer<Element>, capacity: Int) {
    #if os(Linux)
      let bytes = capacity * MemoryLayout<Element>.stride
      guard bytes >= 4 << 20 else { return }
      let page = 1 << 12
      let start = (Int(bitPattern: base) + page - 1) & ~(page - 1)
      let end = (Int(bitPattern: base) + bytes) & ~(page - 1)
      guard end > start, let region = UnsafeMutableRawPointer(bitPattern: start) else { return }
      _ = madvise(region, end - start, MADV_HUGEPAGE)
    #endif
  }

  @inline(__always)
  func append(_ value: Element) {
    reserve(1)
    base[count] = value
    count += 1
  }

  /// Appends `values` with one copy.
  @inline(__always)
  func append(_ values: UnsafeBufferPointer<Element>) {
    guard let from = values.baseAddress, values.count > 0 else { return }
    reserve(values.count)
    (base + count).initialize(from: from, count: values.count)
    count += values.count
  }

  func append(contentsOf values: some Collection<Element>) {
    reserve(values.count)
    for value in values {
      base[count] = value
      count += 1
    }
  }

  /// Hands the values to a new store that owns them from then on, without copying them (a
  /// reader's spans for a batch are a megabyte a chunk); this store starts again empty, with room
  /// for as many values and an eighth more.
  func handOff() -> PointerStore {
    let full = PointerStore(base: base, capacity: capacity, count: count)
    capacity = max(count + count / 8, 16)
    base = .allocate(capacity: capacity)
    count = 0
    return full
  }
}

extension PointerStore<Int32> {
  /// Re-lays `rows` rows of `oldWidth` span pairs as rows of `newWidth` pairs, the new fields
  /// missing (`-1`).
  func widen(rows: Int, from oldWidth: Int, to newWidth: Int) {
    reserve(rows * (newWidth - oldWidth) * 2)
    var r = rows - 1
    while r >= 0 {
      let from = base + r * oldWidth * 2
      let to = base + r * newWidth * 2
      for k in stride(from: newWidth * 2 - 1, through: oldWidth * 2, by: -1) { to[k] = -1 }
      if r > 0 { to.update(from: from, count: oldWidth * 2) }  // overlapping: moves rightwards
      r -= 1
    }
    count = rows * newWidth * 2
  }
}

/// Counts lines (LF, CRLF or a lone CR each end one) while moving forward through a buffer, to
/// turn byte offsets into 1-based line and column numbers. A CR ends its line at once; the LF
/// after it, also one at the start of the next buffer, ends nothing more.
struct LineCursor {
  /// Bytes before `offset` have been counted.
  var offset = 0
  var line = 1
  /// Where the current line starts (negative when it started in an earlier buffer).
  var lineStart = 0
  /// True when the last byte counted was a CR.
  var afterCarriageReturn = false

  /// Counts the line ends in `offset..<end`.
  mutating func advance(to end: Int, in b: UnsafeBufferPointer<UInt8>) {
    while offset < end {
      let c = b[offset]
      offset += 1
      if c == .lineFeed || c == .carriageReturn {
        if c == .carriageReturn || !afterCarriageReturn { line += 1 }
        lineStart = offset
      }
      afterCarriageReturn = c == .carriageReturn
    }
  }

  /// The 1-based byte column of `offset` (at or after the cursor, on its line).
  func column(of offset: Int) -> Int { offset - lineStart + 1 }

  /// Shifts the cursor when the first `consumed` bytes of a buffer are dropped.
  mutating func rebase(droppingFirst consumed: Int) {
    offset -= consumed
    lineStart -= consumed
  }

  /// An error at `at`, counting lines from this cursor (which is not moved).
  func error(
    at: Int, in b: UnsafeBufferPointer<UInt8>, name: String, _ message: String
  ) -> InputError {
    var probe = self
    probe.advance(to: at, in: b)
    return InputError(name: name, line: probe.line, column: probe.column(of: at), message: message)
  }
}

extension ChunkedInput {
  /// Reads the next chunk and lets `scan` read the whole records at its start (it returns where
  /// they end, and is told whether this is the last chunk); the rest is carried into the next
  /// chunk. Returns the chunk, and whether the input is done: at its end, or after an error,
  /// which `failure` holds back when `records()` records were read before it. In decompressed
  /// input, the error is the damage found further on, if any, rather than the malformed record.
  mutating func scanNextChunk(
    failure: inout DeferredFailure, records: () -> Int,
    _ scan: (UnsafeBufferPointer<UInt8>, Bool) throws(InputError) -> Int
  ) throws(InputError) -> (chunk: [UInt8], done: Bool) {
    let buffer = try nextBuffer()
    let isLast = atEnd
    do throws(InputError) {
      let consumed = try buffer.withUnsafeBufferPointer { b throws(InputError) in
        try scan(b, isLast)
      }
      if !isLast { carry(buffer, from: consumed) }
      return (buffer, isLast)
    } catch {
      try failure.hold(source.damageAhead() ?? error, after: records())
      return (buffer, true)
    }
  }
}

/// An input error found after some records of a chunk were read whole. Those records are handed
/// out first, since Docs/Formats.md, Errors writes every record before an error; the error follows on the next
/// call.
struct DeferredFailure {
  private var error: InputError?

  /// Throws the error held back by `hold`, once.
  mutating func throwIfHeld() throws(InputError) {
    if let error {
      self.error = nil
      throw error
    }
  }

  /// Holds `error` back when `records` were read before it; else throws it now.
  mutating func hold(_ error: InputError, after records: Int) throws(InputError) {
    guard records > 0 else { throw error }
    self.error = error
  }
}
