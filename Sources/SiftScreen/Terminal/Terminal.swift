#if canImport(Glibc)
  import Glibc
#endif

/// The terminal in screen mode (Docs/Interactive.md, The terminal): raw input, the alternate
/// screen, the cursor hidden until a frame places it. `restore` puts back the modes saved on
/// entering; a signal that ends sift (SIGINT, SIGTERM, SIGHUP, and the crashes) restores them
/// from its handler before sift ends with it. SIGWINCH and `wake()` make `wait` return.
public final class Terminal {
  public let input: Int32
  public let output: Int32
  private var saved = termios()
  private var entered = false
  /// Whether `input` was opened here, and is closed with the terminal.
  private var ownsInput = false

  /// The terminal on `input` and `output` (standard input and output), not yet in screen mode.
  public init(input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO) {
    self.input = input
    self.output = output
  }

  /// The terminal sift runs in (`/dev/tty`) for the keys, and standard output for the screen:
  /// for when standard input is a pipe (Docs/Interactive.md, Piped standard input); `nil` when
  /// sift has no terminal.
  public static func keyboardFromControllingTerminal() -> Terminal? {
    let fd = Glibc.open("/dev/tty", O_RDWR | O_CLOEXEC | O_NOCTTY)
    guard fd >= 0 else { return nil }
    let terminal = Terminal(input: fd)
    terminal.ownsInput = true
    return terminal
  }

  deinit {
    if ownsInput { Glibc.close(input) }
  }

  /// Enters screen mode: raw input, the alternate screen, the cursor hidden; installs the
  /// signal handlers. Returns false when `input` is no terminal.
  public func enter() -> Bool {
    guard tcgetattr(input, &saved) == 0 else { return false }
    var raw = saved
    // What cfmakeraw does, but output post-processing stays off as well.
    raw.c_iflag &= ~tcflag_t(IGNBRK | BRKINT | PARMRK | ISTRIP | INLCR | IGNCR | ICRNL | IXON)
    raw.c_oflag &= ~tcflag_t(OPOST)
    raw.c_lflag &= ~tcflag_t(ECHO | ECHONL | ICANON | ISIG | IEXTEN)
    raw.c_cflag &= ~tcflag_t(CSIZE | PARENB)
    raw.c_cflag |= tcflag_t(CS8)
    withUnsafeMutableBytes(of: &raw.c_cc) { cc in
      cc[Int(VMIN)] = 1
      cc[Int(VTIME)] = 0
    }
    TerminalSignals.install(saved: saved, input: input, output: output)
    guard tcsetattr(input, TCSAFLUSH, &raw) == 0 else {
      TerminalSignals.uninstall()
      return false
    }
    entered = true
    write(Array(TerminalSignals.enterSequence.utf8))
    return true
  }

  /// Leaves screen mode: the alternate screen left, the cursor shown, the saved modes back.
  /// Does nothing when not in screen mode.
  public func restore() {
    guard entered else { return }
    entered = false
    let leave = TerminalSignals.leaveSequence
    write(Array(UnsafeBufferPointer(start: leave.utf8Start, count: leave.utf8CodeUnitCount)))
    tcsetattr(input, TCSAFLUSH, &saved)
    TerminalSignals.uninstall()
  }

  /// The terminal's size now; 80×24 when it cannot be told.
  public func size() -> ScreenSize {
    var size = winsize()
    guard ioctl(output, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else {
      return ScreenSize(columns: 80, rows: 24)
    }
    return ScreenSize(columns: Int(size.ws_col), rows: Int(size.ws_row))
  }

  /// Writes all of `bytes` to the terminal.
  public func write(_ bytes: [UInt8]) {
    bytes.withUnsafeBytes { buffer in
      var offset = 0
      while offset < buffer.count {
        let n = Glibc.write(output, buffer.baseAddress! + offset, buffer.count - offset)
        if n < 0 && errno == EINTR { continue }
        guard n > 0 else { return }
        offset += n
      }
    }
  }
}

/// The state the signal handlers need, kept where a C handler can reach it (it cannot capture).
enum TerminalSignals {
  /// The alternate screen, the cursor hidden, bracketed paste on; and back.
  static let enterSequence = "\u{1B}[?1049h\u{1B}[?25l\u{1B}[?2004h"
  static let leaveSequence: StaticString = "\u{1B}[?2004l\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l"
  /// The signals that end sift: the terminal is restored, then the signal takes its course.
  static let ending = [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGABRT, SIGILL, SIGTRAP, SIGSEGV, SIGBUS]

  nonisolated(unsafe) static var saved = termios()
  nonisolated(unsafe) static var input: Int32 = -1
  nonisolated(unsafe) static var output: Int32 = -1
  /// The write end of the pipe `wait` polls; a SIGWINCH writes to it.
  nonisolated(unsafe) static var wakeWrite: Int32 = -1
  nonisolated(unsafe) static var resized: sig_atomic_t = 0

  static func install(saved: termios, input: Int32, output: Int32) {
    Self.saved = saved
    Self.input = input
    Self.output = output
    for signal in ending { Glibc.signal(signal, restoreAndEnd) }
    Glibc.signal(SIGWINCH, noteResize)
  }

  static func uninstall() {
    for signal in ending { Glibc.signal(signal, SIG_DFL) }
    Glibc.signal(SIGWINCH, SIG_DFL)
    input = -1
  }
}

/// A signal that ends sift: the saved modes back and the alternate screen left (only
/// async-signal-safe calls), then the signal again with its default action.
private func restoreAndEnd(_ signal: Int32) {
  if TerminalSignals.input >= 0 {
    let sequence = TerminalSignals.leaveSequence
    _ = write(TerminalSignals.output, sequence.utf8Start, sequence.utf8CodeUnitCount)
    tcsetattr(TerminalSignals.input, TCSAFLUSH, &TerminalSignals.saved)
  }
  Glibc.signal(signal, SIG_DFL)
  raise(signal)
}

private func noteResize(_ signal: Int32) {
  TerminalSignals.resized = 1
  var byte: UInt8 = 0
  if TerminalSignals.wakeWrite >= 0 { _ = write(TerminalSignals.wakeWrite, &byte, 1) }
}
