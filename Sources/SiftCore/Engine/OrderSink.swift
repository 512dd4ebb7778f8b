/// `sort:` or `group:`: matches are kept with their order keys, sorted in runs and merged
/// (Docs/Architecture.md, Filter, order, write). A part filtered on a worker sorts its own
/// matches; the calling thread sorts what it filtered itself whenever a part's run follows.
/// Runs are merged in input order with ties going to the earlier run, so the result is the
/// stable sort of all matches whatever the thread count. Past the memory budget the runs held
/// are merged into a temporary file (a spilled run), and the end merges those files with the
/// runs still held.
///
/// With `limit:N` (or `limit:N/group`) a part keeps only what can still be shown: past twice the
/// limit it keeps the first N (of each group) of what it holds, in input order, and with `limit:N`
/// alone passes over later matches that cannot come before them, so a top N is one pass in
/// memory that follows N, not the input (Docs/Performance.md, Top N).
struct OrderSink: MatchSink {
  /// Matches in input order: their batches and rows with their keys; once closed, a sorted run.
  struct Part: PartCollector {
    struct KeptRow {
      var batch: Int32
      var row: Int32
    }

    var batches: [RecordBatch] = []
    /// Per batch, the source that read it (its output columns).
    var batchSources: [Int32] = []
    var rows: [KeptRow] = []
    var keys: SortKeys
    /// The rows in output order, once closed.
    var order: [Int32] = []
    /// Memory held by the batches and keys.
    var heldBytes = 0
    /// What can still be shown: `limit:N` of the whole result or of each group.
    let shown: ShownLimit
    /// The record count at which the part is cut back to what can be shown.
    private var pruneAt: Int
    /// With `limit:N` and no groups, once a cut has kept N records: the sort values of the last
    /// of them in output order. A later match that does not come before it can never be shown,
    /// so it is passed over without being held or sorted (Docs/Performance.md, Top N).
    private var bar: [SortValue]?

    init(plan: Plan, limit: Int) {
      keys = SortKeys(plan: plan)
      shown = ShownLimit(plan: plan, limit: limit)
      pruneAt = shown.pruneAt(keeping: 0)
    }

    var isEmpty: Bool { rows.isEmpty }

    mutating func collect(
      _ batch: RecordBatch, rows matched: [Int32], source: Int, access: SourceAccess
    ) {
      var wanted = matched
      if let bar {
        let keys = self.keys
        wanted = batch.withRows { cursor in
          var before: [Int32] = []
          for r in matched where keys.precedes(cursor.row(Int(r)), access: access, bar: bar) {
            before.append(r)
          }
          return before
        }
      }
      guard let (kept, list) = keep(batch, rows: wanted, source: Int32(source)) else { return }
      kept.withRows { cursor in
        for r in list {
          keys.append(cursor.row(Int(r)), access: access)
          heldBytes += 8 + keys.heldBytes(keys.count - 1)
        }
      }
      if rows.count >= pruneAt { prune() }
    }

    /// Holds what `batch`, read by `source`, keeps of its `rows` (a copy of them when they are
    /// few) and appends them to `rows`: the kept batch and its rows to take keys from.
    private mutating func keep(
      _ batch: RecordBatch, rows wanted: [Int32], source: Int32
    ) -> (batch: RecordBatch, rows: [Int32])? {
      guard let (kept, keptRows) = batch.keeping(wanted) else { return nil }
      let b = Int32(batches.count)
      batches.append(kept)
      batchSources.append(source)
      heldBytes += kept.heldBytes
      let list = keptRows ?? Array(0..<Int32(kept.count))
      for r in list { rows.append(KeptRow(batch: b, row: r)) }
      return (kept, list)
    }

    /// Keeps only the records that can still be shown, in input order: the first N in output
    /// order (of each group with `limit:N/group`). A later record that ties with a kept one
    /// comes after it in the stable sort, so what is dropped could never be shown.
    private mutating func prune() {
      let shownFirst = shown.kept(in: &keys)
      bar = nil
      if !keys.hasGroup, !shown.perGroup, shownFirst.count == shown.count, let last = shownFirst.last {
        bar = keys.sortValues(of: Int(last))
      }
      let kept = shownFirst.sorted()
      keys.keepRecords(kept)
      let (oldBatches, oldSources, oldRows) = (batches, batchSources, rows)
      batches = []
      batchSources = []
      rows = []
      rows.reserveCapacity(kept.count)
      heldBytes = 0
      var i = 0
      while i < kept.count {
        let b = oldRows[Int(kept[i])].batch
        var inBatch: [Int32] = []
        while i < kept.count, oldRows[Int(kept[i])].batch == b {
          inBatch.append(oldRows[Int(kept[i])].row)
          i += 1
        }
        _ = keep(oldBatches[Int(b)], rows: inBatch, source: oldSources[Int(b)])
      }
      for k in 0..<keys.count { heldBytes += 8 + keys.heldBytes(k) }
      pruneAt = shown.pruneAt(keeping: rows.count)
    }

    /// Sorts the rows (stably): this part is a run.
    mutating func close() {
      order = keys.sortedIndices()
    }
  }

