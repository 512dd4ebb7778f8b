import Testing

@testable import SiftCore

/// A CSV or TSV read for a count (`readWithoutFields`, Docs/Performance.md, Counting without
/// fields) gives what the full read gives — the same records' text and lines, padded and
/// skipped rows, and the same error at the same place — only without the fields.
@Suite struct CSVCountTests {
  typealias Outcome = CSVWordScanTests.Outcome

  /// Reads `bytes` as `CSVWordScanTests.read` does, without fields from the batch after the
  /// first `fullBatches` (the engine asks after the sample); the fields left out.
  static func read(
    _ bytes: [UInt8], delimiter: UInt8, format: InputFormat = .csv, skipBad: Bool = false,
    chunkSize: Int, wordScan: Bool = true, fullBatches: Int = 0
  ) -> Outcome {
    var got = CSVWordScanTests.read(
      bytes, delimiter: delimiter, format: format, skipBad: skipBad, chunkSize: chunkSize,
      wordScan: wordScan, withoutFieldsAfter: fullBatches)
    // Read without fields from the start, no record has any.
    if fullBatches == 0 { #expect(got.records.allSatisfy { $0.isEmpty }) }
    got.records = []
    return got
  }

  /// The full read by the byte-at-a-time scanner, its fields left out.
  static func expected(
    _ bytes: [UInt8], delimiter: UInt8, format: InputFormat = .csv, skipBad: Bool = false
  ) -> Outcome {
    var full = CSVWordScanTests.read(
      bytes, delimiter: delimiter, format: format, skipBad: skipBad, chunkSize: 1 << 16,
      wordScan: false)
    full.records = []
    return full
  }

  @Test(arguments: [UInt8.comma, UInt8(ascii: ";"), .tab])
  func countingReadsRandomQuotedFilesAsTheFullReadDoes(delimiter: UInt8) {
    var g = CSVWordScanTests.Generator(state: 0xC0_0417 &+ UInt64(delimiter))
    var records = 0
    for round in 0..<120 {
      let malformed = round % 3 == 2
      let bytes = CSVWordScanTests.randomFile(&g, delimiter: delimiter, malformed: malformed)
      for skipBad in malformed ? [false, true] : [false] {
        let expected = Self.expected(bytes, delimiter: delimiter, skipBad: skipBad)
        records += expected.texts.count
        for size in CSVWordScanTests.chunkSizes {
          for wordScan in [true, false] {
            for fullBatches in [0, 1] {
              let got = Self.read(
                bytes, delimiter: delimiter, skipBad: skipBad, chunkSize: size,
                wordScan: wordScan, fullBatches: fullBatches)
              #expect(
                got == expected,
                "round \(round), chunk size \(size), word scan \(wordScan), skipBad \(skipBad)")
            }
          }
        }
      }
    }
    #expect(records > 1000)
  }

