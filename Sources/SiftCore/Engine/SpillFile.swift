import GNUCalls
#if canImport(Glibc)
  import Glibc
#endif

/// A sorted run written to a temporary file when kept matches pass the memory budget
/// (Docs/Performance.md, Sorting beyond memory). The file is unlinked as soon as it is made, so
/// it goes away when it is closed, at the end of the run or on an error, and also if the
/// process is killed.
///
/// A record is written as: its length (UInt32, the bytes after it), source (varint), encoding
/// (UInt8), width (varint), its keys (the group value's bytes, then each sort value), the
/// extent of its text (two varints), its field spans and the text (to the record's end).
/// A field is one byte 0 when missing, else the distance of its start from the previous
/// field's end (zig-zag, plus 1) and its length, as varints: a CSV field of under 128 bytes
/// takes 2 bytes, not the 8 of two Int32s, so a run takes about 1.3× the text it keeps.
///
/// Bytes a merge has read are given back as it goes (`release`), so merging runs into a new
/// one needs little more space than the runs (Docs/Performance.md, Sorting beyond memory).
final class SpillFile {
  let fd: Int32
  let directory: String
  /// Bytes written so far (the file's size once `endWriting` returned).
  private(set) var size = 0
  /// Bytes from the start given back to the file system (`release`).
  private var released = 0
  private var buffer: [UInt8] = []
  private let space: SpillSpace

  init(directory: String, space: SpillSpace) throws(SiftError) {
    self.directory = directory
    self.space = space
    var template = Array("\(directory)/sift-sort-XXXXXX".utf8CString)
    let fd = mkstemp(&template)
    guard fd >= 0 else { throw Self.failure(directory, "cannot make a temporary file") }
    unlink(template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) })
    self.fd = fd
    buffer.reserveCapacity(Self.bufferSize)
  }

  deinit {
    close(fd)
    space.freed(size - released)
  }

  /// Gives back the whole blocks before `offset`, which a merge has read: a hole is punched
  /// (the file keeps its size). Where the file system cannot, they are freed when the file is
  /// closed.
  func release(before offset: Int) {
    let end = offset & ~(Self.blockSize - 1)
    guard end - released >= Self.releaseStep else { return }
    guard sift_punch_hole(fd, Int64(released), Int64(end - released)) == 0 else { return }
    space.freed(end - released)
    released = end
  }

  private static let blockSize = 4096
  /// Holes are punched this much at a time at least.
  private static let releaseStep = 64 << 10

  static let bufferSize = 1 << 20

  /// An error with a temporary file in `directory`: `what` failed, for the reason `errno` gives.
  static func failure(_ directory: String, _ what: String) -> SiftError {
    .input(
      InputError(
        name: directory, line: 0, column: 0,
        message: "\(what): \(String(cString: strerror(errno)))"))
  }

  /// Appends the current record of `run`.
  func append(_ run: SortedRun) throws(SiftError) {
    // Encoded into a local array: appends to a class's stored property are each checked for
    // exclusivity at run time.
    var out = [UInt8].take(&buffer)
    run.withRecord { row, source in
      Self.encode(row, source: source, keys: run.keys, index: run.keyIndex, into: &out)
    }
    buffer = out
    if buffer.count >= Self.bufferSize { try flush() }
  }

  private static func encode(
    _ row: RowView, source: Int, keys: SortKeys, index: Int, into out: inout [UInt8]
  ) {
    let start = out.count
    out.appendInteger(UInt32(0))
    out.appendVarint(source)
    out.append(row.encoding.code)
    // A record of a ragged batch is written with a span pair for each field up to the
    // highest it has (its triples laid out as pairs).
    let width = row.fullWidth
    out.appendVarint(width)
    if keys.hasGroup {
      keys.groups.withKey(Int(keys.groupIDs[index])) { value in
        out.appendInteger(UInt32(value.count))
        out.append(contentsOf: value)
      }
    }
    for k in 0..<keys.values.count { out.append(keys.values[k][index]) }
    // The bytes from the first to the last the record's text and fields cover.
    var low = row.extentStart
    var high = row.extentEnd
    for f in 0..<width {
      let span = row.span(f)
      guard span.start >= 0 else { continue }
      low = min(low, Int(span.start))
      high = max(high, Int(span.end))
    }
    out.appendVarint(row.extentStart - low)
    out.appendVarint(row.extentEnd - low)
    var previous = low
    for f in 0..<width {
      let span = row.span(f)
      guard span.start >= 0 else {
        out.append(0)
        continue
      }
      let distance = Int(span.start) - previous
      out.appendVarint(((distance << 1) ^ (distance >> 63)) + 1)
      out.appendVarint(Int(span.end - span.start))
      previous = Int(span.end)
    }
    out.append(contentsOf: UnsafeBufferPointer(start: row.base + low, count: high - low))
    let length = UInt32(out.count - start - 4)
    out.withUnsafeMutableBytes { b in
      b.storeBytes(of: length.littleEndian, toByteOffset: start, as: UInt32.self)
    }
  }

  private func flush() throws(SiftError) {
    var done = 0
    while done < buffer.count {
      let n = buffer.withUnsafeBytes { b in
        pwrite(fd, b.baseAddress! + done, b.count - done, off_t(size + done))
      }
      if n < 0 {
        if errno == EINTR { continue }
        throw Self.failure(directory, "cannot write a temporary file")
      }
      done += n
    }
    space.wrote(done)
    size += done
    buffer.removeAll(keepingCapacity: true)
  }

  /// Writes what is buffered; the run is complete.
  func endWriting() throws(SiftError) {
    try flush()
    buffer = []
  }
}

