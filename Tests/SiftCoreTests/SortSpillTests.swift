import Testing

@testable import SiftCore

#if canImport(Glibc)
  import Glibc
#endif

/// Sorting past the memory budget spills sorted runs to temporary files and merges them: the
/// output must be the bytes of the in-memory sort (stable), for every thread count.
@Suite struct SortSpillTests {
  typealias P = ParallelTests

  /// Options keeping at most `budget` bytes before spilling, into `directory`.
  static func options(
    workers: Int, partSize: Int = 65_537, budget: Int = .max, directory: String = "/tmp"
  ) -> ParallelOptions {
    ParallelOptions(
      workers: workers, partSize: partSize, minimumSize: 0, memoryBudget: budget,
      temporaryDirectory: directory)
  }

  /// NDJSON records with the fields of `ParallelTests.csv`, some keys missing.
  static func ndjson(rows: Int) -> String {
    var text = ""
    let customers = ["Acme", "ACME", "Smith, Jones & Co", "Müller GmbH", ""]
    for i in 0..<rows {
      let status = ["received", "pending", "Received", "cancelled"][i % 4]
      let qty = i % 11 == 0 ? "" : ",\"qty\":\(i % 250)"
      text +=
        "{\"id\":\(i),\"status\":\"\(status)\",\"customer\":\"\(customers[(i / 3) % 5])\"\(qty)}\n"
    }
    return text
  }

  static let queries = [
    "sort:qty", "status:received sort:-qty", "group:customer", "group:status sort:-qty limit:500",
    "group:qty limit:70", "group:status,customer sort:-qty limit:2/group",
  ]

  /// Runs `query` over the file at `path`: a CSV as ReaderFactory reads it (whole, for its
  /// multi-line notes), an NDJSON file in chunks of 32 KiB, so that the sample ends after its
  /// first few chunks and the rest is cut into parts.
  static func run(
    _ query: String, _ path: String, format: OutputFormat, _ options: ParallelOptions
  ) -> ParallelTests.Outcome {
    guard path.hasSuffix(".ndjson") else { return P.run(query, path, format: format, options) }
    return P.run(query, format: format, options) { try ndjsonReader(path) }
  }

  /// A reader of the NDJSON file at `path` in chunks of 32 KiB.
  static func ndjsonReader(_ path: String) throws -> NDJSONReader {
    NDJSONReader(
      source: try ByteSource(path: path), options: ReaderOptions(name: "input"), prefix: [],
      chunkSize: 32 << 10)
  }

