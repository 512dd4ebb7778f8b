// Golden CLI cases, run in-process.
//
// Each folder in Tests/SiftCLITests/Cases/<case-name>/ holds:
//   cmd      the command line, quoted as in a shell: '…' literal, "…" with \" \\ \$ \` escapes,
//            a backslash outside quotes escapes the next character. A leading word `sift` is
//            dropped. File arguments are relative to the package root (the test's working
//            directory, which the harness checks).
//   expout   expected standard output
//   experr   expected standard error
//   status   expected exit status (0, 1 or 2)
//   stdin    optional: the bytes fed as standard input (else empty)
//   env      optional: KEY=VALUE lines added to the environment (which is otherwise just
//            LANG=C.UTF-8; `LANG=` empties it)
//   tty      optional: words saying what is a terminal: `stdin`, `stdout`, `stderr`, and
//            `width=N` and `height=N` for the terminal's size
//
// SIFT_RECORD=1 swift test --filter GoldenTests  rewrites expout, experr and status from the
// actual run; review the result with `git diff`. SIFT_CASES=a,b runs (or records) only the
// cases named a and b.

import Foundation
import SiftCore
import Testing

@testable import SiftCLI

@Suite struct GoldenTests {
  static let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  static let casesFolder = packageRoot.appendingPathComponent("Tests/SiftCLITests/Cases")

  static var caseNames: [String] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: casesFolder.path)) ?? []
    let chosen = ProcessInfo.processInfo.environment["SIFT_CASES"].map {
      Set($0.split(separator: ",").map(String.init))
    }
    return names.filter { !$0.hasPrefix(".") && chosen?.contains($0) != false }.sorted()
  }

  @Test func casesExist() {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: Self.casesFolder.path)) ?? []
    #expect(names.count > 20)
  }

  @Test(arguments: caseNames)
  func golden(name: String) throws {
    #expect(
      FileManager.default.currentDirectoryPath == Self.packageRoot.path,
      "golden tests run from the package root")
    let folder = Self.casesFolder.appendingPathComponent(name)
    func read(_ file: String) -> Data? {
      try? Data(contentsOf: folder.appendingPathComponent(file))
    }
    let cmd = String(decoding: try #require(read("cmd")), as: UTF8.self)
    var arguments = try ShellWords.split(cmd)
    if arguments.first == "sift" { arguments.removeFirst() }
    // Dates without an offset are in UTC unless a case says otherwise (Docs/QueryLanguage.md, Instants).
    var environment = ["LANG": "C.UTF-8", "TZ": "UTC"]
    for line in String(decoding: read("env") ?? Data(), as: UTF8.self).split(separator: "\n") {
      if let eq = line.firstIndex(of: "=") {
        environment[String(line[..<eq])] = String(line[line.index(after: eq)...])
      }
    }
    let tty = String(decoding: read("tty") ?? Data(), as: UTF8.self).split(whereSeparator: \.isWhitespace)
    let width = tty.first { $0.hasPrefix("width=") }.flatMap { Int($0.dropFirst(6)) }
    let height = tty.first { $0.hasPrefix("height=") }.flatMap { Int($0.dropFirst(7)) }
    let stdout = MemorySink()
    let stderr = MemorySink()
    let context = ProcessContext(
      arguments: arguments, environment: environment,
      stdin: ByteSource(bytes: Array(read("stdin") ?? Data()), name: "stdin"),
      stdinIsTerminal: tty.contains("stdin"), stdout: stdout,
      stdoutIsTerminal: tty.contains("stdout"), stderr: stderr,
      stderrIsTerminal: tty.contains("stderr"), terminalWidth: width, terminalHeight: height,
      currentDirectory: Self.packageRoot.path)
    let status = run(context).rawValue

    // The package root, which differs between checkouts, is written `{root}` (a statement that
    // names a file by its absolute path: Docs/Engines.md, Dialects).
    let root = Self.packageRoot.path
    let out = stdout.text.replacingOccurrences(of: root, with: "{root}")
    let err = stderr.text.replacingOccurrences(of: root, with: "{root}")
    if ProcessInfo.processInfo.environment["SIFT_RECORD"] == "1" {
      // Bytes as written, unless they name the root (a golden may hold bytes that are not UTF-8).
      let named = { (text: String, bytes: [UInt8]) in text.contains("{root}") ? Data(text.utf8) : Data(bytes) }
      try named(out, stdout.bytes).write(to: folder.appendingPathComponent("expout"))
      try named(err, stderr.bytes).write(to: folder.appendingPathComponent("experr"))
      try Data("\(status)\n".utf8).write(to: folder.appendingPathComponent("status"))
      return
    }
    #expect(out == String(decoding: read("expout") ?? Data(), as: UTF8.self), "stdout")
    #expect(err == String(decoding: read("experr") ?? Data(), as: UTF8.self), "stderr")
    let expected = String(decoding: read("status") ?? Data(), as: UTF8.self)
    #expect("\(status)" == expected.trimmingCharacters(in: .whitespacesAndNewlines), "status")
  }

  @Test func shellWordsQuoteLikeAShell() throws {
    #expect(
      try ShellWords.split(#"sift 'a b' "c \"d\" \$" e\ f''g "" "#)
        == ["sift", "a b", #"c "d" $"#, "e fg", ""])
    #expect(throws: ShellWords.Unclosed.self) { try ShellWords.split("sift 'a") }
  }
}

/// Splits a command line into words the way a POSIX shell quotes them (no expansions).
enum ShellWords {
  struct Unclosed: Error {}

  static func split(_ line: String) throws -> [String] {
    var words: [String] = []
    var word = ""
    var inWord = false
    var quote: Character?
    var escaped = false
    for c in line {
      if escaped {
        if quote == "\"" && !"\"\\$`".contains(c) { word.append("\\") }
        word.append(c)
        escaped = false
      } else if c == "\\" && quote != "'" {
        escaped = true
        inWord = true
      } else if let q = quote {
        if c == q { quote = nil } else { word.append(c) }
      } else if c == "'" || c == "\"" {
        quote = c
        inWord = true
      } else if c == " " || c == "\t" || c == "\n" {
        if inWord { words.append(word) }
        word = ""
        inWord = false
      } else {
        word.append(c)
        inWord = true
      }
    }
    guard quote == nil && !escaped else { throw Unclosed() }
    if inWord { words.append(word) }
    return words
  }
}
