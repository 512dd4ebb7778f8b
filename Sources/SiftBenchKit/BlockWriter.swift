import SiftCore

#if canImport(Glibc)
  import Glibc
#endif

/// Builds output bytes in memory and hands them to a sink in blocks of exactly `blockSize`
/// bytes (1 MiB), the rest at `finish()`. Appends never fail; only handing a block over can.
final class BlockWriter {
  let sink: ByteSink
  let blockSize: Int
  var storage: UnsafeMutablePointer<UInt8>
  var capacity: Int
  /// Bytes written and not yet handed to the sink.
  var count = 0

  /// A writer for `sink`; `blockSize` is the size of each write to the sink.
  init(sink: ByteSink, blockSize: Int = 1 << 20) {
    self.sink = sink
    self.blockSize = blockSize
    capacity = blockSize + (1 << 16)
    storage = .allocate(capacity: capacity)
  }

  deinit { storage.deallocate() }

  /// Room for `n` more bytes, starting at the returned address; the caller adds `n` to `count`.
  @inline(__always)
  func reserve(_ n: Int) -> UnsafeMutablePointer<UInt8> {
    if count + n > capacity { grow(toHold: count + n) }
    return storage + count
  }

  @inline(never)
  private func grow(toHold needed: Int) {
    let larger = UnsafeMutablePointer<UInt8>.allocate(capacity: needed * 2)
    larger.update(from: storage, count: count)
    storage.deallocate()
    storage = larger
    capacity = needed * 2
  }

  /// Appends one byte.
  @inline(__always)
  func append(_ byte: UInt8) {
    reserve(1).pointee = byte
    count += 1
  }

  /// Appends bytes.
  @inline(__always)
  func append(_ bytes: UnsafeBufferPointer<UInt8>) {
    guard let source = bytes.baseAddress else { return }
    reserve(bytes.count).update(from: source, count: bytes.count)
    count += bytes.count
  }

  /// Appends bytes.
  @inline(__always)
  func append(_ bytes: [UInt8]) {
    bytes.withUnsafeBufferPointer { append($0) }
  }

  /// Appends a literal's UTF-8 bytes.
  @inline(__always)
  func append(_ text: StaticString) {
    append(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
  }

  /// Appends a string's UTF-8 bytes.
  func append(_ text: String) {
    var text = text
    text.withUTF8 { append($0) }
  }

  /// Call at the end of each record: hands over every full block.
  @inline(__always)
  func endRecord() throws(OutputError) {
    if count >= blockSize { try writeFullBlocks() }
  }

  private func writeFullBlocks() throws(OutputError) {
    var start = 0
    while count - start >= blockSize {
      try sink.write(UnsafeBufferPointer(start: storage + start, count: blockSize))
      start += blockSize
    }
    memmove(storage, storage + start, count - start)
    count -= start
  }

  /// Hands over everything still buffered.
  func finish() throws(OutputError) {
    try writeFullBlocks()
    if count > 0 { try sink.write(UnsafeBufferPointer(start: storage, count: count)) }
    count = 0
  }
}