/// A spilled run read back in order.
final class FileRun: SortedRun {
  private let file: SpillFile
  /// Bytes read from the file, from `start` (the current record) to `filled`.
  private var buffer: [UInt8]
  private var start = 0
  private var filled = 0
  private var fileOffset = 0
  /// The current record's length (with its length field), source, encoding, width, text
  /// position and extent, and field spans.
  private var length = 0
  private var source = 0
  private var encoding = FieldEncoding.csv
  private var width = 0
  private var textAt = 0
  private var extent = (0, 0)
  private var spans: [Int32] = []
  /// Ranks the groups of the runs being merged.
  private let ranking: GroupTally

  init(_ file: SpillFile, plan: Plan, ranking: GroupTally) throws(SiftError) {
    self.file = file
    self.ranking = ranking
    buffer = [UInt8](repeating: 0, count: 64 << 10)
    super.init(keys: SortKeys(plan: plan))
    try read()
  }

  override func advance() throws(SiftError) {
    start += length
    try read()
  }

  override func withRecord(_ body: (RowView, Int) -> Void) {
    buffer.withUnsafeBufferPointer { b in
      spans.withUnsafeBufferPointer { s in
        body(
          RowView(
            base: b.baseAddress! + textAt, spans: s.baseAddress ?? UnsafePointer(bitPattern: 4)!,
            width: width, encoding: encoding, extentStart: extent.0, extentEnd: extent.1),
          source)
      }
    }
  }

  /// Makes sure `count` bytes from `start` are in the buffer; false at the end of the file.
  private func fill(_ count: Int) throws(SiftError) -> Bool {
    if filled - start >= count { return true }
    if start > 0 {
      file.release(before: fileOffset - (filled - start))
      buffer.withUnsafeMutableBytes { b in
        if filled > start {
          b.baseAddress!.copyMemory(from: b.baseAddress! + start, byteCount: filled - start)
        }
      }
      filled -= start
      start = 0
    }
    if buffer.count < count { buffer += [UInt8](repeating: 0, count: count - buffer.count) }
    while filled < count {
      let want = min(buffer.count - filled, file.size - fileOffset)
      if want == 0 { return false }
      let n = buffer.withUnsafeMutableBytes { b in
        pread(file.fd, b.baseAddress! + filled, want, off_t(fileOffset))
      }
      if n < 0 {
        if errno == EINTR { continue }
        throw SpillFile.failure(file.directory, "cannot read a temporary file")
      }
      if n == 0 { return false }
      filled += n
      fileOffset += n
    }
    return true
  }

