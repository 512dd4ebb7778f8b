import Foundation
import Testing

@testable import SiftCore

/// Docs/Performance.md: the output never depends on the thread count. Random queries (fixed
/// seeds) over generated files with quoted newlines, CRLF, byte order marks, short rows, several
/// inputs and gzip give the same bytes, the same counts and the same error with 1, 2, 3 and 8
/// workers (`-j`). Small chunks and parts split each file into dozens of parts.
@Suite struct SameBytesForEveryWorkerCountTests {
  static let workerCounts = [1, 2, 3, 8]
  /// Reader chunks and parts of a few KiB, so files of a few hundred KiB split into many parts.
  static let chunkSize = 4 << 10
  static let partSize = 6 << 10

  static let statuses = ["received", "pending", "Received", "cancelled", ""]
  static let customers = ["Acme", "ACME", "\"Smith, Jones & Co\"", "Müller GmbH", "\"The \"\"Best\"\"\""]
  static let prices = ["1.50", "20", "3.25", "-0.5", "", "n/a", "0.000000000001", "123456789.123"]
  /// Prices that `sum:` and `avg:` add in binary floating point today: exponent forms, and
  /// more digits than the exact accumulator holds.
  static let floatingPrices = prices + ["1.234560e+07", "1e3", "-2.5E-3", "12345678901234567.89"]

  /// A CSV file of `rows` rows: quoted fields spanning lines (LF and CRLF inside), every
  /// 11th row short (padded with empty values), line ends `lineEnd`, a UTF-8 byte order mark
  /// first when `byteOrderMark`. `columns` orders the fields (a later input may differ).
  static func csv(
    rows: Int, seed: UInt64, lineEnd: String, byteOrderMark: Bool, columns: [String],
    prices: [String] = prices
  ) -> [UInt8] {
    var generator = ParserFuzzTests.Generator(state: seed)
    var text = columns.joined(separator: ",") + lineEnd
    for i in 0..<rows {
      let n = Int.random(in: 0..<1_000, using: &generator)
      let values: [String: String] = [
        "id": "\(Int(seed) * 100_000 + i)",
        "status": statuses[n % statuses.count],
        "customer": customers[(n / 7) % customers.count],
        "note": n % 9 == 0 ? "\"two\nlines, \"\"quoted\"\"\"" : (n % 13 == 0 ? "\"crlf\r\ninside\"" : "plain \(n)"),
        "qty": n % 17 == 0 ? "" : "\(n % 40 - 5)",
        "price": prices[(n / 3) % prices.count],
        "date": "2024-0\(1 + n % 9)-\(10 + n % 19)",
      ]
      var fields = columns.map { values[$0] ?? "" }
      if i % 11 == 5 { fields.removeLast(1 + n % 3) }
      text += fields.joined(separator: ",") + lineEnd
    }
    return (byteOrderMark ? [0xEF, 0xBB, 0xBF] : []) + Array(text.utf8)
  }

  /// NDJSON records with the CSV's fields (numbers as numbers), a byte order mark first.
  static func ndjson(rows: Int, seed: UInt64) -> [UInt8] {
    var generator = ParserFuzzTests.Generator(state: seed)
    var text = ""
    for i in 0..<rows {
      let n = Int.random(in: 0..<1_000, using: &generator)
      let qty = n % 17 == 0 ? "" : ",\"qty\":\(n % 40 - 5)"
      text +=
        "{\"id\":\(Int(seed) * 100_000 + i),\"status\":\"\(statuses[n % statuses.count])\""
        + ",\"customer\":\"Acme \(n % 5)\",\"note\":\"line\\nbreak \(n)\"\(qty),\"date\":\"2024-02-\(10 + n % 19)\"}\r\n"
    }
    return [0xEF, 0xBB, 0xBF] + Array(text.utf8)
  }

