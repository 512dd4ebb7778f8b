import Foundation

/// Many statements run by one `duckdb` process, each answer as the `duckdb -csv -nullvalue ''`
/// client writes it (a header, then the rows), so that a differential suite pays one client
/// start, not one per query. The statements share nothing but the process: each reads its
/// file itself and sets no session state. A statement DuckDB rejects is answered with the
/// client's message; the statements after it still run.
enum DuckDBBatch {
  /// What DuckDB answered one statement: its CSV, or why not.
  enum Answer: Sendable {
    case rows(String)
    case failed(String)
  }

  /// Runs `statements` in order through the client at `duckdb`; one answer per statement.
  static func run(_ statements: [String], duckdb: String) -> [Answer] {
    var answers: [Answer] = []
    while answers.count < statements.count {
      answers += runUntilAFailure(Array(statements[answers.count...]), duckdb: duckdb)
    }
    return answers
  }

  /// The answers of the statements up to the first one DuckDB rejects (`.bail on` stops the
  /// client there), that one's answer its message.
  static func runUntilAFailure(_ statements: [String], duckdb: String) -> [Answer] {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("sift-duckdb-batch-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let output = { (index: Int) in folder.appendingPathComponent("\(index).csv") }
    var script = ".mode csv\n.nullvalue ''\n.bail on\n"
    for (index, statement) in statements.enumerated() {
      // `.once` sends the next statement's result, and only it, to its own file.
      let text = statement.trimmingCharacters(in: .whitespacesAndNewlines)
      script += ".once \(output(index).path)\n" + text + (text.hasSuffix(";") ? "\n" : ";\n")
    }
    let scriptFile = folder.appendingPathComponent("script.sql")
    let ran: (status: Int32, stderr: String)
    do {
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      try Data(script.utf8).write(to: scriptFile)
      let process = Process()
      process.executableURL = URL(fileURLWithPath: duckdb)
      process.standardInput = try FileHandle(forReadingFrom: scriptFile)
      process.standardOutput = FileHandle.nullDevice
      let stderr = Pipe()
      process.standardError = stderr
      try process.run()
      let message = stderr.fileHandleForReading.readDataToEndOfFile()
      process.waitUntilExit()
      ran = (process.terminationStatus, String(decoding: message, as: UTF8.self))
    } catch {
      return statements.map { _ in .failed("duckdb did not run: \(error)") }
    }
    // The client opens a statement's file before it runs the statement: the files there are
    // the answers, but for the last one when the client stopped at a failure.
    var answers: [Answer] = []
    for index in statements.indices {
      guard let data = FileManager.default.contents(atPath: output(index).path) else { break }
      answers.append(.rows(String(decoding: data, as: UTF8.self)))
    }
    if ran.status != 0 || answers.count < statements.count {
      let message = "duckdb exited \(ran.status): \(ran.stderr)"
      if answers.isEmpty { return [.failed(message)] }
      answers[answers.count - 1] = .failed(message)
    }
    return answers
  }
}
