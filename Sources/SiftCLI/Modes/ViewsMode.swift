import SiftCore

extension Frontend {
  /// `sift --views [@VIEW]`: the views overview, or with `-o html` its digest.
  func views(_ job: Job) -> ExitStatus {
    ViewsOverview(job: job, frontend: self).run()
  }
}
