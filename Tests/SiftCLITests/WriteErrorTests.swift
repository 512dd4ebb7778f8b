import Foundation
import SiftCore
import Testing

@testable import SiftCLI

/// A failed write to standard output (a full disk, a closed descriptor) is exit 2 with
/// `sift: cannot write the output: …`, also for output outside the records: counts, `--fields`,
/// `--explain`, `--help`, `--views` (Docs/Architecture.md, Output).
@Suite struct WriteErrorTests {
  /// Fails every write, like a descriptor on a full disk.
  final class FailingSink: ByteSink {
    func write(_ bytes: UnsafeBufferPointer<UInt8>) throws(OutputError) {
      throw .failed("No space left on device")
    }
  }

  @Test(arguments: [
    ["-c", "", "SampleData/grn.csv"],
    ["-c", "group:status", "SampleData/grn.csv"],
    ["-c", "customer:zzz", "SampleData/grn.csv"],
    ["", "SampleData/grn.csv", "-o", "csv"],
    ["customer:zzz", "SampleData/grn.csv", "-o", "csv"],
    ["sort:date", "SampleData/grn.csv", "-o", "json"],
    ["", "SampleData/grn.csv", "-o", "table"],
    ["--fields", "SampleData/grn.csv"],
    ["--explain", "status:pending"],
    ["--help"],
    ["--version"],
    ["--views", "--config", "SampleData/sift.json"],
    ["@grn", "--explain", "--config", "SampleData/sift.json"],
  ])
  func failedWriteIsAnError(arguments: [String]) {
    let stderr = MemorySink()
    let status = run(
      ProcessContext(
        arguments: arguments, environment: ["LANG": "C.UTF-8"],
        stdin: ByteSource(bytes: [], name: "stdin"), stdout: FailingSink(), stderr: stderr))
    #expect(status == .error)
    #expect(stderr.text.contains("sift: cannot write the output: No space left on device\n"))
  }

  /// The built binary with standard output on /dev/full.
  @Test(
    .enabled(
      if: FileManager.default.fileExists(atPath: "/dev/full")
        && FileManager.default.isExecutableFile(
          atPath: GoldenTests.packageRoot.appendingPathComponent(".build/debug/sift").path),
      "needs /dev/full and the debug sift binary"),
    arguments: [["-c", "", "SampleData/grn.csv"], ["--explain", "a"], ["--help"]])
  func devFullIsAnError(arguments: [String]) throws {
    let binary = GoldenTests.packageRoot.appendingPathComponent(".build/debug/sift")
    let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))
    let process = Process()
    process.executableURL = binary
    process.arguments = arguments
    process.currentDirectoryURL = GoldenTests.packageRoot
    process.standardOutput = full
    let errors = Pipe()
    process.standardError = errors
    try process.run()
    let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 2)
    #expect(message.contains("sift: cannot write the output: "), "\(message)")
  }
}