  /// Decodes the record at `start`, or marks the run at its end.
  private func read() throws(SiftError) {
    guard try fill(4) else {
      atEnd = true
      return
    }
    var at = start
    let rest = Int(buffer.loadInteger(UInt32.self, at: &at))
    guard try fill(4 + rest) else {
      throw .input(
        InputError(
          name: file.directory, line: 0, column: 0, message: "a temporary file ends early"))
    }
    at = start + 4
    length = 4 + rest
    // Read through a local reference: each access to a class's stored property is checked for
    // exclusivity at run time.
    let buffer = self.buffer
    source = buffer.loadVarint(at: &at)
    encoding = FieldEncoding(code: buffer[at])
    at += 1
    width = buffer.loadVarint(at: &at)
    keys.removeRecords()
    if keys.hasGroup {
      let n = Int(buffer.loadInteger(UInt32.self, at: &at))
      let id = buffer.withUnsafeBufferPointer { b in
        keys.groups.add(UnsafeBufferPointer(rebasing: b[at..<(at + n)]))
      }
      if id == keys.groupRanks.count {
        let rank = keys.groups.withKey(id) { ranking.id(of: $0) ?? 0 }
        keys.groupRanks.append(Int32(rank))
      }
      keys.groupIDs.append(Int32(id))
      at += n
    }
    for k in 0..<keys.values.count { keys.values[k].append(buffer.loadSortValue(at: &at)) }
    let extentStart = buffer.loadVarint(at: &at)
    extent = (extentStart, buffer.loadVarint(at: &at))
    var spans = [Int32].take(&self.spans)
    spans.removeAll(keepingCapacity: true)
    var previous = 0
    for _ in 0..<width {
      let code = buffer.loadVarint(at: &at)
      guard code > 0 else {
        spans.append(-1)
        spans.append(-1)
        continue
      }
      let zigzag = code - 1
      let start = previous + ((zigzag >> 1) ^ -(zigzag & 1))
      previous = start + buffer.loadVarint(at: &at)
      spans.append(Int32(truncatingIfNeeded: start))
      spans.append(Int32(truncatingIfNeeded: previous))
    }
    self.spans = spans
    textAt = at
    keyIndex = 0
  }
}

extension FieldEncoding {
  /// The encoding's byte in a spilled run.
  var code: UInt8 {
    switch self {
    case .csv: return 0
    case .plain: return 1
    case .json: return 2
    }
  }

  init(code: UInt8) {
    self = code == 0 ? .csv : (code == 1 ? .plain : .json)
  }
}

extension [UInt8] {
  mutating func appendInteger<T: FixedWidthInteger>(_ v: T) {
    Swift.withUnsafeBytes(of: v.littleEndian) { append(contentsOf: $0) }
  }

  /// A sort value: a tag (0 number, 1 date, 2 text, 3 empty, 4 long number), then 8 bytes, or
  /// a length and the folded text, or a long number's double and a length and its exact text.
  mutating func append(_ v: SortValue) {
    switch v {
    case .number(let n):
      append(0)
      appendInteger(n.bitPattern)
    case .date(let d):
      append(1)
      appendInteger(d)
    case .text(let t):
      append(2)
      appendInteger(UInt32(t.count))
      append(contentsOf: t)
    case .empty:
      append(3)
    case .longNumber(let n, let e):
      append(4)
      appendInteger(n.bitPattern)
      let text = Array(e.text.utf8)
      appendInteger(UInt32(text.count))
      append(contentsOf: text)
    }
  }

  /// `v` in 7-bit groups, low first, the high bit set on all but the last (its bit pattern, so
  /// a negative value comes back too).
  mutating func appendVarint(_ v: Int) {
    var u = UInt64(truncatingIfNeeded: v)
    while u >= 0x80 {
      append(UInt8(truncatingIfNeeded: u) | 0x80)
      u >>= 7
    }
    append(UInt8(u))
  }

  func loadVarint(at: inout Int) -> Int {
    var u: UInt64 = 0
    var shift: UInt64 = 0
    while true {
      let byte = self[at]
      at += 1
      u |= UInt64(byte & 0x7f) << shift
      guard byte >= 0x80, shift < 63 else { return Int(truncatingIfNeeded: u) }
      shift += 7
    }
  }

  func loadInteger<T: FixedWidthInteger>(_: T.Type, at: inout Int) -> T {
    let v = withUnsafeBytes { T(littleEndian: $0.loadUnaligned(fromByteOffset: at, as: T.self)) }
    at += MemoryLayout<T>.size
    return v
  }

  func loadSortValue(at: inout Int) -> SortValue {
    let tag = self[at]
    at += 1
    switch tag {
    case 0: return .number(Double(bitPattern: loadInteger(UInt64.self, at: &at)))
    case 1: return .date(loadInteger(WallTime.self, at: &at))
    case 2:
      let n = Int(loadInteger(UInt32.self, at: &at))
      defer { at += n }
      return .text(Array(self[at..<(at + n)]))
    case 4:
      let d = Double(bitPattern: loadInteger(UInt64.self, at: &at))
      let n = Int(loadInteger(UInt32.self, at: &at))
      defer { at += n }
      let exact = withUnsafeBufferPointer {
        ExactNumber(accepted: UnsafeBufferPointer(rebasing: $0[at..<(at + n)]), mark: .point)
      }
      return .longNumber(d, exact)
    default: return .empty
    }
  }
}
