import Foundation
import Testing

@testable import SiftCore

/// The linear-time regex engine (Docs/QueryLanguage.md, "Regular expressions").
struct RegexEngineTests {
  static func matches(_ pattern: String, _ subject: [UInt8], i: Bool = false) throws -> Bool {
    var m = RegexMatcher(try RegexProgram(pattern: pattern, caseInsensitive: i))
    return subject.withUnsafeBufferPointer { m.matches($0) }
  }

  static func matches(_ pattern: String, _ subject: String, i: Bool = false) throws -> Bool {
    try matches(pattern, Array(subject.utf8), i: i)
  }

  static let table: [(String, String, Bool, Bool)] = [
    // pattern, subject, i, expected
    ("bolt", "a bolt here", false, true),
    ("bolt", "a BOLT here", false, false),
    ("bolt", "a BOLT here", true, true),
    ("bolt\\s+m\\d+", "Bolt  M12", true, true),
    ("^ab$", "ab", false, true),
    ("^ab$", "xab", false, false),
    ("a.c", "a\u{00E9}c", false, true),
    ("a.c", "a\u{1F4E6}c", false, true),
    ("a.c", "a\nc", false, false),
    ("[a-c]+x", "zzbcx", false, true),
    ("[^a-c]", "abc", false, false),
    ("[^a-c]", "abcd", false, true),
    ("[]a]", "]", false, true),
    ("[a-]", "-", false, true),
    ("\\bcat\\b", "a cat!", false, true),
    ("\\bcat\\b", "concat", false, false),
    ("\\Bcat", "concat", false, true),
    ("\\d{3}", "ab12c", false, false),
    ("\\d{3}", "ab123", false, true),
    ("\\d{2,}x", "1x 22x", false, true),
    ("^\\d{1,2}$", "123", false, false),
    ("^a{,2}$", "aa", false, true),
    ("(?:ab|cd)+e", "abcdabe", false, true),
    ("colou?r", "color", false, true),
    ("a+?b", "aaab", false, true),
    ("x*", "", false, true),
    ("^$", "", false, true),
    ("\\w+", "\u{540D}", false, true),
    ("\\W", "\u{540D}", false, false),
    ("\\d", "\u{0663}", false, true),
    ("\\s", "a\u{00A0}b", false, true),
    ("m\u{00FC}ller", "M\u{00DC}LLER", true, true),
    ("M\u{00DC}LLER", "m\u{00FC}ller", true, true),
    ("[\u{00E0}-\u{00FF}]", "\u{00C9}", true, true),
    ("k", "\u{212A}", true, true),
    ("a\\/b", "a/b", false, true),
    ("\\x41", "A", false, true),
    ("a{b", "a{b", false, true),
    ("(a|)+b", "b", false, true),
    ("(a*)*$", "aaa", false, true),
    ("a($)*", "ab", false, true),
    ("a(\\b)?c", "ac", false, true),
  ]

  @Test func syntaxTable() throws {
    for (pattern, subject, i, expected) in Self.table {
      #expect(try Self.matches(pattern, subject, i: i) == expected, "/\(pattern)/ on \(subject)")
    }
  }

  @Test func invalidUTF8NeverCrashes() throws {
    let bytes: [UInt8] = [0x61, 0xFF, 0xC3, 0x62, 0xE2, 0x82, 0x63, 0xF0]
    #expect(try Self.matches("a.", bytes))
    #expect(try Self.matches("a..b", bytes))
    #expect(try Self.matches("b[^x].c", bytes))
    #expect(try !Self.matches("^a\\w", bytes))
    #expect(try Self.matches(".$", bytes))
  }

