/// Guesses the format of an input from its first bytes (Docs/Formats.md, Choosing the format).
public enum FormatSniffer {
  /// How many bytes sniffing looks at, unless the first line is an object longer than that.
  public static let sampleSize = 1 << 16
  /// How far sniffing reads to see the end of a first line holding an object (one NDJSON record
  /// may be longer than the sample); a longer one is sniffed as cut there.
  static let longestObjectLine = 1 << 24

  /// True when `sample` starts (after blanks) with `{` and holds no line end after it: whether
  /// the input is NDJSON depends on where that line ends.
  static func endsInsideFirstObjectLine(_ sample: [UInt8]) -> Bool {
    sample.withUnsafeBufferPointer { b in
      let hasMark = sample.starts(with: [0xEF, 0xBB, 0xBF])
      let start = JSONScanner(b, isLast: true).skipWhitespace(from: hasMark ? 3 : 0)
      return start < b.count && b[start] == .openBrace && !b[start...].contains(.lineFeed)
    }
  }

  /// True when `sample`, the bytes a stream has sent so far while it waits for its writer, is
  /// enough to sniff from (Docs/Formats.md, Streaming input): a first line holding an object,
  /// or two lines (a header and a first record, which the delimiter is told from).
  static func enoughFromStream(_ sample: [UInt8]) -> Bool {
    guard let firstEnd = sample.firstIndex(of: .lineFeed) else { return false }
    if sample[(firstEnd + 1)...].contains(.lineFeed) { return true }
    return sample.withUnsafeBufferPointer { b in
      let hasMark = sample.starts(with: [0xEF, 0xBB, 0xBF])
      let start = JSONScanner(b, isLast: true).skipWhitespace(from: hasMark ? 3 : 0)
      return start < firstEnd && b[start] == .openBrace
    }
  }

  /// The format of an input starting with `sample` (`complete` when it is the whole input):
  /// - first non-blank byte `[` → JSON;
  /// - `{` → NDJSON when the first line holds one whole object and the next non-blank line
  ///   starts with `{`, or the first line is the only one and its object holds no array;
  ///   otherwise JSON (an object over several lines, or `{"records": […]}`);
  /// - else TSV when the first line has a tab and no comma, else CSV.
  public static func sniff(_ sample: [UInt8], complete: Bool) -> InputFormat {
    sample.withUnsafeBufferPointer { all in
      let hasMark = all.count >= 3 && all[0] == 0xEF && all[1] == 0xBB && all[2] == 0xBF
      let b = UnsafeBufferPointer(rebasing: all[(hasMark ? 3 : 0)...])
      let start = JSONScanner(b, isLast: true).skipWhitespace(from: 0)
      guard start < b.count else { return .csv }
      switch b[start] {
      case .openBracket: return .json
      case .openBrace: return objectFormat(b, from: start, complete: complete)
      default:
        let lineStart = b[..<start].lastIndex { $0 == .lineFeed || $0 == .carriageReturn }
        let firstLine = b[(lineStart.map { $0 + 1 } ?? 0)...].prefix {
          $0 != .lineFeed && $0 != .carriageReturn
        }
        return firstLine.contains(.tab) && !firstLine.contains(.comma) ? .tsv : .csv
      }
    }
  }

  private static func objectFormat(
    _ b: UnsafeBufferPointer<UInt8>, from start: Int, complete: Bool
  ) -> InputFormat {
    let lineEnd = b[start...].firstIndex(of: .lineFeed) ?? b.count
    let line = JSONScanner(UnsafeBufferPointer(rebasing: b[..<lineEnd]), isLast: true)
    guard let end = try? line.scanValue(at: start, depth: 0),
      line.skipWhitespace(from: end) == lineEnd
    else { return .json }
    let next = JSONScanner(b, isLast: true).skipWhitespace(from: lineEnd)
    if next < b.count { return b[next] == .openBrace ? .ndjson : .json }
    if !complete { return .ndjson }
    return holdsArray(line, objectAt: start) ? .json : .ndjson
  }

