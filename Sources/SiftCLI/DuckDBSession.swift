#if canImport(Glibc)
  import Glibc
#endif

/// One `duckdb` client kept open for a whole sift run (Docs/Engines.md, Engines): started once,
/// its standard input a socket sift writes statements to, its standard output and errors
/// sockets sift reads while it writes, so neither side can wait on the other. Each batch of
/// statements ends with `.print` of an end line of the session's own (`sift-end-` and a random
/// number): once that line comes back, every statement before it has run and its `.once` file
/// is written, and the next batch goes to the same client. An `--engine duckdb` run on a
/// Parquet file or a table sends its `DESCRIBE` and sample, then the statement sift writes from
/// their types, to one client instead of starting one for each.
///
/// The client runs with `-bail`: a failing statement ends it, and its exit status and messages
/// come back with the batch. The next batch then starts a new client.
final class DuckDBSession {
  /// The client's program and its environment.
  let program: String
  let environment: [String: String]

  /// The line that ends each batch on standard output: results go to `.once` files, so standard
  /// output holds only this line and what setup statements print.
  private let endLine = "sift-end-\(UInt64.random(in: 0...UInt64.max))"

  /// The running client: its process, the descriptors sift writes and reads, and the DuckDB
  /// database file it opened (read-only).
  private struct Client {
    var pid: pid_t
    var input: Int32
    var output: Int32
    var errors: Int32
    var database: String?
  }
  private var client: Client?

  init(program: String, environment: [String: String]) {
    self.program = program
    self.environment = environment
  }

  deinit { close() }

  /// How a batch ended.
  enum Answer {
    /// Every statement ran: what the client printed besides the end line.
    case finished(said: String)
    /// The client ended before the end line (a failing statement under `-bail`, or the
    /// client was killed): its exit status (128 + the signal where a signal ended it) and
    /// what it printed.
    case ended(status: Int32, said: String)
    /// The client could not be started: the reason (`strerror`).
    case cannotStart(reason: String)
  }

  /// Sends `script` (statements, each ending with `;`, and dot commands, one a line) to the
  /// client, started with `database` open where none runs yet (or another database is open),
  /// then the end line, and reads what the client prints until the end line comes back or the
  /// client ends. `last`: no batch follows, and the client's input is closed once written, so
  /// that even a statement left open (a quote never closed, which would take the end line in)
  /// ends the client with DuckDB's error rather than waiting for more.
  func send(_ script: String, database: String?, last: Bool = false) -> Answer {
    if let running = client, running.database != database { close() }
    if client == nil {
      let started = start(database: database)
      guard started == 0 else { return .cannotStart(reason: String(cString: strerror(started))) }
    }
    guard let running = client else {
      return .cannotStart(reason: String(cString: strerror(EINVAL)))
    }
    let (ended, output, errors) = exchange(
      Array((script + ".print \(endLine)\n").utf8), running, end: Array(endLine.utf8),
      closesInput: last)
    let said = String(decoding: output + errors, as: UTF8.self)
    guard ended else {
      // After the last batch the client has its end of input: it ends now.
      if last { close() }
      return .finished(said: said)
    }
    let (status, signal) = endClient()
    // A client that ends without a message says nothing of why: sift says how it ended.
    let silent = said.allSatisfy(\.isWhitespace)
    if let signal, silent {
      return .ended(status: status, said: "the client was killed by signal \(signal)")
    }
    if status == 0 {
      return .ended(status: status, said: said + "\nthe client ended before its last statement")
    }
    return .ended(status: status, said: said)
  }

  /// Ends the client: its input closed, it exits and is waited for. Nothing to do when none runs.
  func close() {
    endClient()
  }

  /// Closes the running client's sockets and waits for it to end: its exit status and signal
  /// (`wait`); none when no client runs.
  @discardableResult
  private func endClient() -> (status: Int32, signal: Int32?) {
    guard let running = client else { return (0, nil) }
    client = nil
    Glibc.close(running.input)
    Glibc.close(running.output)
    Glibc.close(running.errors)
    return wait(running.pid)
  }

