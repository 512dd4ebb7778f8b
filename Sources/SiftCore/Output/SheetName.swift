/// Sheet names as Excel allows them (Docs/Formats.md, Writing workbooks): at most 31 characters
/// (UTF-16 code units, as Excel counts), none of `[ ] : * ? / \`, not starting or ending with
/// `'` (nor, here, ending with a space), not empty, not `History` (Excel keeps that name for
/// itself), and unique ignoring case.
public enum SheetName {
  public static let maxLength = 31

  /// Each name made valid, in order: a forbidden character becomes `_`, a name too long is cut,
  /// an empty one is `Sheet`, `History` is `History_`, and a name already taken gets ` (2)`,
  /// ` (3)` … (cut to make room).
  public static func make(_ names: [String]) -> [String] {
    var taken: Set<String> = []
    return names.map { name in
      var base = valid(name)
      if base.lowercased() == "history" { base += "_" }
      var candidate = base
      var n = 2
      while taken.contains(candidate.lowercased()) {
        let suffix = " (\(n))"
        var stem = cut(base, to: maxLength - suffix.utf16.count)
        while stem.hasSuffix(" ") { stem.removeLast() }
        candidate = stem + suffix
        n += 1
      }
      taken.insert(candidate.lowercased())
      return candidate
    }
  }

  /// `name` with Excel's forbidden characters replaced, cut to 31 UTF-16 units.
  static func valid(_ name: String) -> String {
    let forbidden: Set<Character> = ["[", "]", ":", "*", "?", "/", "\\"]
    var text = String(name.map { forbidden.contains($0) || $0.isNewline || $0 == "\t" ? "_" : $0 })
    while text.hasPrefix("'") { text.removeFirst() }
    text = cut(text, to: maxLength)
    while text.hasSuffix("'") || text.hasSuffix(" ") { text.removeLast() }
    return text.isEmpty ? "Sheet" : text
  }

  /// The longest prefix of `text` of at most `units` UTF-16 code units, cut between characters.
  private static func cut(_ text: String, to units: Int) -> String {
    var result = ""
    var count = 0
    for character in text {
      count += character.utf16.count
      if count > units { break }
      result.append(character)
    }
    return result
  }
}
