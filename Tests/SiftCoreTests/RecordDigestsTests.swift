import Testing

@testable import SiftCore

/// A record's content hash is the hash of its canonical text, what the CSV writer writes for
/// its values with `,` (Docs/Performance.md, "A record's digest from its bytes"): the same
/// number whether the record is read as written and hashed from its row's bytes, or read from
/// any other rendering of the same values and its canonical text built.
@Suite struct RecordDigestsTests {
  typealias Generator = CSVWordScanTests.Generator

  /// Pieces of values: the delimiters, quotes, line ends, spaces, non-ASCII text and the bytes
  /// of a byte order mark.
  static let pieces = ["a", "b", "x1", ",", ";", "\"", "\r", "\n", "\r\n", " ", "é", "日本", "\u{FEFF}"]

  static func randomValue(_ g: inout Generator) -> String {
    let length = Int(g.next() % 5)
    return (0..<length).map { _ in pieces[Int(g.next() % UInt64(pieces.count))] }.joined()
  }

  static func randomRecords(_ g: inout Generator, width: Int, count: Int) -> [[String]] {
    (0..<count).map { r in
      // The first value is a key: unique, sometimes quoted.
      ["k\(r)" + (r % 3 == 0 ? ",\"q\"" : "")]
        + (1..<width).map { _ in randomValue(&g) }
    }
  }

  /// The text of `values` as one plain row (every value its own bytes).
  static func withPlainRow<R>(_ values: [String], _ body: (RowView) -> R) -> R {
    var bytes: [UInt8] = []
    var spans: [Int32] = []
    for v in values {
      spans.append(Int32(bytes.count))
      bytes += Array(v.utf8)
      spans.append(Int32(bytes.count))
    }
    bytes.append(0)
    return bytes.withUnsafeBufferPointer { b in
      spans.withUnsafeBufferPointer { s in
        body(
          RowView(
            base: b.baseAddress!, spans: s.baseAddress ?? UnsafePointer(bitPattern: 4)!,
            width: values.count, encoding: .plain, extentStart: 0, extentEnd: b.count - 1))
      }
    }
  }

  static func columns(_ width: Int) -> [OutputColumn] {
    (0..<width).map { OutputColumn.field("h\($0)", at: $0) }
  }

  /// The CSV writer's file of `records` (header `h0,h1,…`) with `delimiter`, and each record's
  /// own bytes in it (without its line end).
  static func written(
    _ records: [[String]], width: Int, delimiter: UInt8
  ) throws -> (file: [UInt8], rows: [[UInt8]]) {
    let sink = MemorySink()
    let output = OutputBuffer(sink: sink, capacity: 64)
    let writer = CSVWriter(output: output, dialect: .csv(delimiter: delimiter))
    try writer.begin(columns: (0..<width).map { "h\($0)" })
    var ends = [output.position]
    for values in records {
      try withPlainRow(values) { row in
        Result { () throws(OutputError) in
          try writer.write(row, columns: columns(width), verbatim: false)
        }
      }.get()
      ends.append(output.position)
    }
    try writer.end()
    let bytes = sink.bytes
    let rows = (1..<ends.count).map { Array(bytes[ends[$0 - 1]..<(ends[$0] - 1)]) }
    return (bytes, rows)
  }

  /// The content hashes `RecordDigests` makes of every record `reader` reads; with `asWritten`
  /// the batches after the first are asked for as written, and how many came so is said.
  static func contents(
    _ reader: any RecordReader, width: Int, asWritten: Bool
  ) throws -> (contents: [UInt64], keys: [[UInt8]], asWrittenBatches: Int) {
    var digests = RecordDigests(keyColumns: [0])
    var asWrittenBatches = 0
    var first = true
    while let batch = try reader.nextBatch() {
      if first, asWritten { reader.readAsWritten(delimiter: RecordDigests.delimiter) }
      first = false
      if batch.asWritten { asWrittenBatches += 1 }
      let rows = (0..<Int32(batch.count)).map { $0 }
      digests.add(batch, rows: rows[...], columns: columns(width), verbatim: true)
    }
    let keys = digests.withBytes { b in
      (0..<digests.count).map { Array(digests.digest($0, in: b).key) }
    }
    return (digests.contents, keys, asWrittenBatches)
  }

