import Testing

@testable import SiftBenchKit

@Suite struct GenerateOptionsTests {
  @Test func readsEveryOption() throws {
    let options = try GenerateOptions(arguments: [
      "--rows", "1000000", "--format", "ndjson", "--seed", "7", "--kind", "grn", "--out",
      "g.ndjson",
    ])
    #expect(
      options == GenerateOptions(rows: 1_000_000, format: .ndjson, seed: 7, outputPath: "g.ndjson"))
  }

  @Test func theSeedDefaultsToOneAndTheOutputToStandardOutput() throws {
    let options = try GenerateOptions(arguments: ["--format", "csv", "--rows", "5"])
    #expect(options == GenerateOptions(rows: 5, format: .csv, seed: 1, outputPath: nil))
  }

  @Test(arguments: [
    ([], "--rows is required"),
    (["--rows", "10"], "--format is required"),
    (["--rows", "ten", "--format", "csv"], "--rows needs a count, not 'ten'"),
    (["--rows", "-1", "--format", "csv"], "--rows needs a count, not '-1'"),
    (["--rows", "1", "--format", "tsv"], "--format is csv or ndjson, not 'tsv'"),
    (["--rows", "1", "--format", "csv", "--seed", "x"], "--seed needs a number, not 'x'"),
    (
      ["--rows", "1", "--format", "csv", "--kind", "orders"], "--kind can only be grn, not 'orders'"
    ),
    (["--rows", "1", "--format", "csv", "--fast", "yes"], "unknown option '--fast'"),
    (["--rows", "1", "--format"], "--format needs a value"),
  ])
  func rejectsWhatItCannotRun(arguments: [String], message: String) {
    #expect(throws: UsageError(message)) { try GenerateOptions(arguments: arguments) }
  }
}
