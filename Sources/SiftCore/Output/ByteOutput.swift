/// Something bytes are appended to: the output buffer, or a writer's scratch array. Lets one
/// encoder (JSON escaping, minifying) serve both without copying through an intermediate.
protocol ByteOutput {
  mutating func append(_ byte: UInt8)
  mutating func append(_ bytes: UnsafeBufferPointer<UInt8>)
}

extension ByteOutput {
  /// Appends the UTF-8 bytes of a literal.
  mutating func append(literal: StaticString) {
    literal.withUTF8Buffer { append($0) }
  }

  /// Appends `count` spaces.
  mutating func appendSpaces(_ count: Int) {
    for _ in 0..<max(count, 0) { append(.space) }
  }
}

extension OutputBuffer: ByteOutput {}

extension Array: ByteOutput where Element == UInt8 {
  mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) { append(contentsOf: bytes) }
}
