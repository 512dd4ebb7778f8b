import Foundation
import Testing

/// A workbook sift writes (Docs/Formats.md, Writing workbooks) read back by other programs:
/// openpyxl reads every value with its type, and LibreOffice converts it back to CSV. Each test
/// needs its program and is skipped with the reason where it is not installed.
@Suite struct WorkbookReadBackTests {
  static let python3 = executable("python3")
  static let hasOpenpyxl: Bool = {
    guard let python3 else { return false }
    return (try? runProcess(python3, ["-c", "import openpyxl"]))?.status == 0
  }()
  static let soffice = executable("soffice")

  /// Every kind of value: IDs with leading zeros and over 15 digits, numbers, dates, date-times
  /// (with an offset, kept as text), booleans, text that looks like a formula, markup, a line
  /// break, a control character, an empty value.
  static let csv = """
    id,qty,price,day,updated,paid,note\r
    007,12,"1,234.50",2024-06-12,2024-06-12T09:30:00,true,=SUM(A1:A9)\r
    12345678901234567,-3,0.1,1900-03-01,2024-06-12T23:59:59,false,"A&B <c> ""q"" x"\r
    123,0,,2023-12-31,2024-06-12T09:01:10+02:00,TRUE,"two\nlines"\r
    042,7,2.5,2024-02-29,2024-01-01T00:00:00,False,bell\u{7}\r

    """

  /// Each row's cells as openpyxl reads them: `type:value`. The control character is written as
  /// Excel's `_x0007_` escape, which Excel and LibreOffice turn back into the character (see the
  /// LibreOffice test) and openpyxl leaves as it is, as it does in any workbook.
  static let expected = [
    "str:id|str:qty|str:price|str:day|str:updated|str:paid|str:note",
    "str:007|int:12|float:1234.5|datetime:2024-06-12 00:00:00|datetime:2024-06-12 09:30:00|bool:True|str:=SUM(A1:A9)",
    "str:12345678901234567|int:-3|float:0.1|datetime:1900-03-01 00:00:00|datetime:2024-06-12 23:59:59|bool:False|str:A&B <c> \"q\" x",
    "int:123|int:0|NoneType:None|datetime:2023-12-31 00:00:00|str:2024-06-12T09:01:10+02:00|bool:True|str:two\\nlines",
    "str:042|int:7|float:2.5|datetime:2024-02-29 00:00:00|datetime:2024-01-01 00:00:00|bool:False|str:bell_x0007_",
  ]

  static func workbook() throws -> URL {
    let result = sift(["-q", "", "-f", "csv", "-o", "xlsx"], stdin: Array(csv.utf8))
    #expect(result.status == .matched)
    #expect(result.stderr == "")
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("sift-readback-\(getpid())-\(UUID().uuidString).xlsx")
    try Data(result.stdout).write(to: url)
    return url
  }

