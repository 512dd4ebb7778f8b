import Testing

@testable import SiftCore

/// Docs/Performance.md, Width: JSON records that each bring a new key are read in a ragged
/// batch (no record widened when a later one brings a key), and read the same as before:
/// every record has its own keys' values and lacks the others.
@Suite struct JSONNewKeysTests {
  /// `count` NDJSON records `{"id":i,"k<i>":"v<i>"}`, with `shared` keys after every 3rd.
  static func lines(_ count: Int) -> String {
    (0..<count).map { i in
      "{\"id\":\(i),\"k\(i)\":\"v\(i)\"" + (i % 3 == 0 ? ",\"shared\":\(i)" : "") + "}\n"
    }.joined()
  }

  @Test(arguments: [1, 7, 64, ChunkedInput.defaultChunkSize])
  func recordsBringingNewKeysKeepTheirOwnValues(chunkSize: Int) throws {
    let count = 300
    let reader = NDJSONReader(
      source: ByteSource(bytes: Array(Self.lines(count).utf8), name: "t.ndjson"),
      options: ReaderOptions(name: "t.ndjson"), prefix: [], chunkSize: chunkSize)
    let result = try readAll(reader)
    #expect(result.fields.count == count + 2)
    #expect(result.records.count == count)
    for (i, record) in result.records.enumerated() {
      let expected: [String?] = result.fields.map { name in
        switch name {
        case "id": "\(i)"
        case "k\(i)": "v\(i)"
        case "shared": i % 3 == 0 ? "\(i)" : nil
        default: nil
        }
      }
      #expect(record == expected, "record \(i)")
    }
  }

  /// The parallel scan copies matches of a ragged batch out with the batch's full width.
  @Test func sortedRecordsOfARaggedBatchKeepTheirValues() throws {
    let text = Self.lines(200)
    try ParallelTests.withFile(text, suffix: ".ndjson") { path in
      let one = ParallelTests.run("sort:-id", path, format: .ndjson, ParallelTests.sequential)
      let two = ParallelTests.run("sort:-id", path, format: .ndjson, ParallelTests.parallel(512))
      #expect(one.error == nil)
      #expect(one == two)
      let lines = one.output.split(separator: "\n")
      #expect(lines.first == "{\"id\":199,\"k199\":\"v199\"}")
      #expect(lines.last == "{\"id\":0,\"k0\":\"v0\",\"shared\":0}")
    }
  }
}
