import Testing

@testable import SiftCLI

/// How `--engine spark` reads `spark-sql`'s standard output back (Docs/Engines.md, Engines).
@Suite struct EngineClientTests {
  /// The output is cut at the end lines that start a row; a quoted value that holds a line
  /// break and then the end line's text stays in its row.
  @Test func sparkOutputIsCutAtEndLinesOutsideQuotes() {
    let end = EngineClient.sparkEnd
    let output = "\"total\",\"matched\"\n\"3\",\"2\"\n\(end)\n"
      + "\"note\"\n\"one\n\(end)\nstill one\"\n\"two \"\"quoted\"\"\"\n\(end)\n"
    let parts = EngineClient.sparkParts(Array(output.utf8)).map { String(decoding: $0, as: UTF8.self) }
    #expect(parts == [
      "\"total\",\"matched\"\n\"3\",\"2\"\n",
      "\"note\"\n\"one\n\(end)\nstill one\"\n\"two \"\"quoted\"\"\"\n",
    ])
  }

  /// Spark's log lines, timings and stack frames are left out of an error's message.
  @Test func sparkChatterIsNotTheError() {
    let said = """
      Using Spark's default log4j profile: org/apache/spark/log4j2-defaults.properties
      26/11/25 00:36:27 WARN NativeCodeLoader: Unable to load native-hadoop library
      Time taken: 1.429 seconds
      [TABLE_OR_VIEW_NOT_FOUND] The table or view `nonexistent` cannot be found.
      \tat org.apache.spark.sql.Foo.bar(Foo.scala:1)
      """
    #expect(said.split(separator: "\n").filter { !EngineClient.isNoise($0) }
      == ["[TABLE_OR_VIEW_NOT_FOUND] The table or view `nonexistent` cannot be found."])
  }
}
