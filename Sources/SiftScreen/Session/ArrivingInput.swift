#if canImport(Glibc)
  import Glibc
#endif
import Dispatch
import SiftCore
import Synchronization

/// Standard input read to its end on a thread of its own while the screen runs queries over what
/// has arrived (Docs/Interactive.md, Piped standard input): a pipe that stays open never keeps a
/// query waiting. Runs take the bytes up to the last line break (`snapshot`); once the input
/// ended, all of them.
public final class ArrivingInput: Sendable {
  /// How much has arrived: the lines, every byte (a line not yet ended included), the bytes up
  /// to the last line break, and whether the input ended.
  public struct Counts: Sendable, Equatable {
    public var lines = 0
    public var bytes = 0
    public var complete = 0
    public var ended = false
  }

  private struct State {
    var bytes: [UInt8] = []
    var counts = Counts()
    var error: InputError?
  }

  private let state = Mutex(State())

  /// Starts reading `source` to its end.
  public init(reading source: ByteSource) {
    let box = SourceBox(source)
    DispatchQueue.global().async { [self] in read(box.source) }
  }

  private func read(_ source: ByteSource) {
    let piece = 1 << 16
    var buffer: [UInt8] = []
    buffer.reserveCapacity(piece)
    while true {
      buffer.removeAll(keepingCapacity: true)
      let got: Int
      do throws(InputError) { got = try source.read(into: &buffer, maxCount: piece) } catch {
        state.withLock {
          $0.error = error
          $0.counts.ended = true
        }
        return
      }
      state.withLock { state in
        if got == 0 {
          state.counts.complete = state.bytes.count
          state.counts.ended = true
          return
        }
        let start = state.bytes.count
        state.bytes.append(contentsOf: buffer)
        var lastBreak = -1
        for index in buffer.indices where buffer[index] == UInt8(ascii: "\n") {
          state.counts.lines += 1
          lastBreak = index
        }
        if lastBreak >= 0 { state.counts.complete = start + lastBreak + 1 }
        state.counts.bytes = state.bytes.count
      }
      if got == 0 { return }
    }
  }

  public var counts: Counts { state.withLock { $0.counts } }

  /// The bytes up to the last line break while the input is open (a run never sees half a
  /// record), all of them once it ended; the error that ended it, if one did.
  public func snapshot() -> (bytes: [UInt8], counts: Counts, error: InputError?) {
    state.withLock { state in
      let counts = state.counts
      // Once ended, the bytes are handed over whole (shared, not copied).
      let bytes = counts.ended ? state.bytes : Array(state.bytes[..<counts.complete])
      return (bytes, counts, state.error)
    }
  }

  /// Waits until a whole line has arrived or the input ended (`whole`: until it ended), telling
  /// `report` what has arrived every 20 ms; false when `cancelled` first.
  public func wait(
    whole: Bool = false, cancelled: () -> Bool, report: (Counts) -> Void
  ) -> Bool {
    while true {
      let now = counts
      if now.ended || (!whole && now.complete > 0) { return true }
      if cancelled() { return false }
      report(now)
      usleep(20_000)
    }
  }
}

/// The source handed to the reading thread, which alone uses it from then on.
private final class SourceBox: @unchecked Sendable {
  let source: ByteSource
  init(_ source: ByteSource) { self.source = source }
}
