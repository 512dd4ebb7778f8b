import Foundation
import Testing

@testable import SiftCLI

/// The completion scripts of `sift --completion` run in real shells (Docs/CommandLine.md,
/// Completions); a test whose shell is not installed is skipped, with the reason, through
/// `.enabled(if:)`.
@Suite struct ShellTests {
  /// The built `sift` next to the test bundle, which the scripts call for views and fields.
  static let siftBinary: URL? = {
    let folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    let binary = folder.appendingPathComponent("sift")
    return FileManager.default.isExecutableFile(atPath: binary.path) ? binary : nil
  }()

  /// Whether `shell` is installed and the built `sift` binary is there for its script to call.
  static func canRun(_ shell: String) -> Bool { executable(shell) != nil && siftBinary != nil }

  /// Calls `body` with the path of `sift --completion shell` written to a temporary file, and an
  /// environment (with `extra`) whose PATH finds the built sift first, for the script to call.
  func withCompletionScript<R>(
    _ shell: String, environment extra: [String: String] = [:],
    _ body: (String, [String: String]) throws -> R
  ) throws -> R {
    let binary = try #require(Self.siftBinary)
    let script = FileManager.default.temporaryDirectory
      .appendingPathComponent("sift-completion-\(UUID().uuidString).\(shell)")
    try Data(sift(["--completion", shell]).stdout).write(to: script)
    defer { try? FileManager.default.removeItem(at: script) }
    var env = ProcessInfo.processInfo.environment.merging(extra) { $1 }
    env["PATH"] = binary.deletingLastPathComponent().path + ":" + (env["PATH"] ?? "/usr/bin:/bin")
    return try body(script.path, env)
  }

  /// What the bash completion function offers for `words` (as bash splits the line `line`)
  /// with the cursor at the end of word `cursor`, `text` being what readline replaces.
  func bashCompletions(
    _ words: [String], cursor: Int, line: String? = nil, text: String? = nil,
    environment: [String: String] = [:]
  ) throws -> [String] {
    let bash = try #require(executable("bash"))
    var environment = environment
    environment["COMP_LINE"] = line ?? words.joined(separator: " ")
    let replaced = text ?? String(words[cursor].drop { $0 == "'" || $0 == "\"" })
    let program = """
      source "$0"
      text=$1; shift
      COMP_WORDS=("$@"); COMP_CWORD=\(cursor); COMPREPLY=()
      _sift sift "$text"
      printf '%s\\n' "${COMPREPLY[@]}"
      """
    let run = try withCompletionScript("bash", environment: environment) { script, env in
      try runProcess(
        bash, ["--norc", "--noprofile", "-c", program, script, replaced] + words, environment: env)
    }
    #expect(run.status == 0)
    #expect(run.stderr.isEmpty, "bash wrote: \(run.stderr)")
    return run.stdout.split(separator: "\n").map(String.init)
  }

  @Test(.enabled(if: canRun("bash"), "needs bash and the built sift binary"))
  func bashCompletesLongOptions() throws {
    let offered = try bashCompletions(["sift", "--fo"], cursor: 1)
    #expect(offered.contains("--format"))
    #expect(offered.allSatisfy { $0.hasPrefix("--fo") })
  }

  @Test(.enabled(if: canRun("bash"), "needs bash and the built sift binary"))
  func bashCompletesOptionValues() throws {
    let offered = try bashCompletions(["sift", "-o", ""], cursor: 2)
    #expect(offered == ["table", "csv", "tsv", "json", "ndjson", "markdown", "html", "xlsx", "eml"])
    let pager = try bashCompletions(["sift", "--pager", "a"], cursor: 2)
    #expect(pager == ["auto", "always"])
  }

