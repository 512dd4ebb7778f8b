import Testing

@testable import SiftCore

/// CSV written a batch at a time (`BatchWriting`: runs of records copied in one piece, quoted
/// fields included) is byte for byte what writing each record field by field gives, and says
/// the same record ends.
@Suite struct CSVPassThroughTests {
  typealias Generator = CSVWordScanTests.Generator

  /// The output and record ends of writing every batch of `bytes`' records, a batch at a time
  /// (copying what it can) or a record at a time, field by field; `keep` picks the records
  /// written.
  static func write(
    _ bytes: [UInt8], delimiter: UInt8, outputDelimiter: UInt8, chunkSize: Int, batched: Bool,
    keep: (Int) -> Bool
  ) throws -> (text: [UInt8], ends: [Int]) {
    let reader = CSVReader(
      source: ByteSource(bytes: bytes, name: "p.csv"),
      options: ReaderOptions(name: "p.csv", delimiter: delimiter),
      format: .csv, prefix: [], chunkSize: chunkSize)
    let sink = MemorySink()
    let output = OutputBuffer(sink: sink, capacity: 64)
    guard var batch = try reader.nextBatch() else { return (sink.bytes, []) }
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
    return (sink.bytes, ends)
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
}
