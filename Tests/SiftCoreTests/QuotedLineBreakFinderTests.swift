import Testing

@testable import SiftCore

/// Docs/Engines.md, Spark reads files in parts: the line of the first quoted value that holds a
/// line break, as sift's CSV reader reads quotes (only at a field's start; `""` inside), whatever
/// the chunks the bytes come in.
@Suite struct QuotedLineBreakFinderTests {
  static let cases: [(csv: String, delimiter: Character, line: Int?)] = [
    ("a,b\n1,2\n", ",", nil),
    ("a,b\n1,\"x, y\"\n", ",", nil),
    ("a,b\n1,2\n3,\"two\nlines\"\n", ",", 3),
    ("a,b\r\n\"x\r\ny\",2\r\n", ",", 2),
    ("a,b\n5\" bolt,2\n3,4\n", ",", nil),
    ("a,b\n\"say \"\"hi\"\"\",2\n3,4\n", ",", nil),
    ("a,b\n\"say \"\"hi\n\"\"\",2\n", ",", 2),
    ("a;b\n1;\"x\ny\"\n", ";", 2),
    ("a;b\n1,\"x\ny\"\n", ";", nil),
    ("a,b\n1,\"x\"\"\n", ",", 2),
  ]

  @Test(arguments: cases.indices)
  func findsTheFirstQuotedLineBreak(index: Int) {
    let (csv, delimiter, line) = Self.cases[index]
    let bytes = Array(csv.utf8)
    var whole = QuotedLineBreakFinder(delimiter: UInt8(ascii: delimiter.unicodeScalars.first!))
    bytes.withUnsafeBufferPointer { whole.feed($0) }
    #expect(whole.found == line, "\(csv.debugDescription)")
    // Byte by byte: a chunk's end may fall anywhere.
    var bytewise = QuotedLineBreakFinder(delimiter: UInt8(ascii: delimiter.unicodeScalars.first!))
    for b in bytes { [b].withUnsafeBufferPointer { bytewise.feed($0) } }
    #expect(bytewise.found == line, "\(csv.debugDescription)")
  }
}
