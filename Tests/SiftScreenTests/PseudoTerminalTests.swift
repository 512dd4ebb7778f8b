#if canImport(Glibc)
  import Glibc
#endif
import Foundation
import Testing

@testable import SiftScreen

/// The built `sift -i` on a pseudo-terminal (Docs/Interactive.md): keys typed, the screen read
/// back, the command line printed on `q`, the terminal's modes and screen restored.
@Suite(.serialized) struct PseudoTerminalTests {
  static let packageRoot: String = {
    var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast(3)
    return parts.joined(separator: "/")
  }()
  static let binary = packageRoot + "/.build/debug/sift"
  static let file = packageRoot + "/SampleData/grn.csv"
  static let available = access(binary, X_OK) == 0 && PseudoTerminal.open() != nil

  @Test(.enabled(if: available, "needs the built .build/debug/sift and a pseudo-terminal"))
  func typingAQueryUpdatesTheCountAndQPrintsTheCommandLine() throws {
    let terminal = try #require(PseudoTerminal.open())
    defer { terminal.close() }
    let before = try #require(terminal.modes())
    let child = try #require(
      terminal.spawn(Self.binary, ["-i", "", Self.file]))
    #expect(terminal.read(until: "1,500 records"))
    terminal.type("/")
    terminal.type("status:received")
    #expect(terminal.read(until: "874 of 1,500 records"))
    terminal.type("\u{1B}")
    terminal.type("q")
    #expect(terminal.wait(child) == 0)
    terminal.read(until: nil)
    let screen = terminal.output
    let entered = try #require(screen.ranges(of: "\u{1B}[?1049h").last)
    let left = try #require(
      screen[entered.upperBound...].ranges(of: "\u{1B}[?1049l").last, "the alternate screen was left")
    // After the screen: the command line alone, on the normal screen.
    #expect(screen[left.upperBound...] == "sift status:received \(Self.file)\r\n")
    #expect(terminal.modes() == before, "the terminal's modes are as before")
  }

  /// `cat grn.csv | sift -i` (Docs/Interactive.md, Piped standard input): records from the
  /// pipe, keys from the terminal.
  @Test(.enabled(if: available, "needs the built .build/debug/sift and a pseudo-terminal"))
  func recordsFromAPipeKeysFromTheTerminal() throws {
    let terminal = try #require(PseudoTerminal.open())
    defer { terminal.close() }
    let before = try #require(terminal.modes())
    var ends: [Int32] = [-1, -1]
    // Close-on-exec, so the child holds no write end and sees the end of the pipe.
    try #require(pipe(&ends) == 0)
    for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
    // The header and 40 records: less than a pipe holds, so the write does not wait.
    let lines = try String(contentsOfFile: Self.file, encoding: .utf8).split(separator: "\n").prefix(41)
    let bytes = Array((lines.joined(separator: "\n") + "\n").utf8)
    let child = try #require(terminal.spawn(Self.binary, ["-i"], standardInput: ends[0]))
    Glibc.close(ends[0])
    _ = bytes.withUnsafeBytes { write(ends[1], $0.baseAddress, $0.count) }
    Glibc.close(ends[1])
    #expect(terminal.read(until: "40 records"))
    #expect(terminal.output.contains("stdin"))
    terminal.type("/")
    terminal.type("status:received")
    let received = lines.dropFirst().filter { $0.split(separator: ",")[2] == "received" }.count
    #expect(terminal.read(until: "\(received) of 40 records"))
    // The first record's page, copied: OSC 52 with the record as CSV in base64.
    terminal.type("\u{1B}")
    terminal.type("\r")
    #expect(terminal.read(until: "Record 1 of \(received)"))
    terminal.type("y")
    let record = lines[0] + "\n" + lines.dropFirst().first { $0.split(separator: ",")[2] == "received" }! + "\n"
    let base64 = String(decoding: ClipboardSequence.base64(Array(record.utf8)), as: UTF8.self)
    #expect(terminal.read(until: "\u{1B}]52;c;\(base64)\u{07}"))
    terminal.type("\u{1B}")
    terminal.type("q")
    #expect(terminal.wait(child) == 0)
    terminal.read(until: nil)
    let screen = terminal.output
    let left = try #require(screen.ranges(of: "\u{1B}[?1049l").last, "the alternate screen was left")
    #expect(screen[left.upperBound...] == "sift status:received\r\n")
    #expect(terminal.modes() == before, "the terminal's modes are as before")
  }

  /// A pipe still open (Docs/Interactive.md, Piped standard input), as from a slow producer: the
  /// records arrived so far are listed and counted while it stays open, a query typed meanwhile
  /// runs at once over them and follows the pipe, and the pipe's end ends the reading.
  @Test(.enabled(if: available, "needs the built .build/debug/sift and a pseudo-terminal"))
  func aPipeStillOpenListsTheRecordsArrivedAndAQueryRunsMeanwhile() throws {
    let terminal = try #require(PseudoTerminal.open())
    defer { terminal.close() }
    var ends: [Int32] = [-1, -1]
    try #require(pipe(&ends) == 0)
    for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
    let lines = try String(contentsOfFile: Self.file, encoding: .utf8).split(separator: "\n").prefix(41)
    func send(_ part: ArraySlice<Substring>) {
      let bytes = Array((part.joined(separator: "\n") + "\n").utf8)
      _ = bytes.withUnsafeBytes { write(ends[1], $0.baseAddress, $0.count) }
    }
    func received(_ count: Int) -> Int {
      lines.dropFirst().prefix(count).filter { $0.split(separator: ",")[2] == "received" }.count
    }
    let child = try #require(terminal.spawn(Self.binary, ["-i"], standardInput: ends[0]))
    Glibc.close(ends[0])
    // The header and 20 records, the pipe left open: listed and counted, the pipe said open.
    send(lines.prefix(21))
    #expect(terminal.read(until: "Row 1 of 20 · Reading… 21 lines ("))
    #expect(terminal.output.contains("20 records"))
    #expect(terminal.output.contains("so far · the pipe is still open"))
    #expect(terminal.output.contains(String(lines[20].split(separator: ",")[0])))
    // A query typed while the pipe is open runs over what has arrived.
    terminal.type("/status:received")
    #expect(terminal.read(until: "\(received(20)) of 20 records"))
    // More arrives: the counts follow, the pipe still open.
    send(lines.dropFirst(21))
    #expect(terminal.read(until: "Row 1 of \(received(40)) · Reading… 41 lines ("))
    #expect(terminal.output.contains("\(received(40)) of 40 records"))
    Glibc.close(ends[1])
    // The end: the position line says the rows alone.
    #expect(terminal.read(until: "Row 1 of \(received(40)) · fields"))
    terminal.type("\u{1B}")
    terminal.type("q")
    #expect(terminal.wait(child) == 0)
    terminal.read(until: nil)
    #expect(terminal.output.hasSuffix("sift status:received\r\n"))
  }

  /// Every row can be reached (Docs/Interactive.md, List): `G` on a result longer than the rows
  /// kept at a time lists its last record, `g` its first again.
  @Test(.enabled(if: available, "needs the built .build/debug/sift and a pseudo-terminal"))
  func endListsTheLastRecordOfALongResult() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("sift-long-\(getpid()).csv").path
    defer { unlink(path) }
    let rows = 25_000
    try ("id,n\n" + (1...rows).map { "record-\($0),\($0 % 7)\n" }.joined()).write(
      toFile: path, atomically: true, encoding: .utf8)
    let terminal = try #require(PseudoTerminal.open())
    defer { terminal.close() }
    let child = try #require(terminal.spawn(Self.binary, ["-i", "", path]))
    #expect(terminal.read(until: "Row 1 of 25,000"))
    terminal.type("G")
    #expect(terminal.read(until: "Row 25,000 of 25,000"))
    #expect(terminal.output.contains("record-25000"))
    terminal.type("g")
    #expect(terminal.read(until: "Row 1 of 25,000"))
    terminal.type("q")
    #expect(terminal.wait(child) == 0)
  }

  /// `e` writes the whole result through sift's own writer (Docs/Interactive.md, Marking and
  /// export): the file holds what `sift QUERY FILE -o csv` writes; an existing file is replaced
  /// only after `y`; the marked records go alone.
  @Test(.enabled(if: available, "needs the built .build/debug/sift and a pseudo-terminal"))
  func exportWritesTheWholeResultAndTheMarkedRecords() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sift-export-\(getpid())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let csv = folder.appendingPathComponent("received.csv").path
    let terminal = try #require(PseudoTerminal.open())
    defer { terminal.close() }
    let child = try #require(terminal.spawn(Self.binary, ["-i", "status:received", Self.file]))
    #expect(terminal.read(until: "874 of 1,500 records"))
    terminal.type("e")
    // SIFT_NOW=2024-06-12: the file's name and today's date.
    #expect(terminal.read(until: "Export 874 records to: "))
    terminal.read(until: nil)
    #expect(terminal.output.contains("grn-2024-06-12.csv"))
    terminal.type("\u{15}" + csv + "\r")
    #expect(terminal.read(until: "Exported 874 records to"))
    let written = try String(contentsOfFile: csv, encoding: .utf8)
    #expect(written == (try Self.oneShot(["status:received", Self.file, "-o", "csv"])))
    // Again into the same file: it asks, and n leaves the file as it is.
    terminal.type("e")
    terminal.type("\u{15}" + csv + "\r")
    #expect(terminal.read(until: "exists. Replace it?"))
    terminal.type("\u{1B}")
    terminal.type("\u{1B}")
    // Two marked records into NDJSON.
    let ndjson = folder.appendingPathComponent("two.ndjson").path
    terminal.type("m")
    terminal.type("m")
    #expect(terminal.read(until: "2 marked"))
    terminal.type("e")
    #expect(terminal.read(until: "Export 2 records to:"))
    terminal.type("\u{15}" + ndjson + "\r")
    #expect(terminal.read(until: "Exported 2 records to"))
    let all = try Self.oneShot(["status:received", Self.file, "-o", "ndjson"]).split(separator: "\n")
    #expect(try String(contentsOfFile: ndjson, encoding: .utf8) == all.prefix(2).joined(separator: "\n") + "\n")
    terminal.type("q")
    #expect(terminal.wait(child) == 0)
    #expect(try String(contentsOfFile: csv, encoding: .utf8) == written)
  }

  /// What the built sift writes to a pipe with `arguments`.
  static func oneShot(_ arguments: [String]) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: binary)
    process.arguments = arguments
    process.environment = ["LANG": "C.UTF-8", "HOME": "/nonexistent", "SIFT_NOW": "2024-06-12T12:00"]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self)
  }

  @Test(.enabled(if: available, "needs the built .build/debug/sift and a pseudo-terminal"))
  func sigtermRestoresTheTerminal() throws {
    let terminal = try #require(PseudoTerminal.open())
    defer { terminal.close() }
    let before = try #require(terminal.modes())
    let child = try #require(
      terminal.spawn(Self.binary, ["-i", "", Self.file]))
    #expect(terminal.read(until: "1,500 records"))
    #expect(terminal.modes() != before, "the screen put the terminal in raw mode")
    kill(child, SIGTERM)
    #expect(terminal.wait(child) == 128 + SIGTERM)
    terminal.read(until: nil)
    #expect(terminal.output.hasSuffix("\u{1B}[?1049l"), "the alternate screen was left")
    #expect(terminal.modes() == before, "the terminal's modes are as before")
  }
}

