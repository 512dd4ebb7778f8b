import Testing

@testable import SiftCore

/// The chunk-at-a-time count (`CSVBlockCounter`, Docs/Performance.md, Counting a chunk at a
/// time) reads every file as the row-at-a-time count and the full byte-at-a-time read do: the
/// same records' text and lines, padded and skipped rows, and the same error at the same place.
@Suite struct CSVBlockCountTests {
  typealias Outcome = CSVWordScanTests.Outcome
  typealias Generator = CSVWordScanTests.Generator

  /// A random file of many rows, most of them well formed and long enough to span blocks:
  /// plain and quoted fields (doubled quotes, delimiters, LF, CR and CRLF inside), LF, CR and
  /// CRLF line ends, blank lines, short rows; with `malformed`, now and then a long row, a
  /// literal quote in an unquoted field, text after a closing quote, and an unterminated quote
  /// at the end. Most rows end with `lineEnd` (a LF, CRLF or CR: `lineEnds[lineEnd]`), or a
  /// random one.
  static func randomFile(
    _ g: inout Generator, delimiter: UInt8, width: Int, rows: Int, malformed: Bool,
    lineEnd: Int? = nil
  ) -> [UInt8] {
    let plain: [[UInt8]] = [
      Array("GRN-000001".utf8), Array("2023-01-01".utf8), Array("Zenith Pharma".utf8), [],
      Array("3795.12".utf8), Array("Hand sanitiser 5L extra long to cross a block".utf8),
      Array("Kraków 😀".utf8), Array("x".utf8),
    ]
    let quotedInside: [[UInt8]] = [
      Array("a,b".utf8), Array("a;b\tc".utf8), Array("say \"\"hi\"\"".utf8), Array("\"\"".utf8),
      [], Array("line\nbreak".utf8), Array("cr\rlf\r\nend".utf8), Array("Zürich, CH".utf8),
      Array("a long quoted value, with a delimiter or two; past sixteen bytes".utf8),
    ]
    let lineEnd = lineEnd.map { Self.lineEnds[$0] } ?? Self.lineEnds.randomElement(using: &g)!
    var out: [UInt8] = []
    for row in 0...rows {
      var fields = width
      if row > 0 && Int.random(in: 0..<10, using: &g) == 0 {
        fields = Int.random(in: 1..<max(width, 2), using: &g)
      }
      if row > 0 && malformed && Int.random(in: 0..<40, using: &g) == 0 { fields += 1 }
      for f in 0..<fields {
        if f > 0 { out.append(delimiter) }
        switch Int.random(in: 0..<10, using: &g) {
        case 0..<7: out += plain.randomElement(using: &g)!
        default:
          out.append(.quote)
          out += quotedInside.randomElement(using: &g)!
          out.append(.quote)
          if malformed && Int.random(in: 0..<40, using: &g) == 0 { out += Array("x".utf8) }
        }
        if malformed && Int.random(in: 0..<200, using: &g) == 0 { out += Array("mid\"q".utf8) }
      }
      if row == rows && Bool.random(using: &g) { break }
      // Mostly the file's own line end, now and then another one.
      out +=
        Int.random(in: 0..<8, using: &g) == 0 ? Self.lineEnds.randomElement(using: &g)! : lineEnd
      if Int.random(in: 0..<20, using: &g) == 0 { out += Self.lineEnds.randomElement(using: &g)! }
    }
    if malformed && Int.random(in: 0..<4, using: &g) == 0 { out += Array("1,\"open".utf8) }
    return out
  }

  static let lineEnds: [[UInt8]] = [[.lineFeed], [.carriageReturn, .lineFeed], [.carriageReturn]]

  static let chunkSizes = CSVWordScanTests.chunkSizes + [100, 1000, 4099]

  /// Random files read for a count a chunk at a time at every chunk size, and a row at a time,
  /// against the full read by the byte-at-a-time scanner.
  @Test(arguments: [UInt8.comma, UInt8(ascii: ";"), .tab])
  func blockCountReadsRandomQuotedFilesAsTheFullReadDoes(delimiter: UInt8) {
    var g = Generator(state: 0xB10C_C0DE &+ UInt64(delimiter))
    var records = 0
    for round in 0..<48 {
      // Each kind of line end for most rows, with and without malformed rows.
      let malformed = round % 2 == 1
      let width = Int.random(in: 1...12, using: &g)
      let bytes = Self.randomFile(
        &g, delimiter: delimiter, width: width, rows: Int.random(in: 20...300, using: &g),
        malformed: malformed, lineEnd: round / 2 % Self.lineEnds.count)
      for skipBad in malformed ? [false, true] : [false] {
        let expected = CSVCountTests.expected(bytes, delimiter: delimiter, skipBad: skipBad)
        records += expected.texts.count
        for size in Self.chunkSizes {
          var got = CSVWordScanTests.read(
            bytes, delimiter: delimiter, format: .csv, skipBad: skipBad, chunkSize: size,
            wordScan: true, withoutFieldsAfter: 0)
          got.records = []
          #expect(got == expected, "round \(round), chunk size \(size), skipBad \(skipBad)")
        }
        // A row at a time (the count before this one) reads it the same, at one chunk size.
        var rowAtATime = CSVWordScanTests.read(
          bytes, delimiter: delimiter, format: .csv, skipBad: skipBad, chunkSize: 1000,
          wordScan: true, blockCount: false, withoutFieldsAfter: 0)
        rowAtATime.records = []
        #expect(rowAtATime == expected, "round \(round), a row at a time, skipBad \(skipBad)")
      }
    }
    #expect(records > 5000)
  }