  static func csvReader(_ bytes: [UInt8], delimiter: UInt8, chunkSize: Int) -> CSVReader {
    CSVReader(
      source: ByteSource(bytes: bytes, name: "d.csv"),
      options: ReaderOptions(name: "d.csv", delimiter: delimiter), format: .csv, prefix: [],
      chunkSize: chunkSize)
  }

  /// Every value between quotes, quotes doubled, needed or not.
  static func overQuoted(_ records: [[String]], width: Int) -> [UInt8] {
    func quoted(_ v: String) -> String { "\"" + v.replacingOccurrences("\"", "\"\"") + "\"" }
    let lines = [(0..<width).map { "h\($0)" }.joined(separator: ",")]
      + records.map { $0.map(quoted).joined(separator: ",") }
    return Array((lines.joined(separator: "\r\n") + "\r\n").utf8)
  }

  static func ndjson(_ records: [[String]]) -> [UInt8] {
    func json(_ v: String) -> String {
      var out = "\""
      for u in v.unicodeScalars {
        switch u {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        default: out.unicodeScalars.append(u)
        }
      }
      return out + "\""
    }
    let lines = records.map { values in
      "{" + values.enumerated().map { "\"h\($0.offset)\":" + json($0.element) }
        .joined(separator: ",") + "}"
    }
    return Array((lines.joined(separator: "\n") + "\n").utf8)
  }

  @Test(arguments: 1...4)
  func everyRenderingHashesAsTheWritersBytes(width: Int) throws {
    var g = Generator(state: 0xD16E57 &+ UInt64(width))
    var asWrittenBatches = 0
    for round in 0..<40 {
      let records = Self.randomRecords(&g, width: width, count: 30 + round)
      let (file, rows) = try Self.written(records, width: width, delimiter: .comma)
      let expected = rows.map { $0.withUnsafeBufferPointer { ChangeCoding.hash($0) } }
      let keys = records.map { Array($0[0].utf8) }
      for chunkSize in [64, 1 << 16] {
        let read = try Self.contents(
          Self.csvReader(file, delimiter: .comma, chunkSize: chunkSize), width: width,
          asWritten: true)
        #expect(read.contents == expected, "round \(round), as written, chunk \(chunkSize)")
        #expect(read.keys == keys, "round \(round), as written, chunk \(chunkSize)")
        asWrittenBatches += read.asWrittenBatches
        let fielded = try Self.contents(
          Self.csvReader(file, delimiter: .comma, chunkSize: chunkSize), width: width,
          asWritten: false)
        #expect(fielded.contents == expected, "round \(round), with fields")
      }
      let semicolons = try Self.written(records, width: width, delimiter: UInt8(ascii: ";")).file
      let otherDelimiter = try Self.contents(
        Self.csvReader(semicolons, delimiter: UInt8(ascii: ";"), chunkSize: 64), width: width,
        asWritten: true)
      #expect(otherDelimiter.contents == expected, "round \(round), ';'")
      #expect(otherDelimiter.asWrittenBatches == 0)
      let overQuoted = try Self.contents(
        Self.csvReader(Self.overQuoted(records, width: width), delimiter: .comma, chunkSize: 64),
        width: width, asWritten: true)
      #expect(overQuoted.contents == expected, "round \(round), over-quoted")
      #expect(overQuoted.keys == keys, "round \(round), over-quoted")
      let ndjson = try Self.contents(
        NDJSONReader(
          source: ByteSource(bytes: Self.ndjson(records), name: "d.ndjson"),
          options: ReaderOptions(name: "d.ndjson")),
        width: width, asWritten: false)
      #expect(ndjson.contents == expected, "round \(round), NDJSON")
      #expect(ndjson.keys == keys, "round \(round), NDJSON")
    }
    // The rows read as written were hashed from their bytes, not only the fielded ones.
    #expect(asWrittenBatches > 0)
  }

  /// The content hash of `values` built as canonical text (`hashValues`).
  static func content(_ values: [String]) -> UInt64 {
    var scratch: [UInt8] = []
    var text: [UInt8] = []
    return withPlainRow(values) {
      RecordDigests.hashValues(
        $0, columns(values.count), verbatim: false, scratch: &scratch, text: &text
      ).content
    }
  }

