import Testing
@testable import SiftCore

@Suite struct CSVReaderTests {
  func reader(
    _ text: String, format: InputFormat = .csv, delimiter: UInt8? = nil, noHeader: Bool = false,
    skipBad: Bool = false, chunkSize: Int = ChunkedInput.defaultChunkSize
  ) -> CSVReader {
    reader(Array(text.utf8), format: format, delimiter: delimiter, noHeader: noHeader,
      skipBad: skipBad, chunkSize: chunkSize)
  }

  func reader(
    _ bytes: [UInt8], format: InputFormat = .csv, delimiter: UInt8? = nil, noHeader: Bool = false,
    skipBad: Bool = false, chunkSize: Int = ChunkedInput.defaultChunkSize
  ) -> CSVReader {
    CSVReader(
      source: ByteSource(bytes: bytes, name: "t.csv"),
      options: ReaderOptions(
        name: "t.csv", delimiter: delimiter, noHeader: noHeader, skipBad: skipBad),
      format: format, prefix: [], chunkSize: chunkSize)
  }

  @Test(arguments: [
    // (input, expected records)
    ("a,b\n1,2\n", [["1", "2"]]),
    ("a,b\n\"x,y\",\"say \"\"hi\"\"\"\n", [["x,y", "say \"hi\""]]),
    ("a,b\n\"line1\nline2\",2\n", [["line1\nline2", "2"]]),
    ("a,b\r\n\"l1\r\nl2\",2\r\n3,4\r\n", [["l1\r\nl2", "2"], ["3", "4"]]),
    ("a,b\r1,2\r3,4", [["1", "2"], ["3", "4"]]),
    ("\u{FEFF}a,b\n1,2\n", [["1", "2"]]),
    ("a,b\n1,2", [["1", "2"]]),
    ("a,b\n\n1,2\n\r\n\n3,4\n\n", [["1", "2"], ["3", "4"]]),
    ("a,b\nab\"c,2\n", [["ab\"c", "2"]]),
    ("a,b\n,\n", [["", ""]]),
    ("a,b\n\"\",\"\"\n", [["", ""]]),
    ("a\n\"\"\n", [[""]]),
  ])
  func readsRows(input: String, expected: [[String]]) throws {
    let result = try readAll(reader(input))
    #expect(result.fields == ["a", "b"].prefix(expected.first?.count ?? 2).map { $0 })
    #expect(result.records == expected.map { $0.map(Optional.some) })
  }

  @Test func customDelimiterAndTSV() throws {
    let semi = try readAll(reader("a;b\n\"x;y\";2\n", delimiter: UInt8(ascii: ";")))
    #expect(semi.records == [["x;y", "2"]])
    let tsv = try readAll(reader("a\tb\n\"x\"\ty,z\n", format: .tsv))
    #expect(tsv.fields == ["a", "b"])
    #expect(tsv.records == [["\"x\"", "y,z"]])
  }

  @Test func noHeaderNamesFieldsByPosition() throws {
    let result = try readAll(reader("1,2,3\n4,5,6\n", noHeader: true))
    #expect(result.fields == ["1", "2", "3"])
    #expect(result.records == [["1", "2", "3"], ["4", "5", "6"]])
  }

  @Test func shortRowsArePaddedWithEmptyFieldsAndCounted() throws {
    let result = try readAll(reader("a,b,c\n1\n1,2\n1,2,3\n"))
    #expect(result.records == [["1", "", ""], ["1", "2", ""], ["1", "2", "3"]])
    #expect(result.shortRows == 2)
  }

