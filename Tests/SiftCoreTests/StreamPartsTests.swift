import Testing

@testable import SiftCore

#if canImport(Glibc)
  import Glibc
#endif

/// A pipe read in parts (Docs/Architecture.md, Standard input in parts) gives exactly what the
/// same bytes give read from a file on one thread: the same output, counts and errors, at every
/// worker count and part size.
@Suite struct StreamPartsTests {
  /// Runs `query` over `text` written into a pipe by another thread, `chunk` bytes a write
  /// (pausing `pause` microseconds between writes), read as `format` like standard input.
  /// With `csvChunkSize`, the pipe is read as CSV in chunks of that size (so the sample ends
  /// early), not through ReaderFactory's 256 KiB ones.
  static func runOverPipe(
    _ query: String, _ text: String, format: OutputFormat, count: Bool = false,
    chunk: Int = 1 << 16, pause: UInt32 = 0, csvChunkSize: Int? = nil,
    _ parallel: ParallelOptions
  ) throws -> ParallelTests.Outcome {
    signal(SIGPIPE, SIG_IGN)  // a run that stops at an error leaves the writer a closed pipe
    var ends: [Int32] = [0, 0]
    try #require(pipe(&ends) == 0)
    let writer = PipeWriter(fd: ends[1], bytes: Array(text.utf8), chunk: chunk, pause: pause)
    var thread = pthread_t()
    let context = Unmanaged.passRetained(writer).toOpaque()
    try #require(
      pthread_create(
        &thread, nil,
        { context in
          Unmanaged<PipeWriter>.fromOpaque(context!).takeRetainedValue().run()
          return nil
        }, context) == 0)
    defer {
      close(ends[0])
      pthread_join(thread, nil)
    }
    return ParallelTests.run(query, format: format, count: count, parallel) {
      let source = ByteSource(fileDescriptor: ends[0], name: "input")
      if let csvChunkSize {
        return CSVReader(
          source: source, options: ReaderOptions(name: "input"), format: .csv, prefix: [],
          chunkSize: csvChunkSize)
      }
      return try ReaderFactory.makeReader(
        source: source, format: nil, options: ReaderOptions(name: "input")
      ).reader
    }
  }

  /// The same text read from a file on one thread.
  static func runOverFile(
    _ query: String, _ text: String, suffix: String, format: OutputFormat, count: Bool = false
  ) throws -> ParallelTests.Outcome {
    try ParallelTests.withFile(text, suffix: suffix) { path in
      ParallelTests.run(query, path, format: format, count: count, ParallelTests.sequential)
    }
  }

  /// NDJSON records, some with CRs inside lines and escaped line breaks in strings.
  static func ndjson(rows: Int) -> String {
    var text = ""
    let statuses = ["received", "pending", "cancelled"]
    for i in 0..<rows {
      let note = i % 11 == 0 ? "two\\nlines \\\"quoted\\\"" : "plain \(i)"
      let end = i % 9 == 0 ? "\r\n" : "\n"
      text += "{\"id\":\(i),\"status\":\"\(statuses[i % 3])\",\"note\":\"\(note)\",\"qty\":\(i % 250)}\(end)"
    }
    return text
  }

  static let partSizes = [700, 8192, 100_000]
  static let csvText = ParallelTests.csv(rows: 30_000, multilineEvery: 13)
  static let ndjsonText = ndjson(rows: 30_000)

  /// Expects `query` over `text` from a pipe to give what it gives from a file on one thread,
  /// at 1–3 workers and each of `partSizes`; with `failing`, both end in the same error.
  static func expectPipedMatchesFile(
    _ query: String, _ text: String, suffix: String, format: OutputFormat,
    partSizes: [Int] = partSizes, failing: Bool = false, csvChunkSize: Int? = nil
  ) throws {
    let expected = try runOverFile(query, text, suffix: suffix, format: format)
    #expect((expected.error != nil) == failing, "\(expected.error ?? "no error")")
    for workers in [1, 2, 3] {
      for partSize in partSizes {
        let options = ParallelOptions(workers: workers, partSize: partSize)
        let got = try runOverPipe(
          query, text, format: format, csvChunkSize: csvChunkSize, options)
        #expect(got == expected, "\(workers) workers, parts of \(partSize)")
      }
    }
  }

  @Test(arguments: [
    "status:received customer:Acme", "note:*three* limit:40",
    "group:customer sort:-qty limit:5000", "",
  ])
  func pipedCSVMatchesTheFileAtEveryWorkerCountAndPartSize(query: String) throws {
    try Self.expectPipedMatchesFile(query, Self.csvText, suffix: ".csv", format: .csv)
  }

  @Test func pipedNDJSONMatchesTheFileAtEveryWorkerCountAndPartSize() throws {
    try Self.expectPipedMatchesFile(
      "status:received qty:>100", Self.ndjsonText, suffix: ".ndjson", format: .json)
  }

  /// A writer that pauses often makes parts cut early, as the stream goes idle.
  @Test func aPausingWriterGivesTheSameRecords() throws {
    let text = ParallelTests.csv(rows: 3000, multilineEvery: 7)
    let query = "status:received,pending"
    let expected = try Self.runOverFile(query, text, suffix: ".csv", format: .csv)
    let got = try Self.runOverPipe(
      query, text, format: .csv, chunk: 40_000, pause: 60_000,
      ParallelOptions(workers: 2, partSize: 1 << 20))
    #expect(got == expected)
  }

  /// A quote inside an unquoted field is a literal byte to the reader, which the cutter's count
  /// cannot know: parts still end within four part sizes, and a part cut inside quoted text
  /// makes the rest read in order, with the same records.
  @Test func aLiteralQuoteKeepsPartsBoundedAndRecordsTheSame() throws {
    var text = "id,size,note\n1,5\" pipe,\"two\nlines\"\n"
    for i in 2..<20_000 { text += "\(i),\(i % 9)\",\"note \(i)\nnext\"\n" }
    try Self.expectPipedMatchesFile(
      "note:*next*", text, suffix: ".csv", format: .csv, partSizes: [4096, 100_000])
  }

  /// An error late in the pipe: the records before it written, the same place named. The pipe
  /// is read in chunks of 32 KiB, so the 1,000 sampled records end within the first two and the
  /// bad row, some 200 KB in, lies some 30 parts of 4 KB and a whole one of 100 KB past them
  /// (60,000 records in 1 MiB chunks put it past the sample at six times the cost).
  @Test(arguments: ["\n", "\r\n"])
  func anErrorLateInThePipeIsTheOneThreadError(lineEnd: String) throws {
    let chunk = 32 << 10
    var text = "id,status,note" + lineEnd
    for i in 0..<10_000 {
      text += i == 8_888 ? "\(i),received,\"never\" closed" : "\(i),received,\"n \(i)\""
      text += lineEnd
    }
    let bad = try #require(text.utf8.firstRange(of: "8888,received".utf8)).lowerBound
    // 1,000 rows are some 23 KB: the sample reads at most two chunks.
    #expect(text.utf8.distance(from: text.utf8.startIndex, to: bad) > 2 * chunk + 100_000)
    let query = "status:received"
    let expected = try Self.runOverFile(query, text, suffix: ".csv", format: .csv)
    #expect(expected.error?.contains("input:8890:") == true, "\(expected.error ?? "")")
    #expect(expected.output.hasPrefix("id,status,note"))
    try Self.expectPipedMatchesFile(
      query, text, suffix: ".csv", format: .csv, partSizes: [4096, 100_000], failing: true,
      csvChunkSize: chunk)
  }

  /// The cutter hands out every byte once, in order, each part ending at a record's end: an
  /// even number of quotes, and a line end last (the quote count is what keeps a CSV whose
  /// quoted fields span lines from falling back to one thread).
  @Test(arguments: [300, 700, 4096, 100_000])
  func everyPartEndsAtARecordEnd(partSize: Int) {
    let text = Array(ParallelTests.csv(rows: 5000, multilineEvery: 3).utf8)
    // The reader had read the first bytes of the rest before handing it over.
    let rest = StreamRest(
      source: ByteSource(bytes: Array(text[10...]), name: "input"), name: "input",
      carried: Array(text[..<10]), line: 1)
    let cutter = StreamCutter(rest, partSize: partSize, rule: .afterLineEnd, quote: .quote)
    var joined: [UInt8] = []
    var parts = 0
    while let cut = cutter.next() {
      parts += 1
      joined += cut.bytes
      #expect(cut.bytes.filter { $0 == .quote }.count % 2 == 0, "part \(parts)")
      #expect(cut.bytes.last == .lineFeed || cut.bytes.last == .carriageReturn, "part \(parts)")
      #expect(cut.bytes.count < max(partSize, 1) + (1 << 16) + 200, "part \(parts)")
    }
    #expect(joined == text)
    #expect(parts >= text.count / (partSize + (1 << 16)))
  }

  /// A pipe is read in parts, and `--explain` says so.
  @Test func aPipeIsReadInParts() throws {
    var ends: [Int32] = [0, 0]
    try #require(pipe(&ends) == 0)
    defer {
      close(ends[0])
      close(ends[1])
    }
    // The writer keeps the pipe open: the sample takes what has arrived.
    let head = Array("id,status\n1,received\n".utf8)
    _ = head.withUnsafeBytes { write(ends[1], $0.baseAddress, $0.count) }
    let reader = try ReaderFactory.makeReader(
      source: ByteSource(fileDescriptor: ends[0], name: "stdin"), format: nil,
      options: ReaderOptions(name: "stdin")
    ).reader
    reader.readHeader()
    let split = ParallelOptions(workers: 2, partSize: 4096).split(reader)
    #expect(split.isParts)
    let plan = try Plan(
      query: Query(), schema: Schema(names: ["id", "status"]), now: 0
    ) { _ in .text }
    #expect(
      ParallelOptions(workers: 2, partSize: 4096).threadingWords(split: split, for: plan)
        == "2 workers, parts of 4 KiB as the stream arrives")
    #expect(
      ParallelOptions(workers: 2).threadingWords(split: split, for: plan)
        == "2 workers, parts of 1 MiB as the stream arrives")
  }
}

/// Writes bytes into a pipe, `chunk` at a time, then closes it.
private final class PipeWriter {
  let fd: Int32
  let bytes: [UInt8]
  let chunk: Int
  let pause: UInt32

  init(fd: Int32, bytes: [UInt8], chunk: Int, pause: UInt32) {
    self.fd = fd
    self.bytes = bytes
    self.chunk = chunk
    self.pause = pause
  }

  func run() {
    defer { close(fd) }
    var at = 0
    while at < bytes.count {
      let n = min(chunk, bytes.count - at)
      let wrote = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + at, n) }
      guard wrote > 0 else { return }
      at += wrote
      if pause > 0 { usleep(pause) }
    }
  }
}
