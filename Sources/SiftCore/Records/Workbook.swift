/// An Excel workbook (`.xlsx`, `.xlsm`) opened for reading (Docs/Formats.md, Workbooks): its
/// sheets from `xl/workbook.xml` and its relationships, the `date1904` flag, the shared strings
/// (the memory a workbook costs) and the number format of each cell style.
final class Workbook {
  /// One sheet, in workbook order.
  struct Sheet: Sendable {
    let name: String
    let hidden: Bool
    /// Its part: `xl/worksheets/sheet1.xml`.
    let part: String
  }

  let archive: ZipArchive
  /// `book.xlsx`, for messages.
  var name: String { archive.name }
  private(set) var sheets: [Sheet] = []
  /// Dates count from 1904-01-01 (old Mac workbooks) instead of 1900-01-00.
  private(set) var date1904 = false
  /// The shared strings' bytes, end to end: string `i` is `bytes[offsets[i]..<offsets[i + 1]]`.
  private(set) var sharedBytes: [UInt8] = []
  private(set) var sharedOffsets: [Int] = [0]
  /// The number format kind of each cell style (`s="3"` is `formats[3]`).
  private(set) var formats: [CellFormat] = []

  /// Whether `archive` holds a workbook.
  static func isWorkbook(_ archive: ZipArchive) -> Bool { archive.entry("xl/workbook.xml") != nil }

  init(archive: ZipArchive) throws(InputError) {
    self.archive = archive
    let relationships = try readRelationships()
    try readWorkbook(relationships)
    if let part = relationships.first(where: { $0.type.hasSuffix("/sharedStrings") })?.target
      ?? (archive.entry("xl/sharedStrings.xml") != nil ? "xl/sharedStrings.xml" : nil)
    {
      try readSharedStrings(part)
    }
    if let part = relationships.first(where: { $0.type.hasSuffix("/styles") })?.target
      ?? (archive.entry("xl/styles.xml") != nil ? "xl/styles.xml" : nil)
    {
      try readStyles(part)
    }
  }

  /// The number of shared strings.
  var sharedCount: Int { sharedOffsets.count - 1 }

  private func fail(_ message: String) -> InputError {
    InputError(name: name, line: 0, column: 0, message: message)
  }

  /// A scanner over the part `path`, which must exist.
  func scanner(_ path: String) throws(InputError) -> XMLScanner {
    guard let entry = archive.entry(path) else {
      throw fail("part \(path) is missing (the workbook is damaged)")
    }
    return XMLScanner(source: try archive.open(entry), archive: name, part: path)
  }

  private struct Relationship {
    let id: String
    let type: String
    let target: String
  }

  /// `xl/_rels/workbook.xml.rels`: each relationship's id, type and part path.
  private func readRelationships() throws(InputError) -> [Relationship] {
    let path = "xl/_rels/workbook.xml.rels"
    guard archive.entry(path) != nil else { return [] }
    let xml = try scanner(path)
    var out: [Relationship] = []
    while true {
      switch try xml.next() {
      case .endOfInput: return out
      case .start where xml.isNamed("Relationship"):
        guard let id = try xml.attribute("Id"), let target = try xml.attribute("Target") else { continue }
        if try xml.attribute("TargetMode") == "External" { continue }
        out.append(Relationship(id: id, type: try xml.attribute("Type") ?? "", target: Self.resolve(target)))
      case .start, .end, .text: continue
      }
    }
  }

  /// A relationship target as a part path: relative to `xl/`, or absolute from the root.
  private static func resolve(_ target: String) -> String {
    var parts: [Substring] = target.hasPrefix("/") ? [] : ["xl"]
    for piece in target.split(separator: "/") {
      if piece == ".." {
        _ = parts.popLast()
      } else if piece != "." {
        parts.append(piece)
      }
    }
    return parts.joined(separator: "/")
  }

