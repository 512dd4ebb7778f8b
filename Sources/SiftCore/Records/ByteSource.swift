#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A stage between a file and the readers (decompression, transcoding): it pulls from the
/// source it was made over and hands out other bytes.
protocol ByteStage: AnyObject {
  func read(to target: UnsafeMutablePointer<UInt8>, maxCount: Int) throws(InputError) -> Int
}

/// Raw input bytes: a file descriptor read with `read(2)` in large chunks, or bytes in memory.
public final class ByteSource {
  /// The name used in messages: the path, or `stdin`.
  public let name: String
  private let fd: Int32
  private let ownsDescriptor: Bool
  private var memory: [UInt8]
  private var memoryOffset = 0
  /// For a source over part of a file: the next offset to read with `pread(2)`, and the end.
  private var window: (next: Int, end: Int)?
  /// A stage the bytes come from instead (a decompressed or transcoded source).
  private var stage: (any ByteStage)?
  /// True when the bytes are inflated from gzip: damage to compressed data may inflate to wrong
  /// bytes that only the member's CRC-32, at its end, reveals.
  var decompresses = false
  /// What must live as long as this source (the archive whose descriptor a part reads).
  var keepAlive: AnyObject?
  /// Bytes `peek` took from a stream, handed out before the rest.
  private var front: [UInt8] = []
  private var frontOffset = 0

  /// A source over an open descriptor (not closed by the source).
  public init(fileDescriptor: Int32, name: String) {
    self.fd = fileDescriptor
    self.name = name
    self.ownsDescriptor = false
    self.memory = []
  }

  /// A source over the bytes `range` of the regular file open on `fd` (not closed by the
  /// source), read with `pread(2)`: the parallel scan gives one to each part of a file.
  init(fileDescriptor: Int32, name: String, range: Range<Int>) {
    self.fd = fileDescriptor
    self.name = name
    self.ownsDescriptor = false
    self.memory = []
    self.window = (range.lowerBound, range.upperBound)
  }

  /// A source over bytes in memory (tests, standard input given by a test).
  public init(bytes: [UInt8], name: String) {
    self.fd = -1
    self.name = name
    self.ownsDescriptor = false
    self.memory = bytes
  }

  /// Opens a file for reading. Missing, unreadable files and directories are errors naming the path.
  public init(path: String) throws(InputError) {
    let fd = open(path, O_RDONLY)
    guard fd >= 0 else {
      throw InputError(name: path, line: 0, column: 0, message: ByteSource.describe(errno: errno))
    }
    var st = stat()
    if fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFDIR {
      close(fd)
      throw InputError(name: path, line: 0, column: 0, message: "is a directory")
    }
    self.fd = fd
    self.name = path
    self.ownsDescriptor = true
    self.memory = []
  }

  /// A source over the bytes `stage` hands out, named `name`.
  init(stage: any ByteStage, name: String) {
    self.fd = -1
    self.name = name
    self.ownsDescriptor = false
    self.memory = []
    self.stage = stage
  }

  /// Up to `count` of the next bytes, which are still read afterwards: from a regular file with
  /// `pread(2)` (its position stays, so the parallel scan still splits it), else kept in front.
  func peek(_ count: Int) throws(InputError) -> [UInt8] {
    if stage == nil && fd < 0 {
      return Array(memory[memoryOffset..<min(memory.count, memoryOffset + count)])
    }
    if stage == nil, window == nil, front.isEmpty, let file = filePosition {
      var bytes = [UInt8](repeating: 0, count: min(count, max(0, file.size - file.offset)))
      let got = bytes.withUnsafeMutableBufferPointer { b in
        b.isEmpty ? 0 : pread(fd, b.baseAddress!, b.count, off_t(file.offset))
      }
      if got >= 0 {
        bytes.removeLast(bytes.count - got)
        return bytes
      }
    }
    var rest = Array(front[frontOffset...])
    front = []
    frontOffset = 0
    // A stream that waits for its writer is sniffed from the lines it has sent so far.
    while rest.count < count, !(FormatSniffer.enoughFromStream(rest) && wouldWait()) {
      let got = try readFresh(maxCount: count - rest.count)
      rest.append(contentsOf: got)
      if got.isEmpty { break }
    }
    front = rest
    return rest
  }

  deinit {
    if ownsDescriptor { close(fd) }
  }

  /// All of a source over bytes in memory, when none was read yet and there are at most
  /// `limit`: handed over without a copy, and the source is then at its end.
  func takeWholeMemory(ifAtMost limit: Int) -> [UInt8]? {
    guard fd < 0, stage == nil, front.isEmpty, memoryOffset == 0, !memory.isEmpty,
      memory.count <= limit
    else { return nil }
    defer { memory = [] }
    return memory
  }

  /// Puts `bytes`, taken from this source, back in front of what it has not handed out: the
  /// parts of a stream not filtered cleanly are read again in order (Docs/Architecture.md,
  /// Standard input in parts).
  func putBack(_ bytes: [UInt8]) {
    guard !bytes.isEmpty else { return }
    front = bytes + front[frontOffset...]
    frontOffset = 0
  }

  /// The size in bytes when the source is a regular file or memory, else `nil`.
  public var knownSize: Int? {
    if stage != nil { return nil }
    if fd < 0 { return memory.count }
    var st = stat()
    guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { return nil }
    return Int(st.st_size)
  }

