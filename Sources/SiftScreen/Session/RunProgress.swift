/// A run's watch for the screen (Docs/Interactive.md, Runs): stops the run once it is cancelled,
/// and reports the records read at most every 100 ms.
public final class RunProgress {
  private let cancellation: RunCancellation
  private let report: (RunCount) -> Void
  private var last: Int64
  /// The records read when the run last checked (after each batch or part): after an input
  /// error, every record before it.
  public private(set) var recordsRead = 0

  public init(cancellation: RunCancellation, report: @escaping (RunCount) -> Void) {
    self.cancellation = cancellation
    self.report = report
    self.last = MonotonicClock.now()
  }

  /// Whether the run goes on after `records` were read (a `RunWatch`).
  public func watch(_ records: Int) -> Bool {
    recordsRead = records
    guard !cancellation.isCancelled else { return false }
    if isDue() { report(.records(records)) }
    return true
  }

  /// Reports the lines and bytes of a pipe still open arrived so far, before its first line
  /// has: at most every 100 ms.
  public func arriving(lines: Int, bytes: Int) {
    if isDue() { report(.arriving(lines: lines, bytes: bytes)) }
  }

  /// Whether 100 ms have passed since the last report; if so, this is the last report now.
  private func isDue() -> Bool {
    let now = MonotonicClock.now()
    guard now - last >= 100 else { return false }
    last = now
    return true
  }
}
