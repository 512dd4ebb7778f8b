#if canImport(Glibc)
  import Glibc
#endif
import Dispatch
import SiftCore
import Synchronization

/// The interactive screen's loop (Docs/Interactive.md, The session): keys from the terminal go to the
/// screen's logic, its runs go to the runner on other threads, their outcomes come back to the
/// logic on this thread, and every change is painted. Keys never wait for a run: the loop
/// sleeps in `poll` on the keyboard and a pipe that finished runs, progress and SIGWINCH write to.
public final class Session<Logic: ScreenLogic> {
  private var logic: Logic
  private let terminal: Terminal
  private let runner: any ScreenRunner
  private var painter: Painter
  private var decoder = KeyDecoder()
  private var schedule = RunSchedule()
  private var lanes: [Int: DispatchQueue] = [:]
  private let inbox: Inbox
  private var size: ScreenSize

  /// How long bytes that may start a sequence wait for the rest, in milliseconds.
  private static var sequenceWait: Int64 { 30 }

  public init(logic: Logic, terminal: Terminal, runner: any ScreenRunner, color: ColorMode) {
    self.logic = logic
    self.terminal = terminal
    self.runner = runner
    self.painter = Painter(color: color)
    self.inbox = Inbox()
    self.size = terminal.size()
  }

  /// Shows the screen until the logic quits; returns the arguments of the reproducing command
  /// line, or `nil` when the terminal went away or could not enter screen mode. The terminal is
  /// restored before this returns.
  public func run() -> [String]? {
    guard terminal.enter() else { return nil }
    TerminalSignals.wakeWrite = inbox.wakeWrite
    defer {
      TerminalSignals.wakeWrite = -1
      terminal.restore()
    }
    size = terminal.size()
    logic.resize(to: size)
    if let quit = perform(logic.start()) { return quit }
    paint()
    while true {
      var fds = [
        pollfd(fd: terminal.input, events: Int16(POLLIN), revents: 0),
        pollfd(fd: inbox.wakeRead, events: Int16(POLLIN), revents: 0),
      ]
      let ready = poll(&fds, 2, timeout())
      if ready < 0 && errno != EINTR { return nil }
      if TerminalSignals.resized != 0 {
        TerminalSignals.resized = 0
        size = terminal.size()
        logic.resize(to: size)
        painter.invalidate()
      }
      if fds[1].revents != 0 { inbox.drainWake() }
      let arrived = inbox.take()
      for request in arrived.finished { schedule.finish(request) }
      for outcome in arrived.outcomes {
        if let quit = perform(logic.receive(outcome)) { return quit }
      }
      var keys: [Key] = []
      if fds[0].revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n = read(terminal.input, &buffer, buffer.count)
        if n == 0 || (n < 0 && errno != EINTR && errno != EAGAIN) { return nil }
        if n > 0 { keys = decoder.decode(buffer.prefix(n)) }
      } else if ready == 0 && decoder.isWaiting {
        keys = decoder.flush()
      }
      for key in keys {
        if let quit = perform(logic.handle(key)) { return quit }
      }
      for request in schedule.due(now: MonotonicClock.now()) { start(request) }
      paint()
    }
  }

  /// The poll timeout in milliseconds: until the next waiting run or the end of a sequence.
  private func timeout() -> Int32 {
    var wait: Int64? = schedule.nextDue.map { max(0, $0 - MonotonicClock.now()) }
    if decoder.isWaiting { wait = min(wait ?? Self.sequenceWait, Self.sequenceWait) }
    return wait.map { Int32(clamping: $0) } ?? -1
  }

  /// Carries out the logic's effects; returns the quit arguments when it quits.
  private func perform(_ effects: [ScreenEffect]) -> [String]? {
    for effect in effects {
      switch effect {
      case .quit(let arguments): return arguments
      case .copy(let text): terminal.write(ClipboardSequence.bytes(text))
      case .run(let request):
        if let now = schedule.ask(request, now: MonotonicClock.now()) { start(now) }
      }
    }
    return nil
  }

  /// Starts `request` on its lane; the run it replaces is cancelled.
  private func start(_ request: RunRequest) {
    let cancellation = schedule.start(request)
    let lane = runner.lane(of: request)
    let queue = lanes[lane] ?? DispatchQueue(label: "sift.screen.lane\(lane)")
    lanes[lane] = queue
    let runner = self.runner
    let inbox = self.inbox
    queue.async {
      guard !cancellation.isCancelled else { return inbox.post(nil, finished: request) }
      let outcome = runner.run(request, cancellation: cancellation) { count in
        if !cancellation.isCancelled { inbox.post(.progress(id: request.id, count)) }
      }
      inbox.post(cancellation.isCancelled ? nil : outcome, finished: request)
    }
  }

  private func paint() {
    let bytes = painter.paint(logic.render(size))
    if !bytes.isEmpty { terminal.write(bytes) }
  }
}

/// Where the runs' threads leave outcomes for the input thread, which a byte on a pipe wakes.
private final class Inbox: Sendable {
  private let outcomes = Mutex<(outcomes: [RunOutcome], finished: [RunRequest])>(([], []))
  let wakeRead: Int32
  let wakeWrite: Int32

  init() {
    var ends: [Int32] = [-1, -1]
    pipe(&ends)
    for end in ends {
      _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
      _ = fcntl(end, F_SETFD, FD_CLOEXEC)
    }
    wakeRead = ends[0]
    wakeWrite = ends[1]
  }

  deinit {
    close(wakeRead)
    close(wakeWrite)
  }

  /// Leaves `outcome` (if any) and, with `finished`, notes that run's end; wakes the loop.
  func post(_ outcome: RunOutcome?, finished: RunRequest? = nil) {
    outcomes.withLock {
      if let outcome { $0.outcomes.append(outcome) }
      if let finished { $0.finished.append(finished) }
    }
    var byte: UInt8 = 1
    _ = write(wakeWrite, &byte, 1)
  }

  /// The outcomes left since the last call, in the order they came, and the runs that ended.
  func take() -> (outcomes: [RunOutcome], finished: [RunRequest]) {
    outcomes.withLock { box in
      defer { box = ([], []) }
      return box
    }
  }

  func drainWake() {
    var buffer = [UInt8](repeating: 0, count: 256)
    while read(wakeRead, &buffer, buffer.count) > 0 {}
  }
}