  let plan: Plan
  let writer: RecordWriter
  let limit: Int
  /// Bytes of kept matches past which the runs held are spilled to a temporary file: the
  /// budget less what parts read ahead on worker threads may hold.
  let memoryBudget: Int
  let temporaryDirectory: String
  /// What the calling thread filtered since the last run was closed.
  private var open: Part
  /// Sorted runs held in memory, in input order (after every spilled run).
  private var runs: [Part] = []
  private var runsHeld = 0
  /// Spilled runs, in input order.
  private var spilled: [SpillFile] = []
  /// Each group's count over every run (group headings show it before the group's records).
  private var tally: GroupTally
  /// The temporary space the spilled runs hold.
  private let space = SpillSpace()

  /// Spilled runs merged into one when there are this many (each holds a file and a buffer).
  static let mergeWidth = 64

  init(plan: Plan, writer: RecordWriter, limit: Int, options: ParallelOptions) {
    self.plan = plan
    self.writer = writer
    self.limit = limit
    self.memoryBudget = max(0, options.memoryBudget - options.partsHeld)
    self.temporaryDirectory = options.temporaryDirectory
    self.open = Part(plan: plan, limit: limit)
    self.tally = GroupTally(
      arity: plan.group.count, decimalMark: plan.decimalMark,
      conventions: plan.groupConventions, descending: plan.groupDescending)
  }

  func partMaker() -> () -> Part {
    let plan = plan
    let limit = limit
    return { Part(plan: plan, limit: limit) }
  }

  mutating func take(
    _ batch: RecordBatch, rows: [Int32], source: Int, compiled: SourceAccess,
    summary: inout RunSummary
  ) throws(SiftError) {
    open.collect(batch, rows: rows, source: source, access: compiled)
    try spillIfOverBudget()
  }

  mutating func merge(
    _ part: Part, compiled: [Int: SourceAccess], summary: inout RunSummary
  ) throws(SiftError) {
    closeOpen()
    add(part)
    try spillIfOverBudget()
  }

  private mutating func closeOpen() {
    guard !open.isEmpty else { return }
    open.close()
    add(open)
    open = Part(plan: plan, limit: limit)
  }

  private mutating func add(_ run: Part) {
    guard !run.isEmpty else { return }
    tally.merge(run.keys.groups)
    runsHeld += run.heldBytes
    runs.append(run)
  }

  private mutating func spillIfOverBudget() throws(SiftError) {
    guard runsHeld + open.heldBytes > memoryBudget else { return }
    closeOpen()
    guard !runs.isEmpty else { return }
    // Ranks only the groups of the runs spilled: every group so far may be many more.
    var groups = GroupTally(orderedAs: tally)
    for run in runs { groups.merge(run.keys.groups) }
    let file = try SpillFile(directory: temporaryDirectory, space: space)
    let ranking = groups.ranked()
    try Self.merge(runs.map { MemoryRun($0, ranking: ranking) }, limit: limit) {
      run throws(SiftError) in try file.append(run)
    }
    try file.endWriting()
    runs = []
    runsHeld = 0
    spilled.append(file)
    if spilled.count >= Self.mergeWidth {
      let merged = try SpillFile(directory: temporaryDirectory, space: space)
      let ranking = tally.ranked()
      let files = try spilled.map { f throws(SiftError) in
        try FileRun(f, plan: plan, ranking: ranking)
      }
      try Self.merge(files, limit: limit) { run throws(SiftError) in try merged.append(run) }
      try merged.endWriting()
      spilled = [merged]
    }
  }

  mutating func finish(
    compiled: [Int: SourceAccess], summary: inout RunSummary
  ) throws(SiftError) {
    closeOpen()
    let ranking = tally.ranked()
    var sources: [SortedRun] = []
    for file in spilled { sources.append(try FileRun(file, plan: plan, ranking: ranking)) }
    for run in runs { sources.append(MemoryRun(run, ranking: ranking)) }
    let grouped = !plan.group.isEmpty
    // `limit:N/group` keeps the first N records of each group; the rest are passed over.
    let perGroup = plan.limitPerGroup ?? Int.max
    let limit = limit
    var current: Int32 = -1
    var inGroup = 0
    var shown = 0
    var groupCounts: [(values: [[UInt8]], count: Int)] = []
    let writer = writer
    try Self.merge(sources, limit: perGroup == Int.max ? limit : Int.max) { run throws(SiftError) in
      if grouped, run.keys.groupRank(run.keyIndex) != current {
        current = run.keys.groupRank(run.keyIndex)
        inGroup = 0
        let count = min(ranking.count(Int(current)), perGroup, limit - shown)
        let values = ranking.values(Int(current)).map { Array($0) }
        let heading = GroupHeading.counted(values.map { String(decoding: $0, as: UTF8.self) }, count)
        groupCounts.append((values, count))
        do throws(OutputError) { try writer.beginGroup(heading) } catch { throw .output(error) }
      }
      guard inGroup < perGroup else { return }
      inGroup += 1
      var failure: OutputError?
      run.withRecord { row, source in
        guard let c = compiled[source] else { return }
        do throws(OutputError) {
          try writer.write(row, columns: c.columns, verbatim: c.verbatim)
        } catch { failure = error }
      }
      if let failure { throw .output(failure) }
      shown += 1
    }
    summary.shown = shown
    summary.temporaryPeak = space.peak
    if grouped {
      summary.groups = groupCounts.count
      summary.groupCounts = groupCounts
    }
    do throws(OutputError) { try writer.end() } catch { throw .output(error) }
  }