  @Test func longRowIsAnErrorAtTheExtraField() {
    let error = readError(reader("a,b,c,d\n1,2,3,4\n1,2,3,4,5\n"))
    #expect(error == InputError(name: "t.csv", line: 3, column: 9,
      message: "row has 5 fields, the header has 4"))
  }

  @Test func longRowIsSkippedWithSkipBad() throws {
    var reports: [InputError] = []
    let r = reader("a,b\n1,2\n\"x\ny\",2,3\n4,5\n", skipBad: true)
    r.onSkip = { reports.append($0) }
    let result = try readAll(r)
    #expect(result.records == [["1", "2"], ["4", "5"]])
    #expect(result.lines == [2, 5])
    #expect(result.skipped == 1)
    #expect(reports == [InputError(name: "t.csv", line: 4, column: 6,
      message: "row has 3 fields, the header has 2")])
  }

  @Test func unterminatedQuotePointsAtTheOpeningQuote() {
    let error = readError(reader("a,b\n1,2\n3,\"abc\ndef\n"))
    #expect(error == InputError(name: "t.csv", line: 3, column: 3,
      message: "unterminated quoted field"))
  }

  @Test func unterminatedQuoteWithSkipBadEndsTheInput() throws {
    var reports: [InputError] = []
    let r = reader("a,b\n1,2\n3,\"abc\n4,5\n", skipBad: true)
    r.onSkip = { reports.append($0) }
    let result = try readAll(r)
    #expect(result.records == [["1", "2"]])
    #expect(reports.map(\.line) == [3])
  }

  @Test func textAfterClosingQuoteIsAnError() {
    let error = readError(reader("a,b\n1,\"ab\"x\n"))
    #expect(error?.line == 2)
    #expect(error?.column == 7)
  }

  @Test func lineNumbersCountQuotedNewlines() throws {
    let result = try readAll(reader("a,b\n\"1\n\n\",2\n\n3,4\r\n5,\"\r\"\r6,7"))
    #expect(result.lines == [2, 6, 7, 9])
  }

  @Test func emptyFileAndHeaderOnly() throws {
    let empty = try readAll(reader(""))
    #expect(empty.fields == [])
    #expect(empty.records == [])
    let header = try readAll(reader("a,b\r\n"))
    #expect(header.fields == ["a", "b"])
    #expect(header.records == [])
  }

  @Test func duplicateAndEmptyHeaderNamesAreKeptAndMadeUnique() throws {
    let csv = reader("a,,a,a_2\n1,2,3,4\n")
    let result = try readAll(csv)
    #expect(result.fields == ["a", "2", "a_2", "a_2_2"])
    #expect(csv.headerBytes == [Array("a".utf8), [], Array("a".utf8), Array("a_2".utf8)])
    let plain = reader("a,b\n1,2\n")
    _ = try readAll(plain)
    #expect(plain.headerBytes == nil)
  }

  @Test func nulBytesAndInvalidUTF8AreCarriedByteForByte() throws {
    let row: [UInt8] = [0x61, 0x00, 0x62, 0x2C, 0xFF, 0xC3, 0x22]
    let texts = try recordTexts(reader(Array("a,b\n".utf8) + row + [0x0A]))
    #expect(texts == [row])
  }

  @Test func tenMegabyteFieldGrowsTheBuffer() throws {
    let big = [UInt8](repeating: UInt8(ascii: "x"), count: 10 << 20)
    let input = Array("a,b\n1,\"".utf8) + big + Array("\"\n2,3\n".utf8)
    let r = reader(input, chunkSize: 1 << 16)
    var sizes: [Int] = []
    while let batch = try r.nextBatch() {
      batch.withRows { rows in
        for i in 0..<rows.count { sizes.append(rows.row(i).field(1).content.count) }
      }
    }
    #expect(sizes == [10 << 20, 1])
  }

  /// Every chunk size from 1 byte up cuts records, quotes and CRLFs in every place.
  @Test func recordsStraddlingChunksReadTheSame() throws {
    let text = "id,note\r\n1,\"a,\"\"b\"\"\r\nc\"\r\n\r\n2,plain\r3,\"\"\n4,x\"y\n5,last"
    let whole = try readAll(reader(text))
    #expect(whole.records.count == 5)
    #expect(whole.lines == [2, 5, 6, 7, 8])
    for size in 1...text.utf8.count {
      #expect(try readAll(reader(text, chunkSize: size)) == whole, "chunk size \(size)")
    }
  }

  /// Rows long enough to be read eight bytes at a time: quoted fields at a row's start and in
  /// its middle, a quote inside an unquoted field, control bytes other than LF and CR (VT, SO,
  /// tab), bytes a borrow can flag right after a delimiter, line end or quote (`-`, SO, `#`),
  /// CRLF, a lone CR, a short row and UTF-8, at every chunk size.
  @Test func rowsReadAWordAtATimeFollowTheRules() throws {
    let text =
      "id,amount,note,city\r\n"
      + "GRN-1,-5,\"quoted, with comma\",Kraków\r\n"
      + "GRN-2,-6,mid\"quote#here,\u{0B}vt\n"
      + "\"GRN-3\",7,\"\"\"\",x\r"
      + "GRN-4,-8\n"
      + "GRN-5,9,\u{0E}so,é-ÿ\r\n"
      + "\u{0E}GRN-6,10,tab\tinside,end\n"
      + "GRN-7,11,last field is long enough,end"
    let whole = try readAll(reader(text))
    #expect(
      whole.records == [
        ["GRN-1", "-5", "quoted, with comma", "Kraków"],
        ["GRN-2", "-6", "mid\"quote#here", "\u{0B}vt"],
        ["GRN-3", "7", "\"", "x"],
        ["GRN-4", "-8", "", ""],
        ["GRN-5", "9", "\u{0E}so", "é-ÿ"],
        ["\u{0E}GRN-6", "10", "tab\tinside", "end"],
        ["GRN-7", "11", "last field is long enough", "end"],
      ])
    #expect(whole.lines == [2, 3, 4, 5, 6, 7, 8])
    #expect(whole.shortRows == 1)
    for size in 1...text.utf8.count {
      #expect(try readAll(reader(text, chunkSize: size)) == whole, "chunk size \(size)")
    }
    let tsv = "a\tb\tc\n\"q\"\t-1\tlong value\there\n"
    #expect(
      readError(reader(tsv, format: .tsv))?.message == "row has 4 fields, the header has 3")
    let tsvRows = try readAll(reader("a\tb\tc\n\"q\"\t-1\tlong \"value\"\n", format: .tsv))
    #expect(tsvRows.records == [["\"q\"", "-1", "long \"value\""]])
  }
}
