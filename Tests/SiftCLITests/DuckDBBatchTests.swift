import Testing

/// DuckDBBatch answers each statement with its own result, in order, and a statement DuckDB
/// rejects with DuckDB's message, the statements after it still answered.
@Suite struct DuckDBBatchTests {
  @Test(.enabled(if: SQLDifferentialTests.duckdb != nil, "duckdb is not installed"))
  func eachStatementHasItsOwnAnswerAndAFailureItsMessage() throws {
    let answers = DuckDBBatch.run(
      [
        "SELECT 1 AS x, NULL AS y;", "SELECT 'a\"b' AS z WHERE false",
        "SELECT * FROM no_such_table;", "SELECT 2 AS w\nUNION ALL SELECT 3;",
      ], duckdb: try #require(SQLDifferentialTests.duckdb))
    try #require(answers.count == 4)
    guard case .rows(let first) = answers[0], case .rows(let second) = answers[1],
      case .failed(let why) = answers[2], case .rows(let fourth) = answers[3]
    else {
      Issue.record("\(answers)")
      return
    }
    // The client ends CSV lines with CRLF; a NULL is written empty.
    #expect(CSVText.rows(first) == [["x", "y"], ["1", ""]], "\(first)")
    #expect(CSVText.rows(second) == [["z"]], "\(second)")
    #expect(why.contains("no_such_table"), "\(why)")
    #expect(CSVText.rows(fourth) == [["w"], ["2"], ["3"]], "\(fourth)")
  }
}
