import Testing

@testable import SiftCore

/// A JSON array read in parts on worker threads gives exactly what one thread gives: the same
/// bytes, counts and errors at the same line and column, at every part size
/// (Docs/Performance.md, JSON arrays in parts).
@Suite struct JSONArrayPartsTests {
  typealias Generator = ParserFuzzTests.Generator

  /// Pieces of string contents, written as JSON writes them: brackets, braces, commas, escaped
  /// quotes and backslashes, escapes that a naive probe would take for structure.
  static let pieces = [
    "},{", "[", "]", "{", "}", "\\\"", "\\\\", ",", " ", "\\n", "\\r\\n", "\\u00e9", "\\/",
    "Acme", "Müller", "\\\"},{\\\"id\\\":1}", "x", "\\\\\\\"", "],[{",
  ]

  static func string(_ g: inout Generator) -> String {
    let count = Int.random(in: 0...6, using: &g)
    return "\"" + (0..<count).map { _ in pieces.randomElement(using: &g)! }.joined() + "\""
  }

  /// A random JSON array of `records` objects, on one line or spread over lines with random
  /// whitespace (CRLF included); some records hold arrays of objects, some keys come late or in
  /// another order. Also where each record after the first starts: just after its `,`.
  static func array(records: Int, seed: UInt64, minified: Bool) -> (text: [UInt8], starts: Set<Int>) {
    var g = Generator(state: seed)
    let spaces = ["", " ", "\n", "\r\n", "\t", "\n    "]
    func ws(_ g: inout Generator) -> String { minified ? "" : spaces.randomElement(using: &g)! }
    var text = Array("[".utf8) + Array(ws(&g).utf8)
    var starts = Set<Int>()
    let statuses = ["received", "pending", "Received", "cancelled"]
    for i in 0..<records {
      if i > 0 {
        text += Array(",".utf8)
        starts.insert(text.count)
        text += Array(ws(&g).utf8)
      }
      var members = [
        "\"id\":\(i)", "\"status\":\"\(statuses[i % 4])\"",
        "\"customer\":" + (i % 3 == 0 ? "\"Acme\"" : string(&g)), "\"qty\":\(i % 250)",
      ]
      if i % 3 == 1 {
        let items = (0..<Int.random(in: 0...3, using: &g)).map { k in
          "{\"sku\":" + string(&g) + ",\"n\":\(k),\"tags\":[" + string(&g) + ",{}]}"
        }
        members.append("\"items\":[" + items.joined(separator: "," + ws(&g)) + "]")
      }
      if i % 4 == 2 { members.append("\"flag\":" + ["true", "false", "null"][i % 3]) }
      if i % 11 == 0 { members.append("\"late\":\"k\(i)\"") }
      if i % 5 == 0 { members.reverse() }
      let separator = ws(&g) + "," + ws(&g)
      text += Array(("{" + ws(&g) + members.joined(separator: separator) + ws(&g) + "}").utf8)
    }
    text += Array((ws(&g) + "]" + ws(&g)).utf8)
    return (text, starts)
  }

  /// Runs `query` over the JSON document at `path` read in chunks of `chunk` bytes (so the
  /// 1,000 sampled records end early and the rest of the file is read in parts).
  static func run(
    _ query: String, _ path: String, format: OutputFormat, count: Bool = false,
    _ parallel: ParallelOptions, chunk: Int = 4096
  ) -> ParallelTests.Outcome {
    ParallelTests.run(query, format: format, count: count, parallel) {
      JSONReader(
        source: try ByteSource(path: path), options: ReaderOptions(name: "input"), prefix: [],
        chunkSize: chunk)
    }
  }

  static let queries = [
    "status:received customer:acme", "qty:>100 sort:-qty", "late:k1*", "group:status sum:qty", "",
  ]

  /// 1,500 records: the 1,000 of the sample, then about 60 KB read in parts, hundreds of them at
  /// 97 bytes (every kind of boundary, in strings and between records), four at 16,411 (parts
  /// that span several chunks of 4 KiB).
  static let records = 1500