  @Test(.enabled(if: canRun("bash"), "needs bash and the built sift binary"))
  func bashCompletesViewNames() throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("sift-views-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let views = folder.appendingPathComponent("views.json")
    try Data(#"{"views": {"stock": {}, "shipments": {}, "returns": {}}}"#.utf8).write(to: views)
    let all = try bashCompletions(["sift", "@"], cursor: 1, environment: ["SIFT_CONFIG": views.path])
    #expect(all == ["@stock", "@shipments", "@returns"])
    let some = try bashCompletions(["sift", "@s"], cursor: 1, environment: ["SIFT_CONFIG": views.path])
    #expect(some == ["@stock", "@shipments"])
    // As bash really splits `sift @s` (`@` breaks words) and `sift --pager=al`.
    let split = try bashCompletions(
      ["sift", "@", "s"], cursor: 2, line: "sift @s", text: "@s",
      environment: ["SIFT_CONFIG": views.path])
    #expect(split == ["@stock", "@shipments"])
    let value = try bashCompletions(
      ["sift", "--pager", "=", "al"], cursor: 3, line: "sift --pager=al", text: "al")
    #expect(value == ["always"])
  }

  @Test(.enabled(if: canRun("bash"), "needs bash and the built sift binary"))
  func bashCompletesFieldNamesInTheQuery() throws {
    let offered = try bashCompletions(["sift", "'sta", "SampleData/grn.csv"], cursor: 1)
    // With the match, the match and a space: two candidates keep readline from closing the quote.
    #expect(offered == ["status:", "status: "])
    let later = try bashCompletions(
      ["sift", "'status:received cu", "SampleData/grn.csv"], cursor: 1)
    #expect(later == ["status:received customer:", "status:received customer: "])
    let sort = try bashCompletions(["sift", "'sort:-da", "SampleData/grn.csv"], cursor: 1)
    #expect(sort == ["sort:-date", "sort:-date "])
    let sum = try bashCompletions(["sift", "'sum:qty,amo", "SampleData/grn.csv"], cursor: 1)
    #expect(sum == ["sum:qty,amount", "sum:qty,amount "])
    // After `@grn` (split by bash at `@`), the fields of the view's source.
    let view = try bashCompletions(
      ["sift", "@", "grn", "'sta"], cursor: 3, line: "sift @grn 'sta",
      environment: ["SIFT_CONFIG": "SampleData/sift.json"])
    #expect(view == ["status:", "status: "])
  }

  @Test(.enabled(if: canRun("bash"), "needs bash and the built sift binary"))
  func bashCompletesAnUnquotedQuery() throws {
    let offered = try bashCompletions(["sift", "sta", "SampleData/grn.csv"], cursor: 1)
    #expect(offered == ["status:"])
  }

  @Test(.enabled(if: canRun("bash"), "needs bash and the built sift binary"))
  func bashCompletesDirectivesWithoutAFile() throws {
    let offered = try bashCompletions(["sift", ""], cursor: 1)
    #expect(
      offered == [
        "sort:", "group:", "limit:", "fields:", "sum:", "avg:", "min:", "max:", "distinct:",
        "p50:", "p90:", "p95:", "p99:", "median:",
      ])
  }

