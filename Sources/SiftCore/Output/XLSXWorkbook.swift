/// An Excel workbook written to an output buffer as it is made (Docs/Formats.md, Writing
/// workbooks): the package parts first (`[Content_Types].xml`, `_rels/.rels`, `xl/workbook.xml`,
/// its relationships, `xl/styles.xml`), then one worksheet per sheet name, in order, each
/// written by its `XLSXWriter`, then the ZIP's central directory. The sheet names are fixed when
/// it is made, as `xl/workbook.xml` lists them before the sheets come.
public final class XLSXWorkbook {
  /// The sheet names, made valid by Excel's rules (`SheetName.make`).
  public let sheetNames: [String]
  private let zip: ZipWriter
  private var started = false
  private var sheetsEnded = 0
  /// Whether the central directory is written.
  private(set) var finished = false

  /// A workbook with a sheet for each of `names` (made valid by Excel's rules).
  public convenience init(output: OutputBuffer, sheetNames names: [String]) {
    self.init(output: output, sheetNames: names, compressed: true)
  }

  /// `compressed: false` stores the parts, so that tests can read their XML in the bytes.
  init(output: OutputBuffer, sheetNames names: [String], compressed: Bool) {
    self.zip = ZipWriter(output: output, compress: compressed)
    self.sheetNames = SheetName.make(names.isEmpty ? ["Sheet1"] : names)
  }

  /// The writer of sheet `index`'s records, typed and read as `columns` says (per output column).
  public func sheet(_ index: Int, columns: [ColumnReading]) -> XLSXWriter {
    sheet(index, columns: columns, rowLimit: XLSXWriter.maxRows)
  }

  func sheet(_ index: Int, columns: [ColumnReading], rowLimit: Int) -> XLSXWriter {
    XLSXWriter(workbook: self, sheet: index, columns: columns, rowLimit: rowLimit)
  }

  /// Writes a sheet that holds one line of text in A1 (a view that could not be run).
  public func writeNote(sheet index: Int, _ text: String) throws(OutputError) {
    let writer = sheet(index, columns: [ColumnReading(type: .text)])
    try writer.begin(columns: [text])
    try writer.end()
  }

  /// Writes the parts before the sheets, once.
  func start() throws(OutputError) {
    guard !started else { return }
    started = true
    try zip.add("[Content_Types].xml", contentTypes())
    try zip.add("_rels/.rels", Array(Self.packageRelationships.utf8))
    try zip.add("xl/workbook.xml", workbook())
    try zip.add("xl/_rels/workbook.xml.rels", workbookRelationships())
    try zip.add("xl/styles.xml", Array(Self.styles.utf8))
  }

  /// Starts sheet `index`'s part.
  func beginSheet(_ index: Int) throws(OutputError) {
    try start()
    try zip.beginEntry("xl/worksheets/sheet\(index + 1).xml")
  }

  func appendToSheet(_ bytes: UnsafeBufferPointer<UInt8>) throws(OutputError) {
    try zip.append(bytes)
  }

  /// Ends the current sheet's part; after the last sheet, the workbook.
  func endSheet() throws(OutputError) {
    try zip.endEntry()
    sheetsEnded += 1
    if sheetsEnded >= sheetNames.count { try finish() }
  }

  /// Ends the workbook: sheets never begun are written empty, then the central directory.
  public func finish() throws(OutputError) {
    guard !finished else { return }
    try start()
    finished = true
    while sheetsEnded < sheetNames.count {
      let writer = sheet(sheetsEnded, columns: [])
      try writer.begin(columns: [])
      try writer.end()
    }
    try zip.finish()
  }

  private func contentTypes() -> [UInt8] {
    var out: [UInt8] = []
    out.append(literal: Self.declaration)
    out.append(literal: """
      <Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">\
      <Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>\
      <Default Extension="xml" ContentType="application/xml"/>\
      <Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>\
      <Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>
      """)
    for index in sheetNames.indices {
      out.append(literal: "<Override PartName=\"/xl/worksheets/sheet")
      out.append(contentsOf: "\(index + 1)".utf8)
      out.append(literal: ".xml\" ContentType=\"application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml\"/>")
    }
    out.append(literal: "</Types>")
    return out
  }

  private func workbook() -> [UInt8] {
    var out: [UInt8] = []
    out.append(literal: Self.declaration)
    out.append(literal: """
      <workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" \
      xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">\
      <bookViews><workbookView/></bookViews><sheets>
      """)
    for (index, name) in sheetNames.enumerated() {
      out.append(literal: "<sheet name=\"")
      XLSXText.append(name, attribute: true, to: &out)
      out.append(contentsOf: "\" sheetId=\"\(index + 1)\" r:id=\"rId\(index + 1)\"/>".utf8)
    }
    out.append(literal: "</sheets></workbook>")
    return out
  }

  private func workbookRelationships() -> [UInt8] {
    var out: [UInt8] = []
    out.append(literal: Self.declaration)
    out.append(literal: "<Relationships xmlns=\"http://schemas.openxmlformats.org/package/2006/relationships\">")
    for index in sheetNames.indices {
      out.append(contentsOf: "<Relationship Id=\"rId\(index + 1)\" ".utf8)
      out.append(literal: "Type=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet\" ")
      out.append(contentsOf: "Target=\"worksheets/sheet\(index + 1).xml\"/>".utf8)
    }
    out.append(contentsOf: "<Relationship Id=\"rId\(sheetNames.count + 1)\" ".utf8)
    out.append(literal: "Type=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles\" Target=\"styles.xml\"/>")
    out.append(literal: "</Relationships>")
    return out
  }

  static let declaration: StaticString = "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n"

  private static let packageRelationships = """
    <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
    <Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">\
    <Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" \
    Target="xl/workbook.xml"/></Relationships>
    """

  /// The cell formats, in the order of `XLSXStyle`: plain, the bold header, a date
  /// (`yyyy-mm-dd`), a date-time (`yyyy-mm-dd hh:mm:ss`, and with milliseconds), quote-prefixed
  /// text. The ISO forms show a date as sift reads and writes it, whatever the reader's locale.
  private static let styles = """
    <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
    <styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">\
    <numFmts count="3"><numFmt numFmtId="164" formatCode="yyyy-mm-dd"/>\
    <numFmt numFmtId="165" formatCode="yyyy-mm-dd hh:mm:ss"/>\
    <numFmt numFmtId="166" formatCode="yyyy-mm-dd hh:mm:ss.000"/></numFmts>\
    <fonts count="2"><font><sz val="11"/><name val="Calibri"/><family val="2"/></font>\
    <font><b/><sz val="11"/><name val="Calibri"/><family val="2"/></font></fonts>\
    <fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>\
    <borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>\
    <cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>\
    <cellXfs count="6"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>\
    <xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/>\
    <xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>\
    <xf numFmtId="165" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>\
    <xf numFmtId="166" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>\
    <xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0" quotePrefix="1"/></cellXfs>\
    <cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>\
    </styleSheet>
    """
}
