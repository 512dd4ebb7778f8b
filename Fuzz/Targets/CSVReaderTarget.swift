/// The CSV reader: any bytes give records or an error, never a crash, and the same at every
/// chunk size (Docs/Formats.md, CSV).
enum CSVReaderTarget {
  static func run(_ bytes: [UInt8]) {
    let (chunkSize, text) = chunkSizeAndRest(bytes)
    func read(_ size: Int) -> ReadOutcome {
      ReadOutcome(
        CSVReader(
          source: ByteSource(bytes: text, name: "t.csv"), options: ReaderOptions(name: "t.csv"),
          format: .csv, prefix: [], chunkSize: size))
    }
    let whole = read(ChunkedInput.defaultChunkSize)
    if read(chunkSize) != whole { propertyFailed("CSV chunk size \(chunkSize) reads differently") }
  }
}
