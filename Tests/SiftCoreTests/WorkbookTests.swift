import Foundation
import Testing

@testable import SiftCore

/// Workbooks in (Docs/Formats.md, Workbooks): cell values as text, date formats, the ZIP layer,
/// and the fixtures of three other programs read value for value against openpyxl.
@Suite struct WorkbookTests {
  static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("SiftCLITests/Fixtures/workbooks")

  static let openpyxlPresent: Bool = {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    p.arguments = ["python3", "-c", "import openpyxl"]
    p.standardError = FileHandle.nullDevice
    guard (try? p.run()) != nil else { return false }
    p.waitUntilExit()
    return p.terminationStatus == 0
  }()

  @Test(arguments: [
    (3.0, "3"), (0.1, "0.1"), (1_200_000, "1200000"), (0.00001, "0.00001"), (-2.5, "-2.5"),
    (12_345_678.125, "12345678.125"), (1e21, "1000000000000000000000"), (1e-7, "0.0000001"),
    (123_456_789_012, "123456789012"), (-0.0, "0"), (0.30000000000000004, "0.30000000000000004"),
  ])
  func numbersAreShortestPlainDecimals(value: Double, text: String) {
    #expect(CellText.decimal(value) == text)
  }

  @Test(arguments: [
    // 1900 system: serial 1 is 1900-01-01, 59 is 1900-02-28, 61 is 1900-03-01.
    (1.0, CellFormat.date, false, CellText.Serial.text("1900-01-01")),
    (59.0, .date, false, .text("1900-02-28")),
    (60.0, .date, false, .fictitiousLeapDay),
    (61.0, .date, false, .text("1900-03-01")),
    (46_351.0, .date, false, .text("2026-11-25")),
    (46_351.585416666667, .date, false, .text("2026-11-25T14:03:00")),
    (0.34409722222222222, .time, false, .text("08:15:30")),
    (46_351.5, .time, false, .text("2026-11-25T12:00:00")),
    (2_958_465.0, .date, false, .text("9999-12-31")),
    (2_958_466.0, .date, false, .outOfRange),
    (-1.0, .date, false, .outOfRange),
    // 1904 system: serial 0 is 1904-01-01.
    (0.0, .date, true, .text("1904-01-01")),
    (44_889.0, .date, true, .text("2026-11-25")),
  ])
  func dateSerials(serial: Double, format: CellFormat, date1904: Bool, expected: CellText.Serial) {
    #expect(CellText.serial(serial, format: format, date1904: date1904) == expected)
  }

  @Test(arguments: [
    ("dd.mm.yyyy", CellFormat.date), ("yyyy-mm-dd hh:mm", .date), ("hh:mm:ss", .time),
    ("[h]:mm", .time), ("mmm", .date), ("0.00", .number), ("General", .number),
    ("0.00\" days\"", .number), ("[Red]0.00;[Blue]-0.00", .number), ("#,##0 \\d", .number),
    ("0;dd.mm.yyyy", .number), ("[$-407]dd. mmmm yyyy", .date), ("0.00E+00", .number),
  ])
  func customFormatCodes(code: String, kind: CellFormat) {
    #expect(CellFormat.custom(code) == kind)
  }

  @Test(arguments: [(14, CellFormat.date), (22, .date), (18, .time), (47, .time), (2, .number), (49, .number)])
  func builtInFormats(id: Int, kind: CellFormat) {
    #expect(CellFormat.builtIn(id) == kind)
  }

  /// sift's records of `file` (sheet `sheet`), header first, missing values empty.
  static func siftRows(_ file: String, sheet: String? = nil) throws -> [[String]] {
    let path = fixtures.appendingPathComponent(file).path
    let opened = try ReaderFactory.makeReader(
      source: try ByteSource(path: path), format: nil, options: ReaderOptions(name: path, sheet: sheet))
    let result = try readAll(opened.reader)
    return [result.fields] + result.records.map { $0.map { $0 ?? "" } }
  }

