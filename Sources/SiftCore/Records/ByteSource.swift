#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Raw input bytes: a file descriptor read with `read(2)` in large chunks, or bytes in memory.
public final class ByteSource {
  /// The name used in messages: the path, or `stdin`.
  public let name: String
  private let fd: Int32
  private let ownsDescriptor: Bool
  private var memory: [UInt8]
  private var memoryOffset = 0

  /// A source over an open descriptor (not closed by the source).
  public init(fileDescriptor: Int32, name: String) {
    self.fd = fileDescriptor
    self.name = name
    self.ownsDescriptor = false
    self.memory = []
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

  deinit {
    if ownsDescriptor { close(fd) }
  }

  /// The size in bytes when the source is a regular file or memory, else `nil`.
  public var knownSize: Int? {
    if fd < 0 { return memory.count }
    var st = stat()
    guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { return nil }
    return Int(st.st_size)
  }

  /// Appends up to `maxCount` bytes to `buffer`; returns how many were read, 0 at the end.
  public func read(into buffer: inout [UInt8], maxCount: Int) throws(InputError) -> Int {
    if fd < 0 {
      let n = min(maxCount, memory.count - memoryOffset)
      buffer.append(contentsOf: memory[memoryOffset..<(memoryOffset + n)])
      memoryOffset += n
      return n
    }
    guard maxCount > 0 else { return 0 }
    let old = buffer.count
    var got = 0
    var failure: Int32 = 0
    buffer.append(contentsOf: repeatElement(0, count: maxCount))
    buffer.withUnsafeMutableBufferPointer { b in
      while true {
        let r = Glibc.read(fd, b.baseAddress! + old, maxCount)
        if r < 0 && errno == EINTR { continue }
        if r < 0 { failure = errno } else { got = r }
        break
      }
    }
    buffer.removeLast(maxCount - got)
    if failure != 0 {
      throw InputError(name: name, line: 0, column: 0, message: ByteSource.describe(errno: failure))
    }
    return got
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
