import Foundation
import SiftCore
import Testing

@testable import SiftCLI

/// Docs/Aggregates.md, Exact sums and means and Every core: sums and means of numbers with an
/// exponent (`1.234560e+07`, `5E-3`) and of long numbers are exact, so a file summarized in parts
/// on several threads gives the same bytes for every `-j`.
@Suite struct ExactSumThreadsTests {
  /// Parts of 32 KiB through the test seam `SIFT_PART_SIZE` (Docs/Testing.md, What the suite
  /// costs), not 8 MiB ones: the same paths on a file of 1.5 MB, not 5.5.
  static let environment = ["LANG": "C.UTF-8", "TZ": "UTC", "SIFT_PART_SIZE": "32K"]

  /// A CSV file of about 1.5 MB, more than the first chunk of 1 MiB (the sample) and a dozen
  /// parts of 32 KiB, so `-j 2` and `-j 3` cut it into parts: values with exponents, long values
  /// and plain ones, in three groups.
  static func withFile(_ body: (String) throws -> Void) throws {
    var text = "k,v\n"
    text.reserveCapacity(2 << 20)
    var state: UInt64 = 27
    for i in 0..<90_000 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      let digits = (state >> 20) % 10_000_000
      let value: String
      switch i % 4 {
      case 0: value = "\(digits / 10 % 10).\(digits)e+0\(i % 8)"
      case 1: value = "-\(digits % 10 + 1).\(digits % 1000)E-\(i % 5)"
      case 2: value = "12345678901234567890\(digits % 10).5"
      default: value = "\(digits % 1000).25"
      }
      text += "g\(i % 3),\(value)\n"
    }
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("sift-exact-sums-\(getpid()).csv").path
    try #require(FileManager.default.createFile(atPath: path, contents: Data(text.utf8)))
    defer { try? FileManager.default.removeItem(atPath: path) }
    try body(path)
  }

  @Test func theSameBytesForEveryThreadCount() throws {
    try Self.withFile { file in
      // The file is big enough to be cut into parts, or the comparisons could not fail.
      let explain = sift(["-j", "3", "--explain", "sum:v", file], environment: Self.environment)
      #expect(explain.text.contains("3 workers"), "\(explain.text)")
      #expect(explain.text.contains("parts of 32 KiB"), "\(explain.text)")
      for query in ["group:k sum:v avg:v", "sum:v avg:v"] {
        let runs = ["1", "2", "3"].map { sift(["-q", "-j", $0, query, file, "-o", "csv"], environment: Self.environment) }
        for run in runs { #expect(run.status == .matched, "\(run.stderr)") }
        #expect(runs[0].text.contains("."), "the sums are written: \(runs[0].text)")
        #expect(runs[1].stdout == runs[0].stdout, "-j 2: \(runs[1].text) -j 1: \(runs[0].text)")
        #expect(runs[2].stdout == runs[0].stdout, "-j 3: \(runs[2].text) -j 1: \(runs[0].text)")
      }
    }
  }
}