  /// True when a member of the (well-formed) object at `start` is an array.
  private static func holdsArray(_ scanner: JSONScanner, objectAt start: Int) -> Bool {
    var p = scanner.skipWhitespace(from: start + 1)
    while p < scanner.b.count && scanner.b[p] == .quote {
      guard let value = try? scanner.scanMemberName(at: p).value else { return false }
      if scanner.b[value] == .openBracket { return true }
      guard let end = try? scanner.scanValue(at: value, depth: 1) else { return false }
      p = scanner.skipWhitespace(from: end)
      guard p < scanner.b.count, scanner.b[p] == .comma else { return false }
      p = scanner.skipWhitespace(from: p + 1)
    }
    return false
  }

  /// What `sample` (an input's first bytes) looks like when it is a known binary format, or text
  /// with NUL bytes in its first 4 KiB; `nil` for text (invalid UTF-8 is still text).
  public static func binaryKind(_ sample: [UInt8]) -> String? {
    func starts(_ magic: [UInt8]) -> Bool { sample.starts(with: magic) }
    if starts([0x50, 0x4B, 0x03, 0x04]) { return "a ZIP archive inside compressed data" }
    if starts([0xD0, 0xCF, 0x11, 0xE0]) { return "an Excel 97-2003 workbook (.xls)" }
    if starts(Array("%PDF".utf8)) { return "a PDF document" }
    if starts(Array("PAR1".utf8)) { return "a Parquet file" }
    if starts([0x1F, 0x8B]) { return "gzip data inside gzip data" }
    if starts([0xFF, 0xFE]) || starts([0xFE, 0xFF]) { return "UTF-16 text" }
    for i in 0..<min(sample.count, 4096) where sample[i] == 0 {
      return "a binary file (it holds NUL bytes)"
    }
    return nil
  }

  /// The delimiter of a CSV sample whose first line holds no comma or tab but `;` (else `|`), as
  /// does its second line; `nil` otherwise.
  public static func delimiter(_ sample: [UInt8]) -> UInt8? {
    let hasMark = sample.starts(with: [0xEF, 0xBB, 0xBF])
    let lines = firstLines(2, of: sample[(hasMark ? 3 : 0)...])
    guard lines.count >= 2, !lines[0].contains(.comma), !lines[0].contains(.tab) else { return nil }
    for candidate in [UInt8(ascii: ";"), UInt8(ascii: "|")]
    where lines[0].contains(candidate) && lines[1].contains(candidate) {
      return candidate
    }
    return nil
  }

  /// The first `count` non-empty lines of `bytes` (fewer where it has fewer), without
  /// splitting the rest of the 64 KiB sample.
  static func firstLines(_ count: Int, of bytes: ArraySlice<UInt8>) -> [ArraySlice<UInt8>] {
    var lines: [ArraySlice<UInt8>] = []
    var start = bytes.startIndex
    var i = start
    while i < bytes.endIndex, lines.count < count {
      let b = bytes[i]
      if b == .lineFeed || b == .carriageReturn {
        if i > start { lines.append(bytes[start..<i]) }
        start = i + 1
      }
      i += 1
    }
    if lines.count < count, i > start { lines.append(bytes[start..<i]) }
    return lines
  }

  /// True when a TSV `sample` quotes its fields as CSV does (Excel's "Text (tab delimited)"): some
  /// field starts with `"`, and every such field is well-formed, a closing `"` (a doubled `""`
  /// is one quote inside) followed by a tab, a line end or the end; a quoted field cut by the end
  /// of a sample that is not `complete` counts as well-formed. A field like `"Big" bolt` means
  /// the quotes are text.
  public static func quotesFields(_ sample: [UInt8], complete: Bool) -> Bool {
    let hasMark = sample.starts(with: [0xEF, 0xBB, 0xBF])
    let n = sample.count
    var p = hasMark ? 3 : 0
    var quoted = false
    while p < n {
      if sample[p] == .quote {
        p += 1
        while true {
          guard p < n else { return !complete }
          if sample[p] == .quote {
            if p + 1 < n && sample[p + 1] == .quote {
              p += 2
              continue
            }
            if p + 1 == n && !complete { return true }
            p += 1
            break
          }
          p += 1
        }
        guard p == n || [.tab, .lineFeed, .carriageReturn].contains(sample[p]) else { return false }
        quoted = true
      } else {
        while p < n && ![.tab, .lineFeed, .carriageReturn].contains(sample[p]) { p += 1 }
      }
      if p < n { p += 1 }
    }
    return quoted
  }
}
