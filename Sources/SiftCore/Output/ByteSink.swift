/// Where output bytes go. The CLI gives a file-descriptor sink; tests give a memory sink.
public protocol ByteSink: AnyObject {
  /// Writes all the bytes, or throws `OutputError.closed` when the reader went away (a closed pipe).
  func write(_ bytes: UnsafeBufferPointer<UInt8>) throws(OutputError)
}

/// Writing failed.
public enum OutputError: Error, Sendable, Equatable {
  /// The downstream pipe was closed (`sift … | head`): end quietly with status 0 (Docs/Formats.md, Output).
  case closed
  /// Any other write error, with its description.
  case failed(String)
}

/// A sink that keeps the blocks it is given (a part's output, written later): it takes the
/// buffer's array itself instead of a copy of its bytes.
protocol BlockKeeper: ByteSink {
  /// Takes `block`'s bytes, leaving it empty.
  func keep(_ block: inout [UInt8])
  /// Keeps `bytes`, part of an array no one changes (an input chunk), without copying them.
  func keep(shared bytes: ArraySlice<UInt8>)
}

/// Collects bytes in memory (tests, and output that must be measured before it is written).
public final class MemorySink: ByteSink {
  public private(set) var bytes: [UInt8] = []
  public init() {}
  public func write(_ bytes: UnsafeBufferPointer<UInt8>) throws(OutputError) {
    self.bytes.append(contentsOf: bytes)
  }
  /// The bytes as UTF-8 text.
  public var text: String { String(decoding: bytes, as: UTF8.self) }
}

/// Buffers bytes and hands them to a sink in blocks of `capacity` (64 KiB), or after every line
/// when `lineBuffered` (output to a terminal).
public final class OutputBuffer {
  public let sink: ByteSink
  public let lineBuffered: Bool
  public private(set) var buffer: [UInt8] = []
  let capacity: Int
  /// Bytes handed to the sink so far.
  private var handedOver = 0
  /// Bytes appended so far: where the next byte goes in the whole output.
  public var position: Int { handedOver + buffer.count }

  public init(sink: ByteSink, lineBuffered: Bool = false, capacity: Int = 1 << 16) {
    self.sink = sink
    self.lineBuffered = lineBuffered
    self.capacity = capacity
    buffer.reserveCapacity(capacity + 1024)
  }

  public func append(_ byte: UInt8) { buffer.append(byte) }

  public func append(_ bytes: UnsafeBufferPointer<UInt8>) { buffer.append(contentsOf: bytes) }

  public func append(_ string: String) {
    var s = string
    s.withUTF8 { buffer.append(contentsOf: $0) }
  }

  /// Call at the end of each record: flushes when the buffer is full or output is line-buffered.
  public func endRecord() throws(OutputError) {
    if lineBuffered || buffer.count >= capacity { try flush() }
  }

  /// Writes out what is buffered, then `bytes` (whole records) straight to the sink.
  public func write(through bytes: UnsafeBufferPointer<UInt8>) throws(OutputError) {
    try flush()
    try sink.write(bytes)
    handedOver += bytes.count
  }

  /// Appends `bytes`, whole records copied as they are from an input chunk no one changes
  /// (Docs/Performance.md, Pass-through without fields): a sink that keeps blocks (a part's
  /// output) keeps them without a copy, another sink is handed them straight, after what is
  /// buffered.
  func append(shared bytes: ArraySlice<UInt8>) throws(OutputError) {
    guard !lineBuffered, bytes.count >= Self.sharedMinimum else {
      buffer.append(contentsOf: bytes)
      return
    }
    if let keeper = sink as? BlockKeeper {
      // What is buffered goes as a copy of its own size: the buffer stays for what follows.
      if !buffer.isEmpty {
        try buffer.withUnsafeBufferPointer { b throws(OutputError) in try keeper.write(b) }
        handedOver += buffer.count
        buffer.removeAll(keepingCapacity: true)
      }
      keeper.keep(shared: bytes)
      handedOver += bytes.count
      return
    }
    var failure: OutputError?
    bytes.withUnsafeBufferPointer { b in
      do throws(OutputError) { try write(through: b) } catch { failure = error }
    }
    if let failure { throw failure }
  }

  /// Appends `block`, whole records built apart, and leaves it empty. A sink that keeps blocks
  /// (a part's output) keeps it without a copy; another is handed it straight. Either way it
  /// goes after what is buffered.
  func append(block: inout [UInt8]) throws(OutputError) {
    defer { block = [] }
    guard !lineBuffered, let keeper = sink as? BlockKeeper else {
      return try block.withUnsafeBufferPointer { b throws(OutputError) in try write(through: b) }
    }
    if !buffer.isEmpty {
      try buffer.withUnsafeBufferPointer { b throws(OutputError) in try keeper.write(b) }
      handedOver += buffer.count
      buffer.removeAll(keepingCapacity: true)
    }
    handedOver += block.count
    keeper.keep(&block)
  }

  /// The fewest bytes `append(shared:)` hands over without copying them into the buffer.
  static let sharedMinimum = 4096

  /// Writes out everything buffered.
  public func flush() throws(OutputError) {
    guard !buffer.isEmpty else { return }
    handedOver += buffer.count
    if let keeper = sink as? BlockKeeper {
      keeper.keep(&buffer)
      buffer.reserveCapacity(capacity + 1024)
      return
    }
    defer { buffer.removeAll(keepingCapacity: true) }
    let sink = self.sink
    var failure: OutputError?
    buffer.withUnsafeBufferPointer { b in
      do throws(OutputError) { try sink.write(b) } catch { failure = error }
    }
    if let failure { throw failure }
  }
}
