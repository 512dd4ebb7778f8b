#if canImport(Glibc)
  import Glibc
#endif
import SiftCore

/// The state file of one `--changes` query (Docs/Reports.md, "Changes since the last run"): where
/// it lives, a lock held for the whole run, the baseline read from it, and the next baseline
/// written to a temporary name and renamed over it only when the whole run succeeded.
final class ChangesState {
  /// The state file's path.
  let path: String
  private var lockDescriptor: Int32 = -1
  /// What `prepare` wrote, for `commit` to put in place.
  private var prepared: Prepared?
  private var temporaryPath: String { path + ".tmp" }
  /// The time of the last run and its edits of the state's records (`ChangeSince`), beside the
  /// state, when that run kept the state file.
  private var sincePath: String { path + ".since" }
  private var sinceTemporaryPath: String { path + ".since.tmp" }
  /// The checksum of the state file as read, which a time written beside it names.
  private var readChecksum: UInt64?
  /// Which bytes hold the state file's records as read (`ChangeBaseline.stateIdentity`), and
  /// how many bytes the file has: a next baseline that borrows from them and differs by at most
  /// a sixteenth of that is kept as edits beside the file.
  private var readState: (identity: UInt, size: Int)?

  private enum Prepared {
    /// A new baseline, in the temporary file.
    case baseline
    /// This run's time and its edits of the state's records, in the temporary file of
    /// `sincePath`: the state file stays.
    case since
  }

  /// Only looking (`--peek`): a shared lock, and nothing written.
  private let readOnly: Bool

  private init(path: String, readOnly: Bool) {
    self.path = path
    self.readOnly = readOnly
  }

  /// The state directory: `$SIFT_STATE_DIR`, else `$XDG_STATE_HOME/sift`, else
  /// `~/.local/state/sift`.
  static func directory(_ environment: [String: String]) -> String? {
    if let d = environment["SIFT_STATE_DIR"], !d.isEmpty { return d }
    if let d = environment["XDG_STATE_HOME"], !d.isEmpty { return d + "/sift" }
    if let home = environment["HOME"], !home.isEmpty { return home + "/.local/state/sift" }
    return nil
  }