  /// Every query in CSV; the first two also in NDJSON and as a table (the writers do not sort,
  /// so more formats for every query only repeat the same spills). The NDJSON's 8,000 records
  /// (500 KB) are read in chunks of 32 KiB: past the sample's chunks, some 100 parts of 4 KB
  /// spill more runs than the 64 merged at once, so the merge on the way is taken (asserted
  /// from the part count; 24,000 records in 1 MiB chunks did the same at three times the cost,
  /// 5,000 make only 60 parts); the CSV, read whole for its multi-line notes, needs no more
  /// than 8,000 to spill every run.
  @Test(arguments: [".csv", ".ndjson"])
  func aTinyBudgetGivesTheBytesOfTheInMemorySort(suffix: String) throws {
    let text =
      suffix == ".csv" ? P.csv(rows: 8_000, multilineEvery: 50) : Self.ndjson(rows: 8_000)
    try P.withFile(text, suffix: suffix) { path in
      if suffix == ".ndjson" {
        let dataset = Dataset(
          inputs: [DatasetInput(reader: try Self.ndjsonReader(path))],
          parallel: Self.options(workers: 2, partSize: 4099, budget: 1))
        let words = try ParallelTests.threading(of: dataset)
        let parts = Int(words.split(separator: " ").dropFirst(2).first ?? "") ?? 0
        #expect(parts > OrderSink.mergeWidth, "\(words)")
      }
      for (index, query) in Self.queries.enumerated() {
        for format in index < 2 ? [OutputFormat.csv, .ndjson, .table] : [.csv] {
          let expected = Self.run(query, path, format: format, Self.options(workers: 1))
          #expect(expected.error == nil)
          #expect(expected.output.count > 1000)
          for workers in [1, 2] {
            // A budget of 1 byte spills every batch and part: with parts of 4 KB, more runs
            // than are merged at once, so spilled runs are merged into one on the way.
            for (budget, partSize) in [(1, 4099), (200_000, 65_537)] {
              let spilled = Self.run(
                query, path, format: format,
                Self.options(workers: workers, partSize: partSize, budget: budget))
              #expect(
                spilled == expected,
                "'\(query)', \(format), -j \(workers), budget \(budget)")
              // A budget of 1 byte did spill: a smaller input must not make this an in-memory sort.
              #expect(
                budget > 1 || (spilled.summary?.temporaryPeak ?? 0) > 0,
                "'\(query)', \(format), -j \(workers), budget \(budget) kept all in memory")
            }
          }
        }
      }
    }
  }

  /// CSV records like a goods-received log (12 fields, about 110 bytes).
  static func receipts(rows: Int) -> String {
    var text = "grn_no,date,status,customer,warehouse,sku,item,qty,unit_price,amount,empty,updated\n"
    let items = ["Hand sanitiser 5L", "Nitrile gloves (M)", "\"Copy paper A4, 80g\"", "Bleach 2L"]
    for i in 0..<rows {
      let day = 1 + (i * 7) % 28
      let qty = (i * 37) % 500
      text +=
        "GRN-\(100_000 + i),2023-0\(1 + i % 9)-\(day < 10 ? "0" : "")\(day),"
        + "\(["pending", "received", "cancelled"][i % 3]),Customer \(i % 97),WH-0\(i % 7),"
        + "SKU-\(10_000 + (i * 13) % 9000),\(items[i % 4]),\(qty),\(i % 90).25,\(qty * 3).50,"
        + "\(i % 5 == 0 ? "yes" : "no"),2023-01-01T13:\(10 + i % 50):31\n"
    }
    return text
  }

  /// The temporary space stays within 1.5× the data kept: runs are compact, and a merge gives
  /// back what it has read (Docs/Performance.md, Sorting beyond memory). The first budget
  /// spills a run per MiB held (40,000 records are about 4.4 MB), the second one per part
  /// (about 270, past 64, merged on the way).
  @Test(arguments: [(1 << 20, 65_537), (1, 16_411)])
  func theTemporarySpaceStaysWithinOneAndAHalfTimesTheDataKept(budget: Int, partSize: Int) throws
  {
    let text = Self.receipts(rows: 40_000)
    try P.withFile(text, suffix: ".csv") { path in
      let expected = P.run("sort:-qty", path, format: .csv, Self.options(workers: 1))
      let spilled = P.run(
        "sort:-qty", path, format: .csv,
        Self.options(workers: 1, partSize: partSize, budget: budget))
      #expect(expected.error == nil)
      #expect(spilled == expected, "\(spilled.error ?? "")")
      let peak = try #require(spilled.summary?.temporaryPeak)
      #expect(peak > text.utf8.count / 2)
      #expect(peak <= text.utf8.count * 3 / 2, "\(peak) bytes held for \(text.utf8.count)")
    }
  }

  @Test func theTemporaryFilesAreGoneAfterTheRun() throws {
    var template = Array("/tmp/sift-spill-XXXXXX".utf8CString)
    let made = try #require(mkdtemp(&template))
    let directory = String(cString: made)
    defer { rmdir(directory) }
    try P.withFile(P.csv(rows: 20_000, multilineEvery: 100), suffix: ".csv") { path in
      let run = P.run(
        "sort:-qty", path, format: .csv, Self.options(workers: 2, budget: 1, directory: directory))
      #expect(run.error == nil)
      #expect(run.summary?.shown == 20_000)
      let dir = try #require(opendir(directory))
      defer { closedir(dir) }
      var names: [String] = []
      while let entry = readdir(dir) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) {
          String(cString: $0.bindMemory(to: CChar.self).baseAddress!)
        }
        if name != "." && name != ".." { names.append(name) }
      }
      #expect(names.isEmpty)
    }
  }

  @Test func aTemporaryDirectoryThatCannotBeWrittenIsAnError() throws {
    try P.withFile(P.csv(rows: 5_000, multilineEvery: 100), suffix: ".csv") { path in
      let run = P.run(
        "sort:-qty", path, format: .csv,
        Self.options(workers: 1, budget: 1, directory: "/nonexistent-sift-dir"))
      let error = try #require(run.error)
      #expect(error.contains("/nonexistent-sift-dir"))
      #expect(error.contains("cannot make a temporary file"))
    }
  }
}