  static let openpyxlRows = #"""
    import datetime, decimal, json, sys
    import openpyxl
    def text(v):
        if v is None: return ""
        if isinstance(v, bool): return "true" if v else "false"
        if isinstance(v, int): return str(v)
        if isinstance(v, float):
            t = format(decimal.Decimal(repr(v)), "f")
            if "." in t: t = t.rstrip("0").rstrip(".")
            return "0" if t in ("-0", "") else t
        if isinstance(v, datetime.datetime):
            return v.date().isoformat() if v.time() == datetime.time(0) else v.isoformat(timespec="seconds")
        if isinstance(v, datetime.date): return v.isoformat()
        if isinstance(v, datetime.time): return v.isoformat(timespec="seconds")
        return str(v)
    wb = openpyxl.load_workbook(sys.argv[1], data_only=True)
    ws = wb[sys.argv[2]] if len(sys.argv) > 2 else wb.worksheets[0]
    rows = [[text(v) for v in row] for row in ws.iter_rows(values_only=True)]
    rows = [r for r in rows if any(r)]
    last = max(i for i, v in enumerate(rows[0]) if v) + 1
    print(json.dumps([r[:last] for r in rows]))
    """#

  static func openpyxl(_ file: String, sheet: String? = nil) throws -> [[String]] {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    p.arguments = ["python3", "-c", openpyxlRows, fixtures.appendingPathComponent(file).path]
      + (sheet.map { [$0] } ?? [])
    let pipe = Pipe()
    p.standardOutput = pipe
    try p.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    return try JSONDecoder().decode([[String]].self, from: data)
  }

  /// Every value of each fixture sheet made by openpyxl, XlsxWriter (shared, rich and inline
  /// strings, cached formula values) and LibreOffice, as openpyxl reads it (dates in ISO form,
  /// numbers in their shortest decimal): an independent reader of the same files.
  @Test(
    .enabled(if: openpyxlPresent, "needs python3 with openpyxl"),
    arguments: [
      ("openpyxl.xlsx", "GRN"), ("openpyxl.xlsx", "Archiv"), ("xlsxwriter.xlsx", "Versand"),
      ("inline.xlsx", "Sheet1"), ("libreoffice.xlsx", "libreoffice"), ("date1904.xlsx", "Mac"),
    ])
  func valuesMatchOpenpyxl(file: String, sheet: String) throws {
    #expect(try Self.siftRows(file, sheet: sheet) == Self.openpyxl(file, sheet: sheet))
  }

  /// A title row (one cell) above a blank row and a table is skipped, and said in a note.
  @Test func titleRowsAreSkippedWithANote() throws {
    let path = Self.fixtures.appendingPathComponent("openpyxl.xlsx").path
    let opened = try ReaderFactory.makeReader(
      source: try ByteSource(path: path), format: nil,
      options: ReaderOptions(name: "openpyxl.xlsx", sheet: "Bericht"))
    #expect(opened.notes.contains { $0.contains("skipped the title row 1") })
    #expect(try readAll(opened.reader).records == [["Nord", "5"], ["Süd", "7"]])
  }

  /// A one-column sheet keeps its first row as the header: no title is skipped.
  @Test func oneColumnTableIsNotATitle() throws {
    let path = Self.fixtures.appendingPathComponent("one-column.xlsx").path
    let opened = try ReaderFactory.makeReader(
      source: try ByteSource(path: path), format: nil, options: ReaderOptions(name: "one-column.xlsx"))
    #expect(opened.notes.allSatisfy { !$0.contains("title") })
    let result = try readAll(opened.reader)
    #expect(result.fields == ["SKU"])
    #expect(result.records == [["A-1"], ["B-2"], ["C-3"]])
  }

  /// The ZIP64 end-of-central-directory record (an archive of more than 65,535 entries) and an
  /// entry with ZIP64 sizes, made by python3's zipfile.
  @Test(.enabled(if: openpyxlPresent, "needs python3"))
  func zip64ArchivesAreRead() throws {
    let dir = try #require(
      GzipTests.generate(
        """
        import zipfile
        with zipfile.ZipFile("many.zip", "w", zipfile.ZIP_STORED) as z:
            for i in range(65600): z.writestr("f%d" % i, b"")
            with z.open("data.csv", "w", force_zip64=True) as f: f.write(b"a,b\\n1,2\\n" * 1000)
        """))
    let bytes = try [UInt8](Data(contentsOf: dir.appendingPathComponent("many.zip")))
    let archive = try ZipArchive(source: ByteSource(bytes: bytes, name: "many.zip"))
    #expect(archive.entries.count == 65_601)
    let entry = try #require(archive.entry("data.csv"))
    let source = try archive.open(entry)
    var out: [UInt8] = []
    while try source.read(into: &out, maxCount: 4096) > 0 {}
    #expect(out == Array(String(repeating: "a,b\n1,2\n", count: 1000).utf8))
  }

  /// A damaged deflated part is an error naming the archive and part, never wrong bytes.
  @Test func damagedDeflatedPartIsAnError() throws {
    var bytes = try [UInt8](Data(contentsOf: Self.fixtures.appendingPathComponent("one-csv.zip")))
    let archive = try ZipArchive(source: ByteSource(bytes: bytes, name: "one.zip"))
    let entry = try #require(archive.entry("stock.csv"))
    // Flip a bit in the middle of the compressed data.
    let dataStart = entry.localHeaderOffset + 30 + entry.name.utf8.count
    bytes[dataStart + entry.compressedSize / 2] ^= 0x10
    let damaged = try ZipArchive(source: ByteSource(bytes: bytes, name: "one.zip"))
    let source = try damaged.open(try #require(damaged.entry("stock.csv")))
    var out: [UInt8] = []
    #expect(throws: InputError.self) { while try source.read(into: &out, maxCount: 4096) > 0 {} }
    do {
      while try source.read(into: &out, maxCount: 4096) > 0 {}
    } catch {
      #expect(error.name == "one.zip")
      #expect(error.message.contains("part stock.csv is damaged"))
    }
  }
}

extension WorkbookTests {
  /// The records before a bad cell are read first; the error names the sheet and cell.
  @Test func recordsBeforeABadCellComeFirst() throws {
    let path = Self.fixtures.appendingPathComponent("bad-shared-string.xlsx").path
    let opened = try ReaderFactory.makeReader(
      source: try ByteSource(path: path), format: nil, options: ReaderOptions(name: "b.xlsx"))
    var records: [[String?]] = []
    let error = #expect(throws: InputError.self) {
      while let batch = try opened.reader.nextBatch() {
        batch.withRows { rows in
          for r in 0..<rows.count { records.append((0..<batch.width).map { rows.row(r).field($0).string }) }
        }
      }
    }
    #expect(records == [["A-1", "4"]])
    #expect(error?.name.hasSuffix("bad-shared-string.xlsx:GRN!A3") == true)
  }
}
