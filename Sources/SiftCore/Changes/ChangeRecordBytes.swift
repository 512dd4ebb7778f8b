/// The bytes a `ChangeBaseline`'s records lie in: a state file's bytes as read (handed over by
/// whoever read them, mapped or in memory, and let go with `release`), or a run's records as it
/// appends them (`PointerStore`). A pointer into them stays valid while the storage lives and
/// nothing is appended.
final class ChangeRecordBytes: @unchecked Sendable {
  /// Bytes appended here; `nil` for bytes handed over.
  private let appended: PointerStore<UInt8>?
  private let handedOver: UnsafeBufferPointer<UInt8>
  /// Lets go of bytes handed over (a mapped file).
  private let release: (@Sendable () -> Void)?

  init(capacity: Int = 0) {
    appended = PointerStore(capacity: capacity)
    handedOver = UnsafeBufferPointer(start: nil, count: 0)
    release = nil
  }

  /// Bytes that stay where they are; `release` is called when the storage goes.
  init(handedOver bytes: UnsafeRawBufferPointer, release: @escaping @Sendable () -> Void) {
    appended = nil
    handedOver = bytes.assumingMemoryBound(to: UInt8.self)
    self.release = release
  }

  /// A copy of `bytes`.
  convenience init(copying bytes: UnsafeBufferPointer<UInt8>) {
    self.init(capacity: bytes.count)
    append(bytes)
  }

  deinit { release?() }

  /// Whether bytes may be appended here: not bytes handed over.
  var appendable: Bool { appended != nil }

  var buffer: UnsafeBufferPointer<UInt8> { appended?.values ?? handedOver }

  var count: Int { appended?.count ?? handedOver.count }

  /// Makes room for `extra` more bytes after `count`.
  @inline(__always)
  func reserve(_ extra: Int) { appended?.reserve(extra) }

  @inline(__always)
  func append(_ bytes: UnsafeBufferPointer<UInt8>) { appended?.append(bytes) }

  @inline(__always)
  func append(_ byte: UInt8) { appended?.append(byte) }

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
    withUnsafeBytes(of: value.littleEndian) { append($0.assumingMemoryBound(to: UInt8.self)) }
  }
}
