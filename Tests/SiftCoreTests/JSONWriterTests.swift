import Testing

@testable import SiftCore

@Suite struct JSONWriterTests {
  let json = WriterOptions(format: .json)
  let ndjson = WriterOptions(format: .ndjson)

  /// One CSV value written as an NDJSON object `{"v":…}`; returns the `…`.
  func jsonValue(_ raw: String, encoding: FieldEncoding = .csv) throws -> String {
    var h = WriterHarness(encoding, columns: ["v"])
    h.add([raw])
    let line = try h.text(ndjson)
    return String(line.dropFirst("{\"v\":".count).dropLast("}\n".count))
  }

  @Test(arguments: [
    ("12", "12"), ("-3.5", "-3.5"), ("0", "0"), ("0.5", "0.5"), ("-0", "-0"), ("12.50", "12.50"),
    ("007", "\"007\""), ("1,234", "\"1,234\""), ("+5", "\"+5\""), ("1.", "\"1.\""),
    (".5", "\".5\""), ("1e5", "\"1e5\""), (" 12", "\" 12\""), ("12 ", "\"12 \""), ("-", "\"-\""),
    ("", "\"\""), ("\"42\"", "42"), ("NaN", "\"NaN\""), ("0x1F", "\"0x1F\""),
  ])
  func canonicalNumbersAreBare(raw: String, written: String) throws {
    #expect(try jsonValue(raw) == written)
  }

  @Test(arguments: [
    ("say \"hi\"", #""say \"hi\"""#),
    ("back\\slash", #""back\\slash""#),
    ("a\nb\r\tc", #""a\nb\r\tc""#),
    ("bell\u{7}esc\u{1b}nul\u{0}", #""bell\u0007esc\u001bnul\u0000""#),
    ("bs\u{8}ff\u{c}", #""bs\bff\f""#),
    ("caf\u{e9} \u{1F600} /", "\"caf\u{e9} \u{1F600} /\""),
  ])
  func stringsAreEscaped(raw: String, written: String) throws {
    #expect(try jsonValue(raw, encoding: .plain) == written)
  }

  @Test func illFormedUTF8BecomesReplacementCharacters() throws {
    var h = WriterHarness(.plain, columns: ["v"])
    // "a", a lone continuation byte, "é", a truncated 3-byte sequence, "b", an overlong "/".
    h.add(bytes: [[0x61, 0x80, 0xC3, 0xA9, 0xE2, 0x82, 0x62, 0xC0, 0xAF]])
    let out = try h.text(ndjson)
    #expect(out == "{\"v\":\"a\u{FFFD}\u{e9}\u{FFFD}b\u{FFFD}\u{FFFD}\"}\n")
  }

  @Test func arrayLayout() throws {
    var h = WriterHarness(.csv, columns: ["id", "name"])
    h.add(["1", "Acme"])
    h.add(["2", "\"Beta, Ltd\""])
    #expect(
      try h.text(json) == "[\n{\"id\":1,\"name\":\"Acme\"},\n{\"id\":2,\"name\":\"Beta, Ltd\"}\n]\n"
    )
  }

  @Test func emptyArrayAndEmptyLines() throws {
    let h = WriterHarness(.csv, columns: ["id"])
    #expect(try h.text(json) == "[]\n")
    #expect(try h.text(ndjson) == "")
  }

  @Test func keysAreEscaped() throws {
    var h = WriterHarness(.csv, columns: ["a\"b", "tab\there"])
    h.add(["1", "x"])
    #expect(try h.text(ndjson) == #"{"a\"b":1,"tab\there":"x"}"# + "\n")
  }

  @Test func jsonInputKeepsItsTextAndLeavesMissingOut() throws {
    var h = WriterHarness(.json, columns: ["n", "s", "z", "nested", "gone"])
    h.add(["1.50e3", "\"\\u00e9\\n\"", "null", "[1, {\"a\": \"x  y\"}]", nil])
    h.add([nil, "\"x\"", "false", "{}", "-0.0"])
    #expect(
      try h.text(ndjson)
        == #"{"n":1.50e3,"s":"\u00e9\n","z":null,"nested":[1, {"a": "x  y"}]}"# + "\n"
        + #"{"s":"x","z":false,"nested":{},"gone":-0.0}"# + "\n")
  }

  @Test func nestedValueOnSeveralLinesIsMinified() throws {
    var h = WriterHarness(.json, columns: ["o"])
    h.add(["{\n  \"k\" : [ 1,\n 2 ],\n  \"s\": \"a  b\\\" c\"\n}"])
    #expect(try h.text(ndjson) == #"{"o":{"k":[1,2],"s":"a  b\" c"}}"# + "\n")
  }

  @Test func verbatimRecordKeepsDuplicateKeysAndOrder() throws {
    var h = WriterHarness(.json, columns: ["a", "b"])
    h.add(["1", "2"], text: #"{"b": 2, "a": 1, "a": 3}"#)
    h.add(["1", "2"], text: "{\n  \"a\": 1,\n  \"b\": \"x y\"\n}")
    #expect(
      try h.text(ndjson, verbatim: true)
        == "{\"b\": 2, \"a\": 1, \"a\": 3}\n{\"a\":1,\"b\":\"x y\"}\n")
    #expect(
      try h.text(json, verbatim: true)
        == "[\n{\"b\": 2, \"a\": 1, \"a\": 3},\n{\"a\":1,\"b\":\"x y\"}\n]\n")
  }

  @Test func verbatimIsIgnoredForCSVInput() throws {
    var h = WriterHarness(.csv, columns: ["a"])
    h.add(["7"])
    #expect(try h.text(ndjson, verbatim: true) == "{\"a\":7}\n")
  }
}

@Suite struct WriterFlushingTests {
  final class ClosedSink: ByteSink {
    func write(_ bytes: UnsafeBufferPointer<UInt8>) throws(OutputError) { throw .closed }
  }

  @Test func lineBufferedOutputReachesTheSinkPerRecord() throws {
    let sink = MemorySink()
    let writer = makeWriter(
      WriterOptions(format: .ndjson), output: OutputBuffer(sink: sink, lineBuffered: true))
    var h = WriterHarness(.csv, columns: ["a"])
    h.add(["1"])
    h.add(["2"])
    try writer.begin(columns: ["a"])
    try h.batch().withRows { cursor in
      try writer.write(cursor.row(0), columns: [.field("a", at: 0)], verbatim: false)
      #expect(sink.text == "{\"a\":1}\n")
      try writer.write(cursor.row(1), columns: [.field("a", at: 0)], verbatim: false)
      #expect(sink.text == "{\"a\":1}\n{\"a\":2}\n")
    }
  }

  @Test(arguments: OutputFormat.allCases)
  func closedPipeIsReported(format: OutputFormat) throws {
    let writer = makeWriter(WriterOptions(format: format), output: OutputBuffer(sink: ClosedSink()))
    var h = WriterHarness(.csv, columns: ["a"])
    h.add(["1"])
    #expect(throws: OutputError.closed) {
      try writer.begin(columns: ["a"])
      try h.batch().withRows { cursor in
        try writer.write(cursor.row(0), columns: [.field("a", at: 0)], verbatim: false)
      }
      try writer.end()
    }
  }
}
