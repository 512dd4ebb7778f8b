import Testing

@testable import SiftCore

/// A `Dataset` reads its sample once and runs any number of plans (Docs/Architecture.md, The
/// dataset).
@Suite struct DatasetTests {
  static let csv = Array(
    """
    id,status,qty
    1,open,5
    2,closed,12
    3,open,7
    4,held,
    5,open,30

    """.utf8)

  /// A dataset over `bytes` whose opener counts how often the input is opened again.
  final class Opens {
    var count = 0
  }

  static func dataset(_ bytes: [UInt8], opens: Opens) throws -> Dataset {
    try dataset(opens: opens, parallel: ParallelOptions(workers: 1)) { ByteSource(bytes: bytes, name: "input") }
  }

  static func dataset(
    opens: Opens, parallel: ParallelOptions, source: @escaping () throws(InputError) -> ByteSource
  ) throws -> Dataset {
    func open() throws(InputError) -> RecordReader {
      try ReaderFactory.makeReader(
        source: try source(), format: .csv, options: ReaderOptions(name: "input")
      ).reader
    }
    let input = DatasetInput(reader: try open()) { () throws(InputError) in
      opens.count += 1
      return try open()
    }
    return Dataset(inputs: [input], parallel: parallel)
  }

  /// The CSV written by `query` over `dataset` and what the run counted.
  static func run(_ query: String, over dataset: Dataset, count: Bool = false) throws -> String {
    let sink = MemorySink()
    let buffer = OutputBuffer(sink: sink)
    let plan = try dataset.plan(try Parser.parse(query), now: 0)
    let writer = count ? nil : makeWriter(WriterOptions(format: .csv), output: buffer)
    let summary = try dataset.run(plan, writer: writer)
    try buffer.flush()
    let groups = summary.groupCounts.map { "\($0.values.map { String(decoding: $0, as: UTF8.self) }.joined(separator: ","))=\($0.count)" }.joined(separator: " ")
    return sink.text + "total \(summary.total) matched \(summary.matched) shown \(summary.shown) \(groups)"
  }

  static let queries: [(query: String, count: Bool)] = [
    ("status:open", false), ("sort:-qty limit:2", false), ("group:status", true), ("qty:>6", false),
    ("", true),
  ]

  @Test func plansOverOneDatasetGiveWhatSeparateRunsGive() throws {
    let shared = try Self.dataset(Self.csv, opens: Opens())
    for (query, count) in Self.queries {
      let alone = try Self.run(query, over: try Self.dataset(Self.csv, opens: Opens()), count: count)
      #expect(try Self.run(query, over: shared, count: count) == alone, "\(query)")
    }
  }

  @Test func theFirstRunReadsTheSampleAndALaterRunOpensTheInputAgain() throws {
    let opens = Opens()
    let dataset = try Self.dataset(Self.csv, opens: opens)
    _ = try Self.run("status:open", over: dataset)
    #expect(opens.count == 0)
    #expect(try Self.run("status:open", over: dataset).hasPrefix("id,status,qty\n1,open,5\n3,open,7\n5,open,30\n"))
    #expect(try Self.run("status:held", over: dataset).hasSuffix("total 5 matched 1 shown 1 "))
    #expect(opens.count == 2)
  }

  /// A file read in parts on two threads, whose quoted newlines straddle parts, gives every
  /// run the bytes that one thread gives a dataset of its own.
  @Test func laterRunsOfAFileReadInPartsGiveTheSameBytes() throws {
    let text = ParallelTests.csv(rows: 60_000, multilineEvery: 7)
    try ParallelTests.withFile(text, suffix: ".csv") { path in
      let parallel = ParallelOptions(workers: 2, partSize: 256 << 10, minimumSize: 512 << 10)
      let opens = Opens()
      let shared = try Self.dataset(opens: opens, parallel: parallel) { () throws(InputError) in
        try ByteSource(path: path)
      }
      for query in ["status:received", "sort:-qty", "group:customer"] {
        let alone = try Self.dataset(opens: Opens(), parallel: ParallelOptions(workers: 1)) {
          () throws(InputError) in try ByteSource(path: path)
        }
        #expect(try Self.run(query, over: shared) == Self.run(query, over: alone), "\(query)")
      }
      #expect(opens.count == 2)
    }
  }

  @Test func anInputThatCannotBeOpenedAgainRunsOnce() throws {
    let reader = try ReaderFactory.makeReader(
      source: ByteSource(bytes: Self.csv, name: "stdin"), format: .csv,
      options: ReaderOptions(name: "stdin")
    ).reader
    #expect(!Dataset(inputs: [DatasetInput(reader: reader)], parallel: ParallelOptions(workers: 1)).canRunAgain)
  }
}
