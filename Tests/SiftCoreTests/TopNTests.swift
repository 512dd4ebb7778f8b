import Testing

@testable import SiftCore

/// `sort:… limit:N` and `limit:N/group` keep in each part only what can still be shown
/// (Docs/Performance.md, Top N): the result must be the first N records of the whole sort (of
/// each group), ties in input order, with every group's count, for every thread count and part
/// size. The expected output comes from the unlimited run, cut by this test.
@Suite struct TopNTests {
  typealias P = ParallelTests

  static func records(_ output: String) -> [Substring] {
    output.split(separator: "\n")
  }

  static func options(workers: Int, partSize: Int) -> ParallelOptions {
    ParallelOptions(workers: workers, partSize: partSize, minimumSize: 0)
  }

  static let splits = [(1, 1 << 24), (2, 4099), (3, 65_537), (8, 30_011)]

  /// 10,000 records (about 500 KB) read in chunks of 32 KiB: past the first chunk, which the
  /// sample reads whole, about 115 parts of 4,099 bytes and seven of 65,537 (as
  /// `ParallelTests.quotedNewlinesAcrossPartBoundariesGiveTheSameBytes` reads them).
  static let rows = 10_000
  static let chunk = 32 << 10

  static func run(_ query: String, _ path: String, _ parallel: ParallelOptions) -> P.Outcome {
    P.run(query, path, format: .ndjson, csvChunkSize: chunk, parallel)
  }

  /// Ties abound: `qty` takes 250 values over 10,000 records and `status` four.
  @Test(arguments: [
    ("sort:-qty", 10), ("status:received sort:qty", 1), ("sort:-qty", 2_250), ("sort:status", 300),
    ("sort:qty,-id", 25),
  ])
  func aLimitedSortIsTheFirstRecordsOfTheWholeSort(query: String, n: Int) throws {
    try P.withFile(P.csv(rows: Self.rows, multilineEvery: 50), suffix: ".csv") { path in
      let whole = Self.run(query, path, P.sequential)
      #expect(whole.error == nil)
      let expected = Self.records(whole.output).prefix(n).map { "\($0)\n" }.joined()
      for (workers, partSize) in Self.splits {
        let top = Self.run(
          "\(query) limit:\(n)", path, Self.options(workers: workers, partSize: partSize))
        #expect(top.output == expected, "'\(query) limit:\(n)', -j \(workers), parts \(partSize)")
        #expect(top.summary?.shown == n)
        #expect(top.summary?.matched == whole.summary?.matched)
      }
    }
  }

  /// The value of `qty` in an NDJSON record line ("" where the record has none).
  static func qty(_ line: Substring) -> Substring {
    guard let start = line.range(of: "\"qty\":") else { return "" }
    return line[start.upperBound...].prefix { $0 != "," && $0 != "}" }
  }

  /// Each `qty` has 40 records; the limits keep part of each group.
  @Test(arguments: [("group:qty sort:-id", 2), ("group:qty", 1), ("group:qty sort:status", 10)])
  func aLimitPerGroupIsTheFirstRecordsOfEachGroup(query: String, n: Int) throws {
    try P.withFile(P.csv(rows: Self.rows, multilineEvery: 50), suffix: ".csv") { path in
      let whole = Self.run(query, path, P.sequential)
      #expect(whole.error == nil)
      var seen: [Substring: Int] = [:]
      let expected = Self.records(whole.output).filter { line in
        seen[Self.qty(line), default: 0] += 1
        return seen[Self.qty(line)]! <= n
      }.map { "\($0)\n" }.joined()
      for (workers, partSize) in Self.splits {
        let top = Self.run(
          "\(query) limit:\(n)/group", path, Self.options(workers: workers, partSize: partSize))
        #expect(top.output == expected, "'\(query) limit:\(n)/group', -j \(workers)")
        #expect(top.summary?.groups == whole.summary?.groups)
        // Each group's heading counts what it shows, capped by the limit, of all its records.
        let counts = (whole.summary?.groupCounts ?? []).map { min($0.count, n) }
        #expect(top.summary?.groupCounts.map(\.count) == counts)
      }
    }
  }

  /// A limit that keeps groups whole: the headings count every record of a shown group. The
  /// four statuses have 2,500 records each; the limit ends in the second.
  @Test func aLimitWithGroupsCountsEachGroupWhole() throws {
    try P.withFile(P.csv(rows: Self.rows, multilineEvery: 50), suffix: ".csv") { path in
      let whole = Self.run("group:status sort:-qty", path, P.sequential)
      let expected = Self.records(whole.output).prefix(3_750).map { "\($0)\n" }.joined()
      for (workers, partSize) in Self.splits {
        let top = Self.run(
          "group:status sort:-qty limit:3750", path,
          Self.options(workers: workers, partSize: partSize))
        #expect(top.output == expected)
        var left = 3_750
        let counts = (whole.summary?.groupCounts ?? []).compactMap { group -> Int? in
          guard left > 0 else { return nil }
          defer { left -= min(group.count, left) }
          return min(group.count, left)
        }
        #expect(top.summary?.groupCounts.map(\.count) == counts)
      }
    }
  }
}
