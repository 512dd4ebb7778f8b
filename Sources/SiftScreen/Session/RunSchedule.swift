/// When the screen's runs start (Docs/Interactive.md, Runs): a request made while typing
/// waits for a pause (`pause` milliseconds after the last one); a newer request of the same
/// view and purpose replaces a waiting one and cancels a running one.
struct RunSchedule {
  struct Slot: Hashable {
    var view: Int
    var purpose: RunRequest.Purpose
  }

  /// How long a request made while typing waits, in milliseconds.
  static let pause: Int64 = 120

  private var waiting: [Slot: (request: RunRequest, due: Int64)] = [:]
  private var running: [Slot: (id: Int, cancellation: RunCancellation)] = [:]

  /// Takes `request` made at `now` (milliseconds); returns it when it starts at once.
  mutating func ask(_ request: RunRequest, now: Int64) -> RunRequest? {
    let slot = Slot(view: request.view, purpose: request.purpose)
    if request.afterPause {
      waiting[slot] = (request, now + Self.pause)
      return nil
    }
    waiting[slot] = nil
    return request
  }

  /// The waiting requests whose pause is over at `now`, oldest first.
  mutating func due(now: Int64) -> [RunRequest] {
    let ready = waiting.filter { $0.value.due <= now }
    for slot in ready.keys { waiting[slot] = nil }
    return ready.values.map(\.request).sorted { $0.id < $1.id }
  }

  /// When the next waiting request is due, if any.
  var nextDue: Int64? { waiting.values.map(\.due).min() }

  /// Marks `request` as running; the run it replaces is cancelled. Returns its cancellation.
  mutating func start(_ request: RunRequest) -> RunCancellation {
    let slot = Slot(view: request.view, purpose: request.purpose)
    running[slot]?.cancellation.cancel()
    let cancellation = RunCancellation()
    running[slot] = (request.id, cancellation)
    return cancellation
  }

  /// Forgets the run of `request` once it ended.
  mutating func finish(_ request: RunRequest) {
    let slot = Slot(view: request.view, purpose: request.purpose)
    if running[slot]?.id == request.id { running[slot] = nil }
  }
}