/// A pseudo-terminal pair; the parent keeps both ends, the child gets the terminal end.
final class PseudoTerminal {
  let controller: Int32
  let terminal: Int32
  private var bytes: [UInt8] = []

  private init(controller: Int32, terminal: Int32) {
    self.controller = controller
    self.terminal = terminal
  }

  /// A new pair, 100 columns by 30 rows; `nil` when none can be opened.
  static func open() -> PseudoTerminal? {
    var controller: Int32 = -1
    var terminal: Int32 = -1
    var size = winsize(ws_row: 30, ws_col: 100, ws_xpixel: 0, ws_ypixel: 0)
    guard openpty(&controller, &terminal, nil, nil, &size) == 0 else { return nil }
    return PseudoTerminal(controller: controller, terminal: terminal)
  }

  func close() {
    Glibc.close(controller)
    Glibc.close(terminal)
  }

  /// Everything the child wrote so far, as text.
  var output: String { String(decoding: bytes, as: UTF8.self) }

  /// The terminal's modes: input, output, control and local flags and the control characters.
  func modes() -> [UInt]? {
    var t = termios()
    guard tcgetattr(terminal, &t) == 0 else { return nil }
    let cc = withUnsafeBytes(of: t.c_cc) { $0.map { UInt($0) } }
    return [UInt(t.c_iflag), UInt(t.c_oflag), UInt(t.c_cflag), UInt(t.c_lflag)] + cc
  }

