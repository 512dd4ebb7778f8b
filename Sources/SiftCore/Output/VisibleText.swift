/// A value's text as a terminal may show it (Docs/Output.md): nothing a value holds reaches the
/// terminal as a control. Line breaks show as `↵`, other control characters as their Control
/// Pictures symbol (`␉`, `␛`), C1 controls, bidirectional overrides and ill-formed UTF-8 as `�`.
/// With `ascii`: `\n`, `\t` and `?`. The table writer and the interactive screen's list use it,
/// and so does every other path that prints data or file text to a terminal: `--fields`, field
/// lists in errors, view tabs and details, the feedback bar.
public enum VisibleText {
  /// Appends `text` with every control neutralised; returns its width in display columns.
  public static func append(
    _ text: UnsafeBufferPointer<UInt8>, to out: inout [UInt8], ascii: Bool
  ) -> Int {
    var width = 0
    var runStart = 0
    var i = 0
    while i < text.count {
      let b = text[i]
      if b >= 0x20 && b < 0x7F {
        width += 1
        i += 1
        continue
      }
      var length = 1
      if b >= 0x80 {
        let (scalar, scalarLength) = text.scalar(at: i)
        if let scalar, !Self.isHidden(scalar) {
          width += DisplayWidth.of(scalar)
          i += scalarLength
          continue
        }
        length = scalarLength
      } else if b == .carriageReturn, i + 1 < text.count, text[i + 1] == .lineFeed {
        length = 2
      }
      out.append(UnsafeBufferPointer(rebasing: text[runStart..<i]))
      switch b {
      case .lineFeed, .carriageReturn:
        out.append(literal: ascii ? "\\n" : "↵")
        width += ascii ? 2 : 1
      case .tab where ascii:
        out.append(literal: "\\t")
        width += 2
      case 0..<0x20 where !ascii:
        out.append(contentsOf: [0xE2, 0x90, 0x80 + b])  // U+2400 + b, its Control Picture
        width += 1
      case .delete where !ascii:
        out.append(literal: "␡")
        width += 1
      default:
        out.append(literal: ascii ? "?" : replacementCharacterBytes)
        width += 1
      }
      i += length
      runStart = i
    }
    out.append(UnsafeBufferPointer(rebasing: text[runStart...]))
    return width
  }

  /// The character at `i`: its length in bytes, and whether `append` would replace it, as a
  /// terminal would take it for a control (a C0 control other than a tab, DEL, a C1 control, a
  /// bidirectional override, ill-formed UTF-8).
  static func character(
    in text: UnsafeBufferPointer<UInt8>, at i: Int
  ) -> (length: Int, isControl: Bool) {
    let b = text[i]
    if b >= 0x20 && b < 0x7F || b == .tab { return (1, false) }
    if b < 0x80 { return (1, true) }
    let (scalar, length) = text.scalar(at: i)
    return (length, scalar.map(isHidden) ?? true)
  }

  /// C1 controls and the bidirectional embeddings, overrides and isolates, which would reorder
  /// or disturb the rest of the line.
  static func isHidden(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x80...0x9F, 0x202A...0x202E, 0x2066...0x2069: return true
    default: return false
    }
  }

  /// `text` as a terminal may show it.
  public static func of(_ text: UnsafeBufferPointer<UInt8>, ascii: Bool) -> String {
    // Most values are printable ASCII, shown as they are.
    if text.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return String(decoding: text, as: UTF8.self) }
    var out: [UInt8] = []
    _ = append(text, to: &out, ascii: ascii)
    return String(decoding: out, as: UTF8.self)
  }

  /// `text` as a terminal may show it: for names and text from a file or the command line
  /// (field names, view titles, query text) printed outside a table (Docs/Formats.md, Terminal
  /// output).
  public static func of(_ text: String, ascii: Bool) -> String {
    var text = text
    return text.withUTF8 { of($0, ascii: ascii) }
  }
}
