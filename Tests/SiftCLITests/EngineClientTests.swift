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

  /// A Spark failure is its one-line reason: the error class's last line, without the
  /// executor's log lines, the exception's Java class, stack tails and the SQLSTATE.
  @Test func sparkFailureIsItsOneLineReason() {
    let said = """
      26/11/26 15:18:18 WARN Utils: Your hostname resolves to a loopback address
      26/11/26 15:18:22 ERROR Executor: Exception in task 0.0 in stage 6.0 (TID 5)
      org.apache.spark.SparkRuntimeException: [USER_RAISED_EXCEPTION] sift: Spark cannot sum 1e30 exactly SQLSTATE: P0001
      \tat org.apache.spark.sql.errors.QueryExecutionErrors$.raiseError(QueryExecutionErrors.scala:2811)
      \tSuppressed: org.apache.spark.util.Utils$OriginalTryStackTraceException: Full stacktrace
      \t\t... 38 more
      26/11/26 15:18:22 ERROR TaskSetManager: Task 0 in stage 6.0 failed 1 times; aborting job
      [USER_RAISED_EXCEPTION] sift: Spark cannot sum 1e30 exactly SQLSTATE: P0001
      """
    #expect(EngineClient.reason(said) == ["[USER_RAISED_EXCEPTION] sift: Spark cannot sum 1e30 exactly"])
  }

  /// The JVM's warning that opens every run of Spark 4 is chatter too, also where the error
  /// names no class.
  @Test func theJVMsWarningIsNotTheError() {
    let said = """
      WARNING: Using incubator modules: jdk.incubator.vector
      Using Spark's default log4j profile: org/apache/spark/log4j2-defaults.properties
      26/11/26 17:43:48 WARN Utils: Set SPARK_LOCAL_IP if you need to bind to another address
      Setting default log level to "WARN".
      Error: Failed to load class org.example.Missing.
      """
    #expect(EngineClient.reason(said) == ["Error: Failed to load class org.example.Missing."])
  }

  /// Without an error class, every line that is not chatter (DuckDB's message).
  @Test func aMessageWithoutAnErrorClassIsKept() {
    let said = "Catalog Error: Table with name no_such_table does not exist!\nDid you mean \"grn\"?\n"
    #expect(EngineClient.reason(said)
      == ["Catalog Error: Table with name no_such_table does not exist!", "Did you mean \"grn\"?"])
  }
}

/// How a result's path is written on a line of DuckDB's script (Docs/Engines.md, Engines): one
/// argument on one line, whatever `$TMPDIR` holds.
@Suite struct DotCommandArgumentTests {
  @Test(arguments: [
    ("/tmp/a b/r.csv", #""/tmp/a b/r.csv""#),
    (#"/tmp/"q"/r.csv"#, #""/tmp/\"q\"/r.csv""#),
    (#"/tmp/b\s/r.csv"#, #""/tmp/b\\s/r.csv""#),
    ("/tmp/line\nbreak/r.csv", #""/tmp/line\nbreak/r.csv""#),
    ("/tmp/crlf\r\nbreak/r.csv", #""/tmp/crlf\r\nbreak/r.csv""#),
  ])
  func aPathIsOneArgumentOnOneLine(path: String, written: String) {
    #expect(EngineClient.dotCommandArgument(path) == written)
  }
}
