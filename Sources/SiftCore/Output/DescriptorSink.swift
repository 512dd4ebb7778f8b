#if canImport(Glibc)
  import Glibc
#endif

/// Writes to a file descriptor; a closed pipe becomes `OutputError.closed`.
public final class DescriptorSink: ByteSink {
  let fd: Int32
  public init(fd: Int32) { self.fd = fd }
  public func write(_ bytes: UnsafeBufferPointer<UInt8>) throws(OutputError) {
    var offset = 0
    while offset < bytes.count {
      let n = Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
      if n < 0 {
        if errno == EINTR { continue }
        if errno == EPIPE { throw .closed }
        throw .failed(String(cString: strerror(errno)))
      }
      offset += n
    }
  }
}
