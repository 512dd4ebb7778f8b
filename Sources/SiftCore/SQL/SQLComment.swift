/// A line comment of a statement (Docs/Engines.md, Readable statements): `-- ` and a text that
/// cannot end the comment or reach past its line, whatever the text holds. Control characters
/// and Unicode line separators are written as `\u{a}` escapes; a backslash at the end gets a
/// space after it, since Spark's lexer reads a backslash before a line break as a continuation.
/// `*/` and `/*` stay as they are: a line comment is not a bracketed one.
public enum SQLComment {
  public static func line(_ text: String) -> String {
    var out = "-- "
    for u in text.unicodeScalars {
      if u.value < 0x20 || u.value == 0x7F || u.value == 0x85 || u.value == 0x2028
        || u.value == 0x2029
      {
        out += "\\u{" + String(u.value, radix: 16) + "}"
      } else {
        out.unicodeScalars.append(u)
      }
    }
    return out.hasSuffix("\\") ? out + " " : out
  }
}
