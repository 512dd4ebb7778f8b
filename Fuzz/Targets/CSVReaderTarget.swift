/// The CSV reader: any bytes give records or an error, never a crash, and the same at every
/// chunk size (Docs/Formats.md, CSV); a run that counts records without their fields (the
/// count a chunk at a time, Docs/Performance.md) keeps the same records and stops at the same
/// error as the full read.
enum CSVReaderTarget {
  static func run(_ bytes: [UInt8]) {
    let (chunkSize, text) = chunkSizeAndRest(bytes)
    func read(_ size: Int, withoutFields: Bool) -> ReadOutcome {
      let reader = CSVReader(
        source: ByteSource(bytes: text, name: "t.csv"), options: ReaderOptions(name: "t.csv"),
        format: .csv, prefix: [], chunkSize: size)
      if withoutFields { reader.readWithoutFields() }
      return ReadOutcome(reader)
    }
    expectSameAtChunkSize("CSV", chunkSize, wholeSize: ChunkedInput.defaultChunkSize) { size in
      read(size, withoutFields: false)
    }
    for size in [chunkSize, ChunkedInput.defaultChunkSize]
    where read(size, withoutFields: true) != read(size, withoutFields: false) {
      propertyFailed("CSV counted without fields at chunk size \(size) reads differently")
    }
  }
}
