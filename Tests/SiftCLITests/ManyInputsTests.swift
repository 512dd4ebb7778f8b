#if canImport(Glibc)
  import Glibc
#endif
import Foundation
import Testing

/// Many FILEs: each regular file is opened when its turn comes and let go after it
/// (Docs/Performance.md, Bounds), so the number of inputs is not bounded by the open-file limit
/// and the memory held before the first record does not grow with them. The built sift runs as
/// a child, so that its limit and its peak memory are its own.
@Suite struct ManyInputsTests {
  static let binary = GoldenTests.packageRoot.appendingPathComponent(".build/debug/sift").path
  static let built = access(binary, X_OK) == 0
  static let python: String? = ["/usr/bin/python3", "/usr/local/bin/python3"].first { (path: String) in
    access(path, X_OK) == 0
  }

  /// Runs `script` with `sh -c` in `directory`, `$0` being the built sift; its standard output.
  private func shell(_ script: String, in directory: URL) throws -> (out: String, status: Int32) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", script, Self.binary]
    process.currentDirectoryURL = directory
    let out = Pipe()
    process.standardOutput = out
    process.standardError = FileHandle(forWritingAtPath: "/dev/null")
    try process.run()
    let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return (text, process.terminationStatus)
  }

  private func temporaryDirectory() throws -> URL {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("sift-many-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return directory
  }

  @Test(.enabled(if: built, "needs the built .build/debug/sift"))
  func elevenHundredFilesUnderAnOpenFileLimitOf256AreEveryRecord() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    for i in 0..<1_100 {
      try Data("a,b\n\(i),x\n".utf8).write(to: directory.appendingPathComponent("t\(i).csv"))
    }
    let count = try shell("ulimit -n 256 && exec \"$0\" -c '' t*.csv", in: directory)
    #expect(count.status == 0)
    #expect(count.out == "1100\n")
    let matches = try shell("ulimit -n 256 && exec \"$0\" 'a:>1097' t*.csv", in: directory)
    #expect(matches.status == 0)
    #expect(matches.out == "a,b\n1098,x\n1099,x\n")
  }

  /// 60 names of one 2.4 MB file (hard links): sift's peak resident memory (the child's
  /// `ru_maxrss`, measured by python3 around it) stays far below 60 of its chunks (about 3 MB
  /// each: 924 MB for 300 names before the fix, so some 185 MB for 60, past the bound of
  /// 100 MB; about 21 MB after, debug build). Each name is counted whole: 300 of them cost 43 s
  /// of CPU in the debug build.
  @Test(.enabled(if: built && python != nil, "needs the built .build/debug/sift and python3"))
  func sixtyInputsPeakFarBelowAChunkEach() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    var text = "id,name,amount,note\n"
    for i in 0..<20_000 {
      text += "\(i),name\(i),\(i).5,a longer note to pad the row for record number \(i) out to size\n"
    }
    let big = directory.appendingPathComponent("big.csv")
    try Data(text.utf8).write(to: big)
    for i in 0..<60 {
      try FileManager.default.linkItem(at: big, to: directory.appendingPathComponent("m\(i).csv"))
    }
    let measure =
      "import resource,subprocess,sys; r = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL);"
      + " print(r.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
    let run = try shell(
      "exec \(Self.python ?? "python3") -c '\(measure)' \"$0\" -q -c '' m*.csv", in: directory)
    let words: [Int?] = run.out.split(separator: " ").map { (word: Substring) in
      Int(String(word.filter { $0.isNumber }))
    }
    #expect(words.count == 2 && words.first == 0, "\(run.out)")
    let peakKiB = try #require(words.last.flatMap { $0 })
    #expect(peakKiB < 100_000, "peak \(peakKiB) KiB over 60 inputs")
  }
}