  static let rejected: [(String, String, Int)] = [
    ("a(", "expected ')'", 2),
    ("a)", "unmatched ')'", 1),
    ("(?=a)", "lookaround is not supported", 0),
    ("x(?!a)", "lookaround is not supported", 1),
    ("(?<=a)b", "lookaround is not supported", 0),
    ("(?<!a)b", "lookaround is not supported", 0),
    ("(?>a)", "atomic groups are not supported", 0),
    ("(?i)a", "unknown group syntax: use (...) or (?:...)", 0),
    ("(a)\\1", "backreferences are not supported", 3),
    ("a*+", "possessive quantifiers are not supported", 2),
    ("a**", "a quantifier cannot follow another; group the first with (?:...)", 2),
    ("*a", "nothing to repeat before the quantifier", 0),
    ("^*", "nothing to repeat before the quantifier", 1),
    ("a{1001}", "a repetition count may be at most 1000", 1),
    ("a{3,2}", "the repetition range is backwards", 1),
    ("(?:a{1000}){1000}", "the expression is too large (more than 10000 steps)", 11),
    ("[z-a]", "the range is backwards", 1),
    ("[a-\\d]", "a class escape cannot end a range", 1),
    ("[ab", "expected ']' to close the class", 0),
    ("\\q", "unknown escape '\\q'", 0),
    ("\\x4", "expected two hex digits after '\\x'", 0),
    ("a\\", "expected a character after '\\'", 1),
    (String(repeating: "(", count: 101) + String(repeating: ")", count: 101),
      "groups nest too deeply (at most 100)", 100),
  ]

