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

  /// How `reader`'s records will be read, in words (`2 workers, 15 parts of 8 MiB`).
  func threadingWords(_ reader: RecordReader) -> String {
    threadingWords(split: split(reader))
  }

  /// `split` in words (`2 workers, 15 parts of 8 MiB`, `1 worker (why)`).
  func threadingWords(split: RestSplit) -> String {
    switch split {
    case .parts(let rest):
      let parts = (rest.range.count + partSize - 1) / partSize
      return "\(workers) workers, \(parts) part\(parts == 1 ? "" : "s") of \(sizeWords(partSize))"
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
    if case .parts = self { return true }
    return false
  }
}

/// What filtering one part produced, in input order.
struct PartResult<Collector: PartCollector> {
  /// Where the part started, and whether it was read to its end without an error: only then
  /// does it end where the next part starts, and are its results complete.
  var start: Int
  var clean = true
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

/// Filters the parts of a file on worker threads while the calling thread takes the results in
/// order. A part's ends are moved to the first line start at or after its nominal offset (for a
/// JSON array, to the first record start its probe finds); a line start inside a quoted field
/// makes the part before it end in an unterminated quote, an error, so a part's start is
/// trusted only when the part before it was read cleanly (the first part starts at a record).
/// After an unclean part the caller reads the rest on its own thread.
final class PartScan<Collector: PartCollector>: @unchecked Sendable {
  let plan: Plan
  let reader: SplittableReader
  let rest: FileRest
  /// The source number of part 0; part `i` is `firstSource + i`.
  let firstSource: Int
  /// Makes the collector of a part's matches, on the worker.
  let makeCollector: () -> Collector
  /// Nominal part starts, and the end of the rest.
  let bounds: [Int]
  /// Parts a worker may run ahead of the one the caller takes next.
  let ahead: Int

  private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
  private let changed = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
  private var nextPart = 0
  private var taken = 0
  private var stopped = false
  private var results: [PartResult<Collector>?]
  private var threads: [pthread_t] = []

  init(
    plan: Plan, reader: SplittableReader, rest: FileRest, firstSource: Int,
    makeCollector: @escaping () -> Collector, options: ParallelOptions
  ) {
    self.makeCollector = makeCollector
    self.plan = plan
    self.reader = reader
    self.rest = rest
    self.firstSource = firstSource
    let parts = max(1, (rest.range.count + options.partSize - 1) / options.partSize)
    bounds = (0...parts).map {
      rest.range.lowerBound + min($0 * options.partSize, rest.range.count)
    }
    ahead = options.partsAhead
    results = Array(repeating: nil, count: parts)
    pthread_mutex_init(lock, nil)
    pthread_cond_init(changed, nil)
  }

  deinit {
    pthread_cond_destroy(changed)
    pthread_mutex_destroy(lock)
    changed.deallocate()
    lock.deallocate()
  }

  var partCount: Int { results.count }

  /// Starts `workers` threads; returns false if none could be started.
  func start(workers: Int) -> Bool {
    for _ in 0..<workers {
      var thread = pthread_t()
      let context = Unmanaged.passRetained(WorkerStart { self.runWorker() }).toOpaque()
      let made = pthread_create(
        &thread, nil,
        { context in
          Unmanaged<WorkerStart>.fromOpaque(context!).takeRetainedValue().body()
          return nil
        }, context)
      if made == 0 {
        threads.append(thread)
      } else {
        Unmanaged<WorkerStart>.fromOpaque(context).release()
      }
    }
    return !threads.isEmpty
  }

  /// Waits for part `index` (taken in order) and returns its result.
  func result(_ index: Int) -> PartResult<Collector> {
    pthread_mutex_lock(lock)
    defer { pthread_mutex_unlock(lock) }
    while true {
      if let result = results[index] {
        results[index] = nil
        taken = index + 1
        pthread_cond_broadcast(changed)
        return result
      }
      pthread_cond_wait(changed, lock)
    }
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

  /// A worker: takes the next part while it is not too far ahead of the caller.
  private func runWorker() {
    while true {
      pthread_mutex_lock(lock)
      while !stopped && nextPart < results.count && nextPart >= taken + ahead {
        pthread_cond_wait(changed, lock)
      }
      if stopped || nextPart >= results.count {
        pthread_mutex_unlock(lock)
        return
      }
      let index = nextPart
      nextPart += 1
      pthread_mutex_unlock(lock)
      let result = filter(part: index)
      pthread_mutex_lock(lock)
      results[index] = result
      pthread_cond_broadcast(changed)
      pthread_mutex_unlock(lock)
    }
  }

  /// Reads and filters part `index`, from its start guess to the next part's.
  func filter(part index: Int) -> PartResult<Collector> {
    let start = partStart(index)
    let end = partStart(index + 1)
    var result = PartResult(start: start, collector: makeCollector())
    guard start < end else { return result }
    let part = reader.partReader(start..<end, of: rest, line: 1, column: 1)
    let source = firstSource + index
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

  /// Where part `index` starts (the end of the rest for `partCount`): its nominal start moved
  /// to the first place at or after it where the reader's parts may start.
  func partStart(_ index: Int) -> Int {
    guard index > 0 else { return bounds[0] }
    guard index < results.count else { return bounds[results.count] }
    switch reader.boundaryRule {
    case .afterLineEnd, .afterLineFeed:
      return lineStart(atOrAfter: bounds[index])
    case .afterCommaBetweenRecords:
      // Looked for before the next nominal start only, so part starts never go backwards; with
      // none found there, the part is empty and starts where the next one does.
      let probe = JSONArrayProbe(fd: rest.fd)
      for nominal in index..<results.count {
        let start = probe.recordStart(atOrAfter: bounds[nominal], before: bounds[nominal + 1])
        if start < bounds[nominal + 1] { return start }
      }
      return bounds[results.count]
    }
  }

  /// The first line start at or after `offset` (a part's nominal start), or the end of the rest:
  /// a position after a LF, or (`afterLineEnd`) after a CR that no LF follows.
  func lineStart(atOrAfter offset: Int) -> Int {
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

/// A worker thread's body, handed to `pthread_create`.
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
