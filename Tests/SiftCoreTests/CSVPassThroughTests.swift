import Testing

@testable import SiftCore

/// CSV written a batch at a time (`BatchWriting`: runs of records copied in one piece, quoted
/// fields included) is byte for byte what writing each record field by field gives, and says
/// the same record ends.
@Suite struct CSVPassThroughTests {
  typealias Generator = CSVWordScanTests.Generator

  /// The output and record ends of writing every batch of `bytes`' records, a batch at a time
  /// (copying what it can) or a record at a time, field by field; `keep` picks the records
  /// written. `asWritten`: the batches after the first (the engine's sample) are read as
  /// written (`readAsWritten`, Docs/Performance.md, Pass-through without fields); how many
  /// came without fields is said.
  static func write(
    _ bytes: [UInt8], delimiter: UInt8, outputDelimiter: UInt8, chunkSize: Int, batched: Bool,
    asWritten: Bool = false, wordScan: Bool = true, keep: (Int) -> Bool
  ) throws -> (text: [UInt8], ends: [Int], asWrittenBatches: Int) {
    let reader = CSVReader(
      source: ByteSource(bytes: bytes, name: "p.csv"),
      options: ReaderOptions(name: "p.csv", delimiter: delimiter),
      format: .csv, prefix: [], chunkSize: chunkSize, wordScan: wordScan)
    let sink = MemorySink()
    let output = OutputBuffer(sink: sink, capacity: 64)
    guard var batch = try reader.nextBatch() else { return (sink.bytes, [], 0) }
    if asWritten { reader.readAsWritten(delimiter: outputDelimiter) }
    var asWrittenBatches = 0
    let writer = CSVWriter(
      output: output, dialect: .csv(delimiter: outputDelimiter), style: reader.textStyle)
    try writer.begin(
      columns: reader.fieldNames,
      headers: reader.headerBytes ?? reader.fieldNames.map { Array($0.utf8) })
    var ends: [Int] = []
    var seen = 0
    while true {
      let columns = reader.fieldNames.enumerated().map { OutputColumn.field($1, at: $0) }
      let rows = (0..<batch.count).filter { keep(seen + $0) }.map(Int32.init)
      seen += batch.count
      if batch.asWritten { asWrittenBatches += 1 }
      try batch.withRows { cursor throws(OutputError) in
        if batched {
          try writer.write(rows: rows[...], of: cursor, columns: columns, verbatim: true, ends: &ends)
        } else {
          for r in rows {
            try writer.write(cursor.row(Int(r)), columns: columns, verbatim: false)
            ends.append(output.position)
          }
        }
      }
      guard let next = try reader.nextBatch() else { break }
      batch = next
    }
    try writer.end()
    return (sink.bytes, ends, asWrittenBatches)
  }

  @Test(arguments: [UInt8.comma, UInt8(ascii: ";")])
  func batchesWriteTheBytesRecordsWriteAlone(delimiter: UInt8) throws {
    var g = Generator(state: 0xC0B1 &+ UInt64(delimiter))
    var copiedRuns = 0
    for round in 0..<120 {
      let bytes = CSVWordScanTests.randomFile(&g, delimiter: delimiter, malformed: false)
      let pattern = UInt64.random(in: 0...UInt64.max, using: &g)
      let keep: (Int) -> Bool =
        round % 3 == 0 ? { _ in true } : { pattern >> UInt64($0 % 64) & 1 == 1 }
      for outputDelimiter in [UInt8.comma, delimiter] {
        for chunkSize in [7, 64, 1 << 16] {
          let alone = try Self.write(
            bytes, delimiter: delimiter, outputDelimiter: outputDelimiter, chunkSize: chunkSize,
            batched: false, keep: keep)
          let batched = try Self.write(
            bytes, delimiter: delimiter, outputDelimiter: outputDelimiter, chunkSize: chunkSize,
            batched: true, keep: keep)
          #expect(batched.text == alone.text, "round \(round), chunk size \(chunkSize)")
          #expect(batched.ends == alone.ends, "round \(round), chunk size \(chunkSize)")
          if batched.ends.count > 1 { copiedRuns += 1 }
        }
      }
    }
    #expect(copiedRuns > 100)
  }

