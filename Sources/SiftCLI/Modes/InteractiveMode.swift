import SiftCore

extension Frontend {
  /// `sift -i [@VIEW] [QUERY] [FILE...]`: the interactive screen.
  func interactive(_ job: Job) -> ExitStatus {
    InteractiveLaunch(job: job, frontend: self).run()
  }
}
