import Foundation
import Testing

@testable import SiftCLI

/// Docs/Formats.md, Streaming input: records written into a pipe one at a time, with pauses
/// (`tail -f log.csv | sift …`), reach sift's output before the next one is written, and the
/// whole output is the same as when the input is read at once.
@Suite struct StreamingInputTests {
  /// How long a record may take to come out: generous, so a loaded machine does not fail the test.
  static let patience: Double = 5

  struct Feed: Sendable, CustomStringConvertible {
    var arguments: [String]
    /// The header (written alone, first), or `nil` for NDJSON.
    var header: String?
    /// Each record's line, and the mark its output holds when it matches (`nil`: it does not).
    var records: [(line: String, mark: String?)]
    var description: String { arguments.joined(separator: " ") }
  }

  static let feeds: [Feed] = [
    Feed(
      arguments: ["status:received", "-o", "csv"], header: "id,status,qty\n",
      records: (1...6).map { i in
        let received = i % 2 == 1
        return ("S-\(i),\(received ? "received" : "pending"),\(i * 10)\n", received ? "S-\(i)," : nil)
      }),
    // Read in parts on worker threads, each part cut as soon as the pipe pauses
    // (Docs/Architecture.md, Standard input in parts).
    Feed(
      arguments: ["status:received", "-o", "csv", "-j", "3"], header: "id,status,qty\n",
      records: (1...6).map { i in
        let received = i % 3 != 0
        return ("S-\(i),\(received ? "received" : "pending"),\(i * 10)\n", received ? "S-\(i)," : nil)
      }),
    Feed(
      arguments: ["qty:>15", "-o", "ndjson"], header: "id;status;qty\n",
      records: (1...5).map { i in ("S-\(i);received;\(i * 5)\n", i * 5 > 15 ? "\"S-\(i)\"" : nil) }),
    Feed(
      arguments: ["status:received", "-o", "json", "-j", "2"], header: nil,
      records: (1...5).map { i in
        let received = i != 3
        return (
          "{\"id\":\"S-\(i)\",\"status\":\"\(received ? "received" : "pending")\"}\n",
          received ? "\"S-\(i)\"" : nil
        )
      }),
  ]

  @Test(
    .enabled(if: ShellTests.siftBinary != nil, "needs the built sift binary next to the tests"),
    arguments: feeds)
  func eachMatchingRecordComesOutBeforeTheNextIsWritten(feed: Feed) throws {
    signal(SIGPIPE, SIG_IGN)
    let binary = try #require(ShellTests.siftBinary)
    let process = Process()
    process.executableURL = binary
    process.arguments = feed.arguments
    process.environment = ["LANG": "C.UTF-8", "TZ": "UTC"]
    let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
    process.standardInput = stdin
    process.standardOutput = stdout
    process.standardError = stderr
    try process.run()
    let input = stdin.fileHandleForWriting.fileDescriptor
    var reader = TimedReader(fd: stdout.fileHandleForReading.fileDescriptor)
    var sent: [UInt8] = []
    func send(_ text: String) {
      let bytes = Array(text.utf8)
      sent += bytes
      bytes.withUnsafeBytes { b in _ = write(input, b.baseAddress!, b.count) }
    }
    if let header = feed.header {
      send(header)
      usleep(100_000)
    }
    for (line, mark) in feed.records {
      send(line)
      if let mark {
        let cameOut = reader.waitFor(mark, seconds: Self.patience)
        #expect(cameOut, "\(mark) did not come out before the next record; output so far: \(reader.text)")
      } else {
        usleep(100_000)
      }
    }
    try stdin.fileHandleForWriting.close()
    reader.readToEnd()
    process.waitUntilExit()
    let whole = sift(feed.arguments, stdin: sent)
    #expect(process.terminationStatus == whole.status.rawValue)
    #expect(reader.text == whole.text)
  }
}

/// Reads a child's output as it comes, waiting at most a given time for a text to appear.
struct TimedReader {
  let fd: Int32
  var bytes: [UInt8] = []
  var text: String { String(decoding: bytes, as: UTF8.self) }

  /// Reads until the output holds `mark`, for at most `seconds`; whether it does.
  mutating func waitFor(_ mark: String, seconds: Double) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while !text.contains(mark) {
      let left = Int32(deadline.timeIntervalSinceNow * 1000)
      guard left > 0 else { return false }
      var request = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
      guard poll(&request, 1, left) > 0, readSome() else { return text.contains(mark) }
    }
    return true
  }

  /// Reads until the end of the output.
  mutating func readToEnd() {
    while readSome() {}
  }

  /// Reads what is there (waiting for some); false at the end.
  private mutating func readSome() -> Bool {
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
    guard n > 0 else { return false }
    bytes += chunk.prefix(n)
    return true
  }
}
