import Foundation
import SiftCore
import Testing

@testable import SiftCLI

/// Docs/Formats.md, Terminal output: no path that prints data or file text lets an escape
/// sequence from a hostile file or views file reach the terminal raw (recolouring it, setting
/// its title, writing its clipboard with OSC 52).
@Suite struct TerminalEscapeTests {
  /// ESC alone, a CSI colour, an OSC title, an OSC 52 clipboard write, a C1 CSI (U+009B) and a
  /// lone 0x9B byte (a C1 CSI on terminals that take 8-bit controls).
  static let hostile: [(name: String, bytes: [UInt8])] = [
    ("esc", [0x1B]),
    ("csi", Array("\u{1B}[31;1m".utf8)),
    ("osc-title", Array("\u{1B}]0;owned\u{07}".utf8)),
    ("osc-52", Array("\u{1B}]52;c;aGVsbG8=\u{1B}\\".utf8)),
    ("c1-csi", Array("\u{9B}31m".utf8)),
    ("raw-0x9b", [0x9B] + Array("31m".utf8)),
  ]

  /// Whether `bytes` hold a control a terminal would act on: a C0 control other than a line
  /// feed, DEL, a C1 control (encoded or as a lone byte).
  static func raw(_ bytes: [UInt8]) -> Bool {
    if bytes.contains(where: { ($0 < 0x20 && $0 != 0x0A) || $0 == 0x7F }) { return true }
    let scalars = String(decoding: bytes, as: UTF8.self).unicodeScalars
    if scalars.contains(where: { (0x80...0x9F).contains($0.value) }) { return true }
    // A lone C1 byte, not part of a character.
    return String(validatingUTF8: bytes.map { CChar(bitPattern: $0) } + [0]) == nil
  }

  /// A folder with `hostile.csv` (`sequence` in a header name and in a value) and `sift.json`
  /// (a view titled, named and labelled with it, whose badge counts the CSV).
  static func withFiles<R>(_ sequence: [UInt8], _ body: (String) throws -> R) throws -> R {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("sift-escape-\(UInt32.random(in: 0...UInt32.max))")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let csv = Array("id,note".utf8) + sequence + Array("x\n1,a".utf8) + sequence + Array("b\n2,plain\n".utf8)
    try Data(csv).write(to: folder.appendingPathComponent("hostile.csv"))
    let text = String(decoding: sequence, as: UTF8.self)
    let escaped = text.unicodeScalars.map { s in
      s.value < 0x20 || (0x7F...0x9F).contains(s.value) || s == "\"" || s == "\\"
        ? String(format: "\\u%04x", s.value) : String(s)
    }.joined()
    let views = """
      {"views": {"v\(escaped)": {"title": "T\(escaped)itle", "source": "hostile.csv",
        "fastFilters": ["id"], "labels": {"id": "L\(escaped)abel"}, "badge": "id:1"}}}
      """
    try Data(views.utf8).write(to: folder.appendingPathComponent("sift.json"))
    return try body(folder.path)
  }

  /// The outputs of every path that prints data or file text, by what they show.
  static func outputs(in folder: String, sequence: [UInt8]) -> [(path: String, bytes: [UInt8])] {
    let csv = folder + "/hostile.csv"
    let config = folder + "/sift.json"
    let term = String(decoding: sequence, as: UTF8.self)
    let fields = sift(["--fields", csv])
    let unknown = sift(["nosuch:1", csv])
    let bar = sift(["id:\"1\(term)\"", csv])
    let sentence = sift(["id:\"1\(term)\"", csv, "--summary", "text"])
    let markdown = sift(["", csv, "-o", "markdown"])
    let overview = sift(["--config", config, "--views"])
    let view = "@v" + term
    let details = sift(["--config", config, "--views", view])
    let titled = sift(["--config", config, view, "-o", "markdown"])
    return [
      ("--fields", fields.stdout), ("unknown field", Array(unknown.stderr.utf8)),
      ("feedback bar", Array(bar.stderr.utf8)), ("--summary text", Array(sentence.stderr.utf8)),
      ("-o markdown", markdown.stdout), ("--views", overview.stdout + Array(overview.stderr.utf8)),
      ("--views @VIEW", details.stdout), ("view title in markdown", titled.stdout),
    ]
  }

  @Test(arguments: hostile.map(\.name))
  func noEscapeSequenceFromDataOrViewsFileReachesTheTerminalRaw(sequence name: String) throws {
    let sequence = try #require(Self.hostile.first { $0.name == name }).bytes
    try Self.withFiles(sequence) { folder in
      for (path, bytes) in Self.outputs(in: folder, sequence: sequence) {
        #expect(!bytes.isEmpty, "\(path) printed nothing")
        #expect(!Self.raw(bytes), "\(path): \(String(decoding: bytes, as: UTF8.self).debugDescription)")
      }
    }
  }

  /// What the paths show instead: the control's picture (`␛`), as a table does.
  @Test func escapeShowsAsItsControlPicture() throws {
    try Self.withFiles(Array("\u{1B}[31m".utf8)) { folder in
      let fields = sift(["--fields", folder + "/hostile.csv"])
      #expect(fields.text.contains("note␛[31mx"))
      #expect(fields.text.contains("a␛[31mb"))
      let unknown = sift(["nosuch:1", folder + "/hostile.csv"])
      #expect(unknown.stderr.contains("fields: id, note␛[31mx"))
      let markdown = sift(["", folder + "/hostile.csv", "-o", "markdown"])
      #expect(markdown.text.contains("| 1 | a␛[31mb |"))
    }
  }
}