  /// Two records that differ in one value, or only in where a value ends, hash differently.
  @Test func recordsDifferingInAValueOrWhereItEndsHashDifferently() {
    var g = Generator(state: 0xD1FF)
    for _ in 0..<2000 {
      let width = 1 + Int(g.next() % 4)
      let a = (0..<width).map { _ in Self.randomValue(&g) }
      var b = a
      let f = Int(g.next() % UInt64(width))
      while b[f] == a[f] { b[f] = Self.randomValue(&g) }
      #expect(Self.content(a) != Self.content(b), "\(a) against \(b)")
    }
    let ends: [([String], [String])] = [
      (["a,b", "c"], ["a", "b,c"]), (["a", ""], ["a,", ""]), (["", "a"], [",a", ""]),
      (["a\"", "b"], ["a", "\"b"]), (["a", "b", ""], ["a", "b,"]), (["\"a\"", "b"], ["a", "b"]),
      ([""], ["\"\""]),
    ]
    for (a, b) in ends {
      #expect(Self.content(a) != Self.content(b), "\(a) against \(b)")
    }
  }

  /// The bytes a record's values take when kept, whichever way it is hashed, are what
  /// `ChangeBaseline` keeps: each value's length as a varint, then its bytes.
  @Test func theKeptSizeIsTheValuesLengthPrefixed() throws {
    var g = Generator(state: 0x512E)
    for width in 1...4 {
      var records = Self.randomRecords(&g, width: width, count: 60)
      // Values of 128 bytes and more take two bytes of length; rows of 128 bytes and more are
      // measured field by field.
      records[5][width - 1] = String(repeating: "y", count: 130)
      records[6][0] = "k6" + String(repeating: "\"", count: 140)
      // Rows whose values take 127 and 128 bytes in all, without quotes: the first kept as its
      // length + 1 without its fields found, the second measured.
      for (row, total) in [(7, 127), (8, 128)] {
        let each = total / width
        records[row] = (0..<width).map { f in
          String(repeating: "z", count: f == 0 ? total - each * (width - 1) : each)
        }
      }
      let file = try Self.written(records, width: width, delimiter: .comma).file
      let expected = records.map { values in
        values.reduce(0) { $0 + ChangeCoding.varintSize($1.utf8.count) + $1.utf8.count }
      }
      let packed = records.map { values in
        var out: [UInt8] = []
        for v in values {
          ChangeCoding.appendVarint(v.utf8.count, to: &out)
          out += Array(v.utf8)
        }
        return out
      }
      for asWritten in [true, false] {
        // The values packed with the digests (`ValuesPackedAhead`) are packed as the calling
        // thread packs them, each record's as many bytes as its kept size says.
        var digests = RecordDigests(keyColumns: [0], valuesAhead: ValuesPackedAhead())
        let reader = Self.csvReader(file, delimiter: .comma, chunkSize: 256)
        var first = true
        while let batch = try reader.nextBatch() {
          if first, asWritten { reader.readAsWritten(delimiter: .comma) }
          first = false
          let rows = (0..<Int32(batch.count)).map { $0 }
          digests.add(batch, rows: rows[...], columns: Self.columns(width), verbatim: true)
        }
        #expect(digests.sizes.map(Int.init) == expected, "width \(width), as written \(asWritten)")
        let values = digests.withBytes { b in
          (0..<digests.count).map { digests.digest($0, in: b).values.map(Array.init) }
        }
        #expect(values == packed, "width \(width), as written \(asWritten)")
      }
    }
  }

  /// Values are packed with the digests while the switch is on; once it is off, the batches
  /// after are not (a digest without them is packed by the calling thread), so the records
  /// packed are always the first ones. Without a switch none are.
  @Test func valuesArePackedWhileTheSwitchIsOn() throws {
    var g = Generator(state: 0x5A17)
    let records = Self.randomRecords(&g, width: 3, count: 40)
    let file = try Self.written(records, width: 3, delimiter: .comma).file
    let reader = Self.csvReader(file, delimiter: .comma, chunkSize: 1 << 16)
    let batch = try #require(try reader.nextBatch())
    let rows = Array(Int32(0)..<20)
    let valuesAhead = ValuesPackedAhead()
    var digests = RecordDigests(keyColumns: [0], valuesAhead: valuesAhead)
    digests.add(batch, rows: rows[0..<10], columns: Self.columns(3), verbatim: true)
    valuesAhead.turnOff()
    digests.add(batch, rows: rows[10..<20], columns: Self.columns(3), verbatim: true)
    let present = digests.withBytes { b in (0..<20).map { digests.digest($0, in: b).values != nil } }
    #expect(present == Array(repeating: true, count: 10) + Array(repeating: false, count: 10))
    var without = RecordDigests(keyColumns: [0])
    without.add(batch, rows: rows[...], columns: Self.columns(3), verbatim: true)
    #expect(without.packedEnds.isEmpty)
  }