  @Test func rejectedForms() {
    for (pattern, message, offset) in Self.rejected {
      #expect(throws: RegexError(message: message, offset: offset), "/\(pattern)/") {
        _ = try RegexProgram(pattern: pattern, caseInsensitive: false)
      }
    }
  }

  @Test func rejectedFormCaretPointsIntoThePattern() {
    let error = RegexBox.planError(
      RegexError(message: "m", offset: 3), pattern: "(a)\\1", span: Span(4, 11))
    #expect(error.span == Span(8, 9))
  }

  /// Nested quantifiers over a 10 MB value: a backtracking engine would never finish.
  @Test func nestedQuantifiersAreLinear() throws {
    var subject = [UInt8](repeating: UInt8(ascii: "a"), count: 10_000_000)
    subject.append(UInt8(ascii: "b"))
    #expect(try !Self.matches("(a+)+$", subject))
  }

  /// `/a{1000}b/` over 200,000 `a`s: the DFA's 1,001 states are worked out once (about
  /// 500,000 instruction visits); the NFA simulation it replaced visited up to 1,002 instructions
  /// per byte (200,000,000).
  @Test func countedRepetitionCostsItsStepsOnce() throws {
    var matcher = RegexMatcher(try RegexProgram(pattern: "a{1000}b", caseInsensitive: false))
    var subject = [UInt8](repeating: UInt8(ascii: "a"), count: 200_000)
    #expect(!subject.withUnsafeBufferPointer { matcher.matches($0) })
    #expect(matcher.steps < 1_000_000)
    subject.append(UInt8(ascii: "b"))
    #expect(subject.withUnsafeBufferPointer { matcher.matches($0) })
    #expect(matcher.steps < 1_000_000)
  }

  /// Past the cache's limits every scalar may cost one NFA step, never more: instruction
  /// visits stay within (instructions + 1) per scalar of the value.
  @Test func aThrashingCacheCostsAtMostOneNFAStepPerScalar() throws {
    let program = try RegexProgram(pattern: "(?:a|b)*a(?:a|b){10}c", caseInsensitive: false)
    var matcher = RegexMatcher(program, stateLimit: 16, seedLimit: 64)
    var rng = SplitMix(seed: 27)
    var subject = (0..<20_000).map { _ in rng.next(2) == 0 ? UInt8(ascii: "a") : UInt8(ascii: "b") }
    #expect(!subject.withUnsafeBufferPointer { matcher.matches($0) })
    #expect(matcher.steps > 20_000)
    #expect(matcher.steps <= 20_001 * (program.insts.count + 1))
    subject[10_000] = UInt8(ascii: "a")
    subject.insert(UInt8(ascii: "c"), at: 10_011)
    #expect(subject.withUnsafeBufferPointer { matcher.matches($0) })
  }

  /// One matcher kept across values, with a cache of two states emptied at nearly every step,
  /// answers as a fresh matcher does for every pattern and subject of the table.
  @Test func aTinyCacheKeptAcrossValuesGivesTheSameAnswers() throws {
    let subjects = Self.table.map(\.1) + ["", "a cat", "\u{1F4E6}\u{00E9}x", "ab\nab"]
    for (pattern, _, i, _) in Self.table {
      let program = try RegexProgram(pattern: pattern, caseInsensitive: i)
      var kept = RegexMatcher(program, stateLimit: 2, seedLimit: 2)
      for subject in subjects {
        let bytes = Array(subject.utf8)
        var fresh = RegexMatcher(program)
        let expected = bytes.withUnsafeBufferPointer { fresh.matches($0) }
        #expect(bytes.withUnsafeBufferPointer { kept.matches($0) } == expected, "/\(pattern)/ on \(subject)")
      }
    }
  }

  /// Random patterns of the documented grammar against Python's `re.search`.
  @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/python3"), "needs /usr/bin/python3"))
  func agreesWithPython() throws {
    var rng = SplitMix(seed: 14)
    let alphabet = ["a", "b", "c", "A", "B", " ", "1", "2", "_", "-", "\u{00E9}", "\u{00C9}",
      "\u{540D}", "\u{1F4E6}"]
    var cases: [(String, String, Bool)] = []
    for _ in 0..<3000 {
      let pattern = Self.randomPattern(&rng, depth: 0)
      var subject = ""
      // Python's `\B` never matches an empty string; the subjects are never empty.
      for _ in 0..<(1 + rng.next(8)) { subject += alphabet[rng.next(alphabet.count)] }
      cases.append((pattern, subject, rng.next(3) == 0))
    }
    var input = ""
    for (p, s, i) in cases {
      let line = try JSONSerialization.data(withJSONObject: [p, s, i])
      input += String(decoding: line, as: UTF8.self) + "\n"
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
    process.arguments = [
      "-c",
      """
      import json, re, sys
      for line in sys.stdin:
          p, s, i = json.loads(line)
          print(1 if re.search(p, s, re.IGNORECASE if i else 0) else 0)
      """,
    ]
    let stdin = Pipe()
    let stdout = Pipe()
    process.standardInput = stdin
    process.standardOutput = stdout
    try process.run()
    let payload = Data(input.utf8)
    let writer = Thread {
      stdin.fileHandleForWriting.write(payload)
      try? stdin.fileHandleForWriting.close()
    }
    writer.start()
    let out = stdout.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let answers = String(decoding: out, as: UTF8.self).split(separator: "\n")
    #expect(answers.count == cases.count)
    for (k, (p, s, i)) in cases.enumerated() where k < answers.count {
      let ours: Bool
      do { ours = try Self.matches(p, s, i: i) } catch {
        Issue.record("/\(p)/: \(error)")
        continue
      }
      #expect(ours == (answers[k] == "1"), "/\(p)/\(i ? "i" : "") on \(s.debugDescription)")
    }
  }

  static func randomPattern(_ rng: inout SplitMix, depth: Int) -> String {
    var out = ""
    for _ in 0..<(1 + rng.next(3)) {
      var atom: String
      switch rng.next(depth < 3 ? 12 : 9) {
      case 0: atom = "."
      case 1: atom = ["\\d", "\\w", "\\s", "\\D", "\\W", "\\S"][rng.next(6)]
      case 2: atom = ["[a-c]", "[^a]", "[\\d_]", "[^\\w ]", "[A-B\u{00E9}]", "[-a]"][rng.next(6)]
      case 3: atom = ["^", "$", "\\b", "\\B"][rng.next(4)]
      case 4: atom = ["\u{00E9}", "\u{540D}", "\u{1F4E6}", "\\-", "\\."][rng.next(5)]
      case 9: atom = "(" + randomPattern(&rng, depth: depth + 1) + ")"
      case 10: atom = "(?:" + randomPattern(&rng, depth: depth + 1) + "|"
        + randomPattern(&rng, depth: depth + 1) + ")"
      case 11: atom = "(" + randomPattern(&rng, depth: depth + 1) + ")"
      default: atom = ["a", "b", "c", "A", "1", " ", "_"][rng.next(7)]
      }
      let quantifiable = !["^", "$", "\\b", "\\B"].contains(atom)
      if quantifiable && rng.next(3) == 0 {
        atom += ["*", "+", "?", "{2}", "{1,2}", "{0,}", "*?", "+?", "??", "{,1}"][rng.next(10)]
      }
      out += atom
    }
    return out
  }
}

struct SplitMix {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next(_ bound: Int) -> Int {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    z ^= z >> 31
    return Int(z % UInt64(bound))
  }
}
