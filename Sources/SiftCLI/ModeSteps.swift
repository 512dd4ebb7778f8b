import SiftCore

/// The steps of a mode too long for one function (Docs/Architecture.md, The front): the job
/// they carry out and the frontend they call on, with the job's parts at hand.
protocol ModeSteps {
  var job: Job { get }
  var frontend: Frontend { get }
}

extension ModeSteps {
  var options: Options { job.options }
  /// The query composed with its view (Docs/Views.md, Running a view).
  var query: Query { job.query }
  var view: ViewContext? { job.view }
  /// "Now" for relative dates, resolved once with the job.
  var now: WallTime { job.now }
  var console: Console { frontend.console }
}