  /// The state file's name: the view's name or `query`, and a hash of what names the query —
  /// the view (with the QUERY and FILEs typed after it, if any), or the canonical query and the
  /// inputs' absolute paths — and of the key fields.
  static func fileName(
    view: String?, typed: String, query: Query, files: [String], keys: [String], cwd: String
  ) -> String {
    let inputs = files.map { $0 == "-" ? $0 : absolutePath($0, from: cwd) }
    let identity = (view.map { ["view", $0, typed] } ?? ["query", query.canonicalForm]) + inputs
      + ["keys"] + keys
    let hash = ChangeCoding.hash(text: identity.joined(separator: "\u{0}"))
    let hex = String(hash, radix: 16)
    let label = (view ?? "query").map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? $0 : "_" }
    return String(label) + "-" + String(repeating: "0", count: 16 - hex.count) + hex + ".changes"
  }

  /// Opens the state of `name` in `directory`: makes the directory, takes the lock (shared to
  /// only look), and unless `readOnly` proves a new baseline can be written there.
  static func open(directory: String, name: String, readOnly: Bool) throws(Problem) -> ChangesState {
    if !readOnly { try makeDirectory(directory) }
    let state = ChangesState(path: directory + "/" + name, readOnly: readOnly)
    let lock = Glibc.open(state.path + ".lock", readOnly ? O_RDONLY : (O_RDWR | O_CREAT), 0o600)
    if lock < 0 {
      if readOnly && errno == ENOENT { return state }  // never run: nothing to lock
      throw unwritable(directory, errno)
    }
    state.lockDescriptor = lock
    guard flock(lock, readOnly ? LOCK_SH : LOCK_EX) == 0 else { throw unwritable(directory, errno) }
    if !readOnly {
      let probe = Glibc.open(state.temporaryPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
      guard probe >= 0 else {
        let e = errno
        state.close()
        throw unwritable(directory, e)
      }
      Glibc.close(probe)
    }
    return state
  }

  /// The inputs' size in bytes when every one is a regular file, else `nil`: the tracker makes
  /// room for the records it holds up front (Docs/Performance.md, "The first run, and runs with
  /// many new or gone records").
  static func inputBytes(_ files: [String]) -> Int? {
    guard !files.isEmpty else { return nil }
    var total = 0
    for file in files {
      var info = stat()
      guard file != "-", stat(file, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
      total += Int(info.st_size)
    }
    return total
  }

  /// The baseline in the state file, or `nil` when there is none yet.
  /// The time beside it (`ChangeSince`) is the baseline's `since` when it names this state file.
  /// `checksumAside`: the file's checksum is taken on a thread of its own while its records are
  /// read (not with `-j 1`).
  func read(checksumAside: Bool) throws(Problem) -> ChangeBaseline? {
    let map = Self.mapped(path)
    let read = map == nil ? try Self.wholeFile(path) : nil
    guard map != nil || read != nil else { return nil }
    var baseline: ChangeBaseline
    do throws(ChangeStateError) {
      if let (bytes, release) = map {
        readChecksum = ChangeSince.checksum(ofState: bytes)
        baseline = try ChangeBaseline(
          decodingHandedOver: bytes, checksumAside: checksumAside, release: release)
        readState = (baseline.stateIdentity, bytes.count)
      } else if let read {
        readChecksum = read.withUnsafeBytes { ChangeSince.checksum(ofState: $0) }
        baseline = try ChangeBaseline(decoding: read)
        readState = (baseline.stateIdentity, read.count)
      } else {
        return nil
      }
    } catch {
      throw Self.unreadable(path, error, reads: ChangeBaseline.version)
    }
    // The time and edits beside the state apply when they name this state file (a state file
    // written since makes them void).
    if let sinceBytes = try Self.wholeFile(sincePath) {
      do throws(ChangeStateError) {
        let time = try ChangeSince(decoding: sinceBytes)
        if time.stateChecksum == readChecksum {
          switch time.records {
          case .same: baseline.since = time.since
          case .edited(let edits): baseline = try ChangeBaseline(edits: edits, since: time.since, over: baseline)
          }
        }
      } catch {
        throw Self.unreadable(sincePath, error, reads: ChangeSince.version)
      }
    }
    return baseline
  }

  private static func unreadable(_ path: String, _ error: ChangeStateError, reads version: UInt32)
    -> Problem
  {
    let why: String
    switch error {
    case .foreign: why = "is not a state file of sift"
    case .version(let v): why = "is of format version \(v); this sift reads version \(version)"
    case .damaged: why = "is damaged (cut short, or its checksum does not match)"
    }
    return .changes(
      "the state file \(path) \(why)\n  to start over with a new baseline: rm '\(path)'")
  }

  /// The file at `path` mapped into memory, read-only, its pages asked for up front (37 MB of
  /// state for 1,000,000 records take a millisecond or two, where reading them into memory of
  /// its own takes ten times that: Docs/Performance.md, "The state as it lies"), with what lets
  /// go of it; `nil` when the file is empty or cannot be mapped (then it is read), or when there
  /// is no such file (then `wholeFile` says so too).
  private static func mapped(_ path: String) -> (UnsafeRawBufferPointer, @Sendable () -> Void)? {
    let fd = Glibc.open(path, O_RDONLY)
    guard fd >= 0 else { return nil }
    defer { Glibc.close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size > 0 else { return nil }
    let size = Int(info.st_size)
    guard let map = mmap(nil, size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0), map != MAP_FAILED
    else { return nil }
    let address = Int(bitPattern: map)
    StateFileBusError.watch(path)
    return (UnsafeRawBufferPointer(start: map, count: size), { munmap(UnsafeMutableRawPointer(bitPattern: address), size) })
  }

  /// The bytes of the file at `path` in one buffer of its size, read with as few reads as the
  /// kernel allows; `nil` when there is no such file.
  private static func wholeFile(_ path: String) throws(Problem) -> [UInt8]? {
    func failed(_ code: Int32) -> Problem {
      .changes("cannot read the state file \(path): \(String(cString: strerror(code)))")
    }
    let fd = Glibc.open(path, O_RDONLY)
    if fd < 0 {
      if errno == ENOENT { return nil }
      throw failed(errno)
    }
    defer { Glibc.close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0 else { throw failed(errno) }
    let size = Int(info.st_size)
    var code: Int32 = 0
    let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
      guard let base = buffer.baseAddress else { return }
      while count < size {
        let n = Glibc.read(fd, base + count, size - count)
        if n < 0 && errno == EINTR { continue }
        if n < 0 { code = errno }
        guard n > 0 else { return }
        count += n
      }
    }
    if code != 0 { throw failed(code) }
    return bytes
  }

  /// Writes `baseline` to the temporary file, synced, without replacing the state yet. When it
  /// holds the state file's records as they lie, or a few edits of them (at most a sixteenth of
  /// the file's size), only its time and those edits are written, beside the state file
  /// (`ChangeSince`: Docs/Reports.md, The state).
  func prepare(_ baseline: ChangeBaseline) throws(Problem) {
    if let readChecksum, let readState,
      let records = baseline.asEdits(of: readState.identity, most: readState.size / 16)
    {
      let bytes = ChangeSince(stateChecksum: readChecksum, since: baseline.since, records: records)
        .encoded()
      try Self.writeSynced(to: sinceTemporaryPath) { write in
        bytes.withUnsafeBufferPointer { write($0) }
      }
      prepared = .since
      return
    }
    try Self.writeSynced(to: temporaryPath) { write in baseline.encode(write) }
    prepared = .baseline
  }

  /// A piece of a state file smaller than this is gathered with others before it is written.
  private static let smallPiece = 64 << 10
  /// How many bytes of small pieces are gathered before they are written.
  private static let gatheredBytes = 1 << 20

  /// Writes the bytes `content` hands on to a new file at `path`, and syncs it; on a failure the
  /// file is removed.
  private static func writeSynced(
    to path: String, _ content: ((UnsafeBufferPointer<UInt8>) -> Void) -> Void
  ) throws(Problem) {
    let fd = Glibc.open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    guard fd >= 0 else { throw Self.unwritable(path, errno) }
    defer { Glibc.close(fd) }
    // Written as it is encoded: a large piece at once, small ones (the runs of records a
    // baseline borrows can be a few records each) gathered first; the first failed write stops
    // the writing.
    var failure: Int32 = 0
    func write(_ piece: UnsafeBufferPointer<UInt8>) {
      guard failure == 0, let base = piece.baseAddress else { return }
      var written = 0
      while written < piece.count {
        let n = Glibc.write(fd, base + written, piece.count - written)
        if n < 0 && errno == EINTR { continue }
        guard n > 0 else {
          failure = n < 0 ? errno : ENOSPC
          return
        }
        written += n
      }
    }
    var gathered: [UInt8] = []
    content { piece in
      if piece.count >= Self.smallPiece {
        gathered.withUnsafeBufferPointer { write($0) }
        gathered.removeAll(keepingCapacity: true)
        write(piece)
        return
      }
      gathered.append(contentsOf: piece)
      guard gathered.count >= Self.gatheredBytes else { return }
      gathered.withUnsafeBufferPointer { write($0) }
      gathered.removeAll(keepingCapacity: true)
    }
    gathered.withUnsafeBufferPointer { write($0) }
    guard failure == 0 else {
      unlink(path)
      throw Self.unwritable(path, failure)
    }
    guard fsync(fd) == 0 else {
      let e = errno
      unlink(path)
      throw Self.unwritable(path, e)
    }
  }

  /// Replaces the state with the prepared baseline, or the time beside it with the prepared
  /// time. A new baseline makes an earlier time beside it void (it names the old file's
  /// checksum), so it is removed.
  func commit() throws(Problem) {
    switch prepared {
    case nil: return
    case .since:
      guard rename(sinceTemporaryPath, sincePath) == 0 else { throw Self.unwritable(sincePath, errno) }
    case .baseline:
      guard rename(temporaryPath, path) == 0 else { throw Self.unwritable(path, errno) }
      unlink(sincePath)
    }
    prepared = nil
  }

  /// Drops what was prepared and lets go of the lock; the state stays as it was unless committed.
  func close() {
    if lockDescriptor >= 0 {
      if !readOnly {
        unlink(temporaryPath)
        unlink(sinceTemporaryPath)
      }
      Glibc.close(lockDescriptor)
      lockDescriptor = -1
    }
  }

  deinit { close() }

  private static func makeDirectory(_ directory: String) throws(Problem) {
    var path = ""
    for part in directory.split(separator: "/", omittingEmptySubsequences: false) {
      path += (path.isEmpty && directory.hasPrefix("/") ? "" : (path.isEmpty ? "" : "/")) + part
      if path.isEmpty { path = "/"; continue }
      if mkdir(path, 0o700) != 0 && errno != EEXIST { throw unwritable(directory, errno) }
    }
  }

  private static func unwritable(_ path: String, _ code: Int32) -> Problem {
    .changes(
      "cannot write the state of --changes in \(path): \(String(cString: strerror(code)))"
        + "\n  the baseline is unchanged; set SIFT_STATE_DIR to a writable directory")
  }
}

/// A state file cut short by hand while a run reads its mapping (Docs/Reports.md, The state):
/// the read past its end is a bus error, which ends the run with a message and exit 2, before
/// the state is written, instead of a crash.
private enum StateFileBusError {
  /// The message, made before the signal can come (only async-signal-safe calls in the handler).
  nonisolated(unsafe) static var message: [UInt8] = []

  static func watch(_ path: String) {
    message = Array(
      "sift: the state file \(path) was cut short while this run read it; the baseline is unchanged\n"
        .utf8)
    Glibc.signal(SIGBUS, endOnBusError)
  }
}

private func endOnBusError(_ signal: Int32) {
  StateFileBusError.message.withUnsafeBufferPointer { _ = write(2, $0.baseAddress, $0.count) }
  _exit(2)
}