  @Test(arguments: [(1 as UInt64, false), (2, true), (3, false)])
  func sameBytesAtEveryPartSize(seed: UInt64, minified: Bool) throws {
    let (text, _) = Self.array(records: Self.records, seed: seed, minified: minified)
    try ParallelTests.withFile(String(decoding: text, as: UTF8.self), suffix: ".json") { path in
      // The rest after the sample is cut into parts, or the comparisons could not fail.
      for (partSize, least) in [(97, 300), (16_411, 3)] {
        let reader = JSONReader(
          source: try ByteSource(path: path), options: ReaderOptions(name: "input"), prefix: [],
          chunkSize: 4096)
        let dataset = Dataset(
          inputs: [DatasetInput(reader: reader)], parallel: ParallelTests.parallel(partSize))
        let words = try ParallelTests.threading(of: dataset)
        let parts = Int(words.split(separator: " ").dropFirst(2).first ?? "") ?? 0
        #expect(parts >= least, "\(words)")
      }
      for query in Self.queries {
        for format in [OutputFormat.ndjson, .json] {
          let one = Self.run(query, path, format: format, ParallelTests.sequential)
          #expect(one.error == nil)
          #expect(one.summary?.total == Self.records)
          for (partSize, workers) in [(97, 2), (1009, 3), (16_411, 2)] {
            let split = Self.run(
              query, path, format: format, ParallelTests.parallel(partSize, workers: workers))
            #expect(
              split == one, "query '\(query)', parts of \(partSize) bytes, \(workers) threads")
          }
        }
        let count = Self.run(query, path, format: .csv, count: true, ParallelTests.sequential)
        #expect(
          Self.run(query, path, format: .csv, count: true, ParallelTests.parallel(4093)) == count)
      }
    }
  }

  /// Malformed JSON late in the document: the records before it, then the same error at the
  /// same line and column (on a minified file, a column far along its one line).
  @Test(arguments: [
    ("{\"id\":1 \"qty\":2}", false), ("{\"id\":1 \"qty\":2}", true), ("{\"id\":1},]", true),
    ("{\"id\":\"open", false), ("[1]", true),
  ])
  func malformedJSONLateFailsAtTheSameLineAndColumn(bad: String, minified: Bool) throws {
    var (text, _) = Self.array(records: Self.records, seed: 7, minified: minified)
    while text.last != .closeBracket { text.removeLast() }
    text.removeLast()
    text += Array(",\n".utf8) + Array(bad.utf8)
    if !bad.hasSuffix("]") && !bad.hasSuffix("open") { text += Array("]".utf8) }
    try ParallelTests.withFile(String(decoding: text, as: UTF8.self), suffix: ".json") { path in
      let one = Self.run("qty:>10", path, format: .ndjson, ParallelTests.sequential)
      let error = try #require(one.error)
      #expect(error.contains("input:"))
      #expect(one.output.utf8.count > 100_000)
      for partSize in [97, 1009, 16_411] {
        #expect(
          Self.run("qty:>10", path, format: .ndjson, ParallelTests.parallel(partSize)) == one,
          "parts of \(partSize) bytes")
      }
    }
  }

  /// The records of an array inside an object (`{"meta":…,"data":[…],"more":…}`), and the
  /// error for a second array of records after them.
  @Test(arguments: [",\"more\":[1,2],\"end\":{\"x\":[]}}", ",\"other\":[{\"a\":1}]}"])
  func arrayInsideAnObjectReadsTheSame(after: String) throws {
    let (records, _) = Self.array(records: Self.records, seed: 11, minified: false)
    let text = Array("{\"meta\":{\"n\":[1,2]},\n\"data\":".utf8) + records + Array(after.utf8)
    try ParallelTests.withFile(String(decoding: text, as: UTF8.self), suffix: ".json") { path in
      let one = Self.run("status:pending", path, format: .ndjson, ParallelTests.sequential)
      #expect(one.summary?.total == Self.records || one.error?.contains("2 arrays of records") == true)
      for partSize in [211, 8191] {
        #expect(
          Self.run("status:pending", path, format: .ndjson, ParallelTests.parallel(partSize))
            == one)
      }
    }
  }

  /// The probe, from offsets all through a file, finds a true record start (or says it found
  /// none), and on ordinary records finds one nearly every time.
  @Test(arguments: [(21 as UInt64, false), (22, true)])
  func probeFindsRecordStarts(seed: UInt64, minified: Bool) throws {
    let (text, starts) = Self.array(records: 2000, seed: seed, minified: minified)
    try ParallelTests.withFile(String(decoding: text, as: UTF8.self), suffix: ".json") { path in
      let source = try ByteSource(path: path)
      let fd = try #require(source.filePosition?.fd)
      let probe = JSONArrayProbe(fd: fd, settle: 2048)
      var found = 0
      var tried = 0
      for offset in stride(from: 1, to: text.count - 8192, by: 997) {
        let start = probe.recordStart(atOrAfter: offset, before: offset + 8192)
        tried += 1
        guard start < offset + 8192 else { continue }
        let isStart = starts.contains(start)
        #expect(isStart, "from \(offset): \(start) is not a record start")
        #expect(start >= offset)
        found += 1
      }
      #expect(found * 10 >= tried * 9, "found \(found) of \(tried)")
    }
  }

  @Test func explainSaysTheArrayIsReadInParts() throws {
    let (text, _) = Self.array(records: 12_000, seed: 5, minified: true)
    try #require(text.count > (1 << 20) + 100_000)
    try ParallelTests.withFile(String(decoding: text, as: UTF8.self), suffix: ".json") { path in
      let words = try ParallelTests.threading(try ByteSource(path: path), ParallelTests.parallel(30_001))
      #expect(words.hasPrefix("2 workers, "))
      #expect(words.hasSuffix(" parts of 30001 bytes"))
    }
  }
}
