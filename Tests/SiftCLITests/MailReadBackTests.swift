import Foundation
import Testing

/// The e-mail report (Docs/Reports.md, The e-mail report) read back by Python's `email` package,
/// as a mail reader parses it: the subject, the parts in order, the plain text, the HTML report
/// and the attached workbook's rows (read with openpyxl).
@Suite struct MailReadBackTests {
  static let python3 = executable("python3")
  static let hasOpenpyxl: Bool = {
    guard let python3 else { return false }
    return (try? runProcess(python3, ["-c", "import openpyxl"]))?.status == 0
  }()

  /// Three holds on Monday; on Tuesday one changed, one is new and one is gone.
  static let monday = "Tests/SiftCLITests/Fixtures/changes/holds-monday.csv"
  static let tuesday = "Tests/SiftCLITests/Fixtures/changes/holds-tuesday.csv"

  @Test(.enabled(if: hasOpenpyxl, "needs python3 with openpyxl (pip install openpyxl)"))
  func aMailReaderSeesTheChangesTheTextAndTheWorkbook() throws {
    let result = sift(
      [
        "status:hold", Self.tuesday, "--changes", "grn_no", "--against", Self.monday, "-o", "eml",
        "--attach", "xlsx", "--title", "Holds", "--now", "2026-11-25T06:00",
      ], stdin: [])
    #expect(result.status == .matched)
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("sift-mail-\(getpid())-\(UUID().uuidString).eml")
    try Data(result.stdout).write(to: url)
    defer { try? FileManager.default.removeItem(at: url) }
    let script = """
      import sys, io, email, openpyxl
      from email.header import decode_header, make_header
      m = email.message_from_bytes(open(sys.argv[1], 'rb').read())
      print(str(make_header(decode_header(m['Subject']))))
      print(' '.join(p.get_content_type() for p in m.walk()))
      for p in m.walk():
          body = p.get_payload(decode=True)
          if p.get_content_type() == 'text/plain':
              print(body.decode().splitlines()[1])
          elif p.get_content_type() == 'text/html':
              print(body.decode().count('<tr>') > 0, '<!DOCTYPE html>' in body.decode())
          elif p.get_filename():
              ws = openpyxl.load_workbook(io.BytesIO(body)).active
              print(p.get_filename(), [[c.value for c in r][:2] for r in ws.iter_rows()])
      """
    let read = try runProcess(try #require(Self.python3), ["-c", script, url.path])
    #expect(read.status == 0, "\(read.stderr)")
    let lines = read.stdout.split(separator: "\n").map(String.init)
    try #require(lines.count == 5, "\(read.stdout)")
    #expect(lines[0].hasPrefix("Holds: ") && lines[0].contains(" new · ") && lines[0].contains(" gone"))
    #expect(
      lines[1]
        == "multipart/mixed multipart/alternative text/plain text/html "
        + "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")
    #expect(lines[2].contains("changes by Grn No.") && lines[2].contains(" new,"))
    #expect(lines[3] == "True True")
    #expect(lines[4].hasPrefix("holds-tuesday.xlsx [['change', 'grn_no'], "))
  }

  /// The HTML part strikes a changed value's earlier one through, with no `was` column, as
  /// `-o html --changes` does; the plain text and the CSV attachment keep their `was` column.
  @Test(.enabled(if: python3 != nil, "needs python3"))
  func theHTMLPartStrikesThroughAndTheOtherPartsSayWas() throws {
    let result = sift(
      [
        "status:hold", Self.tuesday, "--changes", "grn_no", "--against", Self.monday, "-o", "eml",
        "--attach", "csv", "--now", "2026-11-25T06:00",
      ], stdin: [])
    #expect(result.status == .matched)
    let script = """
      import sys, email, re
      m = email.message_from_bytes(sys.stdin.buffer.read())
      for p in m.walk():
          body = p.get_payload(decode=True)
          if body is None:
              continue
          text = body.decode()
          if p.get_content_type() == 'text/html':
              print('html', re.findall(r'<th[^>]*>([^<]*)</th>', text))
              print('html', re.findall(r'<del[^>]*>([^<]*)</del> ([^<]*)</td>', text))
          else:
              starts = ('change ', 'changed ', 'change,', 'changed,')
              rows = [l for l in text.splitlines() if l.startswith(starts)]
              last = [l.split(',')[-1] if ',' in l else l.split()[-1] for l in rows]
              print(p.get_content_type(), last)
      """
    let read = try runProcess(try #require(Self.python3), ["-c", script], input: result.stdout)
    #expect(read.status == 0, "\(read.stderr)")
    #expect(
      read.stdout.split(separator: "\n").map(String.init) == [
        "text/plain ['was', 'qty=8']",
        "html ['Change', 'Grn No', 'Status', 'Customer', 'Qty']",
        "html [('8', '6')]",
        "text/csv ['was', 'qty=8']",
      ])
  }
}
