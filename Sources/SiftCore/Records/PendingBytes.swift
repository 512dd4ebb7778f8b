/// Bytes a transcoding stage has made and not yet handed on: filled a read at a time, copied
/// out in pieces as the readers ask (Transcoder, UTF16Transcoder).
struct PendingBytes {
  private var bytes: [UInt8] = []
  private var offset = 0

  /// Whether every byte made has been handed on.
  var isDrained: Bool { offset == bytes.count }

  /// Starts a new fill, keeping the capacity.
  mutating func reset() {
    bytes.removeAll(keepingCapacity: true)
    offset = 0
  }

  mutating func append(_ byte: UInt8) { bytes.append(byte) }
  mutating func append(contentsOf more: [UInt8]) { bytes.append(contentsOf: more) }
  mutating func reserveCapacity(_ n: Int) { bytes.reserveCapacity(n) }

  /// Copies up to `maxCount` bytes to `target`; how many.
  mutating func copy(to target: UnsafeMutablePointer<UInt8>, maxCount: Int) -> Int {
    let n = min(maxCount, bytes.count - offset)
    let from = offset
    bytes.withUnsafeBufferPointer { p in target.update(from: p.baseAddress! + from, count: n) }
    offset += n
    return n
  }
}
