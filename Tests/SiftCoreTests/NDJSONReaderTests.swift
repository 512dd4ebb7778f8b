import Testing
@testable import SiftCore

@Suite struct NDJSONReaderTests {
  func reader(
    _ text: String, skipBad: Bool = false, chunkSize: Int = ChunkedInput.defaultChunkSize
  ) -> NDJSONReader {
    NDJSONReader(
      source: ByteSource(bytes: Array(text.utf8), name: "t.ndjson"),
      options: ReaderOptions(name: "t.ndjson", skipBad: skipBad), prefix: [],
      chunkSize: chunkSize)
  }

  @Test func readsOneObjectPerLineSkippingBlankLines() throws {
    let result = try readAll(reader("{\"a\":1}\r\n  \r\n\n{\"b\":\"x\",\"a\":2}\r\n{\"a\":3}"))
    #expect(result.fields == ["a", "b"])
    #expect(result.records == [["1", nil], ["2", "x"], ["3", nil]])
    #expect(result.lines == [1, 4, 5])
  }

  @Test(arguments: [
    ("{\"a\":1}\n{\"a\":1,}\n", 2, 8, "expected a string as an object key"),
    ("{\"a\":1}\n\n{\"a\":\n1}\n", 3, 6, "unexpected end of line"),
    ("{\"a\":1} {\"a\":2}\n", 1, 9, "unexpected text after the object"),
    ("[1]\n", 1, 1, "expected an object: each line holds one record"),
  ])
  func reportsTheLineOfABadRecord(text: String, line: Int, column: Int, message: String) {
    let error = readError(reader(text))
    #expect(error == InputError(name: "t.ndjson", line: line, column: column, message: message))
  }

  @Test func skipBadSkipsOnlyTheBadLine() throws {
    var reports: [InputError] = []
    let r = reader("{\"a\":1}\n{\"a\":\n{\"a\":3} x\n{\"a\":4}\n", skipBad: true)
    r.onSkip = { reports.append($0) }
    let result = try readAll(r)
    #expect(result.records == [["1"], ["4"]])
    #expect(result.lines == [1, 4])
    #expect(result.skipped == 2)
    #expect(reports.map(\.line) == [2, 3])
  }

  @Test func recordsStraddlingChunksReadTheSame() throws {
    let text = "{\"id\": 1, \"s\": \"a b\"}\n\n{\"id\": 22, \"t\": [1, 2]}\r\n{\"id\": 3}"
    let whole = try readAll(reader(text))
    #expect(whole.records.count == 3)
    for size in 1...text.utf8.count {
      #expect(try readAll(reader(text, chunkSize: size)) == whole, "chunk size \(size)")
    }
  }

  /// Keys predicted from the record before are matched byte for byte; a key written with an
  /// escape, a prefix of the predicted key, one that goes on past it, or the raw text of a
  /// key that holds a backslash (`"a\b"` after `"a\\b"`) is still read by name.
  @Test func predictedKeysMatchOnlyTheSameKey() throws {
    let text = #"""
      {"ab":1,"a\\b":2,"é":3,"":4,"q\"":5,"long key name":6}
      {"a\u0062":7,"a\\b":8,"é":9,"":10,"q\"":11,"long key name":12}
      {"ab":13,"a\\b":14,"\u00e9":15,"":16,"q\"":17,"long key nam":18}
      {"ab":19,"a\b":20}
      {"abc":21,"a":22,"é":23,"x":24,"q":25,"long key name!":26}

      """#
    let whole = try readAll(reader(text))
    #expect(
      whole.fields == [
        "ab", "a\\b", "é", "", "q\"", "long key name", "long key nam", "a\u{8}", "abc", "a",
        "x", "q", "long key name!",
      ])
    #expect(whole.records == [
      ["1", "2", "3", "4", "5", "6", nil, nil, nil, nil, nil, nil, nil],
      ["7", "8", "9", "10", "11", "12", nil, nil, nil, nil, nil, nil, nil],
      ["13", "14", "15", "16", "17", nil, "18", nil, nil, nil, nil, nil, nil],
      ["19", nil, nil, nil, nil, nil, nil, "20", nil, nil, nil, nil, nil],
      [nil, nil, "23", nil, nil, nil, nil, nil, "21", "22", "24", "25", "26"],
    ])
    for size in 1...text.utf8.count {
      #expect(try readAll(reader(text, chunkSize: size)) == whole, "chunk size \(size)")
    }
  }
}
