import Testing
@testable import SiftCore

@Suite struct ReaderFactoryTests {
  @Test(arguments: [
    ("grn.csv", InputFormat?.some(.csv)), ("A.TSV", .tsv), ("x.tab", .tsv), ("d/x.Json", .json),
    ("x.ndjson", .ndjson), ("x.JSONL", .ndjson), ("x.txt", nil), ("stdin", nil), ("a.csv/b", nil),
  ])
  func formatFromExtension(path: String, format: InputFormat?) {
    #expect(ReaderFactory.format(forPath: path) == format)
  }

  @Test(arguments: [
    ("a,b\n1,2\n", InputFormat.csv),
    ("a\tb\n1\t2\n", .tsv),
    ("a\tb,c\n", .csv),
    ("\n\n  a\tb\n", .tsv),
    ("", .csv),
    ("  [\n{\"a\":1}]", .json),
    ("{\"a\":1}\n{\"a\":2}\n", .ndjson),
    ("{\"a\":1}\r\n\r\n{\"a\":2}", .ndjson),
    ("{\"a\":1}\n", .ndjson),
    ("{\"records\":[{\"a\":1}]}", .json),
    ("{\n  \"records\": [{\"a\":1}]\n}\n", .json),
    ("\u{FEFF}{\"a\":1}\n{\"a\":2}\n", .ndjson),
  ])
  func sniffsStandardInput(text: String, format: InputFormat) {
    #expect(FormatSniffer.sniff(Array(text.utf8), complete: true) == format)
  }

  @Test(arguments: [
    ("a,b\n1,2\n", InputFormat.csv, [["1", "2"]]),
    ("a\tb\n1\t2\n", .tsv, [["1", "2"]]),
    ("[{\"a\":1,\"b\":2}]", .json, [["1", "2"]]),
    ("{\"a\":1,\"b\":2}\n{\"a\":3}\n", .ndjson, [["1", "2"], ["3", nil]]),
  ])
  func sniffedInputLosesNoBytes(text: String, format: InputFormat, records: [[String?]]) throws {
    let source = ByteSource(bytes: Array(text.utf8), name: "stdin")
    let opened = try ReaderFactory.makeReader(
      source: source, format: nil, options: ReaderOptions(name: "stdin"))
    #expect(opened.format == format)
    #expect(try readAll(opened.reader).records == records)
  }

  /// A first line longer than the 64 KiB sample decides by where it ends: read on to its end,
  /// one NDJSON record is still NDJSON, and one JSON document on one line still JSON.
  static let longFirstLines: [(String, InputFormat, Int)] = [
    (#"{"t":"\#(String(repeating: "x", count: 100_000))"}"# + "\n" + #"{"t":"y"}"#, .ndjson, 2),
    ("\u{FEFF}  " + #"{"t":"\#(String(repeating: "x", count: 300_000))"}"# + "\n", .ndjson, 1),
    (
      #"{"records":["#
        + Array(repeating: #"{"t":"xxxxxxxxxx"}"#, count: 10_000).joined(separator: ",") + "]}\n",
      .json, 10_000
    ),
  ]

  @Test(arguments: longFirstLines)
  func aFirstLineLongerThanTheSampleIsSniffedWhole(text: String, format: InputFormat, records: Int)
    throws
  {
    let opened = try ReaderFactory.makeReader(
      source: ByteSource(bytes: Array(text.utf8), name: "stdin"), format: nil,
      options: ReaderOptions(name: "stdin"))
    #expect(opened.format == format)
    #expect(try readAll(opened.reader).records.count == records)
  }

  @Test func explicitFormatWinsOverExtension() throws {
    let source = ByteSource(bytes: Array("a;b\n1;2\n".utf8), name: "x.json")
    let opened = try ReaderFactory.makeReader(
      source: source, format: .csv,
      options: ReaderOptions(name: "x.json", delimiter: UInt8(ascii: ";")))
    #expect(opened.format == .csv)
    #expect(try readAll(opened.reader).records == [["1", "2"]])
  }

  @Test func aQuoteIsNotADelimiter() {
    #expect(throws: InputError.self) {
      try ReaderFactory.makeReader(
        source: ByteSource(bytes: [], name: "x"), format: .csv,
        options: ReaderOptions(name: "x", delimiter: UInt8(ascii: "\"")))
    }
  }
}