  /// Merges sorted `runs` (in input order) and calls `body` with the run whose record is next,
  /// for the first `limit` records; ties go to the earlier run.
  static func merge(
    _ runs: [SortedRun], limit: Int, _ body: (SortedRun) throws(SiftError) -> Void
  ) throws(SiftError) {
    var heap = RunHeap(runs.indices.filter { !runs[$0].atEnd }, runs: runs)
    var left = limit
    while left > 0, let top = heap.top {
      let run = runs[top]
      try body(run)
      left -= 1
      try run.advance()
      if run.atEnd { heap.removeTop() } else { heap.topChanged() }
    }
  }
}

/// How many records of a part can still be shown: `limit:N` of the whole result, or of each group
/// with `limit:N/group`; unbounded without a limit.
struct ShownLimit {
  let count: Int
  let perGroup: Bool

  init(plan: Plan, limit: Int) {
    if let n = plan.limitPerGroup {
      count = n
      perGroup = true
    } else {
      count = limit
      perGroup = false
    }
  }

  /// A part is cut back once it holds twice what it kept (and at least 8,192 records, so a
  /// small limit does not sort every few records); never without a limit.
  func pruneAt(keeping kept: Int) -> Int {
    guard count < Int.max / 4 else { return Int.max }
    return max(8_192, 2 * max(kept, count))
  }

  /// The records of `keys` that can be shown, in output order: the first N, found with a bounded
  /// heap rather than a sort of them all; the first N of each group from the whole order.
  func kept(in keys: inout SortKeys) -> [Int32] {
    guard perGroup else { return keys.firstIndices(count) }
    var inGroup: [Int32: Int] = [:]
    let groupIDs = keys.groupIDs
    return keys.sortedIndices().filter { i in
      let g = groupIDs[Int(i)]
      let n = inGroup[g, default: 0]
      inGroup[g] = n + 1
      return n < count
    }
  }
}

/// A binary min-heap of run indices, by each run's current record, then by run index.
private struct RunHeap {
  var items: [Int]
  let runs: [SortedRun]

  init(_ items: [Int], runs: [SortedRun]) {
    self.items = []
    self.runs = runs
    for i in items { push(i) }
  }

  var top: Int? { items.first }

  func less(_ a: Int, _ b: Int) -> Bool {
    let x = runs[a]
    let y = runs[b]
    let c = x.keys.compare(x.keyIndex, y.keys, y.keyIndex)
    return c != 0 ? c < 0 : a < b
  }

  mutating func push(_ i: Int) {
    items.append(i)
    var k = items.count - 1
    while k > 0 {
      let parent = (k - 1) / 2
      guard less(items[k], items[parent]) else { break }
      items.swapAt(k, parent)
      k = parent
    }
  }

  mutating func removeTop() {
    let last = items.removeLast()
    guard !items.isEmpty else { return }
    items[0] = last
    topChanged()
  }

  /// Moves the top down after its run advanced.
  mutating func topChanged() {
    var k = 0
    let n = items.count
    while true {
      let l = 2 * k + 1
      guard l < n else { return }
      var m = l
      if l + 1 < n, less(items[l + 1], items[l]) { m = l + 1 }
      guard less(items[m], items[k]) else { return }
      items.swapAt(k, m)
      k = m
    }
  }
}

/// A sorted run read in order during a merge: its current record is record `keyIndex` of `keys`.
class SortedRun {
  final var keys: SortKeys
  final var keyIndex = 0
  final var atEnd = false

  init(keys: SortKeys) {
    self.keys = keys
  }

  func advance() throws(SiftError) {}

  /// Calls `body` with the current record and the source that read it.
  func withRecord(_ body: (RowView, Int) -> Void) {}
}

/// A run held in memory.
final class MemoryRun: SortedRun {
  private let part: OrderSink.Part
  private var position = 0

  init(_ part: OrderSink.Part, ranking: GroupTally) {
    self.part = part
    super.init(keys: part.keys)
    if keys.hasGroup { keys.rankGroups(by: ranking) }
    atEnd = part.order.isEmpty
    if !atEnd { keyIndex = Int(part.order[0]) }
  }

  override func advance() throws(SiftError) {
    position += 1
    atEnd = position >= part.order.count
    if !atEnd { keyIndex = Int(part.order[position]) }
  }

  override func withRecord(_ body: (RowView, Int) -> Void) {
    let kept = part.rows[keyIndex]
    let b = Int(kept.batch)
    part.batches[b].withRows { cursor in
      body(cursor.row(Int(kept.row)), Int(part.batchSources[b]))
    }
  }
}
