import Testing

@testable import SiftCore

@Suite struct DisplayWidthTests {
  @Test(arguments: [
    ("abc", 3),
    ("", 0),
    ("caf\u{e9}", 4),
    ("cafe\u{301}", 4),  // e + combining acute
    ("\u{65e5}\u{672c}\u{8a9e}", 6),  // 日本語
    ("\u{ff21}\u{ff22}", 4),  // fullwidth ＡＢ
    ("\u{d55c}\u{ae00}", 4),  // 한글
    ("\u{1F600}", 2),  // 😀
    ("\u{1F44D}\u{1F3FD}", 4),  // thumbs up + skin tone: each emoji scalar counts
    ("\u{1F468}\u{200D}\u{1F469}", 4),  // ZWJ counts nothing
    ("a\u{200B}b", 2),  // zero-width space
    ("\u{2764}\u{FE0F}", 1),  // variation selector counts nothing
    ("\u{2026}", 1),  // …
    ("a\u{1b}b", 2),  // control characters count nothing
    ("\u{1FAE8}", 2),  // an emoji newer than the tables' Unicode version
  ])
  func measures(text: String, width: Int) {
    #expect(displayWidth(of: text) == width)
    #expect(displayWidth(of: Substring(text)) == width)
  }

  @Test(arguments: [
    ("abcdef", 4, "\u{2026}", "abc\u{2026}"),
    ("abcdef", 6, "\u{2026}", "abcdef"),
    ("abcdef", 5, "...", "ab..."),
    // A wide character is never split.
    ("\u{65e5}\u{672c}\u{8a9e}", 4, "\u{2026}", "\u{65e5}\u{2026}"),
    ("\u{65e5}\u{672c}\u{8a9e}", 5, "\u{2026}", "\u{65e5}\u{672c}\u{2026}"),
    ("e\u{301}e\u{301}e\u{301}", 3, "\u{2026}", "e\u{301}e\u{301}e\u{301}"),
    // Combining marks stay with their letter.
    ("e\u{301}e\u{301}e\u{301}e", 3, "\u{2026}", "e\u{301}e\u{301}\u{2026}"),
    ("abcdef", 2, "...", "ab"),  // no room for the ellipsis
    ("abc", 0, "\u{2026}", ""),
  ])
  func truncates(text: String, width: Int, ellipsis: String, expected: String) {
    let cut = truncate(text, toWidth: width, ellipsis: ellipsis)
    #expect(cut == expected)
    #expect(displayWidth(of: cut) <= width)
  }

  @Test func rangeTablesAreSortedPairs() {
    for table in [DisplayWidth.wideRanges, DisplayWidth.zeroWidthRanges] {
      #expect(table.count % 2 == 0)
      for i in stride(from: 0, to: table.count, by: 2) {
        #expect(table[i] <= table[i + 1])
        if i > 0 { #expect(table[i - 1] < table[i]) }
      }
    }
  }

  @Test(arguments: [
    (0, "0"), (999, "999"), (1203, "1,203"), (1_000_000, "1,000,000"), (-12345, "-12,345"),
  ])
  func groupsDigits(n: Int, text: String) {
    #expect(groupedDigits(n) == text)
  }
}
