/// The JSON and NDJSON readers: any bytes give records or an error, never a crash, and any
/// chunk size gives the same records or the same error at the same position (Docs/Formats.md,
/// JSON).
enum JSONReaderTarget {
  static func run(_ bytes: [UInt8]) {
    let (chunkSize, text) = chunkSizeAndRest(bytes)
    func json(_ size: Int) -> ReadOutcome {
      ReadOutcome(
        JSONReader(
          source: ByteSource(bytes: text, name: "t.json"), options: ReaderOptions(name: "t.json"),
          prefix: [], chunkSize: size))
    }
    func ndjson(_ size: Int) -> ReadOutcome {
      ReadOutcome(
        NDJSONReader(
          source: ByteSource(bytes: text, name: "t.ndjson"),
          options: ReaderOptions(name: "t.ndjson"), prefix: [], chunkSize: size))
    }
    if json(chunkSize) != json(ChunkedInput.defaultChunkSize) {
      propertyFailed("JSON chunk size \(chunkSize) reads differently")
    }
    if ndjson(chunkSize) != ndjson(ChunkedInput.defaultChunkSize) {
      propertyFailed("NDJSON chunk size \(chunkSize) reads differently")
    }
  }
}