  /// `countRow` on random bytes from every start: where it reads a row it gives that row's end,
  /// next start and field count as a plain byte loop finds them, and it reads every row it
  /// should: one without a quote (with quoting), within `limit` fields, whose line end lies in
  /// a whole word. Bytes next to the ones it looks for (`-` after `,`, NUL, SO, tab) are mixed in.
  @Test(arguments: [(UInt8.comma, true), (UInt8(ascii: ";"), true), (.tab, false), (.tab, true)])
  func countRowAgreesWithAPlainLoop(delimiter: UInt8, quoting: Bool) {
    let scanner = CSVWordScanner(delimiter: delimiter, quoting: quoting)
    let alphabet: [UInt8] =
      [delimiter, delimiter, delimiter &+ 1, delimiter &- 1, .lineFeed, .carriageReturn, .quote,
       0x00, 0x01, 0x0E, 0x0B, .tab, 0xC3, 0xA9, 0x80, 0xFF] + Array("abcdefgh-0123".utf8)
    var g = CSVWordScanTests.Generator(state: 0xC047 &+ UInt64(delimiter))
    var read = 0
    for round in 0..<300 {
      let count = Int.random(in: 0...80, using: &g)
      let quoteOften = round % 2 == 0
      let bytes = (0..<count).map { _ -> UInt8 in
        let byte = alphabet.randomElement(using: &g)!
        return byte == .quote && quoteOften ? byte : (byte == .quote ? .comma : byte)
      }
      let limit = Int.random(in: 1...12, using: &g)
      bytes.withUnsafeBufferPointer { b in
        for start in 0..<b.count where b[start] != .lineFeed && b[start] != .carriageReturn {
          var end = start
          var fields = 1
          var quote = false
          while end < b.count && b[end] != .lineFeed && b[end] != .carriageReturn {
            if b[end] == delimiter { fields += 1 }
            if b[end] == .quote { quote = true }
            end += 1
          }
          let got = scanner.countRow(b, from: start, limit: limit)
          let wordWhole = start + (end - start) / 8 * 8 + 8 <= b.count
          let crAtEnd = end == b.count - 1 && b[end] == .carriageReturn
          let readable =
            end < b.count && !(quoting && quote) && fields <= limit && wordWhole && !crAtEnd
          #expect((got != nil) == readable, "round \(round), start \(start)")
          guard let got else { continue }
          read += 1
          let next = b[end] == .carriageReturn && b[end + 1] == .lineFeed ? end + 2 : end + 1
          #expect(got.outcome == .complete)
          #expect(
            [got.end, got.next, got.fields, got.lineEnds] == [end, next, fields, 1],
            "round \(round), start \(start)")
        }
      }
    }
    #expect(read > 500)
  }

  /// Rows long enough for the delimiter counts of many sixteen-byte blocks to be summed more
  /// than once (every 31 blocks), with delimiters packed close and far apart.
  @Test(arguments: [1, 3, 17, 1000, 5000])
  func countRowCountsTheFieldsOfLongRows(length: Int) {
    let scanner = CSVWordScanner(delimiter: .comma, quoting: true)
    var g = CSVWordScanTests.Generator(state: UInt64(length))
    for every in [1, 2, 7, 40] {
      var bytes = (0..<length).map { _ in
        Int.random(in: 0..<every, using: &g) == 0 ? UInt8.comma : UInt8(ascii: "x")
      }
      let fields = bytes.filter { $0 == .comma }.count + 1
      bytes += [.lineFeed] + Array("next,row,\n".utf8)
      let got = bytes.withUnsafeBufferPointer {
        scanner.countRow($0, from: 0, limit: Int.max)
      }
      #expect(got?.fields == fields, "every \(every)")
      #expect(got?.end == length)
      #expect(got?.next == length + 1)
    }
  }

  /// TSV without quoting: quotes are field text, and a count reads the same rows.
  @Test func tsvCountReadsTheSameRows() {
    var g = CSVWordScanTests.Generator(state: 0x75F)
    for round in 0..<40 {
      let bytes = CSVWordScanTests.randomFile(&g, delimiter: .tab, malformed: round % 2 == 1)
      let expected = Self.expected(bytes, delimiter: .tab, format: .tsv)
      for size in CSVWordScanTests.chunkSizes {
        #expect(
          Self.read(bytes, delimiter: .tab, format: .tsv, chunkSize: size) == expected,
          "round \(round), chunk size \(size)")
      }
    }
  }

  /// Every csv-spectrum file counts as many records, with the same lines, as it reads.
  @Test(arguments: CSVConformanceTests.cases)
  func conformanceFilesCountAsTheyRead(name: String) throws {
    let csv = try ConformanceFiles.bytes("csv-spectrum/csvs/\(name).csv")
    let expected = Self.expected(csv, delimiter: .comma)
    #expect(!expected.texts.isEmpty)
    for size in CSVWordScanTests.chunkSizes {
      #expect(Self.read(csv, delimiter: .comma, chunkSize: size) == expected, "chunk size \(size)")
    }
  }

  /// Through the engine, past the sample and in parts: `-c ''` (read without fields) counts the
  /// records, short rows and all, that writing them reads, and fails at the same place.
  @Test func engineCountWithoutATermMatchesTheRecordsWritten() throws {
    var text = ParallelTests.csv(rows: 40_000, multilineEvery: 40)
    for bad in [false, true] {
      if bad { text += "1,received,Acme,note,5,extra\n" + "2,received,Acme,note,6\n" }
      try ParallelTests.withFile(text, suffix: ".csv") { path in
        for options in [ParallelTests.sequential, ParallelTests.parallel(7919)] {
          let written = ParallelTests.run("", path, format: .csv, options)
          let counted = ParallelTests.run("", path, format: .csv, count: true, options)
          #expect(counted.error == written.error)
          #expect((written.error != nil) == bad)
          if !bad {
            let (w, c) = (try #require(written.summary), try #require(counted.summary))
            #expect(c.total == 40_000)
            #expect(c.total == w.total)
            #expect(c.matched == w.matched)
            #expect(c.shortRows == w.shortRows)
            #expect(c.shortRows > 0)
          }
        }
      }
    }
  }

  /// The row at `start` read by the rules the byte-at-a-time scanner reads it by, a byte at a
  /// time: its end, next start, fields, line ends, and whether `CSVWriter` writes it as it is
  /// (each quoted value holds the delimiter, a quote, LF or CR; no unquoted one holds a quote);
  /// `nil` past `limit` fields, for text after a closing quote, or when `b` does not settle the
  /// row's end.
  static func plainRow(
    _ b: [UInt8], from start: Int, delimiter: UInt8, limit: Int
  ) -> [Int]? {
    let ends: [UInt8] = [delimiter, .lineFeed, .carriageReturn]
    var (p, fields, lineEnds, asWritten) = (start, 0, 0, true)
    while true {
      fields += 1
      if fields > limit { return nil }
      if p < b.count && b[p] == .quote {
        var value: [UInt8] = []
        p += 1
        while true {
          guard p < b.count else { return nil }
          if b[p] == .quote {
            if p + 1 < b.count && b[p + 1] == .quote {
              value.append(.quote)
              p += 2
              continue
            }
            p += 1
            break
          }
          if b[p] == .lineFeed || (b[p] == .carriageReturn && (p + 1 >= b.count || b[p + 1] != .lineFeed)) {
            lineEnds += 1
          }
          value.append(b[p])
          p += 1
        }
        if !value.contains(where: { ends.contains($0) || $0 == .quote }) { asWritten = false }
        guard p < b.count, ends.contains(b[p]) else { return nil }
      } else {
        while p < b.count && !ends.contains(b[p]) {
          if b[p] == .quote { asWritten = false }
          p += 1
        }
        guard p < b.count else { return nil }
      }
      if b[p] == delimiter {
        p += 1
        continue
      }
      let end = p
      if b[p] == .carriageReturn {
        guard p + 1 < b.count else { return nil }
        p += b[p + 1] == .lineFeed ? 2 : 1
      } else {
        p += 1
      }
      return [end, p, fields, lineEnds + 1, asWritten ? 1 : 0]
    }
  }

  /// `countQuotedRow` on random bytes, quotes thick among them, from every start: it reads
  /// every row the plain reading above reads, as that reading does, and gives up on the others.
  @Test(arguments: [UInt8.comma, UInt8(ascii: ";"), .tab])
  func countQuotedRowAgreesWithAPlainReading(delimiter: UInt8) {
    let scanner = CSVWordScanner(delimiter: delimiter, quoting: true)
    let alphabet: [UInt8] =
      [delimiter, delimiter, .quote, .quote, .quote, .lineFeed, .carriageReturn, delimiter &+ 1,
       0x00, 0x0E, 0xC3, 0xA9] + Array("abcdefgh-0123".utf8)
    var g = CSVWordScanTests.Generator(state: 0x0407 &+ UInt64(delimiter))
    var (read, asWritten) = (0, 0)
    for round in 0..<400 {
      let count = Int.random(in: 0...90, using: &g)
      let bytes = (0..<count).map { _ in alphabet.randomElement(using: &g)! }
      let limit = Int.random(in: 1...12, using: &g)
      bytes.withUnsafeBufferPointer { b in
        for start in 0..<b.count {
          let expected = Self.plainRow(bytes, from: start, delimiter: delimiter, limit: limit)
          let got = scanner.countQuotedRow(b, from: start, limit: limit).map {
            [$0.row.end, $0.row.next, $0.row.fields, $0.row.lineEnds, $0.asWritten ? 1 : 0]
          }
          #expect(got == expected, "round \(round), start \(start)")
          if got != nil { read += 1 }
          if got?[4] == 1 { asWritten += 1 }
        }
      }
    }
    #expect(read > 2000)
    #expect(asWritten > 500)
  }

  /// Quoted rows a count reads without recording fields, and whether each is written as it is.
  @Test(arguments: [
    ("\"a,b\",c\n", [7, 8, 2, 1, 1]), ("\"ab\",c\n", [6, 7, 2, 1, 0]),
    ("a\"b,c\n", [5, 6, 2, 1, 0]), ("\"a\"\"b\"\n", [6, 7, 1, 1, 1]),
    ("\"x\r\ny\",z\r\n", [8, 10, 2, 2, 1]), ("\"x\ry\nz\",\n", [8, 9, 2, 3, 1]),
    ("\"\",\"\"\n", [5, 6, 2, 1, 0]), ("x,\"a long quoted, value past a word\"\rnext", [36, 37, 2, 1, 1]),
  ])
  func countQuotedRowReads(text: String, expected: [Int]) {
    let scanner = CSVWordScanner(delimiter: .comma, quoting: true)
    let got = Array(text.utf8).withUnsafeBufferPointer {
      scanner.countQuotedRow($0, from: 0, limit: 5)
    }
    #expect(
      got.map { [$0.row.end, $0.row.next, $0.row.fields, $0.row.lineEnds, $0.asWritten ? 1 : 0] }
        == expected)
  }

  /// Rows the byte-at-a-time scanner must read: text after a closing quote, an unterminated
  /// quote, a CR or quote as the last byte, too many fields.
  @Test(arguments: ["\"a\"b,c\n", "\"abc,d\n", "a,b\r", "a,\"b\"", "a,b,c,d,e,f\n"])
  func countQuotedRowLeavesRows(text: String) {
    let scanner = CSVWordScanner(delimiter: .comma, quoting: true)
    let got = Array(text.utf8).withUnsafeBufferPointer {
      scanner.countQuotedRow($0, from: 0, limit: 5)
    }
    #expect(got == nil)
  }
}
