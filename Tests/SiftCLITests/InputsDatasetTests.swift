import SiftCore
import Testing

@testable import SiftCLI

/// The dataset of the command line's inputs runs several plans, each giving what a run of its
/// own gives: files are opened again, standard input re-read from its kept bytes
/// (Docs/Architecture.md, The dataset).
@Suite struct InputsDatasetTests {
  static let queries = ["status:pending sort:-date", "group:customer limit:3", "qty:>5 fields:grn_no,qty", ""]
  static let files: [(files: [String], queries: [String])] = [
    (["SampleData/grn.csv"], queries),
    (["SampleData/grn.csv", "SampleData/grn.csv"], queries),
    (["SampleData/orders.ndjson"], ["status:new sort:-updated", "group:customer", "value:>100 fields:order_no,value", ""]),
    (["SampleData/invoices.json"], ["status:overdue sort:-date", "group:customer.name", "total:>1000 fields:invoice_no", ""]),
  ]

  static func inputs(_ files: [String], stdin: [UInt8] = [], keep: Bool = false) throws -> Inputs {
    var options = Options()
    options.files = files
    let context = ProcessContext(
      arguments: [], stdin: ByteSource(bytes: stdin, name: "stdin"), stdout: MemorySink(),
      stderr: MemorySink())
    return try Frontend(context: context).open(options, keepStreams: keep)
  }

  /// The NDJSON written by `query` over `dataset`, and the counts.
  static func run(_ query: String, over dataset: Dataset) throws -> String {
    let sink = MemorySink()
    let buffer = OutputBuffer(sink: sink)
    let plan = try dataset.plan(try Parser.parse(query), now: 0)
    let summary = try dataset.run(plan, writer: makeWriter(WriterOptions(format: .ndjson), output: buffer))
    try buffer.flush()
    return sink.text + "\(summary.total) \(summary.matched) \(summary.shown)"
  }

  @Test(arguments: 0..<files.count)
  func plansOverTheFilesDatasetGiveWhatSeparateRunsGive(index: Int) throws {
    let (files, queries) = Self.files[index]
    let shared = try Self.inputs(files).dataset(parallel: ParallelOptions(workers: 1))
    #expect(shared.canRunAgain)
    for query in queries {
      let alone = try Self.inputs(files).dataset(parallel: ParallelOptions(workers: 1))
      let expected = try Self.run(query, over: alone)
      #expect(try Self.run(query, over: shared) == expected, "\(query)")
    }
  }

  @Test func plansOverKeptStandardInputGiveWhatSeparateRunsGive() throws {
    let bytes = try #require(readFile("SampleData/grn.csv"))
    let shared = try Self.inputs([], stdin: bytes, keep: true).dataset(parallel: ParallelOptions(workers: 1))
    #expect(shared.canRunAgain)
    for query in Self.queries {
      let alone = try Self.inputs([], stdin: bytes).dataset(parallel: ParallelOptions(workers: 1))
      let expected = try Self.run(query, over: alone)
      if query == Self.queries[0] { #expect(expected.hasSuffix("\n1500 330 330")) }
      #expect(try Self.run(query, over: shared) == expected, "\(query)")
    }
  }

  @Test func standardInputNotKeptStreamsOnce() throws {
    let dataset = try Self.inputs(["-"], stdin: Array("a\n1\n".utf8)).dataset(parallel: ParallelOptions(workers: 1))
    #expect(!dataset.canRunAgain)
  }

  private func readFile(_ path: String) -> [UInt8]? {
    guard let source = try? ByteSource(path: path) else { return nil }
    var bytes: [UInt8] = []
    while let n = try? source.read(into: &bytes, maxCount: 1 << 16), n > 0 {}
    return bytes
  }
}
