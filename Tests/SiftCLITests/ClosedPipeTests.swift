import SiftCore
import Testing

@testable import SiftCLI

/// Docs/Formats.md, Output: a closed downstream pipe (`sift … | head -1`) ends sift quietly with status 0.
@Suite struct ClosedPipeTests {
  /// Accepts `capacity` bytes, then behaves like a pipe whose reader went away.
  final class ClosingSink: ByteSink {
    var capacity: Int
    var received: [UInt8] = []
    init(capacity: Int) { self.capacity = capacity }
    func write(_ bytes: UnsafeBufferPointer<UInt8>) throws(OutputError) {
      guard received.count + bytes.count <= capacity else { throw .closed }
      received.append(contentsOf: bytes)
    }
  }

  @Test(arguments: [
    ["", "SampleData/grn.csv"], ["sort:-date", "SampleData/grn.csv", "-o", "json"],
    ["group:customer", "SampleData/grn.csv", "-o", "table"], ["", "SampleData/orders.ndjson"],
  ])
  func endsQuietlyWithStatusZero(arguments: [String]) {
    let stdout = ClosingSink(capacity: 0)
    let stderr = MemorySink()
    let status = run(
      ProcessContext(
        arguments: arguments, environment: ["LANG": "C.UTF-8"], stdin: ByteSource(bytes: [], name: "stdin"),
        stdout: stdout, stderr: stderr))
    #expect(status == .matched)
    #expect(stderr.text.isEmpty || !stderr.text.contains("sift:"), "no error message: \(stderr.text)")
  }

  /// A closed pipe must not turn "nothing matched" into "matched": the status is 0 only when a
  /// record matched before the pipe closed, else 1 (Docs/Architecture.md, Output).
  static let closedCases: [([String], Int32)] = [
    (["customer:zzz", "SampleData/grn.csv", "-o", "csv"], 1),
    (["customer:zzz", "SampleData/grn.csv", "-o", "json"], 1),
    (["customer:zzz sort:date", "SampleData/grn.csv", "-o", "csv"], 1),
    (["customer:zzz", "SampleData/grn.csv", "-o", "table"], 1),
    (["customer:acme", "SampleData/grn.csv", "-o", "csv"], 0),
    (["customer:acme sort:date", "SampleData/grn.csv", "-o", "table"], 0),
  ]

  @Test(arguments: closedCases)
  func closedPipeKeepsTheNoMatchStatus(arguments: [String], expected: Int32) {
    let stderr = MemorySink()
    let status = run(
      ProcessContext(
        arguments: arguments, environment: ["LANG": "C.UTF-8"],
        stdin: ByteSource(bytes: [], name: "stdin"), stdout: ClosingSink(capacity: 0),
        stderr: stderr))
    #expect(status.rawValue == expected)
    #expect(!stderr.text.contains("sift:"), "no error message: \(stderr.text)")
  }
}