  /// Drives an interactive bash in a pseudo-terminal: sources the script, types the line, moves
  /// the cursor to `argv[3]`, presses TAB, and prints the line readline then holds.
  static let terminalDriver = #"""
    import os, pty, re, select, sys, time
    script, line, cursor = sys.argv[1], sys.argv[2], int(sys.argv[3])
    pid, fd = pty.fork()
    if pid == 0:
        os.execvp("bash", ["bash", "--norc", "--noprofile", "-i"])
    def read_until(pattern, seconds):
        out, end = b"", time.time() + seconds
        while not re.search(pattern, out) and time.time() < end:
            if select.select([fd], [], [], 0.1)[0]:
                try: out += os.read(fd, 4096)
                except OSError: break
        return out
    os.write(fd, b"PS1='READY> '; bind 'set bell-style none'; source '" + script.encode()
             + b"'; bind -x '\"\\C-x\\C-p\": printf \"\\nLINE<%s>\\n\" \"$READLINE_LINE\"'\n")
    read_until(rb"\nREADY> ", 10)
    # Home, right to the cursor, TAB, then the key that prints the line.
    os.write(fd, line.encode() + b"\x01" + b"\x06" * cursor + b"\t\x18\x10")
    # The printed line starts a line; in the echoed bind command a backslash comes before LINE<.
    found = re.search(rb"\nLINE<(.*?)>\r\n", read_until(rb"\nLINE<.*?>\r\n", 20), re.S)
    os.write(fd, b"\x15exit\n")
    print(found.group(1).decode() if found else "(no line read back)")
    """#

  /// The line bash 5 holds after TAB with the cursor after the first `cursor` characters of
  /// `line`, typed into a real interactive bash with the completion script sourced.
  func bashLineAfterTab(_ line: String, cursor: Int) throws -> String {
    let python = try #require(executable("python3"))
    let run = try withCompletionScript("bash", environment: ["TERM": "dumb", "INPUTRC": "/dev/null"]) {
      script, env in
      try runProcess(python, ["-c", Self.terminalDriver, script, line, String(cursor)], environment: env)
    }
    #expect(run.status == 0, "the driver failed: \(run.stderr)")
    return run.stdout.trimmingCharacters(in: .newlines)
  }

  /// The README's own example, `sift 'sta<TAB>' grn.csv`: the word under the cursor holds the
  /// closing quote after it, which must not stop the completion (issue 23).
  static let terminalCases: [(line: String, cursor: Int, completed: String)] = [
    ("sift 'sta' SampleData/grn.csv", 9, "sift 'status:' SampleData/grn.csv"),
    (
      "sift 'status:received cu' SampleData/grn.csv", 24,
      "sift 'status:received customer:' SampleData/grn.csv"
    ),
    ("sift 'sort:-da' SampleData/grn.csv", 14, "sift 'sort:-date' SampleData/grn.csv"),
    ("sift sta SampleData/grn.csv", 8, "sift status: SampleData/grn.csv"),
  ]

  @Test(
    .enabled(
      if: canRun("bash") && executable("python3") != nil,
      "needs bash, python3 (for its pty module) and the built sift binary"),
    arguments: terminalCases)
  func bashCompletesTheQueryUnderTheCursorInARealTerminal(
    line: String, cursor: Int, completed: String
  ) throws {
    let held = try bashLineAfterTab(line, cursor: cursor)
    #expect(held == completed)
  }

  /// fish lists what it would complete for a command line with `complete -C`.
  @Test(.enabled(if: canRun("fish"), "needs fish and the built sift binary"))
  func fishCompletesValuesViewsAndFields() throws {
    let fish = try #require(executable("fish"))
    func offered(_ line: String) throws -> [String] {
      let run = try withCompletionScript("fish", environment: ["SIFT_CONFIG": "SampleData/sift.json"]) {
        script, env in
        try runProcess(
          fish, ["--no-config", "-c", "source $argv[1]; complete -C$argv[2]", script, line],
          environment: env)
      }
      #expect(run.stderr.isEmpty, "fish wrote: \(run.stderr)")
      return run.stdout.split(separator: "\n").map { String($0.prefix { $0 != "\t" }) }
    }
    #expect(try offered("sift -o ").sorted() == ["csv", "html", "json", "markdown", "ndjson", "table", "tsv"])
    #expect(try offered("sift @g") == ["@grn"])
    #expect(try offered("sift @grn 'status:x cu") == ["status:x customer:"])
    #expect(try offered("sift @grn 'sort:-da") == ["sort:-date"])
  }

  @Test(.enabled(if: executable("bash") != nil, "bash is not installed"))
  func bashScriptIsValidSyntax() throws { try scriptIsValidSyntax(shell: .bash) }

  @Test(.enabled(if: executable("zsh") != nil, "zsh is not installed"))
  func zshScriptIsValidSyntax() throws { try scriptIsValidSyntax(shell: .zsh) }

  @Test(.enabled(if: executable("fish") != nil, "fish is not installed"))
  func fishScriptIsValidSyntax() throws { try scriptIsValidSyntax(shell: .fish) }

  func scriptIsValidSyntax(shell: Shell) throws {
    let program = try #require(executable(shell.rawValue))
    let script = sift(["--completion", shell.rawValue])
    #expect(script.status == .matched)
    let check = try runProcess(program, ["-n"], input: script.stdout)
    #expect(check.status == 0, "\(shell) -n: \(check.stderr)")
    #expect(check.stderr.isEmpty, "\(shell) -n: \(check.stderr)")
  }
}