  /// TSV without quoting (quotes are field text) counts the same rows a chunk at a time.
  @Test func tsvBlockCountReadsTheSameRows() {
    var g = Generator(state: 0x75F_B10C)
    for round in 0..<20 {
      let bytes = Self.randomFile(
        &g, delimiter: .tab, width: Int.random(in: 1...8, using: &g), rows: 200,
        malformed: round % 2 == 1)
      let expected = CSVCountTests.expected(bytes, delimiter: .tab, format: .tsv)
      for size in Self.chunkSizes {
        var got = CSVWordScanTests.read(
          bytes, delimiter: .tab, format: .tsv, skipBad: false, chunkSize: size,
          wordScan: true, withoutFieldsAfter: 0)
        got.records = []
        #expect(got == expected, "round \(round), chunk size \(size)")
      }
    }
  }

  /// On a well-formed file the count a chunk at a time reads every row up to the last block,
  /// quoted fields, quoted line ends, blank lines and short rows included (the exact scanners
  /// are left only the end); it stops at a long row's start and at a literal quote's row.
  @Test(arguments: [UInt8.comma, UInt8(ascii: ";"), .tab])
  func blockCountReadsAWellFormedFileToItsLastBlock(delimiter: UInt8) throws {
    var g = Generator(state: 0xF11E &+ UInt64(delimiter))
    let header = Array(repeating: "h", count: 6).joined(separator: String(UnicodeScalar(delimiter)))
    let body = Self.randomFile(&g, delimiter: delimiter, width: 6, rows: 500, malformed: false)
    let bytes = Array(header.utf8) + [.lineFeed] + body + [.lineFeed]
    let expected = CSVCountTests.expected(bytes, delimiter: delimiter)
    let counter = CSVBlockCounter(delimiter: delimiter, quoting: true)
    let (extents, lines) = (PointerStore<Int32>(), PointerStore<Int32>())
    let counted = bytes.withUnsafeBufferPointer {
      counter.countRows($0, from: header.utf8.count + 1, line: 2, width: 6, extents: extents,
        lines: lines)
    }
    #expect(counted.next >= bytes.count - 200)
    let kept = lines.count
    #expect(kept > 400)
    try #require(kept < expected.lines.count)
    #expect(Array(lines.values) == expected.lines[..<kept].map { Int32($0) })
    let texts = (0..<kept).map { r in
      let (from, to) = (Int(extents.values[2 * r]), Int(extents.values[2 * r + 1]))
      return from <= to ? Array(bytes[from..<to]) : []
    }
    #expect(texts == Array(expected.texts[..<kept]))
    // The line `next` starts on, counted as the byte scanner counts line ends.
    let before = bytes[..<counted.next]
    let lineEnds = zip(before, before.dropFirst().map(Optional.some) + [nil]).filter {
      $0 == .lineFeed || ($0 == .carriageReturn && $1 != .lineFeed)
    }.count
    #expect(counted.line == 1 + lineEnds)

    for stop in ["1,2,3,4,5,6,7", "1,2,3,a\"b,5,6", "1,2,\"3\"x,4,5,6"] {
      let row = Array(stop.utf8).map { $0 == .comma ? delimiter : $0 }
      let good = Array("a,b,c,d,e,f\n".utf8).map { $0 == .comma ? delimiter : $0 }
      let text = Array(repeating: good, count: 20).joined()
      let file = Array(text) + row + [.lineFeed] + Array(text)
      let (e, l) = (PointerStore<Int32>(), PointerStore<Int32>())
      let result = file.withUnsafeBufferPointer {
        counter.countRows($0, from: 0, line: 1, width: 6, extents: e, lines: l)
      }
      #expect(result.next == text.count, "\(stop)")
      #expect(result.line == 21)
      #expect(l.count == 20)
    }
  }
}
