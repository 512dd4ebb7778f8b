#if canImport(Glibc)
  import Glibc
#endif

/// How the engine uses the machine: more than one core, and memory for sorting
/// (Docs/Performance.md).
public struct ParallelOptions: Sendable {
  /// Threads filtering parts of a large file at once; 1 reads every input on the calling thread.
  public var workers: Int
  /// The bytes of a file each part covers (before moving its ends to record starts).
  public var partSize: Int
  /// The smallest unread rest of a file worth splitting.
  public var minimumSize: Int
  /// Bytes of kept matches past which `sort:` and `group:` spill sorted runs to temporary files.
  public var memoryBudget: Int
  /// Where the temporary files go.
  public var temporaryDirectory: String

  public init(
    workers: Int = 2, partSize: Int = 8 << 20, minimumSize: Int = 4 << 20,
    memoryBudget: Int = .max, temporaryDirectory: String = "/tmp"
  ) {
    self.workers = workers
    self.partSize = max(partSize, 1)
    self.minimumSize = minimumSize
    self.memoryBudget = memoryBudget
    self.temporaryDirectory = temporaryDirectory
  }

  /// Parts a worker may run ahead of the one the calling thread takes next.
  var partsAhead: Int { 2 * workers }

  /// The bytes a part of a stream holds before it ends at a record boundary: at most 1 MiB, so
  /// a part's buffer is reused from the heap and stays in the cache while it is read (a pipe
  /// gains nothing from larger parts; Docs/Performance.md, Standard input in parts).
  var streamPartSize: Int { min(partSize, 1 << 20) }

  /// The bytes of a file each part of a run of `plan` covers before its ends move. A run that
  /// writes every record holds each part's output, as large as the part, until the parts before
  /// it are written: its parts are as small as a stream's, so the memory of a part written is
  /// reused for the next while it is in the cache instead of being faulted in fresh
  /// (Docs/Performance.md, Parts as small as a stream's). Other runs keep little of a part, or
  /// merge what each part made, so fewer, larger parts cost them less.
  func filePartSize(for plan: Plan) -> Int {
    switch plan.shape {
    case .stream: plan.filter == nil ? streamPartSize : partSize
    case .order, .count, .tally, .summarize: partSize
    }
  }

  /// What the parts being filtered or waiting their turn may hold at most: a part's batches
  /// (its text and field spans) are about twice its bytes. None on one thread.
  var partsHeld: Int { workers > 1 ? 2 * partSize * (workers + partsAhead) : 0 }
}

extension ParallelOptions {
  /// Whether the unread rest of `reader` is read in parts on the workers, or why it is read on
  /// the calling thread: the one rule the engine follows and `--explain` shows.
  func split(_ reader: RecordReader) -> RestSplit {
    guard let splittable = reader as? SplittableReader else { return .oneThread(.notSplittable) }
    let split = splittable.restSplit(minimum: minimumSize)
    guard workers > 1 || !split.isParts else { return .oneThread(.oneWorker) }
    return split
  }

  /// How `reader`'s records will be read in a run of `plan`, in words (`2 workers, 15 parts of
  /// 8 MiB`).
  func threadingWords(_ reader: RecordReader, for plan: Plan) -> String {
    threadingWords(split: split(reader), for: plan)
  }

  /// `split` in words (`2 workers, 15 parts of 8 MiB`, `1 worker (why)`).
  func threadingWords(split: RestSplit, for plan: Plan) -> String {
    switch split {
    case .parts(let rest):
      let size = filePartSize(for: plan)
      let parts = (rest.range.count + size - 1) / size
      return "\(workers) workers, \(parts) part\(parts == 1 ? "" : "s") of \(sizeWords(size))"
    case .stream:
      return "\(workers) workers, parts of \(sizeWords(streamPartSize)) as the stream arrives"
    case .oneThread(let reason):
      let why: String? =
        switch reason {
        case .oneWorker: nil
        case .notSplittable: "its format is read in order"
        case .outsideRecords: "the sample stopped outside the array of records"
        case .sampleReadAll: "read whole with the sample"
        case .skipBad: "--skip-bad reads in order"
        case .standardInput: "standard input, not a file"
        case .converted: "decompressed or transcoded input is read in order"
        case .notAFile: "not a regular file"
        case .small(let minimum): "less than \(sizeWords(minimum)) after the sample"
        }
      return "1 worker" + (why.map { " (\($0))" } ?? "")
    }
  }

