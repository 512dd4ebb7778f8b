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

  /// `count` NDJSON records `{"id":i,"k<i>":"v<i>"}` (each brings one key), every 5th with a
  /// key given twice (the last value counts) and every 7th with `shared` after the new key.
  static func sparseLines(_ count: Int) -> String {
    (0..<count).map { i in
      "{\"id\":\(i),\"k\(i)\":\"v\(i)\""
        + (i % 5 == 0 ? ",\"k\(i)\":\"w\(i)\"" : "") + (i % 7 == 0 ? ",\"shared\":\(i)" : "") + "}\n"
    }.joined()
  }

  /// Issue 27 item 4: records that each bring a key far past the fields they have keep it as
  /// a (field, span) triple: the spans held grow with the records, not records × keys, and
  /// every record still has its own values and lacks the others.
  @Test(arguments: [7, 64, ChunkedInput.defaultChunkSize])
  func recordsBringingKeysFarOutHoldSpansLinearInTheRecords(chunkSize: Int) throws {
    let count = 3_000
    let bytes = Array(Self.sparseLines(count).utf8)
    let reader = NDJSONReader(
      source: ByteSource(bytes: bytes, name: "t.ndjson"), options: ReaderOptions(name: "t.ndjson"),
      prefix: [], chunkSize: chunkSize)
    var held = 0
    var batches = 0
    var records: [[String: String]] = []
    while let batch = try reader.nextBatch() {
      held += batch.heldBytes - batch.bytes.capacity
      batches += 1
      batch.withRows { rows in
        for r in 0..<rows.count {
          let row = rows.row(r)
          var record: [String: String] = [:]
          for (f, name) in reader.fieldNames.enumerated() {
            let value = row.field(f)
            if value.form != .missing { record[name] = value.string }
          }
          records.append(record)
        }
      }
    }
    // A pair per field known for every record would be about 3,000 × 3,000 / 2 × 8 bytes
    // (36 MB); a few hundred bytes a record, and some per batch, is linear.
    #expect(held < 400 * count + 1_000 * batches, "\(held) bytes of spans in \(batches) batches")
    #expect(records.count == count)
    for (i, record) in records.enumerated() {
      var expected = ["id": "\(i)", "k\(i)": i % 5 == 0 ? "w\(i)" : "v\(i)"]
      if i % 7 == 0 { expected["shared"] = "\(i)" }
      #expect(record == expected, "record \(i)")
    }
  }

  /// The output of such records through the engine, as CSV (a column per key), sorted (the
  /// spans copied out of the batches) and spilled to disk (the spans written out), is what
  /// an independent layout of the same records gives.
  @Test(arguments: ["", "sort:-id"])
  func csvOfRecordsBringingKeysFarOutIsEveryValueInItsColumn(query: String) throws {
    let count = 600
    let text = Self.sparseLines(count)
    var names = ["id"]
    for i in 0..<count {
      names.append("k\(i)")
      if i == 0 { names.append("shared") }
    }
    let order = query.isEmpty ? Array(0..<count) : Array((0..<count).reversed())
    var expected = names.joined(separator: ",") + "\n"
    for i in order {
      var cells = Array(repeating: "", count: names.count)
      cells[0] = "\(i)"
      cells[names.firstIndex(of: "k\(i)") ?? 0] = i % 5 == 0 ? "w\(i)" : "v\(i)"
      if i % 7 == 0 { cells[2] = "\(i)" }
      expected += cells.joined(separator: ",") + "\n"
    }
    try ParallelTests.withFile(text, suffix: ".ndjson") { path in
      let one = ParallelTests.run(query, path, format: .csv, ParallelTests.sequential)
      #expect(one.error == nil)
      #expect(one.output == expected)
      let parts = ParallelTests.run(query, path, format: .csv, ParallelTests.parallel(700))
      #expect(parts == one)
      if !query.isEmpty {
        let spilled = ParallelTests.run(
          query, path, format: .csv,
          ParallelOptions(workers: 2, partSize: 700, minimumSize: 0, memoryBudget: 2_000))
        #expect(spilled == one)
      }
    }
  }

  /// A filter on any field finds a value held as a triple.
  @Test func anyFieldFilterFindsAKeyFarOut() throws {
    try ParallelTests.withFile(Self.sparseLines(400), suffix: ".ndjson") { path in
      let found = ParallelTests.run("v377", path, format: .ndjson, ParallelTests.sequential)
      #expect(found.output == "{\"id\":377,\"k377\":\"v377\"}\n")
    }
  }
}
