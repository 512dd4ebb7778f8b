/// The bytes a `ChangeBaseline`'s records lie in: a state file's bytes as read (handed over by
/// whoever read them, mapped or in memory, and let go with `release`), or a run's records as it
/// appends them. A pointer into them stays valid while the storage lives and nothing is appended.
final class ChangeRecordBytes: @unchecked Sendable {
  private(set) var base: UnsafeMutableRawPointer?
  private(set) var count: Int
  private var capacity: Int
  /// Lets go of bytes handed over (a mapped file); `nil` for bytes allocated here.
  private let release: (@Sendable () -> Void)?

  init(capacity: Int = 0) {
    self.capacity = capacity
    count = 0
    base = capacity > 0 ? .allocate(byteCount: capacity, alignment: 8) : nil
    release = nil
  }

  /// Bytes that stay where they are; `release` is called when the storage goes.
  init(handedOver bytes: UnsafeRawBufferPointer, release: @escaping @Sendable () -> Void) {
    base = bytes.baseAddress.map { UnsafeMutableRawPointer(mutating: $0) }
    count = bytes.count
    capacity = bytes.count
    self.release = release
  }

  /// A copy of `bytes`.
  convenience init(copying bytes: UnsafeRawBufferPointer) {
    self.init(capacity: bytes.count)
    append(bytes)
  }

  deinit {
    if let release { release() } else { base?.deallocate() }
  }

  /// Whether bytes may be appended here: not bytes handed over.
  var appendable: Bool { release == nil }

  var buffer: UnsafeBufferPointer<UInt8> {
    UnsafeBufferPointer(start: base?.assumingMemoryBound(to: UInt8.self), count: count)
  }

  /// Makes room for `extra` more bytes after `count`.
  @inline(__always)
  func reserve(_ extra: Int) {
    if count &+ extra > capacity { grow(to: count &+ extra) }
  }

  private func grow(to needed: Int) {
    var newCapacity = max(capacity &* 2, 4096)
    while newCapacity < needed { newCapacity &*= 2 }
    let newBase = UnsafeMutableRawPointer.allocate(byteCount: newCapacity, alignment: 8)
    if let base {
      newBase.copyMemory(from: base, byteCount: count)
      base.deallocate()
    }
    base = newBase
    capacity = newCapacity
  }

  @inline(__always)
  func append(_ bytes: UnsafeRawBufferPointer) {
    guard let from = bytes.baseAddress, bytes.count > 0 else { return }
    reserve(bytes.count)
    base.map { ($0 + count).copyMemory(from: from, byteCount: bytes.count) }
    count &+= bytes.count
  }

  @inline(__always)
  func append(_ byte: UInt8) {
    reserve(1)
    base?.storeBytes(of: byte, toByteOffset: count, as: UInt8.self)
    count &+= 1
  }

  @inline(__always)
  func appendVarint(_ value: Int) {
    var v = UInt64(truncatingIfNeeded: value)
    while v >= 0x80 {
      append(UInt8(truncatingIfNeeded: v & 0x7f) | 0x80)
      v >>= 7
    }
    append(UInt8(truncatingIfNeeded: v))
  }

  @inline(__always)
  func appendUInt64(_ value: UInt64) {
    withUnsafeBytes(of: value.littleEndian) { append($0) }
  }
}
