#if canImport(Glibc)
  import Glibc
#endif

/// A sorted run written to a temporary file when kept matches pass the memory budget
/// (Docs/Performance.md, Sorting beyond memory). The file is unlinked as soon as it is made, so
/// it goes away when it is closed, at the end of the run or on an error, and also if the
/// process is killed.
///
/// A record is written as: its length (UInt32, the bytes after it), source (Int32), encoding
/// (UInt8), width (Int32), its keys (the group value's bytes, then each sort value), the
/// extent of its text (two Int32), its field spans (`2 × width` Int32, relative to the text,
/// -1 for a missing field), the text's length (UInt32) and the text.
final class SpillFile {
  let fd: Int32
  let directory: String
  /// Bytes written so far (the file's size once `endWriting` returned).
  private(set) var size = 0
  private var buffer: [UInt8] = []

  init(directory: String) throws(SiftError) {
    self.directory = directory
    var template = Array("\(directory)/sift-sort-XXXXXX".utf8CString)
    let fd = mkstemp(&template)
    guard fd >= 0 else { throw Self.failure(directory, "cannot make a temporary file") }
    unlink(template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) })
    self.fd = fd
    buffer.reserveCapacity(Self.bufferSize)
  }

  deinit { close(fd) }

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
    out.appendInteger(Int32(source))
    out.append(row.encoding.code)
    out.appendInteger(Int32(row.width))
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
    for f in 0..<row.width where row.spans[2 * f] >= 0 {
      low = min(low, Int(row.spans[2 * f]))
      high = max(high, Int(row.spans[2 * f + 1]))
    }
    let spanBytes = 4 * (2 + 2 * row.width)
    let textStart = out.count + spanBytes + 4
    out.append(contentsOf: repeatElement(0, count: spanBytes + 4 + high - low))
    let length = UInt32(out.count - start - 4)
    out.withUnsafeMutableBytes { b in
      var at = textStart - spanBytes - 4
      func put(_ v: Int32) {
        b.storeBytes(of: v.littleEndian, toByteOffset: at, as: Int32.self)
        at += 4
      }
      put(Int32(row.extentStart - low))
      put(Int32(row.extentEnd - low))
      for f in 0..<(2 * row.width) {
        // A missing field's start (-1) stands for its end too.
        let fieldStart = row.spans[f & ~1]
        put(fieldStart < 0 ? fieldStart : row.spans[f] - Int32(low))
      }
      put(Int32(high - low))
      if high > low {
        (b.baseAddress! + textStart).copyMemory(from: row.base + low, byteCount: high - low)
      }
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
    source = Int(buffer.loadInteger(Int32.self, at: &at))
    encoding = FieldEncoding(code: buffer[at])
    at += 1
    width = Int(buffer.loadInteger(Int32.self, at: &at))
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
    let extentStart = Int(buffer.loadInteger(Int32.self, at: &at))
    extent = (extentStart, Int(buffer.loadInteger(Int32.self, at: &at)))
    var spans = [Int32].take(&self.spans)
    spans.removeAll(keepingCapacity: true)
    for _ in 0..<(2 * width) { spans.append(buffer.loadInteger(Int32.self, at: &at)) }
    self.spans = spans
    _ = buffer.loadInteger(UInt32.self, at: &at)
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
