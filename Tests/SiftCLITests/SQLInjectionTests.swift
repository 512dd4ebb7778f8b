import Foundation
import SiftCore
import Testing

/// Docs/Engines.md, Quoting: hostile field names, values and file names cannot change the shape
/// of a statement. Each statement is split into tokens by the dialect's own quoting rules; every
/// hostile text must come back whole from one quoted token, and outside the quotes there is no
/// `;`, no comment and nothing else of the input.
@Suite struct SQLInjectionTests {
  static let pieces = ["'", "\"", "`", "\\", ";", "--", "/*", "*/", "$$", "ü", "東", "\u{202E}", "E'", "x", " ", ")"]

  /// A reproducible hostile text of a few pieces.
  static func hostile(_ seed: Int) -> String {
    var state = UInt64(seed) &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
    var text = "f\(seed)"
    for _ in 0..<6 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      text += pieces[Int(state >> 33) % pieces.count]
    }
    return text
  }

  /// A CSV field, quoted.
  static func csv(_ text: String) -> String { "\"" + text.replacing("\"", with: "\"\"") + "\"" }

  /// A quoted query word: `"` and `\` escaped.
  static func quoted(_ text: String) -> String {
    "\"" + text.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"") + "\""
  }

  @Test(arguments: SQLDialect.allCases)
  func hostileNamesValuesAndPathsStayInsideTheirQuotes(dialect: SQLDialect) throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("sift sql '\"`;-- \(dialect.rawValue) \(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("in'; DROP TABLE x; --.csv").path
    for round in 0..<20 {
      let names = (0..<3).map { Self.hostile(round * 10 + $0) }
      let values = (0..<3).map { Self.hostile(round * 10 + 5 + $0) }
      let text = names.map(Self.csv).joined(separator: ",") + "\n"
        + values.map(Self.csv).joined(separator: ",") + "\n"
      try text.write(toFile: file, atomically: true, encoding: .utf8)
      let query = zip(names, values).map { Self.quoted($0) + ":" + Self.quoted($1) }
        .joined(separator: " ") + " " + Self.quoted(values[0])
        + " sort:-" + Self.quoted(names[1]) + " fields:" + Self.quoted(names[2])
      let arguments = ["--sql", dialect.rawValue] + (dialect == .trino ? ["--table", "t"] : [])
        + ["--", query, file]
      let result = sift(arguments)
      #expect(result.status == .matched, "\(query): \(result.stderr)")
      let tokens = try SQLTokens(result.text, dialect: dialect)
      #expect(tokens.statements == (dialect == .spark ? 2 : dialect == .postgres ? 3 : 1), "\(result.text)")
      #expect(!tokens.outside.contains("--") && !tokens.outside.contains("/*"), "\(result.text)")
      for name in names {
        #expect(tokens.identifiers.contains(name), "name \(name) not one identifier: \(result.text)")
      }
      for value in values {
        let folded = value.lowercased()
        #expect(tokens.literals.contains(folded), "value \(folded) not one literal: \(result.text)")
      }
      if dialect != .trino {
        #expect(tokens.literals.contains(file), "path not one literal: \(result.text)")
      }
      if dialect == .duckdb, let duckdb = SQLDifferentialTests.duckdb {
        // DuckDB itself reads the statement as meant: the one record, its one field.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: duckdb)
        process.arguments = ["-csv", "-c", result.text]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let answer = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(CSVText.rows(answer) == [[names[2]], [values[2]]], "\(query): \(answer)")
      }
    }
  }
}

/// The tokens of SQL text by a dialect's quoting rules: string literals and quoted identifiers
/// decoded, line comments (`--` to the end of the line; in Spark a backslash before the line
/// break goes on to the next line) apart, the rest kept as is.
struct SQLTokens {
  var literals: Set<String> = []
  var identifiers: Set<String> = []
  /// The line comments' texts, after `-- `.
  var comments: [String] = []
  /// Everything outside quotes and comments.
  var outside = ""
  /// Statements ended by `;` outside quotes.
  var statements = 0

  struct Unclosed: Error {}

  init(_ text: String, dialect: SQLDialect) throws {
    let chars = Array(text)
    var i = 0
    /// Reads a quoted token opened at `i` by `quote`; `backslash` escapes, a doubled quote is one.
    func quoted(_ quote: Character, backslash: Bool) throws -> String {
      var out = ""
      i += 1
      while i < chars.count {
        let c = chars[i]
        if backslash && c == "\\" && i + 1 < chars.count {
          out.append(chars[i + 1])
          i += 2
        } else if c == quote {
          if i + 1 < chars.count && chars[i + 1] == quote {
            out.append(quote)
            i += 2
          } else {
            i += 1
            return out
          }
        } else {
          out.append(c)
          i += 1
        }
      }
      throw Unclosed()
    }
    let literalBackslash = dialect == .spark || dialect == .clickhouse
    let identifierQuote: Character = dialect == .spark || dialect == .clickhouse ? "`" : "\""
    while i < chars.count {
      let c = chars[i]
      if dialect == .postgres && c == "E" && i + 1 < chars.count && chars[i + 1] == "'" {
        i += 1
        literals.insert(try quoted("'", backslash: true))
      } else if c == "'" {
        literals.insert(try quoted("'", backslash: literalBackslash))
      } else if c == identifierQuote {
        identifiers.insert(try quoted(identifierQuote, backslash: dialect == .clickhouse))
      } else if c == "-" && i + 1 < chars.count && chars[i + 1] == "-" {
        var comment = ""
        i += 2
        while i < chars.count && chars[i] != "\n" && chars[i] != "\r\n" && chars[i] != "\r" {
          if dialect == .spark && chars[i] == "\\" && i + 1 < chars.count && chars[i + 1] == "\n" {
            comment.append("\n")
            i += 2
            continue
          }
          comment.append(chars[i])
          i += 1
        }
        comments.append(comment.hasPrefix(" ") ? String(comment.dropFirst()) : comment)
      } else {
        if c == ";" { statements += 1 }
        outside.append(c)
        i += 1
      }
    }
  }
}
