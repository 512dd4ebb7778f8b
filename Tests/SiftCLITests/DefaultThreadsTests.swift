import Foundation
import Testing

@testable import SiftCLI

/// The default `-j` is the cores sift may run on, as `nproc` counts them (Docs/CommandLine.md,
/// Options): under `taskset -c 0` a 16-core machine gives one worker, not sixteen taking turns
/// on one core.
@Suite struct DefaultThreadsTests {
  @Test(.enabled(if: executable("nproc") != nil, "needs nproc"))
  func theDefaultIsWhatNprocCounts() throws {
    let nproc = try #require(executable("nproc"))
    #expect(Options.usableCores == Int(try Self.output(nproc, []).trimmingCharacters(in: .whitespacesAndNewlines)))
  }

  @Test(
    .enabled(
      if: executable("taskset") != nil && ShellTests.siftBinary != nil,
      "needs taskset and the built sift binary"))
  func aProcessPinnedToOneCoreReadsOnOneWorker() throws {
    let binary = try #require(ShellTests.siftBinary)
    let taskset = try #require(executable("taskset"))
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("sift-default-threads-\(getpid()).csv").path
    var text = "k,v\n"
    // 1.6 MB: past the 1 MiB the sample reads whole.
    for i in 0..<100_000 { text += "group\(i % 7),\(i)\n" }
    try #require(FileManager.default.createFile(atPath: path, contents: Data(text.utf8)))
    defer { try? FileManager.default.removeItem(atPath: path) }
    let arguments = ["--explain", "v:>5", path]
    // Without the pin the file is cut into parts on this machine's cores, so the pinned run's
    // one worker is the affinity's doing, not the file's size.
    let free = try Self.output(binary.path, arguments)
    #expect(free.contains("\(Options.usableCores) worker"), "\(free)")
    let pinned = try Self.output(taskset, ["-c", "0", binary.path] + arguments)
    #expect(pinned.contains("1 worker"), "\(pinned)")
    #expect(!pinned.contains("read whole"), "\(pinned)")
  }

  /// Standard output and error of `program` run with `arguments`, with 32 KiB parts
  /// (`SIFT_PART_SIZE`, Docs/Testing.md).
  static func output(_ program: String, _ arguments: [String]) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: program)
    process.arguments = arguments
    var environment = ProcessInfo.processInfo.environment
    environment["SIFT_PART_SIZE"] = "32K"
    process.environment = environment
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self)
  }
}