  private func sizeWords(_ bytes: Int) -> String {
    if bytes >= 1 << 20 && bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
    if bytes >= 1 << 10 && bytes % (1 << 10) == 0 { return "\(bytes >> 10) KiB" }
    return "\(bytes) bytes"
  }
}

extension RestSplit {
  var isParts: Bool {
    switch self {
    case .parts, .stream: true
    case .oneThread: false
    }
  }
}

/// What filtering one part produced, in input order.
struct PartResult<Collector: PartCollector> {
  /// Where the part started, and whether it was read to its end without an error: only then
  /// does it end where the next part starts, and are its results complete.
  var start: Int
  var clean = true
  /// True when the part was cut early because its stream paused: what it matched is written
  /// out now (Docs/Formats.md, Streaming input).
  var idle = false
  /// Records read, and matched.
  var total = 0
  var matched = 0
  var shortRows = 0
  /// Line ends read, and the byte column the part ends at (counted from 1 at its start when it
  /// read no line end).
  var lines = 0
  var endColumn = 1
  /// The part reader's field names at its end and the batches' encoding; `nil` when the part
  /// read no batch.
  var fields: (names: [String], encoding: FieldEncoding, decimalMark: DecimalMark)?
  /// What the run's sink collected of the matches.
  var collector: Collector
}

/// Where the parts of a `PartScan` come from.
enum PartFeed {
  /// The rest of a regular file, at nominal part starts (and the rest's end) `bounds`.
  case file(FileRest, bounds: [Int])
  /// A stream cut into parts as it arrives, read by `reader`'s part readers.
  case stream(StreamCutter, reader: any StreamSplittableReader)

  /// The parts of a file's rest `rest`, `partSize` bytes each before their ends move.
  static func file(_ rest: FileRest, partSize: Int) -> PartFeed {
    let parts = max(1, (rest.range.count + partSize - 1) / partSize)
    let bounds = (0...parts).map { rest.range.lowerBound + min($0 * partSize, rest.range.count) }
    return .file(rest, bounds: bounds)
  }
}

/// Filters the parts of a file or stream on worker threads while the calling thread takes the
/// results in order. A file part's ends are moved to the first line start at or after its
/// nominal offset (for a JSON array, to the first record start its probe finds); a line start
/// inside a quoted field makes the part before it end in an unterminated quote, an error, so a
/// part's start is trusted only when the part before it was read cleanly (the first part starts
/// at a record). A stream is cut by one worker at a time, in order (`StreamCutter`). After an
/// unclean part the caller reads the rest on its own thread.
final class PartScan<Collector: PartCollector>: @unchecked Sendable {
  let plan: Plan
  let reader: SplittableReader
  let feed: PartFeed
  /// The source number of part 0; part `i` is `firstSource + i`.
  let firstSource: Int
  /// Makes the collector of a part's matches, on the worker.
  let makeCollector: () -> Collector
  /// Parts a worker may run ahead of the one the caller takes next.
  let ahead: Int

  private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
  private let changed = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
  /// Held by the worker cutting a stream's next part (waiting for its bytes), not by `lock`, so
  /// the caller takes finished parts meanwhile.
  private let cutting = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
  private var nextPart = 0
  private var taken = 0
  private var stopped = false
  /// How many parts there are: known from the start for a file, when the stream ends for one.
  private var knownCount: Int?
  private var results: [Int: PartResult<Collector>] = [:]
  /// A stream's parts from the first one not taken yet: read again in order after an unclean one.
  private var heldBytes: [Int: [UInt8]] = [:]
  private var threads: [pthread_t] = []

