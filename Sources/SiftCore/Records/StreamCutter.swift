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
  /// Bytes read and not yet handed out in a part; they start a record.
  private var pending: [UInt8]
  /// Quote bytes in `pending[..<counted]`; line ends before `checked` are not boundaries.
  private var quotes = 0
  private var counted = 0
  private var checked = 0
  /// Line ends before `lineEndsChecked` are none (looked for whatever the quotes).
  private var lineEndsChecked = 0
  private var ended = false
  /// The read failure that ended the stream, thrown after the records before it.
  private(set) var failure: InputError?

  init(_ rest: StreamRest, partSize: Int, rule: PartBoundary, quote: UInt8?) {
    source = rest.source
    self.partSize = max(partSize, 1)
    self.rule = rule
    self.quote = quote
    pending = rest.carried
  }

  /// Bytes asked for a call: a pipe hands out at most its buffer (64 KiB on Linux) per
  /// `read(2)`, and `ByteSource.read(into:)` clears what it asks for first.
  private static let readSize = 1 << 16

  /// The next part, or `nil` once the stream has ended and every byte was handed out.
  func next() -> Cut? {
    while !ended {
      if pending.count >= partSize, let cut = boundary() { return take(cut, idle: false) }
      if pending.count >= 4 * partSize, let cut = lastLineEnd() { return take(cut, idle: false) }
      if !pending.isEmpty, source.wouldWait(), let cut = boundary() {
        return take(cut, idle: true)
      }
      do throws(InputError) {
        if pending.capacity < pending.count + Self.readSize {
          pending.reserveCapacity(max(partSize, 2 * pending.count) + Self.readSize)
        }
        if try source.read(into: &pending, maxCount: Self.readSize) == 0 {
          ended = true
        }
      } catch {
        // As when read in order: the records before the failure, not the one it cut.
        failure = error
        ended = true
        pending.removeLast(pending.count - (boundary() ?? 0))
      }
    }
    guard !pending.isEmpty else { return nil }
    return take(pending.count, idle: false)
  }

  /// Gives up the bytes read and not handed out (the engine reads them in order).
  func takePending() -> [UInt8] {
    defer {
      pending = []
      (quotes, counted, checked, lineEndsChecked) = (0, 0, 0, 0)
    }
    return pending
  }

  /// Hands out `pending[..<end]`.
  private func take(_ end: Int, idle: Bool) -> Cut {
    var bytes = pending
    pending = Array(bytes[end...])
    bytes.removeLast(bytes.count - end)
    (quotes, counted, checked, lineEndsChecked) = (0, 0, 0, 0)
    return Cut(bytes: bytes, idle: idle)
  }

  /// The end of the last record boundary in `pending` after `checked`: just past a LF (or,
  /// for CSV, a CR that no LF follows) outside quoted text; `nil` when there is none yet.
  private func boundary() -> Int? {
    let n = pending.count
    return pending.withUnsafeBufferPointer { b -> Int? in
      if let quote {
        var q = 0
        for p in counted..<n where b[p] == quote { q += 1 }
        quotes += q
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
  }

  /// The end of the last line end in `pending` after `lineEndsChecked`, quoted or not.
  private func lastLineEnd() -> Int? {
    let n = pending.count
    return pending.withUnsafeBufferPointer { b -> Int? in
      var p = n - 1
      while p >= lineEndsChecked && !endsLine(b, at: p) { p -= 1 }
      let found = p >= lineEndsChecked ? p + 1 : nil
      lineEndsChecked = n > 0 && b[n - 1] == .carriageReturn ? n - 1 : n
      return found
    }
  }

  /// Whether `b[p]` ends a line where a part may start after it: a LF, or for CSV a CR that no
  /// LF follows.
  private func endsLine(_ b: UnsafeBufferPointer<UInt8>, at p: Int) -> Bool {
    let c = b[p]
    if c == .lineFeed { return true }
    return c == .carriageReturn && rule == .afterLineEnd && p + 1 < b.count
      && b[p + 1] != .lineFeed
  }
}
