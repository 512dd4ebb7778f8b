import Testing

@testable import SiftCore

/// Docs/Formats.md, Writing workbooks: the worksheet `XLSXWriter` writes.
@Suite struct XLSXWriterTests {
  /// The records of `harness` written as a one-sheet workbook whose sheet holds `rowLimit` rows:
  /// the bytes, and the error that ended the writing, if any.
  static func write(_ harness: WriterHarness, types: [ColumnType], rowLimit: Int = XLSXWriter.maxRows)
    -> (bytes: [UInt8], error: OutputError?)
  {
    let sink = MemorySink()
    let book = XLSXWorkbook(output: OutputBuffer(sink: sink), sheetNames: ["data"], compressed: false)
    let writer = book.sheet(0, columns: types.map { ColumnReading(type: $0) }, rowLimit: rowLimit)
    let columns = harness.columns.enumerated().map { OutputColumn.field($1, at: $0) }
    do {
      try writer.begin(columns: harness.columns)
      try harness.batch().withRows { cursor in
        for r in 0..<cursor.count { try writer.write(cursor.row(r), columns: columns, verbatim: false) }
      }
      try writer.end()
    } catch let error as OutputError {
      return (sink.bytes, error)
    } catch {
      Issue.record("unexpected \(error)")
    }
    return (sink.bytes, nil)
  }

  static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

  @Test func sheetHasABoldFrozenHeaderAnAutofilterAndWidths() {
    var h = WriterHarness(.csv, columns: ["grn_no", "qty", "date"])
    h.add(["G-1", "12", "2024-06-12"])
    h.add(["G-22", "1500.25", "2024-06-13"])
    let (bytes, error) = Self.write(h, types: [.text, .number, .date])
    #expect(error == nil)
    let xml = Self.text(bytes)
    #expect(xml.contains("<pane ySplit=\"1\" topLeftCell=\"A2\" activePane=\"bottomLeft\" state=\"frozen\"/>"))
    #expect(xml.contains("<c r=\"A1\" s=\"1\" t=\"inlineStr\"><is><t xml:space=\"preserve\">grn_no</t></is></c>"))
    #expect(xml.contains("<autoFilter ref=\"A1:C3\"/>"))
    // grn_no: its header and the filter's button; qty: "1500.25"; date: a date's 10 characters.
    #expect(xml.contains("<col min=\"1\" max=\"1\" width=\"9\" customWidth=\"1\"/>"))
    #expect(xml.contains("<col min=\"2\" max=\"2\" width=\"8\" customWidth=\"1\"/>"))
    #expect(xml.contains("<col min=\"3\" max=\"3\" width=\"11\" customWidth=\"1\"/>"))
    #expect(xml.contains("<row r=\"3\"><c r=\"A3\" t=\"inlineStr\"><is><t xml:space=\"preserve\">G-22</t></is></c><c r=\"B3\"><v>1500.25</v></c><c r=\"C3\" s=\"2\"><v>45456</v></c></row>"))
  }

  @Test func partsComeInTheirOrderContentTypesFirst() {
    let h = WriterHarness(.csv, columns: ["a"])
    let bytes = Self.write(h, types: [.text]).bytes
    // Walks the local headers: whole parts carry their size, the streamed sheet comes last.
    var names: [String] = []
    var at = 0
    while at + 30 <= bytes.count, ZipWriterTests.u32(bytes, at) == 0x0403_4B50 {
      let nameLength = ZipWriterTests.u16(bytes, at + 26)
      names.append(Self.text(Array(bytes[(at + 30)..<(at + 30 + nameLength)])))
      if ZipWriterTests.u16(bytes, at + 6) & 8 != 0 { break }
      at += 30 + nameLength + Int(ZipWriterTests.u32(bytes, at + 18))
    }
    #expect(
      names == [
        "[Content_Types].xml", "_rels/.rels", "xl/workbook.xml", "xl/_rels/workbook.xml.rels",
        "xl/styles.xml", "xl/worksheets/sheet1.xml",
      ])
  }

  @Test func recordPastTheLastRowEndsTheWorkbookAndIsAnError() {
    var h = WriterHarness(.csv, columns: ["n"])
    for n in 1...5 { h.add(["\(n)"]) }
    let (bytes, error) = Self.write(h, types: [.number], rowLimit: 3)
    #expect(
      error == .failed(
        "a sheet ends at row 3: the workbook holds the header and the first 2 records; narrow the query, or add limit:"))
    let xml = Self.text(bytes)
    #expect(xml.contains("<row r=\"3\"><c r=\"A3\"><v>2</v></c></row></sheetData><autoFilter ref=\"A1:A3\"/>"))
    #expect(!xml.contains("<row r=\"4\">"))
    // The workbook is whole: it ends with the central directory's end record.
    #expect(Array(bytes.suffix(22).prefix(4)) == [0x50, 0x4B, 0x05, 0x06])
  }

  @Test func moreColumnsThanASheetHoldsIsAnError() {
    let h = WriterHarness(.csv, columns: (0...XLSXWriter.maxColumns).map { "c\($0)" })
    let (_, error) = Self.write(h, types: [])
    #expect(error == .failed("a sheet holds 16,384 columns, and the output has 16,385; choose fewer with fields:"))
  }
}