  /// Starts the client with its standard input, output and errors connected to sift by
  /// sockets; 0, or the `errno` of why it could not start.
  private func start(database: String?) -> Int32 {
    // Sockets, so that writing to a client that ended is an error (`MSG_NOSIGNAL`), not a
    // SIGPIPE; each closed on exec as it is made, so no other program sift starts (a test's
    // other runs, at once) holds one and keeps its end from closing.
    var ends: [[Int32]] = []
    for _ in 0..<3 {
      var pair: [Int32] = [-1, -1]
      let kind = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
      guard socketpair(AF_UNIX, kind, 0, &pair) == 0 else {
        let failed = errno
        for fd in ends.joined() { Glibc.close(fd) }
        return failed
      }
      ends.append(pair)
    }
    let (input, output, errors) = (ends[0], ends[1], ends[2])
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, input[1], 0)
    posix_spawn_file_actions_adddup2(&actions, output[1], 1)
    posix_spawn_file_actions_adddup2(&actions, errors[1], 2)
    let arguments = [program, "-csv", "-nullvalue", "", "-bail"]
      + (database.map { [$0, "-readonly"] } ?? [])
    let variables = environment.map { "\($0.key)=\($0.value)" }
    var pid = pid_t()
    let started = withCStrings(arguments) { argv in
      withCStrings(variables) { envp in posix_spawnp(&pid, program, &actions, nil, argv, envp) }
    }
    for fd in [input[1], output[1], errors[1]] { Glibc.close(fd) }
    guard started == 0 else {
      for fd in [input[0], output[0], errors[0]] { Glibc.close(fd) }
      return started
    }
    for fd in [input[0], output[0], errors[0]] {
      _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }
    client = Client(
      pid: pid, input: input[0], output: output[0], errors: errors[0], database: database)
    return 0
  }

  /// Writes `bytes` to the client while reading its output and errors, until its output holds
  /// the line `end` (`ended` false) or both its output and errors are closed (`ended` true).
  /// Returns what it printed, the end line left out.
  private func exchange(_ bytes: [UInt8], _ running: Client, end: [UInt8], closesInput: Bool)
    -> (ended: Bool, output: [UInt8], errors: [UInt8])
  {
    var written = 0
    var output: [UInt8] = []
    var errors: [UInt8] = []
    var outputOpen = true
    var errorsOpen = true
    // Where the search for the end line goes on: the start of the last line not yet searched.
    var searched = 0
    let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 1)
    defer { chunk.deallocate() }
    // Reads what `fd` holds now into `into`; false once it is closed.
    func drain(_ fd: Int32, into: inout [UInt8]) -> Bool {
      while true {
        let n = read(fd, chunk.baseAddress, chunk.count)
        if n > 0 {
          into += chunk[..<n]
          continue
        }
        if n < 0 && errno == EINTR { continue }
        return n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)
      }
    }
    while outputOpen || errorsOpen {
      var fds = [
        pollfd(fd: written < bytes.count ? running.input : -1, events: Int16(POLLOUT), revents: 0),
        pollfd(fd: outputOpen ? running.output : -1, events: Int16(POLLIN), revents: 0),
        pollfd(fd: errorsOpen ? running.errors : -1, events: Int16(POLLIN), revents: 0),
      ]
      if poll(&fds, nfds_t(fds.count), -1) < 0 {
        if errno == EINTR { continue }
        kill(running.pid, SIGKILL)
        return (true, output, errors)
      }
      if fds[0].revents != 0 {
        let n = bytes[written...].withUnsafeBytes {
          Glibc.send(
            running.input, $0.baseAddress, min($0.count, 1 << 16),
            Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT))
        }
        if n > 0 {
          written += n
          if written == bytes.count && closesInput { shutdown(running.input, Int32(SHUT_WR)) }
        } else if n < 0 && errno != EINTR && errno != EAGAIN && errno != EWOULDBLOCK {
          // The client ended (EPIPE): what it printed says why.
          written = bytes.count
        }
      }
      if fds[2].revents != 0 { errorsOpen = drain(running.errors, into: &errors) }
      if fds[1].revents != 0 {
        outputOpen = drain(running.output, into: &output)
        while let newline = output[searched...].firstIndex(of: UInt8(ascii: "\n")) {
          if output[searched..<newline].elementsEqual(end) {
            // Every statement before the end line has run; its messages are in the pipe.
            output.removeSubrange(searched...newline)
            if errorsOpen { _ = drain(running.errors, into: &errors) }
            return (false, output, errors)
          }
          searched = newline + 1
        }
      }
    }
    return (true, output, errors)
  }

  /// Waits for the client to end: its exit status (128 + the signal where a signal ended it),
  /// and the signal.
  private func wait(_ pid: pid_t) -> (status: Int32, signal: Int32?) {
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    let signal = status & 0x7f
    return signal == 0 ? ((status >> 8) & 0xff, nil) : (128 + signal, signal)
  }
}
