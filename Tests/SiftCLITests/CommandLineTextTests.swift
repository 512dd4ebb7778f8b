import Testing

@testable import SiftCLI

/// The footer of a report (Docs/Reports.md) names the command line that makes it again: a shell
/// must read it back as the same arguments.
@Suite struct CommandLineTextTests {
  @Test(arguments: [
    ["status:pending", "grn.csv", "-o", "html"],
    ["customer:\"Acme Corp\" qty:>10", "SampleData/grn.csv"],
    ["it's", "", "a b", "$HOME", "`x`", "\\", "Zürich", "<b>x</b>", "@grn"],
  ])
  func readsBackAsTheSameArguments(_ arguments: [String]) throws {
    let line = commandLineText(arguments)
    #expect(try ShellWords.split(line) == ["sift"] + arguments)
  }

  @Test func plainWordsAreNotQuoted() {
    #expect(commandLineText(["@grn", "-o", "html", "SampleData/grn.csv"])
      == "sift @grn -o html SampleData/grn.csv")
  }
}
