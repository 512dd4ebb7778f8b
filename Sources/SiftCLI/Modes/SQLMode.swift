import SiftCore

extension Frontend {
  /// `--sql DIALECT`: the query as an SQL statement, not run (Docs/Engines.md).
  func sql(_ job: Job) -> ExitStatus {
    do throws(Problem) {
      let prepared = try SQLStatement(job: job, frontend: self).prepare()
      return console.output(try SQLStatement.sql(prepared.writer.source, prepared.writer.text)) ?? .matched
    } catch {
      return report(error)
    }
  }
}
