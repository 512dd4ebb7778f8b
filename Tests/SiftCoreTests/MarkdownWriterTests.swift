import Testing

@testable import SiftCore

@Suite struct MarkdownWriterTests {
  func markdown(numeric: [Bool] = []) -> WriterOptions {
    WriterOptions(format: .markdown, numericColumns: numeric)
  }

  @Test func tableWithNumericColumnsRightAligned() throws {
    var h = WriterHarness(.csv, columns: ["grn_no", "customer", "qty"])
    h.add(["G-1", "\"Acme, Inc\"", "12"])
    h.add(["G-2", "", "-3.5"])
    #expect(
      try h.text(markdown(numeric: [false, false, true])) == """
        | grn_no | customer | qty |
        | --- | --- | ---: |
        | G-1 | Acme, Inc | 12 |
        | G-2 |  | -3.5 |

        """)
  }

  @Test func escapesPipesAndLineBreaks() throws {
    var h = WriterHarness(.csv, columns: ["a|b", "note"])
    h.add(["x|y", "\"one\r\ntwo\nthree\rfour\""])
    #expect(
      try h.text(markdown()) == """
        | a\\|b | note |
        | --- | --- |
        | x\\|y | one<br>two<br>three<br>four |

        """)
  }

  @Test func headerWithoutRecords() throws {
    let h = WriterHarness(.csv, columns: ["id", "n"])
    #expect(try h.text(markdown(numeric: [false, true])) == "| id | n |\n| --- | ---: |\n")
  }

  @Test func jsonValuesAsText() throws {
    var h = WriterHarness(.json, columns: ["s", "o", "z", "m"])
    h.add(["\"a|b\"", "{\"k\": [1,\n 2]}", "null", nil])
    #expect(
      try h.text(markdown())
        == "| s | o | z | m |\n| --- | --- | --- | --- |\n| a\\|b | {\"k\":[1,2]} |  |  |\n")
  }

  @Test func eachGroupIsATableUnderItsLabel() throws {
    var h = WriterHarness(.csv, columns: ["customer", "qty"])
    h.group("Acme *Corp*", count: 1203)
    h.add(["Acme", "5"])
    h.group("Beta", count: 1)
    h.add(["Beta", "7"])
    #expect(
      try h.text(markdown(numeric: [false, true])) == """
        **Acme \\*Corp\\* (1,203)**

        | customer | qty |
        | --- | ---: |
        | Acme | 5 |

        **Beta (1)**

        | customer | qty |
        | --- | ---: |
        | Beta | 7 |

        """)
  }
}
