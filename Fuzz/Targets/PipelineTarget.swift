/// The whole pipeline: bytes read as CSV (sniffed as the command line sniffs them) and written
/// as CSV read back as the same records: writing that output again gives the same bytes
/// (Docs/Formats.md, Output).
enum PipelineTarget {
  /// The CSV sift writes for all of `bytes`, or `nil` when they are not read.
  static func csvOut(_ bytes: [UInt8], format: InputFormat?, delimiter: UInt8?) -> [UInt8]? {
    let sink = MemorySink()
    let buffer = OutputBuffer(sink: sink)
    do {
      let options = ReaderOptions(name: "t.csv", delimiter: delimiter)
      let opened = try ReaderFactory.makeReader(
        source: ByteSource(bytes: bytes, name: "t.csv"), format: format, options: options)
      guard opened.format == .csv || opened.format == .tsv else { return nil }
      let dataset = Dataset(
        inputs: [DatasetInput(reader: opened.reader)], parallel: ParallelOptions(workers: 1))
      let plan = try dataset.plan(try Parser.parse(""), now: 0)
      _ = try dataset.run(plan, writer: makeWriter(WriterOptions(format: .csv), output: buffer))
      try buffer.flush()
      return sink.bytes
    } catch {
      return nil
    }
  }

  static func run(_ bytes: [UInt8]) {
    guard let first = csvOut(bytes, format: .csv, delimiter: nil) else { return }
    guard let second = csvOut(first, format: .csv, delimiter: UInt8(ascii: ",")) else {
      propertyFailed("sift's CSV output is not read back")
    }
    if second != first { propertyFailed("sift's CSV output reads back as other bytes") }
  }
}
