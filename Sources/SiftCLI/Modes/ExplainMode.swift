import SiftCore

extension Frontend {
  /// `--explain` over a FILE: what the plan made of the query, each input with how it is read
  /// (Docs/QueryLanguage.md, Explain).
  func explain(_ job: Job) -> ExitStatus {
    do throws(Problem) {
      let opened = try RecordRun(job: job, frontend: self).open()
      let files = job.options.files
      let names = files.isEmpty ? ["stdin"] : files.map { $0 == "-" ? "stdin" : $0 }
      let threading = opened.dataset.threading(for: opened.plan)
      let inputs = Array(zip(names, threading)).map { (name: $0, threading: $1) }
      return console.output(opened.plan.explanation(inputs: inputs)) ?? .matched
    } catch {
      return report(error)
    }
  }
}
