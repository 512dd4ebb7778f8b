import SiftCore

extension Frontend {
  /// `--engine ENGINE`: the query run on an SQL engine, its result written as sift writes its
  /// own (Docs/Engines.md, Engines).
  func engine(_ job: Job, _ engine: SQLEngine) -> ExitStatus {
    RecordRun(job: job, frontend: self).runOnEngine(engine)
  }
}
