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

/// Line numbers in errors stay exact when a CRLF straddles two chunks (the CR the last byte of
/// one, the LF the first of the next): every reader, the CR placed at each offset around the
/// chunk boundary.
@Suite struct LineEndAcrossChunksTests {
  static let chunk = 64

  /// `head` padded with spaces (or, in CSV, a padding field) so that its final CRLF's CR falls
  /// at `crAt`, followed by `tail`.
  static func input(_ head: String, crAt: Int, tail: String, pad: UInt8) -> [UInt8] {
    var bytes = Array(head.utf8)
    bytes += Array(repeating: pad, count: crAt - bytes.count)
    return bytes + Array("\r\n".utf8) + Array(tail.utf8)
  }

  static let offsets = Array((chunk - 3)...(chunk + 2)) + Array((2 * chunk - 2)...(2 * chunk))

  @Test(arguments: offsets)
  func jsonTrailingTextLine(crAt: Int) {
    // The document ends, whitespace runs up to the CR, an error follows two lines later.
    let bytes = Self.input("[{\"a\":1},\r\n{\"a\":2}]", crAt: crAt, tail: "\r\n x", pad: .space)
    let reader = JSONReader(
      source: ByteSource(bytes: bytes, name: "t.json"), options: ReaderOptions(name: "t.json"),
      prefix: [], chunkSize: Self.chunk)
    let error = readError(reader)
    #expect(error?.line == 4 && error?.column == 2, "\(String(describing: error))")
  }

  @Test(arguments: offsets)
  func jsonRecordLinesAndErrorInsideTheDocument(crAt: Int) throws {
    let bytes = Self.input("[{\"a\":1}", crAt: crAt, tail: ",{\"a\":2},\r\n{\"a\":}]", pad: .space)
    let reader = JSONReader(
      source: ByteSource(bytes: bytes, name: "t.json"), options: ReaderOptions(name: "t.json"),
      prefix: [], chunkSize: Self.chunk)
    var lines: [Int] = []
    var error: InputError?
    do {
      while let batch = try reader.nextBatch() { lines += (0..<batch.count).map(batch.line) }
    } catch let e { error = e }
    #expect(lines == [1, 2], "crAt \(crAt)")
    #expect(error?.line == 3 && error?.column == 6, "\(String(describing: error))")
  }

  @Test(arguments: offsets)
  func ndjsonLine(crAt: Int) {
    let bytes = Self.input("{\"a\":1}", crAt: crAt, tail: "{\"a\":2}\r\n{\"a\"}\r\n", pad: .space)
    let reader = NDJSONReader(
      source: ByteSource(bytes: bytes, name: "t.ndjson"),
      options: ReaderOptions(name: "t.ndjson"), prefix: [], chunkSize: Self.chunk)
    let error = readError(reader)
    #expect(error?.line == 3 && error?.column == 5, "\(String(describing: error))")
  }

  @Test(arguments: offsets)
  func csvLine(crAt: Int) {
    let bytes = Self.input(
      "a,b\r\n1,", crAt: crAt, tail: "2,3\r\n4,5,6\r\n", pad: UInt8(ascii: "x"))
    let reader = CSVReader(
      source: ByteSource(bytes: bytes, name: "t.csv"), options: ReaderOptions(name: "t.csv"),
      format: .csv, prefix: [], chunkSize: Self.chunk)
    let error = readError(reader)
    #expect(error?.line == 4 && error?.column == 5, "\(String(describing: error))")
  }
}