  /// Starts `program` with the terminal as its standard input, output and error; with
  /// `standardInput`, that as its standard input instead, in a session of its own whose
  /// controlling terminal (`/dev/tty`) is this one.
  func spawn(_ program: String, _ arguments: [String], standardInput: Int32? = nil) -> pid_t? {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    var flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF
    if let standardInput, let path = ttyname(terminal) {
      // Opened after the new session starts, the terminal becomes its controlling terminal.
      flags |= 0x80  // POSIX_SPAWN_SETSID
      posix_spawn_file_actions_adddup2(&actions, standardInput, STDIN_FILENO)
      posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, path, O_RDWR, 0)
      posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO)
    } else {
      for fd in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] {
        posix_spawn_file_actions_adddup2(&actions, terminal, fd)
      }
    }
    posix_spawn_file_actions_addclose(&actions, controller)
    let environment = [
      "LANG=C.UTF-8", "TERM=xterm-256color", "NO_COLOR=1", "HOME=/nonexistent",
      "SIFT_NOW=2024-06-12T12:00",
    ]
    let argv = ([program] + arguments).map { strdup($0) } + [nil]
    let envp = environment.map { strdup($0) } + [nil]
    defer { (argv + envp).forEach { free($0) } }
    // The child starts with no signal blocked and each at its default, whatever the test
    // runner's threads do.
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var none = sigset_t()
    var all = sigset_t()
    sigemptyset(&none)
    sigfillset(&all)
    posix_spawnattr_setsigmask(&attributes, &none)
    posix_spawnattr_setsigdefault(&attributes, &all)
    posix_spawnattr_setflags(&attributes, Int16(flags))
    var pid = pid_t()
    guard posix_spawn(&pid, program, &actions, &attributes, argv, envp) == 0 else { return nil }
    return pid
  }

  /// Types `text` as keys.
  func type(_ text: String) {
    let bytes = Array(text.utf8)
    _ = bytes.withUnsafeBytes { write(controller, $0.baseAddress, $0.count) }
    // A pause, so the screen reads the keys as typed rather than as one paste.
    usleep(50_000)
  }

  /// Reads the screen until `text` appears in what came after this call started (10 s at most);
  /// with `nil`, until nothing more comes for 200 ms. Returns whether `text` appeared.
  @discardableResult
  func read(until text: String?) -> Bool {
    let start = bytes.count
    let deadline = Self.now() + 10_000
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while Self.now() < deadline {
      var fd = pollfd(fd: controller, events: Int16(POLLIN), revents: 0)
      let ready = poll(&fd, 1, text == nil ? 200 : 100)
      if ready > 0 {
        let n = Glibc.read(controller, &buffer, buffer.count)
        if n > 0 { bytes += buffer.prefix(n) } else { return text == nil }
      } else if text == nil {
        return true
      }
      if let text, String(decoding: bytes[start...], as: UTF8.self).contains(text) { return true }
    }
    return false
  }

  /// Waits for the child; its exit status, or 128 + the signal that ended it.
  func wait(_ pid: pid_t) -> Int32 {
    var status: Int32 = 0
    // Reading keeps the child from blocking on a full terminal while it ends.
    for _ in 0..<100 {
      if waitpid(pid, &status, WNOHANG) == pid {
        return (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
      }
      read(until: nil)
    }
    kill(pid, SIGKILL)
    waitpid(pid, &status, 0)
    return -1
  }

  private static func now() -> Int {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return time.tv_sec * 1000 + time.tv_nsec / 1_000_000
  }
}
