/// The last list run over a pipe still open (Docs/Interactive.md, Piped standard input), given
/// again with the new counts until it is due to run again: when a line has arrived since and
/// twice the time the run took (at least a quarter of a second) has passed. So a pipe that
/// keeps sending never keeps a core busy running the same query over and over, and one that
/// waits costs nothing.
public struct FollowedList: Sendable {
  private let view: Int
  private let query: String
  private let firstRow: Int
  private let result: ListResult
  private let finished: Int64
  private let took: Int64

  /// The shortest wait between two runs of the same list, in milliseconds.
  static let shortestWait: Int64 = 250

  /// `result` of `request`, over what had arrived; the run took `took` milliseconds.
  public init(_ request: RunRequest, result: ListResult, took: Int64) {
    view = request.view
    query = request.query
    firstRow = request.firstRow
    self.result = result
    self.took = took
    finished = MonotonicClock.now()
  }

  /// The list again for `request`, with the counts `arrived` now, or `nil` when it runs again:
  /// another view or query, the input ended (or `arrived` is `nil`: it was read), or due.
  public func again(
    _ request: RunRequest, arrived: ArrivingInput.Counts?, now: Int64 = MonotonicClock.now()
  ) -> ListResult? {
    guard let arrived, !arrived.ended, request.view == view, request.query == query,
      request.firstRow == firstRow
    else { return nil }
    let unchanged = arrived.complete == result.arriving?.complete
    guard unchanged || now - finished < max(Self.shortestWait, 2 * took) else { return nil }
    var list = result
    list.arriving = arrived
    return list
  }
}