  /// `bytes` in a gzip member (Docs/Formats.md, Compressed input).
  static func gzip(_ bytes: [UInt8]) -> [UInt8] {
    let crc = bytes.withUnsafeBufferPointer { b in b.baseAddress.map { CRC32.update(0, $0, b.count) } ?? 0 }
    func littleEndian(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
    return [0x1F, 0x8B, 0x08, 0, 0, 0, 0, 0, 0, 0xFF] + Deflater.deflate(bytes)
      + littleEndian(crc) + littleEndian(UInt32(truncatingIfNeeded: bytes.count))
  }

  static let filters = [
    "status:received", "-status:pending", "qty:>5", "qty:3..20", "customer:acme", "price:>100",
    "has:qty", "date:2024-03", "status:received OR status:cancelled", "note:lines", "-has:price",
    "customer:\"Smith, Jones & Co\"", "id:>100500",
  ]
  static let directives = [
    "sort:-qty", "sort:customer,-id", "sort:price", "group:status", "group:customer sum:qty",
    "avg:price", "sum:price max:date", "limit:7", "fields:id,status,note", "group:status,customer",
    "min:qty median:price", "group:date sum:price avg:qty", "sort:-date limit:25", "group:note",
  ]

  /// A random query: up to two filters, then up to two directives (a `sort:` and a `group:`
  /// may meet, and plans that refuse them give the same error for every worker count).
  static func query(_ generator: inout ParserFuzzTests.Generator) -> String {
    var parts: [String] = []
    for _ in 0..<Int.random(in: 0...2, using: &generator) {
      parts.append(filters.randomElement(using: &generator) ?? "")
    }
    for _ in 0..<Int.random(in: 0...2, using: &generator) {
      parts.append(directives.randomElement(using: &generator) ?? "")
    }
    return parts.joined(separator: " ")
  }

  /// What one run gave: the bytes written, the counts, the error.
  struct Outcome: Equatable {
    var output: String
    var summary: RunSummary?
    var error: String?
  }

  /// Runs `query` over the files at `paths` (gzip and NDJSON by name) with `workers` threads.
  static func run(_ query: String, paths: [String], workers: Int, format: OutputFormat) -> Outcome {
    let sink = MemorySink()
    let buffer = OutputBuffer(sink: sink)
    do {
      var inputs: [DatasetInput] = []
      for path in paths {
        let options = ReaderOptions(name: path)
        let source = try ByteSource(path: path)
        let reader: any RecordReader =
          if path.hasSuffix(".gz") {
            try ReaderFactory.makeReader(source: source, format: .csv, options: options).reader
          } else if path.hasSuffix(".ndjson") {
            NDJSONReader(source: source, options: options, prefix: [], chunkSize: chunkSize)
          } else {
            CSVReader(source: source, options: options, format: .csv, prefix: [], chunkSize: chunkSize)
          }
        inputs.append(DatasetInput(reader: reader))
      }
      let parallel = ParallelOptions(workers: workers, partSize: partSize, minimumSize: 0)
      let dataset = Dataset(inputs: inputs, parallel: parallel)
      let plan = try dataset.plan(try Parser.parse(query), now: 1_710_000_000)
      let summary = try dataset.run(plan, writer: makeWriter(WriterOptions(format: format), output: buffer))
      try buffer.flush()
      return Outcome(output: sink.text, summary: summary)
    } catch {
      try? buffer.flush()
      return Outcome(output: sink.text, error: "\(error)")
    }
  }

  /// The inputs, written once into a temporary folder: two CSV files (one with a byte order
  /// mark and CRLF, one with its columns in another order), a gzip CSV and an NDJSON file
  /// with a byte order mark.
  static let folder: String = {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
      "sift-same-bytes-\(getpid())").path
    try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    let columns = ["id", "status", "customer", "note", "qty", "price", "date"]
    let files: [(String, [UInt8])] = [
      ("a.csv", csv(rows: 2_500, seed: 1, lineEnd: "\r\n", byteOrderMark: true, columns: columns)),
      ("b.csv", csv(rows: 1_500, seed: 2, lineEnd: "\n", byteOrderMark: false, columns: columns.reversed())),
      ("c.csv.gz", gzip(csv(rows: 600, seed: 3, lineEnd: "\n", byteOrderMark: true, columns: columns))),
      ("d.ndjson", ndjson(rows: 1_500, seed: 4)),
      ("e.csv", csv(rows: 2_000, seed: 5, lineEnd: "\n", byteOrderMark: false, columns: columns, prices: floatingPrices)),
    ]
    for (name, bytes) in files {
      _ = FileManager.default.createFile(atPath: dir + "/" + name, contents: Data(bytes))
    }
    return dir
  }()

  /// Input sets: one file read in parts, several CSV inputs (one gzip), CSV and NDJSON together.
  static let inputSets: [[String]] = [["a.csv"], ["a.csv", "b.csv", "c.csv.gz"], ["b.csv", "d.ndjson"]]

  /// Runs `query` with every worker count and expects what one worker gives; returns whether
  /// that run matched records.
  @discardableResult
  static func expectSameForEveryWorkerCount(_ query: String, paths: [String], format: OutputFormat) -> Bool {
    let one = run(query, paths: paths, workers: 1, format: format)
    for workers in workerCounts.dropFirst() {
      let other = run(query, paths: paths, workers: workers, format: format)
      #expect(other == one, "'\(query)' -o \(format) with \(workers) workers over \(paths)")
    }
    return one.error == nil && (one.summary?.matched ?? 0) > 0
  }

  @Test(arguments: Array(0..<inputSets.count))
  func randomQueriesGiveTheSameBytesForEveryWorkerCount(inputSet: Int) throws {
    let paths = Self.inputSets[inputSet].map { Self.folder + "/" + $0 }
    var generator = ParserFuzzTests.Generator(state: 27 + UInt64(inputSet))
    var matched = 0
    for _ in 0..<12 {
      let query = Self.query(&generator)
      let format: OutputFormat = Bool.random(using: &generator) ? .csv : .ndjson
      if Self.expectSameForEveryWorkerCount(query, paths: paths, format: format) { matched += 1 }
    }
    // The queries must find records, or the comparison proves little.
    #expect(matched >= 6)
  }

  /// Issue 27 item 3a, found by the test above: `sum:` and `avg:` over values with an exponent
  /// (or 17 and more digits) once fell back to binary floating point, whose result depended on
  /// the order the parts were added in; they are exact now (Docs/Aggregates.md).
  @Test func sumsOfExponentFormsGiveTheSameBytesForEveryWorkerCount() {
    for query in ["sum:price avg:price", "group:status sum:price", "group:customer avg:price"] {
      Self.expectSameForEveryWorkerCount(query, paths: [Self.folder + "/e.csv"], format: .csv)
    }
  }

  /// The files are large enough to be read in many parts: the property is about parts.
  @Test func theFilesAreReadInParts() throws {
    let path = Self.folder + "/a.csv"
    let reader = CSVReader(
      source: try ByteSource(path: path), options: ReaderOptions(name: path), format: .csv,
      prefix: [], chunkSize: Self.chunkSize)
    let dataset = Dataset(
      inputs: [DatasetInput(reader: reader)],
      parallel: ParallelOptions(workers: 2, partSize: Self.partSize, minimumSize: 0))
    let split = try ParallelTests.threading(of: dataset)
    let parts = try #require(Int(split.split(separator: " ")[2]), "\(split)")
    #expect(split == "2 workers, \(parts) parts of 6 KiB")
    #expect(parts >= 10)
  }
}
