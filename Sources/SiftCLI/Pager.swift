#if canImport(Glibc)
  import Glibc
#endif

/// The pager a tall table goes through (Docs/CommandLine.md, The pager): `$SIFT_PAGER`, else
/// `$PAGER`, else `less -FRSX`, run by `/bin/sh -c` with the table on its standard input.
struct Pager {
  /// The shell command, as the variable gives it.
  let command: String
  /// The environment the pager runs in.
  let environment: [String: String]

  /// The pager the environment names, or `nil` when its program is not installed (the table is
  /// then written plainly).
  init?(environment: [String: String]) {
    let named = [environment["SIFT_PAGER"], environment["PAGER"]].compactMap { $0 }
      .first { !$0.allSatisfy(\.isWhitespace) }
    command = named ?? "less -FRSX"
    self.environment = environment
    guard let program = command.split(whereSeparator: \.isWhitespace).first,
      Pager.isInstalled(String(program), path: environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin")
    else { return nil }
  }

  /// Whether `program` (a path, or a name looked up on `path`) can be run.
  private static func isInstalled(_ program: String, path: String) -> Bool {
    if program.contains("/") { return access(program, X_OK) == 0 }
    return path.split(separator: ":").contains { access("\($0)/\(program)", X_OK) == 0 }
  }

  /// Runs the pager with `bytes` on its standard input and waits until it ends; `false` when it
  /// could not be started. The pager quitting early ends the writing quietly, and Ctrl-C is
  /// left to the pager while it runs.
  func run(_ bytes: [UInt8]) -> Bool {
    var fds: [Int32] = [0, 0]
    guard pipe(&fds) == 0 else { return false }
    let (readEnd, writeEnd) = (fds[0], fds[1])
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, readEnd, 0)
    posix_spawn_file_actions_addclose(&actions, readEnd)
    posix_spawn_file_actions_addclose(&actions, writeEnd)
    let arguments = ["/bin/sh", "-c", command]
    let variables = environment.map { "\($0.key)=\($0.value)" }
    var pid = pid_t()
    let spawned = withCStrings(arguments) { argv in
      withCStrings(variables) { envp in posix_spawn(&pid, "/bin/sh", &actions, nil, argv, envp) }
    }
    close(readEnd)
    guard spawned == 0 else {
      close(writeEnd)
      return false
    }
    let interrupt = signal(SIGINT, SIG_IGN)
    let brokenPipe = signal(SIGPIPE, SIG_IGN)
    defer {
      signal(SIGINT, interrupt)
      signal(SIGPIPE, brokenPipe)
    }
    bytes.withUnsafeBytes { buffer in
      var offset = 0
      while offset < buffer.count {
        let n = write(writeEnd, buffer.baseAddress! + offset, buffer.count - offset)
        if n < 0 && errno == EINTR { continue }
        if n <= 0 { break }  // the pager quit (EPIPE): nothing more to show
        offset += n
      }
    }
    close(writeEnd)
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    return true
  }
}