  init(
    plan: Plan, reader: SplittableReader, feed: PartFeed, firstSource: Int,
    makeCollector: @escaping () -> Collector, options: ParallelOptions
  ) {
    self.makeCollector = makeCollector
    self.plan = plan
    self.reader = reader
    self.feed = feed
    self.firstSource = firstSource
    if case .file(_, let bounds) = feed { knownCount = bounds.count - 1 }
    ahead = options.partsAhead
    pthread_mutex_init(lock, nil)
    pthread_mutex_init(cutting, nil)
    pthread_cond_init(changed, nil)
  }

  deinit {
    pthread_cond_destroy(changed)
    pthread_mutex_destroy(cutting)
    pthread_mutex_destroy(lock)
    changed.deallocate()
    cutting.deallocate()
    lock.deallocate()
  }

  /// The number of parts of a file (0 for a stream, whose parts are counted as they come).
  var fileParts: Int {
    if case .file(_, let bounds) = feed { return bounds.count - 1 }
    return 0
  }

  /// Starts `workers` threads; returns false if none could be started.
  func start(workers: Int) -> Bool {
    for _ in 0..<workers {
      if let thread = startThread({ self.runWorker() }) { threads.append(thread) }
    }
    return !threads.isEmpty
  }

  /// Waits for part `index` (taken in order) and returns its result; `nil` past the last part.
  func result(_ index: Int) -> PartResult<Collector>? {
    pthread_mutex_lock(lock)
    defer { pthread_mutex_unlock(lock) }
    while true {
      if let result = results.removeValue(forKey: index) {
        heldBytes[index - 1] = nil
        taken = index + 1
        pthread_cond_broadcast(changed)
        return result
      }
      if let knownCount, index >= knownCount { return nil }
      pthread_cond_wait(changed, lock)
    }
  }

  /// Filters the next part on the calling thread (when no worker could start); `nil` past the
  /// last part.
  func filterHere() -> PartResult<Collector>? {
    guard let claimed = claim() else { return nil }
    pthread_mutex_lock(lock)
    heldBytes[claimed.index - 1] = nil
    taken = claimed.index + 1
    pthread_mutex_unlock(lock)
    return filter(claimed)
  }

  /// Stops the workers after their current part and waits for them.
  func stop() {
    pthread_mutex_lock(lock)
    stopped = true
    pthread_cond_broadcast(changed)
    pthread_mutex_unlock(lock)
    for thread in threads { pthread_join(thread, nil) }
    threads = []
  }

  /// After `stop`: a reader of the rest from part `index`, which starts at `start` of a file,
  /// on `line` and `column`. For a stream, the bytes of that part and the ones read after it
  /// are put back in front of what it has not handed out.
  func tailReader(from index: Int, start: Int, line: Int, column: Int) -> any PartReader {
    switch feed {
    case .file(let rest, _):
      return reader.partReader(
        start..<rest.range.upperBound, of: rest, line: line, column: column)
    case .stream(let cutter, let streamReader):
      var bytes: [UInt8] = []
      for k in index..<nextPart { bytes += heldBytes[k] ?? [] }
      heldBytes = [:]
      cutter.source.putBack(bytes + cutter.takePending())
      return streamReader.streamPartReader(
        cutter.source, line: line, chunkSize: ChunkedInput.defaultChunkSize)
    }
  }

  /// The read failure that ended a stream, after its last part.
  var streamFailure: InputError? {
    if case .stream(let cutter, _) = feed { return cutter.failure }
    return nil
  }

  /// A worker: takes the next part while it is not too far ahead of the caller.
  private func runWorker() {
    while let claimed = claim() {
      let result = filter(claimed)
      pthread_mutex_lock(lock)
      results[claimed.index] = result
      pthread_cond_broadcast(changed)
      pthread_mutex_unlock(lock)
    }
  }

  /// A part a worker took: its number, where it starts in the file, whether it was cut early
  /// because the stream paused, and its reader (`nil` for an empty part).
  struct ClaimedPart {
    var index: Int
    var start = 0
    var idle = false
    var reader: (any PartReader)?
  }