  private func readWorkbook(_ relationships: [Relationship]) throws(InputError) {
    let xml = try scanner("xl/workbook.xml")
    while true {
      switch try xml.next() {
      case .endOfInput:
        guard !sheets.isEmpty else { throw fail("the workbook lists no sheets") }
        return
      case .start where xml.isNamed("workbookPr"):
        let flag = try xml.attribute("date1904")
        date1904 = flag == "1" || flag == "true"
      case .start where xml.isNamed("sheet"):
        let sheetName = try xml.attribute("name") ?? "Sheet\(sheets.count + 1)"
        let state = try xml.attribute("state")
        let id = try xml.attribute("id")
        let part =
          relationships.first { $0.id == id }?.target ?? "xl/worksheets/sheet\(sheets.count + 1).xml"
        sheets.append(Sheet(name: sheetName, hidden: state == "hidden" || state == "veryHidden", part: part))
      case .start, .end, .text: continue
      }
    }
  }

  /// Every `<si>`: its text, rich-text runs joined, phonetic runs skipped.
  private func readSharedStrings(_ path: String) throws(InputError) {
    let xml = try scanner(path)
    while true {
      switch try xml.next() {
      case .endOfInput: return
      case .start where xml.isNamed("si"):
        try Self.appendRichText(xml, to: &sharedBytes)
        sharedOffsets.append(sharedBytes.count)
      case .start, .end, .text: continue
      }
    }
  }

  /// Appends the text of the element just started (`<si>`, `<is>`): its `<t>` elements, those
  /// of phonetic runs (`<rPh>`) skipped, `_xHHHH_` escapes decoded.
  static func appendRichText(_ xml: XMLScanner, to out: inout [UInt8]) throws(InputError) {
    var depth = 1
    while depth > 0 {
      switch try xml.next() {
      case .start where xml.isNamed("rPh") || xml.isNamed("phoneticPr"):
        try xml.skipElement()
      case .start where xml.isNamed("t"):
        appendUnescaped(try xml.elementText(), to: &out)
      case .start: depth += 1
      case .end: depth -= 1
      case .text: continue
      case .endOfInput: throw xml.fail("the part ends inside a string (truncated)")
      }
    }
  }

  /// Appends `text` with Excel's `_xHHHH_` escapes (a character by its UTF-16 code) decoded.
  static func appendUnescaped(_ text: [UInt8], to out: inout [UInt8]) {
    var i = 0
    let n = text.count
    while i < n {
      if text[i] == UInt8(ascii: "_"), i + 6 < n, text[i + 1] == UInt8(ascii: "x"),
        text[i + 6] == UInt8(ascii: "_"),
        let code = UInt32(String(decoding: text[(i + 2)..<(i + 6)], as: UTF8.self), radix: 16),
        let scalar = Unicode.Scalar(code)
      {
        out.append(contentsOf: String(Character(scalar)).utf8)
        i += 7
        continue
      }
      out.append(text[i])
      i += 1
    }
  }

  /// `styles.xml`: custom number formats and the format of each cell style (`<cellXfs>`).
  private func readStyles(_ path: String) throws(InputError) {
    let xml = try scanner(path)
    var custom: [Int: CellFormat] = [:]
    var inCellStyles = false
    while true {
      switch try xml.next() {
      case .endOfInput: return
      case .start where xml.isNamed("numFmt"):
        if let id = Int(try xml.attribute("numFmtId") ?? ""), let code = try xml.attribute("formatCode") {
          custom[id] = CellFormat.custom(code)
        }
      case .start where xml.isNamed("cellXfs"): inCellStyles = !xml.selfClosing
      case .end where xml.isNamed("cellXfs"): inCellStyles = false
      case .start where inCellStyles && xml.isNamed("xf"):
        let id = Int(try xml.attribute("numFmtId") ?? "0") ?? 0
        formats.append(custom[id] ?? CellFormat.builtIn(id) ?? .number)
        if !xml.selfClosing { try xml.skipElement() }
      case .start, .end, .text: continue
      }
    }
  }
}
