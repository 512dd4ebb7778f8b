import Testing

@testable import SiftCore

/// A stage handing out its bytes a few at a time, as a pipe does (64 KiB per read), and noting
/// the largest read asked of it.
private final class TricklingStage: ByteStage {
  let bytes: [UInt8]
  let piece: Int
  var offset = 0
  var largestAsk = 0

  init(_ bytes: [UInt8], piece: Int) {
    self.bytes = bytes
    self.piece = piece
  }

  func read(to target: UnsafeMutablePointer<UInt8>, maxCount: Int) throws(InputError) -> Int {
    largestAsk = max(largestAsk, maxCount)
    let n = min(piece, maxCount, bytes.count - offset)
    bytes.withUnsafeBufferPointer { b in target.update(from: b.baseAddress! + offset, count: n) }
    offset += n
    return n
  }
}

@Suite struct ChunkedInputTests {
  /// One CSV record: a header and a quoted field of `length` bytes.
  static func longRecord(_ length: Int) -> [UInt8] {
    Array("a,b\n1,\"".utf8) + Array(repeating: UInt8(ascii: "x"), count: length)
      + Array("\"\n".utf8)
  }

  @Test func aRecordSpanningManyChunksIsCopiedALinearNumberOfTimes() throws {
    let bytes = Self.longRecord(300_000)
    let stage = TricklingStage(bytes, piece: 100)
    var input = ChunkedInput(source: ByteSource(stage: stage, name: "pipe"), chunkSize: 64)
    var buffer: [UInt8] = []
    while !input.atEnd {
      buffer = try input.nextBuffer()
      input.carry(buffer, from: 0)  // the record is not whole until the end
    }
    #expect(buffer == bytes)
    // Growing by a chunk each time would copy the carried bytes once per chunk: about
    // n² / (2 × 64) = 700 million bytes here. Growing geometrically writes each byte a few times.
    #expect(input.bytesWritten <= 3 * bytes.count, "\(input.bytesWritten) bytes written")
    #expect(stage.largestAsk <= 64, "a read asked for \(stage.largestAsk) bytes")
  }

  @Test func aFieldLongerThanManyChunksOfATricklingSourceReadsWhole() throws {
    let bytes = Self.longRecord(200_000) + Array("2,3\n".utf8)
    let source = ByteSource(stage: TricklingStage(bytes, piece: 7), name: "pipe")
    let reader = CSVReader(
      source: source, options: ReaderOptions(name: "pipe"), format: .csv, prefix: [],
      chunkSize: 64)
    let result = try readAll(reader)
    #expect(result.records == [["1", String(repeating: "x", count: 200_000)], ["2", "3"]])
    #expect(result.lines == [2, 3])
  }
}
