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

extension Array {
  /// Moves the array out of `stored` (a writer's property), leaving it empty. Appends to the
  /// moved-out array need no copy and skip the exclusivity checks every access to a class's
  /// stored property costs, which made up a third of the time of CSV output.
  static func take(_ stored: inout [Element]) -> [Element] {
    var taken: [Element] = []
    swap(&taken, &stored)
    return taken
  }
}

extension OutputBuffer {
  /// Appends a writer's finished line, empties it (keeping its capacity), and ends the record.
  func append(line: inout [UInt8]) throws(OutputError) {
    line.withUnsafeBufferPointer { append($0) }
    line.removeAll(keepingCapacity: true)
    try endRecord()
  }
}
