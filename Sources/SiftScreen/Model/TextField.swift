import SiftCore

/// A line of text edited in place (Docs/Interactive.md, Query line): the query line, and the
/// search and range inputs of the filter sheet. The cursor counts characters.
struct TextField: Hashable, Sendable {
  private(set) var characters: [Character]
  /// Where the next character goes: 0 is before the first.
  private(set) var cursor: Int

  init(_ text: String = "") {
    characters = Array(text)
    cursor = characters.count
  }

  var text: String { String(characters) }

  /// How many characters scroll out on the left so the text before the cursor fits `room`
  /// columns (a line that scrolls sideways to keep the cursor on screen).
  func scroll(toFit room: Int) -> Int {
    var scroll = 0
    while scroll < cursor, displayWidth(of: String(characters[scroll..<cursor])) > room { scroll += 1 }
    return scroll
  }

  /// Replaces the characters in `range` with `text`; the cursor goes after it.
  mutating func replace(_ range: Range<Int>, with text: String) {
    let clamped = min(range.lowerBound, characters.count)..<min(range.upperBound, characters.count)
    characters.replaceSubrange(clamped, with: Array(text))
    cursor = clamped.lowerBound + text.count
  }

  /// Replaces the whole text; the cursor goes to the end.
  mutating func set(_ text: String) {
    characters = Array(text)
    cursor = characters.count
  }

  /// Applies an editing key; returns whether the text changed. Keys that do not edit (and
  /// cursor moves) return false; `handled` says whether the key was an editing key at all.
  mutating func edit(_ key: Key) -> (handled: Bool, changed: Bool) {
    let before = characters
    switch key {
    case .text(let text):
      let typed = text.filter { !$0.isNewline }
      characters.insert(contentsOf: typed, at: cursor)
      cursor += typed.count
    case .left: cursor = max(0, cursor - 1)
    case .right: cursor = min(characters.count, cursor + 1)
    case .home, .control("a"): cursor = 0
    case .end, .control("e"): cursor = characters.count
    case .backspace, .control("h"):
      guard cursor > 0 else { break }
      characters.remove(at: cursor - 1)
      cursor -= 1
    case .delete, .control("d"):
      guard cursor < characters.count else { break }
      characters.remove(at: cursor)
    case .control("w"):
      var start = cursor
      while start > 0, characters[start - 1].isWhitespace { start -= 1 }
      while start > 0, !characters[start - 1].isWhitespace { start -= 1 }
      characters.removeSubrange(start..<cursor)
      cursor = start
    case .control("u"):
      characters.removeSubrange(0..<cursor)
      cursor = 0
    case .control("k"):
      characters.removeSubrange(cursor...)
    default:
      return (false, false)
    }
    return (true, characters != before)
  }
}
