import Testing

/// Records with very many fields pass through in time linear in their width (Docs/Formats.md,
/// Large records). Width used to be quadratic: 5,000 CSV columns took 28 s and 100,000 JSON keys
/// 30 s in a release build; at 20,000 columns such code runs for minutes here, so these tests
/// would not finish. They check every value as well.
@Suite struct WideRecordTests {
  static let width = 20_000

  @Test func csvWithTwentyThousandColumnsComesOutAsItWentIn() {
    let header = (0..<Self.width).map { "c\($0)" }.joined(separator: ",")
    let rows = (1...3).map { r in (0..<Self.width).map { "\(r * $0)" }.joined(separator: ",") }
    let input = ([header] + rows).joined(separator: "\n") + "\n"
    let result = sift(["", "-o", "csv", "-q"], stdin: Array(input.utf8))
    #expect(result.status == .matched)
    #expect(result.text == input)
    let last = sift(["c19999:>20000", "-c"], stdin: Array(input.utf8))
    #expect(last.text == "2\n")
  }

  @Test func jsonWithTwentyThousandKeysBecomesTwentyThousandColumns() {
    let object = "{" + (0..<Self.width).map { "\"k\($0)\": \($0)" }.joined(separator: ", ") + "}"
    let input = "[" + Array(repeating: object, count: 3).joined(separator: ",\n") + "]"
    let result = sift(["", "-f", "json", "-o", "csv", "-q"], stdin: Array(input.utf8))
    #expect(result.status == .matched)
    let lines = result.text.split(separator: "\n")
    #expect(lines.count == 4)
    #expect(lines.first == Substring((0..<Self.width).map { "k\($0)" }.joined(separator: ",")))
    #expect(lines.last == Substring((0..<Self.width).map { "\($0)" }.joined(separator: ",")))
  }
}
