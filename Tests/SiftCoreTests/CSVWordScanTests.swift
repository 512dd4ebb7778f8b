import Testing

@testable import SiftCore

/// The word scanner (`CSVWordScanner`, eight bytes at a time with a prefix XOR over quotes)
/// reads every file exactly as the byte-at-a-time scanner does: the same field bytes, line
/// numbers, padded and skipped rows, and the same error at the same place.
@Suite struct CSVWordScanTests {
  /// Everything a reader gave that a user could see.
  struct Outcome: Equatable {
    var fields: [String] = []
    /// Each record's fields as raw bytes, quotes kept; `nil`: a padded field.
    var records: [[[UInt8]?]] = []
    var texts: [[UInt8]] = []
    var lines: [Int] = []
    var shortRows = 0
    var skipped = 0
    var skips: [InputError] = []
    var error: InputError?
  }

  /// Reads `bytes`; with `withoutFieldsAfter`, without fields (`readWithoutFields`) from the
  /// batch after that many (Docs/Performance.md, Counting without fields); with
  /// `asWrittenAfter`, as written for CSV output with the input's delimiter (`readAsWritten`,
  /// Pass-through without fields) from the batch after that many; `blockCount: false` counts
  /// without fields a row at a time (Counting a chunk at a time).
  static func read(
    _ bytes: [UInt8], delimiter: UInt8, format: InputFormat, skipBad: Bool, chunkSize: Int,
    wordScan: Bool, blockCount: Bool = true, withoutFieldsAfter: Int? = nil,
    asWrittenAfter: Int? = nil
  ) -> Outcome {
    let reader = CSVReader(
      source: ByteSource(bytes: bytes, name: "r.csv"),
      options: ReaderOptions(name: "r.csv", delimiter: delimiter, skipBad: skipBad),
      format: format, prefix: [], chunkSize: chunkSize, wordScan: wordScan,
      blockCount: blockCount)
    var outcome = Outcome()
    reader.onSkip = { outcome.skips.append($0) }
    var batches = 0
    do throws(InputError) {
      if withoutFieldsAfter == 0 { reader.readWithoutFields() }
      if asWrittenAfter == 0 { reader.readAsWritten(delimiter: delimiter) }
      while let batch = try reader.nextBatch() {
        batches += 1
        if batches == withoutFieldsAfter { reader.readWithoutFields() }
        if batches == asWrittenAfter { reader.readAsWritten(delimiter: delimiter) }
        batch.withRows { rows in
          for r in 0..<rows.count {
            let row = rows.row(r)
            outcome.texts.append(Array(row.text))
            outcome.records.append(
              (0..<batch.width).map { f in
                let start = Int(row.spans[2 * f])
                let end = Int(row.spans[2 * f + 1])
                return start < 0 ? nil : Array(UnsafeBufferPointer(start: row.base + start, count: end - start))
              })
          }
        }
        outcome.lines += (0..<batch.count).map(batch.line)
      }
    } catch {
      outcome.error = error
    }
    outcome.fields = reader.fieldNames
    outcome.shortRows = reader.shortRows
    outcome.skipped = reader.skipped
    return outcome
  }

  /// SplitMix64: seeded, so a failure reproduces.
  typealias Generator = ParserFuzzTests.Generator

  /// A random file of mostly well-formed rows: plain and quoted fields (with doubled quotes,
  /// delimiters, LF, CR and CRLF inside), LF, CR and CRLF line ends, blank lines, short and
  /// long rows, literal quotes in unquoted fields, text after a closing quote, multi-byte
  /// UTF-8, sometimes a byte order mark and sometimes no final line end.
  static func randomFile(
    _ g: inout Generator, delimiter: UInt8, malformed: Bool
  ) -> [UInt8] {
    let plain: [[UInt8]] = [
      Array("GRN-10442".utf8), Array("Kraków".utf8), Array("-12.50".utf8), [], Array("x".utf8),
      Array("a long value past eight bytes".utf8), Array("😀é".utf8), Array("#-\u{0E}".utf8),
      Array("2026-11-26T12:00:00".utf8), Array("tab\tin".utf8),
    ]
    let quotedInside: [[UInt8]] = [
      Array("a,b".utf8), Array("a;b".utf8), Array("say \"\"hi\"\"".utf8), Array("\"\"".utf8), [],
      Array("line\nbreak".utf8), Array("cr\rlf\r\nend".utf8), Array("Zürich, CH".utf8),
      Array("tab\there".utf8), Array("\"\"\"\"".utf8),
    ]
    let lineEnds: [[UInt8]] = [[.lineFeed], [.lineFeed], [.carriageReturn, .lineFeed], [.carriageReturn]]
    var out: [UInt8] = Bool.random(using: &g) ? [0xEF, 0xBB, 0xBF] : []
    let width = Int.random(in: 1...5, using: &g)
    let rows = Int.random(in: 1...40, using: &g)
    for row in 0...rows {
      var fields = width
      if row > 0 && malformed && Int.random(in: 0..<12, using: &g) == 0 {
        fields += Bool.random(using: &g) ? -1 : 1
      }
      for f in 0..<max(fields, 1) {
        if f > 0 { out.append(delimiter) }
        switch Int.random(in: 0..<10, using: &g) {
        case 0..<5: out += plain.randomElement(using: &g)!
        case 5..<9:
          out.append(.quote)
          out += quotedInside.randomElement(using: &g)!
          out.append(.quote)
          if malformed && Int.random(in: 0..<20, using: &g) == 0 { out += Array("x".utf8) }
        default:
          out += Array("mid\"quote".utf8)
        }
      }
      if row == rows && Bool.random(using: &g) { break }
      out += lineEnds.randomElement(using: &g)!
      if Int.random(in: 0..<15, using: &g) == 0 { out += lineEnds.randomElement(using: &g)! }
    }
    if malformed && Int.random(in: 0..<10, using: &g) == 0 { out += Array("1,\"open".utf8) }
    return out
  }