  /// A file with LF line ends goes out as it came in, but for blank lines, quotes not needed
  /// and short rows.
  @Test func rowsAreCopiedAsTheyAre() throws {
    let text = "id,qty,note\n1,5,a\n2,6,b\n\n3,7,c\n4,8,\"q\"\n5,9,d\n6,\n7,\"a,\"\"b\"\"\",x\n"
    let out = try Self.write(
      Array(text.utf8), delimiter: .comma, outputDelimiter: .comma, chunkSize: 1 << 16,
      batched: true, keep: { _ in true })
    #expect(
      String(decoding: out.text, as: UTF8.self)
        == "id,qty,note\n1,5,a\n2,6,b\n3,7,c\n4,8,q\n5,9,d\n6,,\n7,\"a,\"\"b\"\"\",x\n")
    #expect(out.ends == [18, 24, 30, 36, 42, 46, 60])
  }

  /// Read as written, random files with quoted fields (needed and needless quotes, quoted line
  /// ends, CRLF and CR, short rows, a byte order mark) go out byte for byte as the field-by-field
  /// writer writes them, with the same record ends, at every chunk size, by both scanners.
  @Test(arguments: [UInt8.comma, UInt8(ascii: ";")])
  func readingAsWrittenWritesTheBytesRecordsWriteAlone(delimiter: UInt8) throws {
    var g = Generator(state: 0xA5_0417 &+ UInt64(delimiter))
    var asWrittenBatches = 0
    for round in 0..<100 {
      let bytes = CSVWordScanTests.randomFile(&g, delimiter: delimiter, malformed: false)
      let pattern = UInt64.random(in: 0...UInt64.max, using: &g)
      let keep: (Int) -> Bool =
        round % 3 == 0 ? { pattern >> UInt64($0 % 64) & 1 == 1 } : { _ in true }
      for outputDelimiter in [UInt8.comma, delimiter] {
        let alone = try Self.write(
          bytes, delimiter: delimiter, outputDelimiter: outputDelimiter, chunkSize: 1 << 16,
          batched: false, keep: keep)
        for chunkSize in CSVWordScanTests.chunkSizes {
          for wordScan in [true, false] {
            let copied = try Self.write(
              bytes, delimiter: delimiter, outputDelimiter: outputDelimiter,
              chunkSize: chunkSize, batched: true, asWritten: true, wordScan: wordScan,
              keep: keep)
            #expect(copied.text == alone.text, "round \(round), chunk size \(chunkSize)")
            #expect(copied.ends == alone.ends, "round \(round), chunk size \(chunkSize)")
            if outputDelimiter != delimiter { #expect(copied.asWrittenBatches == 0) }
            asWrittenBatches += copied.asWrittenBatches
          }
        }
      }
    }
    #expect(asWrittenBatches > 1000)
  }

  /// Read as written, a file gives the records, lines, padded and skipped rows and errors the
  /// full read gives (only without fields), malformed files and `--skip-bad` included.
  @Test(arguments: [UInt8.comma, UInt8(ascii: ";")])
  func readingAsWrittenReadsTheRecordsTheFullReadDoes(delimiter: UInt8) {
    var g = Generator(state: 0xA5_0418 &+ UInt64(delimiter))
    for round in 0..<90 {
      let malformed = round % 3 == 2
      let bytes = CSVWordScanTests.randomFile(&g, delimiter: delimiter, malformed: malformed)
      for skipBad in malformed ? [false, true] : [false] {
        var expected = CSVWordScanTests.read(
          bytes, delimiter: delimiter, format: .csv, skipBad: skipBad, chunkSize: 1 << 16,
          wordScan: false)
        expected.records = []
        for size in CSVWordScanTests.chunkSizes {
          for after in [0, 1] {
            var got = CSVWordScanTests.read(
              bytes, delimiter: delimiter, format: .csv, skipBad: skipBad, chunkSize: size,
              wordScan: true, asWrittenAfter: after)
            got.records = []
            #expect(got == expected, "round \(round), chunk size \(size), skipBad \(skipBad)")
          }
        }
      }
    }
  }

  /// Every csv-spectrum file, read as written, goes out as the field-by-field writer writes it.
  @Test(arguments: CSVConformanceTests.cases)
  func conformanceFilesReadAsWrittenWriteTheSameBytes(name: String) throws {
    let csv = try ConformanceFiles.bytes("csv-spectrum/csvs/\(name).csv")
    let alone = try Self.write(
      csv, delimiter: .comma, outputDelimiter: .comma, chunkSize: 1 << 16, batched: false,
      keep: { _ in true })
    for size in CSVWordScanTests.chunkSizes {
      let copied = try Self.write(
        csv, delimiter: .comma, outputDelimiter: .comma, chunkSize: size, batched: true,
        asWritten: true, keep: { _ in true })
      #expect(copied.text == alone.text, "chunk size \(size)")
    }
  }

  /// Through the engine, past the sample, on one thread and in parts: `-o csv ''` (rows read as
  /// written) writes what a filter every record passes (rows read with fields) writes, and a
  /// file whose every row is written as it is goes out unchanged.
  @Test func enginePassThroughWritesWhatAFilterThatKeepsAllWrites() throws {
    let text = ParallelTests.csv(rows: 40_000, multilineEvery: 40)
    try ParallelTests.withFile(text, suffix: ".csv") { path in
      let filtered = ParallelTests.run("id:>=0", path, format: .csv, ParallelTests.sequential)
      #expect(filtered.error == nil)
      #expect(filtered.summary?.shown == 40_000)
      for options in [ParallelTests.sequential, ParallelTests.parallel(7919)] {
        let copied = ParallelTests.run("", path, format: .csv, options)
        #expect(copied.output == filtered.output)
        let small = ParallelTests.run("", path, format: .csv, csvChunkSize: 4093, options)
        #expect(small.output == filtered.output)
      }
    }
    let canonical = (0..<30_000).map { "\($0),\"a,\"\"\($0)\"\"\nb\",x\n" }.joined()
    try ParallelTests.withFile("id,note,z\n" + canonical, suffix: ".csv") { path in
      for options in [ParallelTests.sequential, ParallelTests.parallel(7919)] {
        #expect(ParallelTests.run("", path, format: .csv, options).output == "id,note,z\n" + canonical)
      }
    }
  }
}
