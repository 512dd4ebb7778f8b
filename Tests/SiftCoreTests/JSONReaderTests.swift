import Testing
@testable import SiftCore

@Suite struct JSONReaderTests {
  func reader(_ text: String, chunkSize: Int = ChunkedInput.defaultChunkSize) -> JSONReader {
    JSONReader(
      source: ByteSource(bytes: Array(text.utf8), name: "t.json"),
      options: ReaderOptions(name: "t.json"), prefix: [], chunkSize: chunkSize)
  }

  @Test func readsAnArrayOfObjects() throws {
    let text = "[\n{\"a\": 1, \"b\": \"x\\ny\"},\n{\"a\": null, \"b\": true}\n]\n"
    let result = try readAll(reader(text))
    #expect(result.fields == ["a", "b"])
    #expect(result.records == [["1", "x\ny"], ["null", "true"]])
    #expect(result.lines == [2, 3])
  }

  @Test func readsTheArrayInsideAWrapperObject() throws {
    let text =
      "{\"count\": 2, \"meta\": {\"a\": [1]}, \"records\": [{\"id\": 1}, {\"id\": 2}], \"z\": 0}"
    let result = try readAll(reader(text))
    #expect(result.fields == ["id"])
    #expect(result.records == [["1"], ["2"]])
  }

  @Test func keepsNestedValuesVerbatim() throws {
    let texts = try recordTexts(reader("[{\"c\": {\"name\" : \"Acme\", \"tags\": [1, {}]}}]"))
    #expect(texts == [Array("{\"c\": {\"name\" : \"Acme\", \"tags\": [1, {}]}}".utf8)])
    let result = try readAll(reader("[{\"c\": {\"name\" : \"Acme\", \"tags\": [1, {}]}}]"))
    #expect(result.records == [["{\"name\" : \"Acme\", \"tags\": [1, {}]}"]])
  }

  @Test func fieldListGrowsWithNewKeysAndMissingFieldsStayMissing() throws {
    let text = "[{\"a\": 1}, {\"b\": 2, \"a\": 3}, {\"c\": 4}]"
    let result = try readAll(reader(text))
    #expect(result.fields == ["a", "b", "c"])
    #expect(result.records == [["1", nil, nil], ["3", "2", nil], [nil, nil, "4"]])
  }

  @Test func earlierBatchesKeepTheirWidth() throws {
    let text = "[{\"a\": 1}, {\"a\": 2}, {\"a\": 3, \"b\": 4}]"
    let r = reader(text, chunkSize: 12)
    var widths: [Int] = []
    while let batch = try r.nextBatch() { widths.append(batch.width) }
    #expect(widths.first == 1)
    #expect(widths.last == 2)
    #expect(r.fieldNames == ["a", "b"])
  }

  @Test func duplicateKeyLastWinsAndEscapedKeysMatch() throws {
    let result = try readAll(reader("[{\"a\": 1, \"a\": 2}, {\"\\u0061\": 3}]"))
    #expect(result.fields == ["a"])
    #expect(result.records == [["2"], ["3"]])
  }

  @Test(arguments: [
    ("[{\"a\":1},\n{\"a\":2]", 2, 7, "expected ',' or '}' after an object member"),
    ("[{\"a\":1}\n{\"a\":2}]", 2, 1, "expected ',' or ']' after an array element"),
    ("[{\"a\":1},\n  {\"a\":", 2, 8, "unexpected end of input"),
    ("[1]", 1, 2, "expected an object: each element of the array is a record"),
    ("\"x\"", 1, 1, "expected an array of objects, or an object"),
    (
      "{\"a\": [{}], \"b\": {\"c d\": [{}]},\n \"e\": [{}]}", 1, 26,
      "the document holds 3 arrays of records (.a, .b.\"c d\", .e); expected exactly one:"
        + " choose one with a tool such as jq"
    ),
    ("{\"a\": 1, \"a\" 2}", 1, 14, "expected ':' after an object key"),
    ("{\"a\": {\"b\": 1 \"c\": 2}}", 1, 15, "expected ',' or '}' after an object member"),
    ("[{\"a\": 01}]", 1, 9, "expected ',' or '}' after an object member"),
    ("[] x", 1, 4, "unexpected text after the JSON value"),
  ])
  func reportsErrorsWithPositions(text: String, line: Int, column: Int, message: String) {
    let error = readError(reader(text))
    #expect(error == InputError(name: "t.json", line: line, column: column, message: message))
  }

  @Test func deepNestingIsAnErrorNotACrash() {
    let deep = "[{\"a\": " + String(repeating: "[", count: 100_000)
    let error = readError(reader(deep))
    #expect(error?.message == "nesting deeper than 512 levels")
    #expect(error?.line == 1)
  }

  @Test func emptyInputAndEmptyArrayHoldNoRecords() throws {
    #expect(try readAll(reader("  \n")).records.isEmpty)
    #expect(try readAll(reader("[]")).records.isEmpty)
    #expect(try readAll(reader("{\"records\": []}")).records.isEmpty)
  }

  @Test(arguments: [
    // The one array of objects, at any depth, holds the records; other members are ignored.
    ("{\"data\": {\"items\": [{\"id\": 1}, {\"id\": 2}]}, \"n\": [1, 2]}", ["id"], [["1"], ["2"]]),
    ("{\"a\": [], \"b\": {\"c\": [{\"id\": 1}]}, \"d\": []}", ["id"], [["1"]]),
    // An object with no array of objects is one record; arrays of other values are fields.
    ("{\"id\": 7, \"tags\": [\"x\", [{}]], \"c\": {\"d\": 1}}", ["id", "tags", "c"],
     [["7", "[\"x\", [{}]]", "{\"d\": 1}"]]),
    ("{}", [], [[]]),
    // Only empty arrays: an empty page of records.
    ("{\"data\": [], \"errors\": [], \"total\": 0}", [], []),
  ] as [(String, [String], [[String?]])])
  func readsTheShapesOfADocument(text: String, fields: [String], records: [[String?]]) throws {
    for size in [1, 2, 3, 5, 8, 13, ChunkedInput.defaultChunkSize] {
      let result = try readAll(reader(text, chunkSize: size))
      #expect(result.fields == fields, "chunk size \(size)")
      #expect(result.records == records, "chunk size \(size)")
    }
  }

  @Test func severalArraysOfRecordsAreAnErrorAtEveryChunkSize() {
    let text = "{\"a\": [{\"x\": 1}],\n \"b\": [{\"y\": 2}]}"
    for size in 1...text.utf8.count {
      let error = readError(reader(text, chunkSize: size))
      #expect(error?.line == 2, "chunk size \(size)")
      #expect(error?.column == 7, "chunk size \(size)")
      #expect(
        error?.message == "the document holds 2 arrays of records (.a, .b); expected exactly one:"
          + " choose one with a tool such as jq", "chunk size \(size)")
    }
  }

  @Test func recordsStraddlingChunksReadTheSame() throws {
    let text = "\u{FEFF}{\"meta\": \"x\",\n \"rows\": [\n{\"id\": 12345, \"n\": \"a\\\"b\"},\n"
      + "  {\"id\": -1.5e3, \"n\": [true, false, null], \"x\": {}}\n, {}]}\n"
    let whole = try readAll(reader(text))
    #expect(whole.records == [["12345", "a\"b", nil], ["-1.5e3", "[true, false, null]", "{}"],
      [nil, nil, nil]])
    #expect(whole.lines == [3, 4, 5])
    for size in 1...text.utf8.count {
      #expect(try readAll(reader(text, chunkSize: size)) == whole, "chunk size \(size)")
    }
  }
}