  /// The next part to filter, once it is not too far ahead of the caller; `nil` when there is
  /// none or the scan stopped. A stream's part is cut here, one worker at a time.
  private func claim() -> ClaimedPart? {
    switch feed {
    case .file(let rest, let bounds):
      guard let index = nextIndex(reserving: true) else { return nil }
      let start = partStart(index, of: rest, bounds: bounds)
      let end = partStart(index + 1, of: rest, bounds: bounds)
      guard start < end else { return ClaimedPart(index: index, start: start) }
      return ClaimedPart(
        index: index, start: start,
        reader: reader.partReader(start..<end, of: rest, line: 1, column: 1))
    case .stream(let cutter, let streamReader):
      pthread_mutex_lock(cutting)
      defer { pthread_mutex_unlock(cutting) }
      guard let index = nextIndex(reserving: false) else { return nil }
      let cut = cutter.next()
      pthread_mutex_lock(lock)
      defer { pthread_mutex_unlock(lock) }
      guard let cut else {
        knownCount = index
        pthread_cond_broadcast(changed)
        return nil
      }
      nextPart = index + 1
      heldBytes[index] = cut.bytes
      // Read as one buffer, the part's own bytes (a part is about `streamPartSize`).
      let part = streamReader.streamPartReader(
        ByteSource(bytes: cut.bytes, name: cutter.source.name), line: 1,
        chunkSize: cut.bytes.count + 1)
      return ClaimedPart(index: index, idle: cut.idle, reader: part)
    }
  }

  /// Waits until the next part is within `ahead` of the caller; returns its index (counted as
  /// taken when `reserving`), or `nil` when there is none or the scan stopped.
  private func nextIndex(reserving: Bool) -> Int? {
    pthread_mutex_lock(lock)
    defer { pthread_mutex_unlock(lock) }
    while !stopped && nextPart < (knownCount ?? .max) && nextPart >= taken + ahead {
      pthread_cond_wait(changed, lock)
    }
    guard !stopped, nextPart < (knownCount ?? .max) else { return nil }
    defer { if reserving { nextPart += 1 } }
    return nextPart
  }

  /// Reads and filters a part.
  func filter(_ claimed: ClaimedPart) -> PartResult<Collector> {
    var result = PartResult(start: claimed.start, idle: claimed.idle, collector: makeCollector())
    guard let part = claimed.reader else { return result }
    let source = firstSource + claimed.index
    var compiledFor = -1
    var access: SourceAccess?
    var matches: [Int32] = []
    while true {
      let batch: RecordBatch
      do throws(InputError) {
        guard let next = try part.nextBatch() else { break }
        batch = next
      } catch {
        result.clean = false
        return result
      }
      let names = part.fieldNames
      if names.count != compiledFor {
        access = SourceAccess(plan: plan, names: names, batch: batch)
        compiledFor = names.count
      }
      guard let access else { break }
      result.total += batch.count
      batch.filter(by: access.predicate, into: &matches)
      result.matched += matches.count
      result.collector.collect(batch, rows: matches, source: source, access: access)
      result.fields = (names, batch.encoding, batch.decimalMark)
    }
    result.collector.close()
    result.shortRows = part.shortRows
    result.lines = part.nextLine - 1
    result.endColumn = part.nextColumn
    return result
  }

  /// Where part `index` starts (the end of the rest for the part count): its nominal start moved
  /// to the first place at or after it where the reader's parts may start.
  func partStart(_ index: Int, of rest: FileRest, bounds: [Int]) -> Int {
    let count = bounds.count - 1
    guard index > 0 else { return bounds[0] }
    guard index < count else { return bounds[count] }
    switch reader.boundaryRule {
    case .afterLineEnd, .afterLineFeed:
      return lineStart(atOrAfter: bounds[index], of: rest)
    case .afterCommaBetweenRecords:
      // Looked for before the next nominal start only, so part starts never go backwards; with
      // none found there, the part is empty and starts where the next one does.
      let probe = JSONArrayProbe(fd: rest.fd)
      for nominal in index..<count {
        let start = probe.recordStart(atOrAfter: bounds[nominal], before: bounds[nominal + 1])
        if start < bounds[nominal + 1] { return start }
      }
      return bounds[count]
    }
  }