  /// The content of a record is pinned: a change of the canonical text or of the hash would make
  /// every state file read as all changed (then `ChangeBaseline.version` must change).
  @Test func theContentOfARecordIsPinned() {
    let values = ["GRN-000001", "on hold, QA", "say \"x\"", ""]
    let canonical = Array("GRN-000001,\"on hold, QA\",\"say \"\"x\"\"\",".utf8)
    #expect(Self.content(values) == ChangeCoding.hash(canonical))
    #expect(Self.content(values) == 0xfdfd_cdf1_3b27_a6af)
  }
}

extension String {
  fileprivate func replacingOccurrences(_ target: String, _ replacement: String) -> String {
    split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
  }
}

/// A row read as written without a quote has its values packed from its text
/// (`PackedValues.append(asWritten:)`: Docs/Performance.md, "A first run's rows written in the
/// parts"): each value's length in one byte, then its bytes, as a baseline keeps them, built
/// here value by value, after the values packed before it; a row with a quote, a value set of
/// 128 bytes or more, or another number of fields than the columns is left to the packing by
/// fields, and the values before it are as they were.
@Suite struct PackedValuesTests {
  static func byHand(_ values: [String]) -> [UInt8] {
    values.flatMap { [UInt8($0.utf8.count)] + Array($0.utf8) }
  }

  @Test(arguments: [
    (["GRN-1", "hold", "5"], 3, true),
    (["", "", ""], 3, true),
    (["only"], 1, true),
    ([""], 1, true),
    (["a", ""], 2, true),
    ([String(repeating: "x", count: 125), "y", "z"], 3, true),  // 127 bytes of values
    ([String(repeating: "x", count: 126), "y", "z"], 3, false),  // 128
    (["a", "b"], 3, false),  // a short row
    (["a", "b", "c", "d"], 3, false),  // a long one
    (["say \"x\"", "b"], 2, false),
  ] as [([String], Int, Bool)])
  func packsTheValuesOfARowWithoutQuotes(values: [String], columns: Int, packed: Bool) {
    let text = Array(values.joined(separator: ",").utf8)
    var out: [UInt8] = [9, 9]
    let done = text.withUnsafeBufferPointer {
      PackedValues.append(asWritten: $0, columns: columns, to: &out)
    }
    #expect(done == packed)
    #expect(out == [9, 9] + (packed ? Self.byHand(values) : []))
  }

  /// Longer rows packed after values packed before them: delimiters next to each other, beside
  /// bytes one off the delimiter (`-`, `+`, and 0xAC, the delimiter with its high bit set,
  /// inside `¬`), and multibyte text.
  @Test(arguments: [
    ["GRN-000001", "2023-01-01", "pending", "Zenith Pharma", "WH-05", "SKU-15338", "189", "20.08"],
    ["", "", "", "", "", "", "", "", "", "", "", "", "", "", "", "", ""],
    ["1234567", "1234567", "1234567", "-", "+", "¬¬¬¬", "-,", "x"].map { $0.replacingOccurrences(",", "") },
    ["abcdefgh", "ijklmnop", "qrstuvwx"],
    [String(repeating: "y", count: 40), "", "z"],
  ])
  func packsLongerRowsAfterValuesPackedBefore(values: [String]) {
    let text = Array(values.joined(separator: ",").utf8)
    var out: [UInt8] = [7]
    let done = text.withUnsafeBufferPointer {
      PackedValues.append(asWritten: $0, columns: values.count, to: &out)
    }
    #expect(done)
    #expect(out == [7] + Self.byHand(values))
  }
}