  /// The chunk sizes the reader tests cut at, and larger ones that keep most rows whole.
  static let chunkSizes = [1, 2, 3, 5, 7, 8, 9, 13, 16, 17, 31, 64, 211, 1 << 16]

  @Test(arguments: [UInt8.comma, UInt8(ascii: ";"), .tab])
  func wordScanReadsRandomQuotedFilesAsTheSimpleScanDoes(delimiter: UInt8) {
    var g = Generator(state: 0x5CA9 &+ UInt64(delimiter))
    for round in 0..<150 {
      let malformed = round % 3 == 2
      let bytes = Self.randomFile(&g, delimiter: delimiter, malformed: malformed)
      for skipBad in malformed ? [false, true] : [false] {
        let expected = Self.read(
          bytes, delimiter: delimiter, format: .csv, skipBad: skipBad, chunkSize: 1 << 16,
          wordScan: false)
        for size in Self.chunkSizes {
          let got = Self.read(
            bytes, delimiter: delimiter, format: .csv, skipBad: skipBad, chunkSize: size,
            wordScan: true)
          #expect(got == expected, "round \(round), chunk size \(size), skipBad \(skipBad)")
        }
      }
    }
  }

  /// The generator makes what it claims: quoted fields with line ends inside, and rows the
  /// word scanner reads itself (so the comparison above compares two scans, not one).
  @Test func randomFilesHoldQuotedLineEndsAndMostlyCleanRows() {
    var g = Generator(state: 7)
    var quotedLineEnds = 0
    var records = 0
    for _ in 0..<20 {
      let bytes = Self.randomFile(&g, delimiter: .comma, malformed: false)
      let text = String(decoding: bytes, as: UTF8.self)
      if text.contains("line\nbreak") { quotedLineEnds += 1 }
      records += Self.read(
        bytes, delimiter: .comma, format: .csv, skipBad: false, chunkSize: 1 << 16,
        wordScan: true
      ).records.count
    }
    #expect(quotedLineEnds > 5)
    #expect(records > 200)
  }

  /// TSV without quoting: quotes are field text, and the scans agree.
  @Test func tsvWithoutQuotingReadsTheSame() {
    var g = Generator(state: 11)
    for round in 0..<40 {
      let bytes = Self.randomFile(&g, delimiter: .tab, malformed: round % 2 == 1)
      let expected = Self.read(
        bytes, delimiter: .tab, format: .tsv, skipBad: false, chunkSize: 1 << 16, wordScan: false)
      for size in Self.chunkSizes {
        #expect(
          Self.read(bytes, delimiter: .tab, format: .tsv, skipBad: false, chunkSize: size, wordScan: true)
            == expected, "round \(round), chunk size \(size)")
      }
    }
  }

  /// Each byte equal to the pattern is flagged, and no other, whatever its neighbours (the
  /// borrow of the classic zero-byte test would flag `#` after `"`).
  @Test(arguments: [UInt8.quote, .comma, .lineFeed, .carriageReturn, 0x00, 0xFF])
  func equalBytesFlagsExactlyTheMatchingBytes(pattern: UInt8) {
    var g = Generator(state: UInt64(pattern))
    let near: [UInt8] = [pattern, pattern &+ 1, pattern &- 1, pattern ^ 0x80, 0x00, 0x01, 0x80, 0xFF]
    for _ in 0..<2000 {
      let bytes = (0..<8).map { _ in near.randomElement(using: &g)! }
      var word: UInt64 = 0
      for (i, byte) in bytes.enumerated() { word |= UInt64(byte) << (8 * i) }
      var expected: UInt64 = 0
      for (i, byte) in bytes.enumerated() where byte == pattern { expected |= 0x80 << (8 * i) }
      #expect(
        CSVWordScanner.equalBytes(word, 0x0101_0101_0101_0101 &* UInt64(pattern)) == expected)
    }
  }
}
