import Testing

@testable import SiftCore

@Suite struct CSVWriterTests {
  let csv = WriterOptions(format: .csv)
  let tsv = WriterOptions(format: .tsv)

  /// One CSV-input value written back as CSV.
  func csvField(_ raw: String, encoding: FieldEncoding = .csv) throws -> String {
    var h = WriterHarness(encoding, columns: ["a", "b"])
    h.add([raw, "x"])
    let out = try h.text(csv)
    return String(out.dropFirst("a,b\n".count).dropLast(",x\n".count))
  }

  @Test(arguments: [
    ("abc", "abc"),
    ("\"abc\"", "abc"),  // quoted but needing no quotes: written bare
    ("\"a,b\"", "\"a,b\""),
    ("\"say \"\"hi\"\"\"", "\"say \"\"hi\"\"\""),
    ("\"two\nlines\"", "\"two\nlines\""),
    ("\"cr\rhere\"", "\"cr\rhere\""),
    ("  padded  ", "  padded  "),  // spaces never force quotes (RFC 4180)
    ("", ""),
    ("\"\"", ""),
    ("caf\u{e9} \u{65e5}\u{672c}", "caf\u{e9} \u{65e5}\u{672c}"),
  ])
  func quotesOnlyWhenNeeded(raw: String, written: String) throws {
    #expect(try csvField(raw) == written)
  }

  @Test func plainValueNeedingQuotesIsQuoted() throws {
    // A TSV value holding a comma and a quote, written as CSV.
    #expect(try csvField("a,\"b\"", encoding: .plain) == "\"a,\"\"b\"\"\"")
  }

  @Test func headerWithoutRecords() throws {
    let h = WriterHarness(.csv, columns: ["grn no", "qty,units", "say \"x\""])
    #expect(try h.text(csv) == "grn no,\"qty,units\",\"say \"\"x\"\"\"\n")
  }

  @Test func roundTripsMinimallyQuotedFile() throws {
    var h = WriterHarness(.csv, columns: ["id", "note", "qty"])
    h.add(["1", "\"a, b\"", "12"])
    h.add(["2", "\"he said \"\"no\"\"\"", ""])
    h.add(["3", "\"line1\nline2\"", "-3.5"])
    #expect(
      try h.text(csv)
        == "id,note,qty\n1,\"a, b\",12\n2,\"he said \"\"no\"\"\",\n3,\"line1\nline2\",-3.5\n")
  }

  @Test func singleEmptyFieldIsQuotedSoTheRowIsNotBlank() throws {
    var h = WriterHarness(.csv, columns: ["note"])
    h.add([""])
    h.add(["x"])
    #expect(try h.text(csv) == "note\n\"\"\nx\n")
  }

  @Test func otherDelimiter() throws {
    var h = WriterHarness(.csv, columns: ["a", "b"])
    h.add(["1;2", "\"3,4\""])
    #expect(
      try h.text(WriterOptions(format: .csv, delimiter: UInt8(ascii: ";"))) == "a;b\n\"1;2\";3,4\n")
  }

  @Test func jsonValuesAsText() throws {
    var h = WriterHarness(.json, columns: ["s", "n", "b", "z", "o", "m", "e"])
    h.add([
      "\"a\\\"b\\u00e9\"", "1.50", "true", "null", "{\n  \"k\": [1, 2],\n  \"t\": \"x y\"\n}", nil,
      "\"\"",
    ])
    #expect(
      try h.text(csv)
        == "s,n,b,z,o,m,e\n\"a\"\"b\u{e9}\",1.50,true,,"
        + "\"{\"\"k\"\":[1,2],\"\"t\"\":\"\"x y\"\"}\",,\n")
  }

  @Test func tsvEscapesTabAndLineBreaks() throws {
    var h = WriterHarness(.csv, columns: ["a\tb", "c"])
    h.add(["\"x\ty\"", "\"1\r\n2\""])
    h.add(["C:\\path", "\"q\"\"\""])
    #expect(try h.text(tsv) == "a\\tb\tc\nx\\ty\t1\\r\\n2\nC:\\path\tq\"\n")
  }

  @Test func tsvPassesTSVThroughUnchanged() throws {
    var h = WriterHarness(.plain, columns: ["a", "b"])
    h.add(["\"quoted\"", "back\\slash, comma"])
    #expect(try h.text(tsv) == "a\tb\n\"quoted\"\tback\\slash, comma\n")
  }
}