  @Test(.enabled(if: hasOpenpyxl, "needs python3 with openpyxl (pip install openpyxl)"))
  func openpyxlReadsEveryValueAndType() throws {
    let url = try Self.workbook()
    defer { try? FileManager.default.removeItem(at: url) }
    let script = """
      import sys, openpyxl
      wb = openpyxl.load_workbook(sys.argv[1])
      ws = wb.active
      print(wb.sheetnames, ws.freeze_panes, ws.auto_filter.ref, ws['A1'].font.b, ws['B1'].font.b)
      for row in ws.iter_rows():
          print('|'.join(type(c.value).__name__ + ':' + (str(c.value).encode('unicode_escape').decode()) for c in row))
      print(ws['C2'].number_format, ws['D2'].number_format, ws['E2'].number_format, ws['G2'].quotePrefix)
      """
    let result = try runProcess(try #require(Self.python3), ["-c", script, url.path])
    #expect(result.status == 0, "\(result.stderr)")
    let lines = result.stdout.split(separator: "\n").map(String.init)
    #expect(lines.first == "['stdin'] A2 A1:G5 True True")
    #expect(Array(lines.dropFirst().prefix(5)) == Self.expected)
    #expect(lines.last == "General yyyy-mm-dd yyyy-mm-dd hh:mm:ss True")
  }

  /// A decimal-comma file and a day-first file: each field's numbers and dates are read in the
  /// field's own convention, so openpyxl gets numbers and dates, not their text; a summary's
  /// computed numbers are read with a point, its group and `max:` of dates in the field's
  /// convention; `--changes` adds its two text columns around the fields.
  static let fixtures = "Tests/SiftCLITests/Fixtures/"
  static let conventionCases: [([String], [String])] = [
    (
      ["", fixtures + "decimal-comma.csv"],
      [
        "str:Beleg|str:Datum|str:Lager|str:Menge|str:Betrag",
        "str:B-1001|datetime:2026-11-25 00:00:00|str:Nord|int:1200|float:1234.5",
        "str:B-1002|datetime:2026-11-26 00:00:00|str:Süd|float:12.5|float:-0.5",
        "str:B-1003|datetime:2026-11-27 00:00:00|str:Nord|int:3|int:10",
        "str:B-1004|datetime:2026-11-28 00:00:00|str:Süd|int:250|int:2000",
      ]
    ),
    (
      ["", fixtures + "dates-de.csv"],
      [
        "str:Beleg|str:Datum|str:Menge|str:Lieferung",
        "str:B-1001|datetime:2026-11-25 00:00:00|int:3|datetime:2026-11-25 14:03:00",
        "str:B-1002|datetime:2026-02-01 00:00:00|int:4|datetime:2026-02-01 08:15:00",
        "str:B-1003|datetime:2026-06-15 00:00:00|int:5|datetime:2026-06-15 23:59:00",
        "str:B-1004|datetime:2026-06-03 00:00:00|int:2|datetime:2026-06-03 06:00:00",
        "str:B-1005|datetime:2026-06-01 00:00:00|int:7|datetime:2026-06-01 12:00:00",
        "str:B-1006|datetime:2026-01-15 00:00:00|int:1|datetime:2026-01-15 09:30:00",
      ]
    ),
    (
      ["sum:Betrag avg:Menge max:Datum group:Menge", fixtures + "decimal-comma.csv"],
      [
        "str:Menge|str:count|str:Betrag_sum|str:Menge_avg|str:Datum_max",
        "int:3|int:1|int:10|int:3|datetime:2026-11-27 00:00:00",
        "float:12.5|int:1|float:-0.5|float:12.5|datetime:2026-11-26 00:00:00",
        "int:250|int:1|int:2000|int:250|datetime:2026-11-28 00:00:00",
        "int:1200|int:1|float:1234.5|int:1200|datetime:2026-11-25 00:00:00",
      ]
    ),
    (
      [
        "status:hold", "--changes", "grn_no", "--against", fixtures + "changes/holds-monday.csv",
        fixtures + "changes/holds-tuesday.csv",
      ],
      [
        "str:change|str:grn_no|str:status|str:customer|str:qty|str:was",
        "str:changed|str:GRN-1004|str:hold|str:Northwind|int:6|str:qty=8",
        "str:new|str:GRN-1005|str:hold|str:Acme Tools|int:1|NoneType:None",
        "str:new|str:GRN-1006|str:hold|str:Quote, Comma & Co|int:4|NoneType:None",
        "str:gone|str:GRN-1002|str:hold|str:The \"Best\" Supplies|int:3|NoneType:None",
      ]
    ),
  ]

  @Test(
    .enabled(if: hasOpenpyxl, "needs python3 with openpyxl (pip install openpyxl)"),
    arguments: conventionCases)
  func openpyxlReadsValuesInTheFieldsConvention(_ arguments: [String], _ expected: [String]) throws {
    let result = sift(["-q", "-o", "xlsx"] + arguments)
    #expect(result.status == .matched, "\(result.stderr)")
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("sift-conventions-\(getpid())-\(UUID().uuidString).xlsx")
    defer { try? FileManager.default.removeItem(at: url) }
    try Data(result.stdout).write(to: url)
    let script = """
      import sys, openpyxl
      for row in openpyxl.load_workbook(sys.argv[1]).active.iter_rows(values_only=True):
          print('|'.join(type(v).__name__ + ':' + str(v) for v in row))
      """
    let read = try runProcess(try #require(Self.python3), ["-c", script, url.path])
    #expect(read.status == 0, "\(read.stderr)")
    #expect(read.stdout.split(separator: "\n").map(String.init) == expected)
  }

  /// `--changes -o xlsx` over a file with a malformed record: exit 2, and the workbook of the
  /// changes before it is whole (Docs/Formats.md, Writing workbooks).
  @Test(.enabled(if: hasOpenpyxl, "needs python3 with openpyxl (pip install openpyxl)"))
  func aChangesWorkbookStoppedByAMalformedRecordIsWhole() throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("sift-changes-xlsx-\(getpid())-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let tuesday = try String(
      contentsOfFile: "Tests/SiftCLITests/Fixtures/changes/holds-tuesday.csv", encoding: .utf8)
    let input = folder.appendingPathComponent("tuesday.csv")
    try Data((tuesday + "GRN-1007,\"hold,2\n").utf8).write(to: input)
    let result = sift(
      [
        "--changes", "grn_no", "--against", "Tests/SiftCLITests/Fixtures/changes/holds-monday.csv",
        "-o", "xlsx", "", input.path,
      ], environment: ["LANG": "C.UTF-8", "SIFT_NOW": "2026-11-24T07:00"])
    #expect(result.status == .error)
    #expect(result.stderr.contains("unterminated quoted field"))
    let url = folder.appendingPathComponent("changes.xlsx")
    try Data(result.stdout).write(to: url)
    let script = """
      import sys, openpyxl
      for row in openpyxl.load_workbook(sys.argv[1]).active.iter_rows(values_only=True):
          print(row[0], row[1])
      """
    let read = try runProcess(try #require(Self.python3), ["-c", script, url.path])
    #expect(read.status == 0, "\(read.stderr)")
    #expect(read.stdout == "change grn_no\nchanged GRN-1004\nchanged GRN-1005\nnew GRN-1006\n")
  }

  /// `sift --views -o xlsx` (the golden case `xlsx-views-sheet-per-view`): a sheet per view with
  /// a source, named by Excel's rules; the view that cannot be read has a sheet saying why.
  @Test(.enabled(if: hasOpenpyxl, "needs python3 with openpyxl (pip install openpyxl)"))
  func openpyxlReadsASheetPerView() throws {
    let result = sift(
      [
        "--config", "Tests/SiftCLITests/Cases/xlsx-views-sheet-per-view/sift.json", "--views", "-o",
        "xlsx",
      ], environment: ["LANG": "C.UTF-8", "SIFT_NOW": "2026-11-24T07:00"])
    #expect(result.status == .error)
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("sift-views-\(getpid())-\(UUID().uuidString).xlsx")
    defer { try? FileManager.default.removeItem(at: url) }
    try Data(result.stdout).write(to: url)
    let script = """
      import sys, openpyxl
      for ws in openpyxl.load_workbook(sys.argv[1]):
          print(ws.title, ws.max_row, ws.auto_filter.ref, ws['A1'].value)
      """
    let read = try runProcess(try #require(Self.python3), ["-c", script, url.path])
    #expect(read.status == 0, "\(read.stderr)")
    #expect(
      read.stdout == """
        GRN List_ pending_held _WH-01_ 17 A1:D17 grn_no
        GRN List_ pending_held _WH- (2) 4 A1:C4 grn_no
        History_ 1 A1:A1 Tests/SiftCLITests/Cases/xlsx-views-sheet-per-view/../../../../SampleData/grn-2019.csv: no such file

        """)
  }

  @Test(.enabled(if: soffice != nil, "needs LibreOffice (apt-get install -y libreoffice-calc-nogui)"))
  func libreOfficeConvertsItBackToCSV() throws {
    let url = try Self.workbook()
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("sift-lo-\(getpid())-\(UUID().uuidString)")
    defer {
      try? FileManager.default.removeItem(at: url)
      try? FileManager.default.removeItem(at: folder)
    }
    let profile = folder.appendingPathComponent("profile")
    let result = try runProcess(
      try #require(Self.soffice),
      [
        "-env:UserInstallation=file://\(profile.path)", "--headless", "--convert-to", "csv",
        "--outdir", folder.path, url.path,
      ])
    #expect(result.status == 0, "\(result.stderr)")
    let csv = try String(
      contentsOf: folder.appendingPathComponent(url.deletingPathExtension().lastPathComponent + ".csv"),
      encoding: .utf8)
    #expect(
      csv == """
        id,qty,price,day,updated,paid,note
        007,12,1234.5,2024-06-12,2024-06-12 09:30:00,TRUE,=SUM(A1:A9)
        12345678901234567,-3,0.1,1900-03-01,2024-06-12 23:59:59,FALSE,"A&B <c> ""q"" x"
        123,0,,2023-12-31,2024-06-12T09:01:10+02:00,TRUE,"two
        lines"
        042,7,2.5,2024-02-29,2024-01-01 00:00:00,FALSE,bell\u{7}

        """)
  }
}