  /// The first line start at or after `offset` (a part's nominal start), or the end of the rest:
  /// a position after a LF, or (`afterLineEnd`) after a CR that no LF follows.
  func lineStart(atOrAfter offset: Int, of rest: FileRest) -> Int {
    let end = rest.range.upperBound
    let window = 4096
    var buffer = [UInt8](repeating: 0, count: window)
    var position = offset - 1  // the byte before the first candidate
    scanning: while position < end {
      let got = buffer.withUnsafeMutableBytes { b in
        pread(rest.fd, b.baseAddress, min(window, end - position), off_t(position))
      }
      guard got > 0 else { return end }
      for k in 0..<got {
        let candidate = position + k + 1
        if buffer[k] == .lineFeed { return candidate }
        guard buffer[k] == .carriageReturn, reader.boundaryRule == .afterLineEnd else { continue }
        if candidate >= end { return end }
        guard k + 1 < got else {
          position += k  // whether a LF follows is in the next window
          continue scanning
        }
        if buffer[k + 1] != .lineFeed { return candidate }
      }
      position += got
    }
    return end
  }
}

/// Starts a thread running `body`; `nil` when none could be started (`pthread_create` failed).
func startThread(_ body: @escaping () -> Void) -> pthread_t? {
  var thread = pthread_t()
  let context = Unmanaged.passRetained(WorkerStart(body)).toOpaque()
  let made = pthread_create(
    &thread, nil,
    { context in
      Unmanaged<WorkerStart>.fromOpaque(context!).takeRetainedValue().body()
      return nil
    }, context)
  guard made == 0 else {
    Unmanaged<WorkerStart>.fromOpaque(context).release()
    return nil
  }
  return thread
}

/// A thread's body, handed to `pthread_create` (`startThread`).
private final class WorkerStart {
  let body: () -> Void
  init(_ body: @escaping () -> Void) { self.body = body }
}

extension RecordBatch {
  /// A batch of the records `rows` (in order) alone, their text copied into bytes of their own.
  func copying(rows: [Int32]) -> RecordBatch {
    withRows { cursor in
      var size = 0
      for r in rows { size += Int(cursor.extents[Int(r) * 2 + 1] - cursor.extents[Int(r) * 2]) }
      var newSpans = [Int32](repeating: 0, count: rows.count * width * 2)
      var newExtents = [Int32](repeating: 0, count: rows.count * 2)
      var newLines = [Int32](repeating: 0, count: rows.count)
      let newBytes = [UInt8](unsafeUninitializedCapacity: size) { out, count in
        var at = 0
        for (k, r32) in rows.enumerated() {
          let r = Int(r32)
          let from = Int(cursor.extents[r * 2])
          let length = Int(cursor.extents[r * 2 + 1]) - from
          if length > 0 {
            (out.baseAddress! + at).initialize(
              from: cursor.bytes.baseAddress! + from, count: length)
          }
          let shift = Int32(at - from)
          // A record of a ragged batch lacks the fields it has no span for: missing (-1).
          let row = cursor.row(r)
          for f in 0..<(width * 2) {
            let span = row.span(f >> 1)
            let v = f & 1 == 0 ? span.start : (span.start < 0 ? -1 : span.end)
            newSpans[k * width * 2 + f] = v < 0 ? v : v + shift
          }
          newExtents[k * 2] = Int32(at)
          newExtents[k * 2 + 1] = Int32(at + length)
          newLines[k] = Int32(line(r))
          at += length
        }
        count = at
      }
      return RecordBatch(
        bytes: newBytes, encoding: encoding, width: width, spans: newSpans, extents: newExtents,
        lines: newLines, decimalMark: decimalMark, asWritten: asWritten)
    }
  }
}
