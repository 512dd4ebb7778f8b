import SiftCore

extension Frontend {
  /// The matching records in the output format, or with `-c` their count, per group with
  /// `group:` (Docs/CommandLine.md, Counting); the feedback bar after them.
  func records(_ job: Job) -> ExitStatus {
    let recordRun = RecordRun(job: job, frontend: self)
    do throws(Problem) {
      let opened = try recordRun.open()
      let plan = opened.plan
      let presentation = presentation(opened.format, of: job)
      let fastFilterChips = try recordRun.inactiveChips(
        plan, ascii: !presentation.unicode, over: opened.dataset)
      let records = recordOutput(presentation)
      let writer = recordRun.makeWriter(plan, opened.inputs, presentation, records)
      let summary = try recordRun.execute(plan, on: opened.dataset, writer: writer, records: records)
      let status = try present(
        plan, summary, presentation, records: records, of: job, fastFilterChips: fastFilterChips)
      if let note = recordRun.bytesNotUTF8Note(plan, summary, opened.inputs) {
        console.error(note + "\n")
      }
      return status
    } catch {
      return report(error)
    }
  }
}
