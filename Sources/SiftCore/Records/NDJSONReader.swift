#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads NDJSON / JSON Lines in chunks: one object per line (LF or CRLF), blank lines skipped.
/// Each object is a record; its top-level keys are the fields, in first-seen order. With
/// `skipBad` a malformed line is reported and skipped (keys it introduced stay in the field list).
public final class NDJSONReader: RecordReader {
  public var fieldNames: [String] { builder.fieldNames }
  public let encoding = FieldEncoding.json
  public let shortRows = 0
  public private(set) var skipped = 0
  public var onSkip: ((InputError) -> Void)?

  private var input: ChunkedInput
  public var wentIdle: Bool { input.wentIdle }
  private let name: String
  private let skipBad: Bool
  private let builder = JSONRecordBuilder()
  /// The line on which the next unread byte starts.
  private var line = 1
  private var finished = false

  /// A reader of the NDJSON in `source`.
  public convenience init(source: ByteSource, options: ReaderOptions) {
    self.init(source: source, options: options, prefix: [])
  }

  init(
    source: ByteSource, options: ReaderOptions, prefix: [UInt8],
    chunkSize: Int = ChunkedInput.defaultChunkSize
  ) {
    input = ChunkedInput(source: source, chunkSize: chunkSize, prefix: prefix)
    name = options.name
    skipBad = options.skipBad
    self.options = options
  }

  private let options: ReaderOptions

  /// A reader of one part of a file, numbering lines from `line`. A part at the file's start
  /// (a later input the sample did not reach) drops a byte order mark there, as a whole-file
  /// reader does (Docs/Formats.md, Encodings).
  private convenience init(
    part source: ByteSource, options: ReaderOptions, line: Int, chunkSize: Int, atFileStart: Bool
  ) {
    self.init(source: source, options: options, prefix: [])
    input = ChunkedInput(source: source, chunkSize: chunkSize, atStart: atFileStart)
    self.line = line
  }

  private var failure = DeferredFailure()

  public func nextBatch() throws(InputError) -> RecordBatch? {
    try failure.throwIfHeld()
    while !finished {
      let (buffer, done) = try input.scanNextChunk(failure: &failure, records: { builder.count }) {
        b, isLast throws(InputError) in try scanLines(b, isLast: isLast)
      }
      finished = done
      if builder.count > 0 { return builder.takeBatch(bytes: buffer) }
    }
    return nil
  }

  /// Reads the whole lines of `b`; returns the offset after the last one.
  private func scanLines(_ b: UnsafeBufferPointer<UInt8>, isLast: Bool) throws(InputError) -> Int {
    guard let base = b.baseAddress else { return 0 }
    let n = b.count
    var p = 0
    while p < n {
      let lineEnd: Int
      if let found = memchr(base + p, Int32(UInt8.lineFeed), n - p) {
        lineEnd = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
      } else {
        guard isLast else { break }
        lineEnd = n
      }
      let scanner = JSONScanner(
        UnsafeBufferPointer(rebasing: b[..<lineEnd]), isLast: true, endName: "line")
      let start = scanner.skipWhitespace(from: p)
      if start < lineEnd {
        do throws(JSONScanFailure) {
          try readRecord(scanner, at: start)
        } catch {
          let offset: Int
          let message: String
          switch error {
          case .truncated: (offset, message) = (lineEnd, "unexpected end of line")
          case .malformed(let at, let text): (offset, message) = (at, text)
          }
          let error = InputError(name: name, line: line, column: offset - p + 1, message: message)
          guard skipBad else { throw error }
          skipped += 1
          onSkip?(error)
        }
      }
      p = min(lineEnd + 1, n)
      line += 1
    }
    return p
  }

  /// Adds the object at `start` as a record; only whitespace may follow it on the line.
  private func readRecord(_ scanner: JSONScanner, at start: Int) throws(JSONScanFailure) {
    guard scanner.b[start] == .openBrace else {
      _ = try scanner.scanValue(at: start, depth: 0)
      throw .malformed(offset: start, message: "expected an object: each line holds one record")
    }
    let end = try builder.addRecord(scanner, at: start, depth: 0, line: line)
    let rest = scanner.skipWhitespace(from: end)
    if rest < scanner.b.count {
      builder.dropLastRecord()
      throw .malformed(offset: rest, message: "unexpected text after the object")
    }
  }
}

extension NDJSONReader: SplittableReader {
  func restSplit(minimum: Int) -> RestSplit {
    guard !finished else { return .oneThread(.sampleReadAll) }
    guard !skipBad else { return .oneThread(.skipBad) }
    return input.rest(minimum: minimum, name: name, line: line, streams: true)
  }

  func handOverRest() -> RecordBatch? {
    finished = true
    return nil
  }

  func partReader(
    _ range: Range<Int>, of rest: FileRest, line: Int, column: Int
  ) -> any PartReader {
    NDJSONReader(
      part: ByteSource(fileDescriptor: rest.fd, name: rest.name, range: range), options: options,
      line: line, chunkSize: ChunkedInput.chunkSize(for: range), atFileStart: range.lowerBound == 0)
  }

  var boundaryRule: PartBoundary { .afterLineFeed }
  var nextLine: Int { line }
}

extension NDJSONReader: StreamSplittableReader {
  func streamPartReader(_ source: ByteSource, line: Int, chunkSize: Int) -> any PartReader {
    NDJSONReader(
      part: source, options: options, line: line, chunkSize: chunkSize, atFileStart: false)
  }

  /// A line end inside a JSON string is an error, not a record's text.
  var quoteByte: UInt8? { nil }
}