  /// Appends up to `maxCount` bytes to `buffer`; returns how many were read, 0 at the end.
  public func read(into buffer: inout [UInt8], maxCount: Int) throws(InputError) -> Int {
    if fd < 0 && stage == nil && frontOffset == front.count {
      let n = min(maxCount, memory.count - memoryOffset)
      buffer.append(contentsOf: memory[memoryOffset..<(memoryOffset + n)])
      memoryOffset += n
      return n
    }
    guard maxCount > 0 else { return 0 }
    let got = try readFresh(maxCount: maxCount)
    if buffer.isEmpty { buffer = got } else { buffer.append(contentsOf: got) }
    return got.count
  }

  /// Up to `maxCount` (> 0) bytes read into a new array, its memory not filled first: zeros
  /// appended to make room cost a generic call per byte in a debug build, twice a 64 KiB read
  /// of a small file.
  private func readFresh(maxCount: Int) throws(InputError) -> [UInt8] {
    var failure: InputError?
    let bytes = [UInt8](unsafeUninitializedCapacity: maxCount) { b, count in
      do throws(InputError) {
        count = try readBytes(to: b.baseAddress!, maxCount: maxCount)
      } catch {
        failure = error
        count = 0
      }
    }
    if let failure { throw failure }
    return bytes
  }

  /// Reads up to `maxCount` bytes to `target`; returns how many were read, 0 at the end. (Not
  /// an overload of `read(into:maxCount:)`: `&array` would convert to the pointer.)
  func readBytes(to target: UnsafeMutablePointer<UInt8>, maxCount: Int) throws(InputError) -> Int {
    if frontOffset < front.count {
      let n = min(maxCount, front.count - frontOffset)
      front.withUnsafeBufferPointer { f in target.update(from: f.baseAddress! + frontOffset, count: n) }
      frontOffset += n
      if frontOffset == front.count {
        front = []
        frontOffset = 0
      }
      return n
    }
    if let stage { return try stage.read(to: target, maxCount: maxCount) }
    if fd < 0 {
      let n = min(maxCount, memory.count - memoryOffset)
      guard n > 0 else { return 0 }
      memory.withUnsafeBufferPointer { m in
        target.update(from: m.baseAddress! + memoryOffset, count: n)
      }
      memoryOffset += n
      return n
    }
    let count = window.map { min(maxCount, $0.end - $0.next) } ?? maxCount
    guard count > 0 else { return 0 }
    while true {
      let r =
        window.map { pread(fd, target, count, off_t($0.next)) } ?? Glibc.read(fd, target, count)
      if r >= 0 {
        window?.next += r
        return r
      }
      if errno != EINTR {
        throw InputError(name: name, line: 0, column: 0, message: ByteSource.describe(errno: errno))
      }
    }
  }

  /// For a decompressed source, the error its rest is read to: a record found malformed is
  /// most likely damage that inflating has not reported yet (Docs/Formats.md, Compressed
  /// input). `nil` when the rest reads cleanly, and for other sources (nothing is read).
  func damageAhead() -> InputError? {
    guard decompresses else { return nil }
    let scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: 1 << 16)
    defer { scratch.deallocate() }
    do {
      while try readBytes(to: scratch, maxCount: 1 << 16) > 0 {}
    } catch {
      return error
    }
    return nil
  }

  /// True when the bytes come through a stage (decompressed or transcoded), not from the file.
  var isConverted: Bool { stage != nil }

  /// True when the bytes come straight from a pipe, terminal or socket, whose writer may pause
  /// (`tail -f`): its records are handed on as they arrive (Docs/Formats.md, Streaming input).
  /// A regular file, bytes in memory and a decompressed or transcoded source do not stream.
  public private(set) lazy var streams: Bool = {
    guard fd >= 0, window == nil, stage == nil else { return false }
    var st = stat()
    guard fstat(fd, &st) == 0 else { return false }
    let kind = st.st_mode & S_IFMT
    return kind == S_IFIFO || kind == S_IFCHR || kind == S_IFSOCK
  }()

  /// How long a stream may pause before the records it sent are handed on (Docs/Formats.md,
  /// Streaming input): long enough that a writer filling a pipe as fast as it can does not pause,
  /// short enough that output follows `tail -f` within a tenth of a second.
  static let pauseMilliseconds: Int32 = 50

  /// Whether a read now would wait for the stream's writer: no byte is kept in front and none
  /// arrives within `pauseMilliseconds` (`poll(2)`). False for a source that does not stream.
  func wouldWait() -> Bool {
    guard frontOffset == front.count, streams else { return false }
    var request = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    while true {
      let r = poll(&request, 1, Self.pauseMilliseconds)
      if r >= 0 { return r == 0 }
      if errno != EINTR { return false }
    }
  }

  /// The descriptor and offset of the next byte `read` returns, when the source is a regular
  /// file read from its descriptor's position (so parts of the rest can be read in parallel).
  var filePosition: (fd: Int32, offset: Int, size: Int)? {
    guard fd >= 0, window == nil, stage == nil, frontOffset == front.count, let size = knownSize else { return nil }
    let offset = lseek(fd, 0, SEEK_CUR)
    return offset >= 0 ? (fd, Int(offset), size) : nil
  }

  static func describe(errno code: Int32) -> String {
    switch code {
    case ENOENT: return "no such file"
    case EACCES: return "permission denied"
    case EISDIR: return "is a directory"
    default: return String(cString: strerror(code))
    }
  }
}
