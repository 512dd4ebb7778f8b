#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The checksum a state file of `--changes` ends with (Docs/Reports.md, The state): 32 bytes a
/// step in four independent lanes (each a multiply and a shift per 8 bytes, little-endian, as
/// `ChangeCoding.hash` steps), the lanes then folded with the last 0 to 31 bytes and the length.
/// The lanes keep four multiplies in flight, so 37 MB take a few milliseconds where one chain
/// takes four times that (Docs/Performance.md, "The state as it lies"). Bytes are added in
/// pieces of any size (a header, then the records where they lie) and give the number their
/// concatenation gives.
struct StateChecksum {
  private var lanes: (UInt64, UInt64, UInt64, UInt64) = (
    ChangeCoding.fnvOffset, ChangeCoding.fnvOffset ^ 1, ChangeCoding.fnvOffset ^ 2,
    ChangeCoding.fnvOffset ^ 3
  )
  /// The bytes of a block not yet whole (fewer than 32).
  private var pending: [UInt8] = []
  private var length = 0

  init() { pending.reserveCapacity(32) }

  /// The checksum of `bytes`.
  static func of(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
    var sum = StateChecksum()
    sum.add(bytes)
    return sum.value
  }

  mutating func add(_ bytes: UnsafeBufferPointer<UInt8>) {
    length &+= bytes.count
    var rest = bytes[...]
    if !pending.isEmpty {
      let take = min(32 - pending.count, rest.count)
      pending.append(contentsOf: rest.prefix(take))
      rest = rest.dropFirst(take)
      guard pending.count == 32 else { return }
      pending.withUnsafeBufferPointer { addBlocks($0) }
      pending.removeAll(keepingCapacity: true)
    }
    let whole = rest.count & ~31
    addBlocks(UnsafeBufferPointer(rebasing: rest.prefix(whole)))
    pending.append(contentsOf: rest.dropFirst(whole))
  }

  /// The lanes over `bytes`, whose count is a multiple of 32.
  private mutating func addBlocks(_ bytes: UnsafeBufferPointer<UInt8>) {
    guard let base = bytes.baseAddress else { return }
    let p = UnsafeRawPointer(base)
    var (a, b, c, d) = lanes
    let prime = ChangeCoding.wordPrime
    var i = 0
    while i &+ 32 <= bytes.count {
      a = (a ^ UInt64(littleEndian: p.loadUnaligned(fromByteOffset: i, as: UInt64.self))) &* prime
      b = (b ^ UInt64(littleEndian: p.loadUnaligned(fromByteOffset: i &+ 8, as: UInt64.self))) &* prime
      c = (c ^ UInt64(littleEndian: p.loadUnaligned(fromByteOffset: i &+ 16, as: UInt64.self))) &* prime
      d = (d ^ UInt64(littleEndian: p.loadUnaligned(fromByteOffset: i &+ 24, as: UInt64.self))) &* prime
      a ^= a >> 32
      b ^= b >> 32
      c ^= c >> 32
      d ^= d >> 32
      i &+= 32
    }
    lanes = (a, b, c, d)
  }

  /// The checksum of every byte added.
  var value: UInt64 {
    var h = lanes.0
    for lane in [lanes.1, lanes.2, lanes.3] {
      h = (h ^ lane) &* ChangeCoding.wordPrime
      h ^= h >> 32
    }
    h = (h ^ UInt64(truncatingIfNeeded: length)) &* ChangeCoding.wordPrime
    return pending.withUnsafeBufferPointer { ChangeCoding.hash($0, into: h) }
  }
}

/// Work done on a thread of its own while the caller does other work, until `wait` (the state's
/// checksum while its records are read, a chunk of the gone rows while the one before it is
/// made); done at once on the calling thread when no thread starts. What the work reads must
/// stay while it runs: `wait` before letting go of it.
final class WorkAside<Value>: @unchecked Sendable {
  private var value: Value?
  private var thread: pthread_t?

  init(_ work: @escaping () -> Value) {
    thread = startThread { self.value = work() }
    if thread == nil { value = work() }
  }

  /// The work's value, once the thread is done.
  func wait() -> Value? {
    if let thread {
      pthread_join(thread, nil)
      self.thread = nil
    }
    return value
  }
}
