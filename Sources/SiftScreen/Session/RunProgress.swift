/// A run's watch for the screen (Docs/Interactive.md, Runs): stops the run once it is cancelled,
/// and reports the records read at most every 100 ms.
public final class RunProgress {
  private let cancellation: RunCancellation
  private let report: (Int) -> Void
  private var last: Int64
  /// The records read when the run last checked (after each batch or part): after an input
  /// error, every record before it.
  public private(set) var recordsRead = 0

  public init(cancellation: RunCancellation, report: @escaping (Int) -> Void) {
    self.cancellation = cancellation
    self.report = report
    self.last = MonotonicClock.now()
  }

  /// Whether the run goes on after `records` were read (a `RunWatch`).
  public func watch(_ records: Int) -> Bool {
    recordsRead = records
    guard !cancellation.isCancelled else { return false }
    let now = MonotonicClock.now()
    if now - last >= 100 {
      last = now
      report(records)
    }
    return true
  }
}
