import Foundation
import Testing

@testable import SiftCLI

/// `--help`, `--man` and the completion scripts come from one option table (Docs/CommandLine.md).
@Suite struct OptionTableTests {
  @Test func helpFitsEightyColumns() {
    let wide = helpText.split(separator: "\n").filter { $0.count > 80 }
    #expect(wide.isEmpty, "lines wider than 80 columns: \(wide)")
  }

  @Test func everyOptionIsInHelpManAndEveryCompletionScript() {
    let man = sift(["--man"]).text
    for option in OptionTable.visible {
      #expect(helpText.contains("--" + option.long), "help lacks --\(option.long)")
      #expect(man.contains("\\-\\-" + option.long.replacing("-", with: "\\-")), "man lacks --\(option.long)")
      for shell in Shell.allCases {
        let name = shell == .fish ? " -l \(option.long) " : "--\(option.long)"
        #expect(
          sift(["--completion", shell.rawValue]).text.contains(name),
          "\(shell) completion lacks --\(option.long)")
      }
    }
    for hidden in ["complete-views", "complete-fields"] {
      #expect(!helpText.contains(hidden) && !man.contains(hidden.replacing("-", with: "\\-")))
    }
  }

  @Test func everyChoiceIsInTheHelpLine() {
    for option in OptionTable.visible {
      guard case .choice(let words) = option.value else { continue }
      for word in words { #expect(option.help.contains(word), "--\(option.long): \(word)") }
    }
  }

  @Test func parsingTakesTheNewOptions() throws {
    #expect(try Options.parse(["--pager", "never", "q"]).pager == .never)
    #expect(try Options.parse(["--completion=zsh"]).mode == .completion(.zsh))
    #expect(try Options.parse(["--man"]).mode == .man)
    #expect(throws: UsageError("option '--pager' needs one of auto, always, never, not 'yes'")) {
      try Options.parse(["--pager", "yes", "q"])
    }
    #expect(throws: UsageError("option '--completion' needs one of bash, zsh, fish, not 'tcsh'")) {
      try Options.parse(["--completion", "tcsh"])
    }
  }

  @Test(.enabled(if: executable("groff") != nil, "groff is not installed"))
  func manPageRendersWithoutWarnings() throws {
    let groff = try #require(executable("groff"))
    let man = sift(["--man"])
    #expect(man.status == .matched)
    let (status, output, errors) = try runProcess(groff, ["-ww", "-man", "-Tutf8"], input: man.stdout)
    #expect(status == 0)
    #expect(errors.isEmpty, "groff warned: \(errors)")
    #expect(output.contains("QUERY LANGUAGE") || output.contains("Q\u{8}QU"))
    // Each note under the synopsis is one filled paragraph line: no sentence broken where the
    // --help text wraps (a lone "looks" on a line of its own).
    let plain = output.replacing(/.\u{8}/, with: "")
    let description = plain.split(separator: "\n", omittingEmptySubsequences: false).drop { !$0.hasPrefix("DESCRIPTION") }.dropFirst()
      .prefix { !$0.allSatisfy(\.isWhitespace) }
    #expect(description.count >= 3)
    for line in description {
      #expect(line.split(separator: " ").count > 3 || line.hasSuffix("."), "a broken line in the manual page: '\(line)'")
    }
  }

  /// What a user reads never sends them to Docs/, which an installed binary lacks.
  @Test func noMessageOrHelpPointsAtDocs() throws {
    #expect(!helpText.contains("Docs/"))
    #expect(!sift(["--man"]).text.contains("Docs/"))
    for shell in Shell.allCases {
      #expect(!sift(["--completion", shell.rawValue]).text.contains("Docs/"))
    }
    // Strings in the code (not comments) that name Docs/.
    let sources = GoldenTests.packageRoot.appendingPathComponent("Sources")
    let files = FileManager.default.enumerator(atPath: sources.path)?.compactMap { $0 as? String }
      .filter { $0.hasSuffix(".swift") } ?? []
    #expect(files.count > 20)
    for file in files {
      let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
      for line in text.split(separator: "\n") {
        let code = line.split(separator: "//", maxSplits: 1, omittingEmptySubsequences: false)[0]
        #expect(!(code.contains("\"") && code.contains("Docs/")), "\(file): \(line)")
      }
    }
  }
}

/// The path of `name` on `PATH`, or `nil`.
func executable(_ name: String) -> String? {
  let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
  return path.split(separator: ":").map { "\($0)/\(name)" }
    .first { FileManager.default.isExecutableFile(atPath: $0) }
}

/// Runs a program with `input` on its standard input: its status, standard output and error.
func runProcess(
  _ path: String, _ arguments: [String], input: [UInt8] = [], environment: [String: String]? = nil
) throws -> (status: Int32, stdout: String, stderr: String) {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: path)
  process.arguments = arguments
  if let environment { process.environment = environment }
  let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
  process.standardInput = stdin
  process.standardOutput = stdout
  process.standardError = stderr
  try process.run()
  stdin.fileHandleForWriting.write(Data(input))
  try stdin.fileHandleForWriting.close()
  let out = stdout.fileHandleForReading.readDataToEndOfFile()
  let err = stderr.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  return (process.terminationStatus, String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
}
