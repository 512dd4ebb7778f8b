/// The JSON and NDJSON readers: any bytes give records or an error, never a crash, and any
/// chunk size gives the same records or the same error at the same position (Docs/Formats.md,
/// JSON).
enum JSONReaderTarget {
  static func run(_ bytes: [UInt8]) {
    let (chunkSize, text) = chunkSizeAndRest(bytes)
    let whole = ChunkedInput.defaultChunkSize
    expectSameAtChunkSize("JSON", chunkSize, wholeSize: whole) { size in
      ReadOutcome(
        JSONReader(
          source: ByteSource(bytes: text, name: "t.json"), options: ReaderOptions(name: "t.json"),
          prefix: [], chunkSize: size))
    }
    expectSameAtChunkSize("NDJSON", chunkSize, wholeSize: whole) { size in
      ReadOutcome(
        NDJSONReader(
          source: ByteSource(bytes: text, name: "t.ndjson"),
          options: ReaderOptions(name: "t.ndjson"), prefix: [], chunkSize: size))
    }
  }
}
