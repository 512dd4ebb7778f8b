// Golden screens: a rendered frame as text with a style map, stored in
// Tests/SiftScreenTests/Screens/<name>.txt, one block per width.
//
// Each screen line is written as `|` and its text, then a line of style letters under it, one
// letter per column (two under a wide character), trailing plain columns left out:
//   . plain  t title  d dim  A active chip  i inactive chip  F focused  h header
//   g group heading  E error  T active tab  b tab  B badge  x disabled  s selected
//
// SIFT_RECORD=1 swift test --filter SiftScreenTests  rewrites the files from the actual screens;
// read them, and review the change with `git diff`.

import Foundation
import SiftCore
import Testing

@testable import SiftScreen

enum GoldenScreens {
  static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Screens")

  static func letter(_ style: SiftScreen.TextStyle) -> Character {
    switch style {
    case .plain: "."
    case .title: "t"
    case .dim: "d"
    case .chipActive: "A"
    case .chipInactive: "i"
    case .focused: "F"
    case .header: "h"
    case .groupHeading: "g"
    case .error: "E"
    case .tabActive: "T"
    case .tab: "b"
    case .badge: "B"
    case .disabled: "x"
    case .selected: "s"
    }
  }

  /// The frame as text with its style map.
  static func picture(_ frame: Frame, _ size: ScreenSize) -> String {
    var out = "── \(size.columns) × \(size.rows)"
    if let cursor = frame.cursor { out += ", cursor at row \(cursor.row) column \(cursor.column)" }
    out += "\n"
    for line in frame.lines {
      out += "|" + line.text + "\n"
      var styles = ""
      for span in line.spans {
        styles += String(repeating: letter(span.style), count: displayWidth(of: span.text))
      }
      out += " " + String(styles.reversed().drop { $0 == "." }.reversed()) + "\n"
    }
    return out
  }

  /// Checks (or records) the screens of `driver` at each width.
  static func check(
    _ name: String, _ driver: Driver, widths: [Int] = [40, 100, 200], rows: Int = 16,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let text = widths.map { width in
      let size = ScreenSize(columns: width, rows: rows)
      var sized = driver
      sized.model.resize(to: size)
      let frame = sized.model.render(size)
      for line in frame.lines {
        #expect(displayWidth(of: line.text) <= width, "\(name): a line wider than \(width)", sourceLocation: sourceLocation)
      }
      #expect(frame.lines.count == rows, sourceLocation: sourceLocation)
      return picture(frame, size)
    }.joined(separator: "\n")
    let file = folder.appendingPathComponent(name + ".txt")
    if ProcessInfo.processInfo.environment["SIFT_RECORD"] == "1" {
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      try Data(text.utf8).write(to: file)
      return
    }
    let expected = try String(contentsOf: file, encoding: .utf8)
    #expect(text == expected, "screen \(name)", sourceLocation: sourceLocation)
  }
}
