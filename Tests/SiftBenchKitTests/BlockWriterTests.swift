import SiftCore
import Testing

@testable import SiftBenchKit

@Suite struct BlockWriterTests {
  func written(_ write: (BlockWriter) -> Void) throws -> String {
    let sink = MemorySink()
    let out = BlockWriter(sink: sink, blockSize: 16)
    write(out)
    try out.finish()
    return sink.text
  }

  @Test(arguments: [
    (123_450, false, false, "1234.50"),
    (123_450, true, false, "1,234.50"),
    (100_000_000, true, false, "1,000,000.00"),
    (99_999, true, false, "999.99"),
    (5, false, false, "0.05"),
    (123_450, false, true, "1234.5"),
    (120_000, false, true, "1200"),
    (24_692, false, true, "246.92"),
    (0, false, true, "0"),
  ])
  func writesMoney(cents: Int, grouped: Bool, trimmed: Bool, text: String) throws {
    #expect(try written { $0.appendCents(cents, grouped: grouped, trimmed: trimmed) } == text)
  }

  @Test func writesDatesAndTimes() throws {
    let moment = LocalDateTime(
      day: CalendarDay(year: 2024, month: 2, day: 29), hour: 7, minute: 5, second: 9)
    #expect(try written { $0.appendDateTime(moment) } == "2024-02-29T07:05:09")
    #expect(
      try written { $0.appendDateTime(moment, separator: .space, withSeconds: false) }
        == "2024-02-29 07:05")
    #expect(try written { $0.appendDecimal(42, minimumDigits: 6) } == "000042")
  }

  @Test func keepsEveryByteAcrossBlocksAndGrowsForLongAppends() throws {
    let long = String(repeating: "abcdefghij", count: 20_000)
    #expect(
      try written { out in
        for _ in 0..<3 {
          out.append(long)
          try? out.endRecord()
        }
      } == long + long + long)
  }

  @Test(arguments: [
    (2024, 6, 12, 19_886), (1970, 1, 1, 0), (2023, 1, 1, 19_358), (2000, 2, 29, 11_016),
  ])
  func countsDaysFrom1970(year: Int, month: Int, day: Int, ordinal: Int) {
    let date = CalendarDay(year: year, month: month, day: day)
    #expect(date.ordinal == ordinal)
    #expect(date.civil == (year, month, day))
  }

  @Test func quotesCSVFieldsOnlyWhenNeeded() {
    func csv(_ s: String) -> String { String(decoding: EncodedText.csvField(s), as: UTF8.self) }
    #expect(csv("Müller GmbH") == "Müller GmbH")
    #expect(csv("Smith, Jones & Co") == "\"Smith, Jones & Co\"")
    #expect(csv("The \"Best\" Supplies") == "\"The \"\"Best\"\" Supplies\"")
    #expect(csv("two\nlines") == "\"two\nlines\"")
  }

  @Test func escapesJSONStringsAndKeepsUTF8() {
    func json(_ s: String) -> String { String(decoding: EncodedText.jsonString(s), as: UTF8.self) }
    #expect(json("東京商事") == "\"東京商事\"")
    #expect(json("a\"b\\c\nd\te\u{1}") == #""a\"b\\c\nd\te\u0001""#)
  }
}
