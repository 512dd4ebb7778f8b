import Testing

@testable import SiftCore

@Suite struct TableWriterTests {
  func table(numeric: [Bool] = [], maxWidth: Int? = nil, ascii: Bool = false) -> WriterOptions {
    WriterOptions(format: .table, numericColumns: numeric, maxWidth: maxWidth, ascii: ascii)
  }

  func sample() -> WriterHarness {
    var h = WriterHarness(.csv, columns: ["grn_no", "customer", "qty"])
    h.add(["G-1", "Acme Corp", "12"])
    h.add(["G-22", "\"Beta, Ltd\"", "1500.25"])
    h.add(["G-3", "", "7"])
    return h
  }

  @Test func alignsColumnsNumbersRight() throws {
    #expect(
      try sample().text(table(numeric: [false, false, true])) == """
        grn_no  customer       qty
        ──────  ─────────  ───────
        G-1     Acme Corp       12
        G-22    Beta, Ltd  1500.25
        G-3                      7

        """)
  }

  @Test func noTrailingSpacesAndASCIIUnderline() throws {
    var h = WriterHarness(.csv, columns: ["name", "note"])
    h.add(["a", ""])
    h.add(["longer", "x"])
    #expect(try h.text(table(ascii: true)) == "name    note\n------  ----\na\nlonger  x\n")
  }

  @Test func headerOnlyWithoutRecords() throws {
    let h = WriterHarness(.csv, columns: ["id", "name"])
    #expect(try h.text(table()) == "id  name\n──  ────\n")
  }

  @Test func measuresWideCharactersAndEmoji() throws {
    var h = WriterHarness(.csv, columns: ["name", "n"])
    h.add(["\u{65e5}\u{672c}\u{8a9e}", "1"])  // 日本語: 6 columns
    h.add(["\u{1F600}ok", "22"])  // 😀ok: 4 columns
    h.add(["cafe\u{301}", "3"])  // café with a combining accent: 4 columns
    #expect(
      try h.text(table(numeric: [false, true])) == """
        name     n
        ──────  ──
        \u{65e5}\u{672c}\u{8a9e}   1
        \u{1F600}ok    22
        cafe\u{301}     3

        """)
  }

  @Test func shrinksTheWidestColumnsToFitWithEllipsis() throws {
    var h = WriterHarness(.csv, columns: ["id", "description", "customer"])
    h.add(["1", "Hex bolts M8 zinc plated, box of 100", "Acme Corporation"])
    h.add(["2", "Washers", "Beta"])
    let out = try h.text(table(maxWidth: 30))
    #expect(
      out == """
        id  description   customer
        ──  ────────────  ────────────
        1   Hex bolts M…  Acme Corpor…
        2   Washers       Beta

        """)
    for line in out.split(separator: "\n") {
      #expect(displayWidth(of: line) <= 30)
    }
  }

  @Test func neverCutsNumbersDatesOrIdentifiersButLeavesColumnsOutFromTheRight() throws {
    var h = WriterHarness(.csv, columns: ["flight", "date", "carrier_name", "distance"])
    h.add(["3075", "2024-03-01", "United Air Lines Inc.", "2475"])
    h.add(["12", "2024-03-02", "Delta", "187"])
    let out = try h.text(table(numeric: [true, false, false, true], maxWidth: 32))
    #expect(
      out == """
        flight  date        carrier_name
        ──────  ──────────  ────────────
          3075  2024-03-01  United Air …
            12  2024-03-02  Delta
        … 1 more field: distance; use f…

        """)
    for line in out.split(separator: "\n") {
      #expect(displayWidth(of: line) <= 32)
    }
  }

  @Test func textColumnsKeepEightColumnsOrTheirHeader() throws {
    var h = WriterHarness(.csv, columns: ["id", "a_long_header", "note"])
    h.add(["1", "some words here", "more words here"])
    #expect(
      try h.text(table(maxWidth: 28)) == """
        id  a_long_header  note
        ──  ─────────────  ─────────
        1   some words h…  more wor…

        """)
  }

  @Test func theFirstColumnIsAlwaysShown() throws {
    var h = WriterHarness(.csv, columns: ["aaaaaa", "bbbbbb"])
    h.add(["123456", "abcdef"])
    #expect(try h.text(table(maxWidth: 4)) == "aaa…\n────\n123…\n… 1…\n")
  }

  @Test func cutsWideCharactersWhole() throws {
    var h = WriterHarness(.csv, columns: ["name", "x"])
    h.add(["\u{65e5}\u{672c}\u{8a9e}\u{65e5}\u{672c} x", "y"])
    // 12 columns must fit in 8: three CJK characters (6 columns) and the ellipsis.
    #expect(
      try h.text(table(maxWidth: 11))
        == "name      x\n────────  ─\n\u{65e5}\u{672c}\u{8a9e}\u{2026}   y\n")
  }

  @Test func groupHeadersWithSharedWidths() throws {
    var h = WriterHarness(.csv, columns: ["customer", "qty"])
    h.group("Acme Corp", count: 1203)
    h.add(["Acme Corp", "5"])
    h.add(["Acme Corp", "12"])
    h.group("Beta", count: 1)
    h.add(["Beta", "300"])
    #expect(
      try h.text(table(numeric: [false, true])) == """
        customer   qty
        ─────────  ───
        Acme Corp (1,203)
        Acme Corp    5
        Acme Corp   12

        Beta (1)
        Beta       300

        """)
  }

  @Test func emptyGroupLabelIsNamed() throws {
    var h = WriterHarness(.csv, columns: ["a"])
    h.group("", count: 2)
    h.add(["x"])
    #expect(try h.text(table()) == "a\n─\n(empty) (2)\nx\n")
  }

  @Test func controlCharactersNeverReachTheTerminal() throws {
    var h = WriterHarness(.csv, columns: ["v"])
    h.add(["\"two\r\nlines\""])
    h.add(["\"tab\there\""])
    h.add(["esc\u{1b}[31mred"])
    h.add(["del\u{7f}"])
    h.add(["c1\u{9b}x"])
    h.add(["rtl\u{202e}x"])
    h.add(bytes: [[0x62, 0x61, 0x64, 0xFF]])
    let out = try h.text(table())
    #expect(
      out == """
        v
        ───────────
        two\u{21b5}lines
        tab\u{2409}here
        esc\u{241b}[31mred
        del\u{2421}
        c1\u{FFFD}x
        rtl\u{FFFD}x
        bad\u{FFFD}

        """)
    #expect(!out.utf8.contains { $0 < 0x20 && $0 != 0x0A })
    let ascii = try h.text(table(ascii: true))
    #expect(
      ascii == "v\n-----------\ntwo\\nlines\ntab\\there\nesc?[31mred\ndel?\nc1?x\nrtl?x\nbad?\n")
  }

  @Test func groupHeaderIsCutToTheWidth() throws {
    var h = WriterHarness(.csv, columns: ["a"])
    h.group("A very long customer name", count: 5)
    h.add(["x"])
    #expect(try h.text(table(maxWidth: 12)) == "a\n─\nA very long\u{2026}\nx\n")
  }
}
