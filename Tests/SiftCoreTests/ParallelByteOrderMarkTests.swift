import Testing

@testable import SiftCore

/// Docs/Formats.md, Encodings: a UTF-8 byte order mark at the start of an NDJSON file that is
/// not the first input is dropped whether the file is read on one thread or in parts.
@Suite struct ParallelByteOrderMarkTests {
  /// NDJSON lines `{"id":i,"name":"n i"}` for `range`.
  static func lines(_ range: Range<Int>) -> String {
    range.map { "{\"id\":\($0),\"name\":\"n \($0)\"}\n" }.joined()
  }

  /// Runs `''` over `paths` (each an input) with `parallel`, writing CSV.
  static func run(_ paths: [String], _ parallel: ParallelOptions) -> ParallelTests.Outcome {
    let sink = MemorySink()
    let buffer = OutputBuffer(sink: sink)
    do {
      var inputs: [DatasetInput] = []
      for path in paths {
        let opened = try ReaderFactory.makeReader(
          source: try ByteSource(path: path), format: nil, options: ReaderOptions(name: path))
        inputs.append(DatasetInput(reader: opened.reader))
      }
      let dataset = Dataset(inputs: inputs, parallel: parallel)
      let plan = try dataset.plan(try Parser.parse(""), now: 0)
      let summary = try dataset.run(plan, writer: makeWriter(WriterOptions(format: .csv), output: buffer))
      try buffer.flush()
      return ParallelTests.Outcome(output: sink.text, summary: summary)
    } catch {
      try? buffer.flush()
      return ParallelTests.Outcome(output: sink.text, error: "\(error)")
    }
  }

  @Test(arguments: [1, 2, 3])
  func byteOrderMarkOfALaterNDJSONInputIsDroppedInParts(workers: Int) throws {
    let first = Self.lines(0..<1_500)  // more than the sample: it does not reach the second
    let second = "\u{FEFF}" + Self.lines(1_500..<4_000)
    try ParallelTests.withFile(first, suffix: ".ndjson") { a in
      try ParallelTests.withFile(second, suffix: ".ndjson") { b in
        let one = Self.run([a, b], ParallelTests.sequential)
        let parts = Self.run([a, b], ParallelTests.parallel(4_096, workers: workers))
        #expect(one.error == nil)
        #expect(one.summary?.matched == 4_000)
        #expect(parts == one)
      }
    }
  }
}
