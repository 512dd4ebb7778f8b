import Synchronization

/// Runs the screen's requests over the inputs (Docs/Interactive.md, Runs): the session calls it
/// off the input thread, one request at a time per lane.
public protocol ScreenRunner: Sendable {
  /// The lane of `request`: requests on one lane share what they read (a dataset) and run one
  /// after another; other lanes run beside them.
  func lane(of request: RunRequest) -> Int
  /// The outcome of `request`. A long run calls `progress` with how far it has come, and
  /// stops early once `cancellation` is set (its outcome is then thrown away).
  func run(
    _ request: RunRequest, cancellation: RunCancellation,
    progress: @escaping @Sendable (RunCount) -> Void
  ) -> RunOutcome
}

/// Set when a newer request of the same view and purpose makes a run stale.
public final class RunCancellation: Sendable {
  private let flag = Atomic<Bool>(false)

  public init() {}

  public var isCancelled: Bool { flag.load(ordering: .relaxed) }

  public func cancel() { flag.store(true, ordering: .relaxed) }
}
