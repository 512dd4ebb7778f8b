/// The CSV reader: any bytes give records or an error, never a crash, and the same at every
/// chunk size (Docs/Formats.md, CSV).
enum CSVReaderTarget {
  static func run(_ bytes: [UInt8]) {
    let (chunkSize, text) = chunkSizeAndRest(bytes)
    expectSameAtChunkSize("CSV", chunkSize, wholeSize: ChunkedInput.defaultChunkSize) { size in
      ReadOutcome(
        CSVReader(
          source: ByteSource(bytes: text, name: "t.csv"), options: ReaderOptions(name: "t.csv"),
          format: .csv, prefix: [], chunkSize: size))
    }
  }
}
