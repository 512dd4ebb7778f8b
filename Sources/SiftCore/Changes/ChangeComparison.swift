#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What `ChangeTracker` holds and does, as a value: the tracker hands each record to it in one
/// access, so the per-record work touches no class property (no exclusivity check per access:
/// Docs/Performance.md, "The first run, and runs with many new or gone records").
struct ChangeComparison {
  let inner: RecordWriter?
  /// The writer, when it strikes earlier values through itself (HTML) and leaves the `was`
  /// column out; an e-mail report's other parts keep theirs.
  let strikingThrough: EarlierValuesShowing?
  let keys: [String]
  let baseline: ChangeBaseline?
  /// How many records the baseline holds (0 without one).
  private let baselineCount: Int
  /// The most bytes of values `next` keeps (0 where it is not written).
  let budget: Int
  /// Whether `next` is written as the next run's baseline; not for `--peek` and `--against`,
  /// where it only holds this run's keys, for the keys that repeat (Docs/Performance.md,
  /// "Comparing with an earlier export").
  let nextIsWritten: Bool
  /// The baseline the next run compares with: this run's matching records.
  var next: ChangeBaseline
  var counts: ChangeCounts
  /// Set when two records share a key; the writer then stops the run.
  var failure: ChangeError?

  private var columns: [String] = []
  /// The output columns of the key fields.
  private var keyColumns: [Int] = []
  /// The key columns the records' digests are made with (`RecordDigests`); `nil` before `begin`.
  var digestKeyColumns: [Int]? { begun ? keyColumns : nil }
  private var begun = false
  /// Baseline column → current column, for the columns both have.
  private var common: [(base: Int, current: Int)] = []
  private var sameColumns = true
  /// The keys by hash: the baseline's, and this run's that are not in the baseline. Built only
  /// when a record is not the one after the last found (`expected`), so a run in the baseline's
  /// order never builds it.
  private var table = KeyTable(capacity: 1024)
  private var tableHasBaseline = false
  /// The baseline's keys by hash, as the run that read the baseline put them in its own table
  /// (`ChangeTracker.takeKeyTable(of:)`): taken as the table when it is needed, and when it
  /// holds every baseline key, rather than every key hashed and put in again.
  var baselineTable: KeyTable?
  /// Whether the gone rows may be made on a thread of their own beside the calling thread (not
  /// with `-j 1`): `GoneRowsAside`.
  var goneRowsAside = false
  /// Whether the run's records came in groups (`group:`): the gone ones then come under a
  /// heading of their own.
  private var grouped = false
  /// The baseline record the next record most likely has: the one after the last found.
  private var expected = 0
  /// Where each record of the run came from (input, line), when the engine says: a repeated
  /// key's message names both lines.
  private var places: [(source: Int32, line: Int32)] = []
  /// Where the record about to be written came from, when the engine says.
  var place: (source: Int32, line: Int32)?
  /// The input and line offset of each source that is a part of an input
  /// (`RecordPlaceTaking.takeOrigin`): a place is said in its input's lines.
  var origins: [Int: (input: Int, lineOffset: Int)] = [:]
  /// This run's records so far.
  private var records = 0
  /// The size of the inputs in bytes, when known (regular files): with the first records' mean
  /// length it tells how many records to make room for (`makeRoom`).
  var inputBytes: Int?
  /// The bytes of the first `Self.measured` records' texts, for `makeRoom`.
  private var measuredBytes = 0
  /// How many records this run most likely has (`makeRoom`); 0 until known.
  private var expectedRecords = 0
  /// How many records are measured before room is made for the rest.
  private static let measured = 64
  /// Whether every record so far was the baseline's record of the same number, unchanged; `next`
  /// is then left empty until one is not (`stopMirroring`), or the run ends (Docs/Performance.md,
  /// "Changes since the last run").
  private var mirrored = false
  /// Per baseline record, the record of this run with its key (`-1`: none yet).
  private var currentOf: [Int32] = []
  private var outputColumns: [OutputColumn] = []
  private var texts: [UInt8] = []
  private var ends: [Int] = []
  private var scratch: [UInt8] = []
  private var values: [UInt8] = []
  /// The fields found in a row read as written (`write`), reused from record to record.
  private let fieldSpans = PointerStore<Int32>(capacity: 64)
  /// The format's writer, when it copies CSV rows with the delimiter of a record's canonical
  /// text as they are (`RowTextCopying`): a new record read as written goes to it without its
  /// fields.
  private var copier: RowTextCopying?
  /// The format's writer as parts write it, when it copies rows (`copier`): the rows of a
  /// first run's records are written ahead with it on the parts' workers (`rowsAheadFormat`).
  private var partFormat: PartWritable?
  /// The digest of a record handed over alone (`write(_:columns:verbatim:)`).
  private var own = RecordDigests(keyColumns: [])
  /// The row handed to `inner`, built in place record after record.
  private var outgoing = ChangeRow()
  /// New records of the batch being compared whose rows the copying writer takes as they are,
  /// handed to it together (`PendingNewRows.write`).
  private let pendingNew = PendingNewRows()
  /// Whether a row may wait in `pendingNew`: set when one is put there, cleared when the batch
  /// ends. Every row written looks at this, not at `pendingNew` (asking the object costs about
  /// a hundred instructions a row, measured with callgrind on 50,000 gone rows).
  private var mayHavePendingNew = false
  /// Records whose key is neither where the baseline's order says nor a few records on, held
  /// while the key table is not built: whether the baseline has their key elsewhere is found at
  /// the end, with every baseline key hashed once and no table (`settleHeldAtEnd`), or by the
  /// table when it is built (Docs/Performance.md, "New records without the key table").
  private var held: [Held] = []
  /// The rows not written yet because a record before them is held, in the run's order.
  private var deferred: [Deferred] = []
  /// The most records held before the key table is built after all.
  private static let mostHeld = 64
  /// The most rows deferred before the key table is built after all.
  private static let mostDeferred = 4096

  /// The key table of a run without a baseline: every key of `next`, each with its record in
  /// it as this run's (for `ChangeTracker.takeKeyTable(of:)`); `nil` on a run with one.
  var tableOfNext: KeyTable? { baselineCount == 0 ? table : nil }

  /// Whether the parts' workers pack the records' values with their digests: on a run without
  /// a baseline, until the budget is spent (`appendToNext`).
  let valuesAhead: ValuesPackedAhead?

  /// The heading of the gone records after groups (Docs/Reports.md, Changes since the last run).
  static let goneHeading = "(gone)"

  private static let notKeptBytes = Array(
    UnsafeBufferPointer(
      start: ChangeTracker.earlierValuesNotKept.utf8Start,
      count: ChangeTracker.earlierValuesNotKept.utf8CodeUnitCount))

  init(
    inner: RecordWriter?, keys: [String], keyLabel: String, baseline: ChangeBaseline?,
    since: String, budget: Int = ChangeBaseline.valueBudget, nextIsWritten: Bool = true
  ) {
    self.inner = inner
    strikingThrough = inner as? EarlierValuesShowing
    strikingThrough?.leaveOutWasColumn()
    self.keys = keys
    self.baseline = baseline
    baselineCount = baseline?.count ?? 0
    self.budget = nextIsWritten ? budget : 0
    self.nextIsWritten = nextIsWritten
    valuesAhead = baseline == nil && nextIsWritten ? ValuesPackedAhead() : nil
    next = ChangeBaseline(columns: [], keys: keys, since: since)
    counts = ChangeCounts(keyLabel: keyLabel, since: baseline?.since)
  }

  mutating func begin(columns: [String], headers: [[UInt8]]) throws(OutputError) {
    self.columns = columns
    next.columns = columns
    let keyColumns = keys.compactMap { columns.firstIndex(of: $0) }
    self.keyColumns = keyColumns
    own = RecordDigests(keyColumns: keyColumns)
    begun = true
    if let baseline {
      sameColumns = baseline.columns == columns
      common = ChangeBaseline.commonColumns(baseline.columns, columns)
      currentOf = Array(repeating: -1, count: baseline.count)
      mirrored = sameColumns
      // This run is most likely about the baseline's size: room for it (and a sixteenth more)
      // up front, so the arrays are not copied as they grow.
      let records = baseline.count + baseline.count / 16
      let bytes = baseline.recordBytes.count
      next.reserve(records: records, bytes: bytes + bytes / 16)
      places.reserveCapacity(records)
    }
    copier = (inner as? RowTextCopying).flatMap {
      $0.copiedDelimiter == RecordDigests.delimiter ? $0 : nil
    }
    partFormat = copier as? PartWritable
    let names = ["change"] + columns + ["was"]
    outputColumns = names.enumerated().map { OutputColumn.field($0.element, at: $0.offset) }
    try inner?.begin(
      columns: names, headers: [Array("change".utf8)] + headers + [Array("was".utf8)])
  }

  /// A new group starts: the rows held back behind a record of the group before go out first,
  /// settled by the key table, so that they stay in their group.
  mutating func beginGroup(_ heading: GroupHeading) throws(OutputError) {
    if !deferred.isEmpty { try settleHeld() }
    grouped = true
    try inner?.beginGroup(heading)
  }

  /// Compares one record, its digest made here.
  mutating func write(_ row: RowView, columns cs: [OutputColumn], verbatim: Bool) throws(OutputError) {
    var own = Self.take(&self.own)
    defer { self.own = own }
    own.removeAll()
    own.add(row, columns: cs, verbatim: verbatim)
    let (inner, copier) = (self.inner, self.copier)
    try own.withDigest(0) { digest throws(OutputError) in
      try write(
        row, columns: cs, verbatim: verbatim, digest: digest, asWrittenIn: nil, at: nil,
        inner: inner, copier: copier)
    }
  }

  /// How many records ahead the batch's key slots are asked for (`KeyTable.prefetch`).
  private static let prefetchDistance = 16

  /// The format the parts' workers write their records' rows with as new records
  /// (`RowsWrittenAhead`): on a first run, where every record is new unless its key repeats,
  /// when the format copies rows as written.
  var rowsAheadFormat: PartWritable? { baselineCount == 0 ? partFormat : nil }

  /// Compares the records `rows` of `batch`, their digests made where they were read
  /// (`RecordDigests`, from `first` on), their rows as new records in `ahead` when it has them.
  mutating func write(
    rows: ArraySlice<Int32>, of batch: RecordBatch, source: Int, columns cs: [OutputColumn],
    verbatim: Bool, digests: RecordDigests, ahead: RowsWrittenAhead?, first: Int
  ) throws(OutputError) {
    let source = Int32(truncatingIfNeeded: source)
    if let ahead, ahead.complete, baselineCount == 0, let format = partFormat {
      return try writeAhead(
        rows: rows, of: batch, source: source, columns: cs, digests: digests, ahead: ahead,
        format: format, first: first)
    }
    // The writers bound once for the batch: bound for each record, each would be retained and
    // released for it.
    let (inner, copier) = (self.inner, self.copier)
    let written = digests.withBytes { bytes in
      Result { () throws(OutputError) in
        try batch.withRows { cursor throws(OutputError) in
          // A new record read as written waits in `pendingNew` for the rows after it, until
          // another row is written or the batch ends.
          if copier != nil, cursor.asWritten { pendingNew.cursor = cursor }
          defer {
            pendingNew.clear()
            mayHavePendingNew = false
          }
          var i = first
          for r in rows {
            // A record that is the baseline's next, unchanged, is taken without its row.
            if records > Self.measured, expected < baselineCount,
              takeInOrder(
                digests.digest(i, in: bytes),
                place: (source, Int32(truncatingIfNeeded: batch.line(Int(r)))))
            {
              i &+= 1
              continue
            }
            // Where the key table is looked up for every record (no baseline, or past the
            // baseline's order), the slot of a key some records on is asked for now: its cache
            // miss overlaps the records between.
            if !mirrored && (baselineCount == 0 || tableHasBaseline),
              i &+ Self.prefetchDistance < digests.count
            {
              table.prefetch(digests.keyHashes[i &+ Self.prefetchDistance])
            }
            place = (source, Int32(truncatingIfNeeded: batch.line(Int(r))))
            try write(
              cursor.row(Int(r)), columns: cs, verbatim: verbatim,
              digest: digests.digest(i, in: bytes),
              asWrittenIn: cursor.asWritten ? cursor.bytes : nil, at: r, inner: inner,
              copier: copier)
            i &+= 1
          }
          try pendingNew.write(to: copier)
        }
      }
    }
    try written.get()
  }

  /// Takes the records `rows` of `batch` on a first run, their rows written ahead
  /// (`RowsWrittenAhead`, from `first` on): each key is put in the key table and each record in
  /// `next`, and the rows go to `format` as they are. A repeated key stops the run after the rows
  /// before it, as `write` stops it.
  private mutating func writeAhead(
    rows: ArraySlice<Int32>, of batch: RecordBatch, source: Int32, columns cs: [OutputColumn],
    digests: RecordDigests, ahead: RowsWrittenAhead, format: PartWritable, first: Int
  ) throws(OutputError) {
    var repeatedKey: OutputError?
    let taken = digests.withBytes { bytes in
      batch.withRows { cursor in
        var i = first
        for r in rows {
          let digest = digests.digest(i, in: bytes)
          place = (source, Int32(truncatingIfNeeded: batch.line(Int(r))))
          if records <= Self.measured, inputBytes != nil { measure(cursor.row(Int(r))) }
          if i &+ Self.prefetchDistance < digests.count {
            table.prefetch(digests.keyHashes[i &+ Self.prefetchDistance])
          }
          let index = Int32(records)
          let (_, earlier) = lookUp(digest.key, hash: digest.keyHash, index: index)
          if let place { places.append(place) }
          if earlier >= 0 {
            do throws(OutputError) { try repeated(digest.key, first: earlier, second: index) } catch {
              repeatedKey = error
            }
            return i
          }
          records += 1
          appendToNext(
            digest, row: keepsValues(size: digest.size) ? cursor.row(Int(r)) : nil,
            asWrittenIn: cursor.bytes, columns: cs)
          counts.new += 1
          i &+= 1
        }
        return i
      }
    }
    // The rows before a repeated key go out before it stops the run.
    try ahead.write(records: first..<taken, to: format)
    if let repeatedKey { throw repeatedKey }
  }

  /// `row`, read as written (its text in `batchBytes`), with its fields found.
  private func fields(
    of row: RowView, count: Int, in batchBytes: UnsafeBufferPointer<UInt8>
  ) -> RowView {
    fieldSpans.reserve(2 &* count)
    return CSVRowText.fields(
      of: row, count: count, delimiter: RecordDigests.delimiter, wholeRowIn: batchBytes,
      into: fieldSpans.base)
  }

  /// Puts a record that is not a baseline record taken where it lies into `next`, with its
  /// values when its `row` is given (while they fit the budget: `keepsValues`): those its
  /// digest brings, packed where the record was read (`ValuesPackedAhead`), else packed here;
  /// `asWrittenIn`: the row is one of a batch read as written, whose bytes these are.
  private mutating func appendToNext(
    _ digest: RecordDigest, row: RowView?, asWrittenIn batchBytes: UnsafeBufferPointer<UInt8>?,
    columns cs: [OutputColumn]
  ) {
    guard let row else {
      // Past the budget: the workers need pack no more values.
      valuesAhead?.turnOff()
      return next.append(key: digest.key, content: digest.content, values: nil, budget: budget)
    }
    if let packed = digest.values {
      return next.append(key: digest.key, content: digest.content, values: packed, budget: budget)
    }
    values.removeAll(keepingCapacity: true)
    if batchBytes == nil
      || !PackedValues.append(asWritten: row.text, columns: cs.count, to: &values)
    {
      let fielded = batchBytes.map { fields(of: row, count: cs.count, in: $0) } ?? row
      PackedValues.append(fielded, cs, to: &values, scratch: &scratch)
    }
    values.withUnsafeBufferPointer {
      next.append(key: digest.key, content: digest.content, values: $0, budget: budget)
    }
  }

  /// The baseline record and the record of this run before it that have `key` (`-1`: none), by
  /// the key table; a key in neither goes into the table as record `index`'s. The slots are
  /// probed here, the baseline read in place: a closure handed to the table would capture, and
  /// so copy and retain, what holds it.
  @inline(__always)
  private mutating func lookUp(_ key: UnsafeBufferPointer<UInt8>, hash: UInt64, index: Int32)
    -> (baseline: Int32, current: Int32)
  {
    table.makeRoomForOne()
    var i = table.firstSlot(hash)
    while true {
      switch table.probe(i, hash) {
      case .free:
        table.setCurrent(index, hash: hash, at: i)
        return (-1, -1)
      case .same(let b, let c):
        if b >= 0 ? baseline?.hasKey(Int(b), key) == true : next.hasKey(Int(c), key) {
          return (b, c)
        }
      case .other:
        break
      }
      i = table.following(i)
    }
  }

  /// Whether `next` keeps the values of a record whose values take `size` bytes: while they fit
  /// what is left of the budget.
  @inline(__always)
  private func keepsValues(size: Int) -> Bool {
    next.keptValueBytes < budget && next.keptValueBytes + size <= budget
  }

  /// What `next` keeps of the values of a baseline record it takes where it lies
  /// (`ChangeBaseline.lend`): whether they are kept (`keep`: they fit the budget); `nil` where
  /// `next` is not written, so that every record is taken as it lies, whatever values it keeps.
  @inline(__always)
  private func lentValues(_ keep: Bool) -> Bool? {
    nextIsWritten ? keep : nil
  }

  /// How many baseline records past `expected` a key is looked for before the key table is built.
  private static let lookAheadDistance = 16

  /// The baseline record after `expected`, at most `lookAheadDistance` on, whose key is `key`.
  private func lookAhead(for key: UnsafeBufferPointer<UInt8>) -> Int? {
    var i = expected &+ 1
    let end = min(baselineCount, expected &+ 1 &+ Self.lookAheadDistance)
    while i < end {
      if baseline?.hasKey(i, key) == true { return i }
      i &+= 1
    }
    return nil
  }

  /// Takes the record whose digest this is when it is the baseline's next record (`expected`),
  /// unchanged and not yet found: while every record so far was (`mirrored`), `next` is left
  /// empty; after, the baseline's record goes into `next` where its bytes lie
  /// (`ChangeBaseline.lend`). `false` when it is not, or cannot be borrowed.
  @inline(__always)
  private mutating func takeInOrder(_ digest: RecordDigest, place: (source: Int32, line: Int32)?)
    -> Bool
  {
    // The baseline is read in place (`baseline?.`), not bound: a bound copy of it would be
    // retained and released for every record.
    guard expected < baselineCount, sameColumns, currentOf[expected] < 0 else { return false }
    if mirrored {
      guard baseline?.content(expected) == digest.content,
        baseline?.hasKey(expected, digest.key) == true
      else { return false }
    } else {
      // The baseline's record read once: compared, and put into `next` where it lies.
      let keepValues = lentValues(keepsValues(size: digest.size))
      guard
        baseline?.lendIfSame(
          expected, key: digest.key, content: digest.content, to: &next, keepValues: keepValues)
          == true
      else { return false }
    }
    currentOf[expected] = Int32(records)
    expected += 1
    records += 1
    if let place { places.append(place) }
    counts.unchanged += 1
    return true
  }

  /// Compares one record whose key and values are hashed (`digest`). `asWrittenIn`: the row is
  /// one of a batch read as written, without fields (`RecordBatch.asWritten`), whose bytes
  /// these are: its fields are found in its text only when its values are needed (they are
  /// kept, or it changed, or it is new and the format's writer does not copy it). `at`: the
  /// row's number in the batch whose cursor `pendingNew` holds, where a new row may wait.
  /// `inner` and `copier` are this value's, bound by the caller.
  private mutating func write(
    _ row: RowView, columns cs: [OutputColumn], verbatim: Bool, digest: RecordDigest,
    asWrittenIn batchBytes: UnsafeBufferPointer<UInt8>?, at r: Int32?, inner: RecordWriter?,
    copier: RowTextCopying?
  ) throws(OutputError) {
    if records <= Self.measured, inputBytes != nil { measure(row) }
    let key = digest.key
    let content = digest.content
    let index = Int32(records)
    if mirrored {
      if takeInOrder(digest, place: place) { return }
      stopMirroring()
    }
    var found = batchBytes == nil ? row : nil
    /// The row with its fields.
    func fielded() -> RowView {
      guard found == nil, let batchBytes else { return found ?? row }
      let fields = fields(of: row, count: cs.count, in: batchBytes)
      found = fields
      return fields
    }
    var b: Int32 = -1
    var first: Int32 = -1
    var unresolved = false
    if expected < baselineCount, baseline?.hasKey(expected, key) == true {
      b = Int32(expected)
    } else if !tableHasBaseline, let ahead = lookAhead(for: key) {
      // Records gone from the middle (released from a hold): the key is a few records on, found
      // without putting every baseline key in the table. The records passed stay unmatched:
      // gone, unless a later record has one of their keys (then the table finds it).
      b = Int32(ahead)
    } else if !tableHasBaseline, baselineCount > 0, held.count < Self.mostHeld,
      !isHeld(key, hash: digest.keyHash)
    {
      // Most likely a new record: held, so the key table need not be built to know.
      unresolved = true
    } else {
      if !tableHasBaseline { try settleHeld() }
      let keyHash = digest.keyHash
      (b, first) = lookUp(key, hash: keyHash, index: index)
    }
    if b >= 0 {
      first = currentOf[Int(b)]
      if first < 0 { currentOf[Int(b)] = index }
      expected = Int(b) + 1
    }
    if let place { places.append(place) }
    if first >= 0 {
      // The rows before it go out first, and a key repeated among the held records before it
      // is said first.
      if !deferred.isEmpty { try settleHeld() }
      try repeated(key, first: first, second: index)
    }
    records += 1
    // The record is the baseline's, unchanged (its content hash the baseline's, the baseline
    // read in place): its earlier values need no unpacking.
    let unchanged = b >= 0 && sameColumns && baseline?.content(Int(b)) == content
    let keepValues = keepsValues(size: digest.size)
    if unchanged, borrow(Int(b), keepValues: lentValues(keepValues)) {
      // An unchanged record: the baseline's bytes, taken where they lie rather than collected
      // again from the row's fields.
    } else {
      appendToNext(digest, row: keepValues ? row : nil, asWrittenIn: batchBytes, columns: cs)
    }
    guard b >= 0 else {
      // A row read as written goes to a copying writer as its own text.
      let copied = batchBytes != nil && copier != nil
      if unresolved {
        return hold(
          index: index, digest: digest, row: row, fields: fielded(), columns: cs,
          verbatim: verbatim, copied: copied)
      }
      counts.new += 1
      guard inner != nil else { return }
      if copied, let r, pendingNew.cursor != nil {
        mayHavePendingNew = true
        return pendingNew.rows.append(r)
      }
      // The row is taken out while it is written: written in place, the columns handed with it
      // would be retained and released for each record.
      var out = Self.take(&outgoing)
      defer { outgoing = out }
      startNewRow(
        &out, row, copied: copied, fields: copied ? row : fielded(), columns: cs,
        verbatim: verbatim)
      return try send(&out, striking: .none, inner: inner, copier: copier)
    }
    // The earlier values are unpacked only for a record that may have changed: an unchanged
    // one costs no more than the look-up.
    if unchanged {
      counts.unchanged += 1
      return
    }
    fillTexts(fielded(), cs)
    try settleChanged(Int(b))
  }

  /// Says of the record whose texts are in `texts`, whose key is baseline record `b`'s and
  /// whose content hash differs, whether it changed, and writes it when it did: compared on the
  /// fields both runs have when the fields changed (by key only where the earlier values were
  /// not kept).
  private mutating func settleChanged(_ b: Int) throws(OutputError) {
    guard let baseline else { return }
    if !sameColumns {
      guard let old = baseline.values(b) else {
        counts.comparedByKeyOnly += 1
        counts.unchanged += 1
        return
      }
      var a = ChangeCoding.fnvOffset
      var o = ChangeCoding.fnvOffset
      for (base, current) in common {
        a = Self.mix(text(current), into: a)
        o = Self.mix(base < old.count ? old[base] : UnsafeBufferPointer(start: nil, count: 0), into: o)
      }
      guard a != o else {
        counts.unchanged += 1
        return
      }
    }
    counts.changed += 1
    let old = baseline.values(b)
    var striking = Striking.none
    if strikingThrough != nil {
      // Column 0 is `change`: the fields are one column on.
      striking = old.map { old in
        .earlier(differing(old).map { (column: $0.current + 1, text: Array(old[$0.base])) })
      } ?? .notKept
    }
    try emit("changed", was: was(old), striking: striking)
  }

  /// What the HTML writer is told before a changed row: the earlier values it strikes through,
  /// or that they were not kept.
  private enum Striking {
    case none
    case earlier([(column: Int, text: [UInt8])])
    case notKept
  }

  /// A record held (`held`): what is needed to write it as new, or as changed when the baseline
  /// has its key elsewhere.
  private struct Held {
    let index: Int32
    let keyHash: UInt64
    let key: [UInt8]
    let content: UInt64
    /// Its row if it is new (`ChangeRow.startNew`).
    let newRow: ChangeRow
    /// Its fields' texts (`fillTexts`), for its row if it changed.
    let texts: [UInt8]
    let ends: [Int]
  }

  /// A row not written yet: a held record's, or a changed record's after one.
  private enum Deferred {
    case held(Int)
    case row(ChangeRow, striking: Striking)
  }

  /// Whether a held record has this key.
  private func isHeld(_ key: UnsafeBufferPointer<UInt8>, hash: UInt64) -> Bool {
    held.contains { $0.keyHash == hash && $0.key.elementsEqual(key) }
  }

  /// Holds the record `index`, in `next` already as a new record is, until whether the baseline
  /// has its key elsewhere is known; the rows after it wait behind it.
  private mutating func hold(
    index: Int32, digest: RecordDigest, row: RowView, fields: RowView, columns cs: [OutputColumn],
    verbatim: Bool, copied: Bool
  ) {
    var newRow = ChangeRow()
    if inner != nil {
      startNewRow(&newRow, row, copied: copied, fields: fields, columns: cs, verbatim: verbatim)
    }
    fillTexts(fields, cs)
    held.append(
      Held(
        index: index, keyHash: digest.keyHash, key: Array(digest.key), content: digest.content,
        newRow: newRow, texts: texts, ends: ends))
    deferred.append(.held(held.count - 1))
  }

  /// Starts `out` as the row of new record `row`: its own CSV text, which `copier` copies whole,
  /// when it was read as written (`copied`), else each of its values (`fields`) decoded once.
  private mutating func startNewRow(
    _ out: inout ChangeRow, _ row: RowView, copied: Bool, fields: RowView,
    columns cs: [OutputColumn], verbatim: Bool
  ) {
    if copied {
      out.startNew(asWritten: row.text, delimiter: RecordDigests.delimiter)
    } else {
      out.startNew(fields, columns: cs, verbatim: verbatim, scratch: &scratch)
    }
  }

  /// Settles the held records with the key table (built now if it is not), in the run's order,
  /// writing every deferred row; a key two of them share, or one shares with a record found
  /// since, is the error it would have been.
  private mutating func settleHeld() throws(OutputError) {
    if !tableHasBaseline { addBaselineToTable() }
    try writeDeferred { me, _, h throws(OutputError) in
      try h.key.withUnsafeBufferPointer { key throws(OutputError) in
        var (b, first) = me.lookUp(key, hash: h.keyHash, index: h.index)
        if b >= 0 {
          first = me.currentOf[Int(b)]
          if first < 0 { me.currentOf[Int(b)] = h.index }
        }
        if first >= 0 {
          try me.repeated(key, first: min(first, h.index), second: max(first, h.index))
        }
        return Int(b)
      }
    }
  }

  /// At the end of the run, settles the held records without the key table: every baseline key
  /// is looked at once, one after another, for the held keys (`ChangeBaseline.records(withKeys:)`);
  /// a held key the baseline has for a record this run has too is settled by the table
  /// (`settleHeld`), which says which records share it.
  private mutating func settleHeldAtEnd() throws(OutputError) {
    guard !deferred.isEmpty else { return }
    guard !tableHasBaseline, let found = baseline?.records(withKeys: held.map(\.key)) else {
      return try settleHeld()
    }
    if found.contains(where: { $0 >= 0 && currentOf[$0] >= 0 }) { return try settleHeld() }
    try writeDeferred { me, n, h throws(OutputError) in
      if found[n] >= 0 { me.currentOf[found[n]] = h.index }
      return found[n]
    }
  }

  /// Writes the deferred rows in the run's order, each held record (`n`th held) settled with the
  /// baseline record `find` says has its key (below zero: none).
  private mutating func writeDeferred(
    _ find: (inout Self, _ n: Int, Held) throws(OutputError) -> Int
  ) throws(OutputError) {
    let rows = deferred
    let holding = held
    deferred = []
    held = []
    for item in rows {
      switch item {
      case .row(var row, let striking):
        try send(&row, striking: striking, inner: inner, copier: copier)
      case .held(let n):
        let b = try find(&self, n, holding[n])
        try settle(holding[n], foundAt: b)
      }
    }
  }

  /// A held record settled: new when the baseline does not have its key (`b` below zero), else
  /// compared with baseline record `b`.
  private mutating func settle(_ h: Held, foundAt b: Int) throws(OutputError) {
    guard b >= 0 else {
      counts.new += 1
      var row = h.newRow
      return try send(&row, striking: .none, inner: inner, copier: copier)
    }
    if sameColumns, baseline?.content(b) == h.content {
      counts.unchanged += 1
      return
    }
    texts = h.texts
    ends = h.ends
    try settleChanged(b)
  }

  /// Writes a row: to `copier` whole when it is CSV text (`ChangeRow.isText`), else to `inner`,
  /// the HTML writer told first what to strike through. `inner` and `copier` are this value's,
  /// bound by a caller that writes row after row (bound here, each would be retained and
  /// released for each row).
  private func send(
    _ row: inout ChangeRow, striking: Striking, inner: RecordWriter?, copier: RowTextCopying?
  ) throws(OutputError) {
    if mayHavePendingNew { try pendingNew.write(to: copier) }
    if row.isText, let copier {
      return try row.write(asWrittenTo: copier, columns: outputColumns)
    }
    guard let inner else { return }
    switch striking {
    case .none: break
    case .earlier(let values): strikingThrough?.showEarlier(values)
    case .notKept: strikingThrough?.sayEarlierValuesNotKept(in: 0)
    }
    try row.write(to: inner, columns: outputColumns)
  }

  /// Writes out the rows held back when a record stops the run (`ChangeTracker.endStopped`: a
  /// malformed one): the records before it go out, settled by the key table.
  mutating func sendHeld() {
    guard !deferred.isEmpty, failure == nil else { return }
    do throws(OutputError) { try settleHeld() } catch {}
  }

  /// Two records share `key`: the error naming both, in the run's order.
  private mutating func repeated(_ key: UnsafeBufferPointer<UInt8>, first: Int32, second: Int32)
    throws(OutputError)
  {
    // The rows before it go out first.
    try pendingNew.write(to: copier)
    var lines: (first: (source: Int, line: Int), second: (source: Int, line: Int))?
    if Int(first) < places.count, Int(second) < places.count {
      func inInput(_ p: (source: Int32, line: Int32)) -> (source: Int, line: Int) {
        let origin = origins[Int(p.source)] ?? (Int(p.source), 0)
        return (origin.input, origin.lineOffset + Int(p.line))
      }
      lines = (inInput(places[Int(first)]), inInput(places[Int(second)]))
    }
    failure = .duplicateKey(
      key: keyDescription(key), first: Int(first) + 1, second: Int(second) + 1, lines: lines)
    throw .failed("a key repeats")
  }

  /// Adds the record's text to `measuredBytes`; after `Self.measured` records, makes room for
  /// the records the inputs' size holds at their mean length, as many of them as have matched so
  /// far (by the line the engine says the last came from), and at most `Self.mostMadeRoomFor`.
  private mutating func measure(_ row: RowView) {
    if records < Self.measured {
      measuredBytes += row.extentEnd - row.extentStart + 1
      return
    }
    guard let inputBytes, measuredBytes > 0 else { return }
    var expected = inputBytes / (measuredBytes / Self.measured + 1)
    if let place, place.source == 0, Int(place.line) > records {
      expected = expected / Int(place.line) * records
    }
    makeRoom(for: min(expected, Self.mostMadeRoomFor))
  }

  /// The most records room is made for up front (a larger run grows its arrays as it goes).
  private static let mostMadeRoomFor = 4 << 20

  /// Sizes the next baseline's arrays, the places and the key table for `expected` records up
  /// front, so they are not copied (and their pages touched again) as they grow
  /// (Docs/Performance.md, "The first run, and runs with many new or gone records"). While the
  /// run mirrors the baseline, neither is built: `expected` waits for `stopMirroring`.
  private mutating func makeRoom(for expected: Int) {
    expectedRecords = max(expectedRecords, expected)
    guard !mirrored else { return }
    // The mean key length so far, else the baseline's; a record without its values takes its
    // key, 8 bytes of hash and a length or two more.
    let source = next.count > 0 ? next : baseline
    let keyBytes = source.map { $0.count > 0 ? $0.keyByteCount / $0.count + 1 : 16 } ?? 16
    // The arrays with a sixteenth more (room they do not fill is never touched); the table,
    // whose slots are all written, as estimated. The values take at most the input's bytes
    // (an earlier export read for `--against` keeps them all).
    let records = expected + expected / 16
    let values = min(budget, inputBytes ?? 0)
    next.reserve(records: records - next.count, bytes: (records - next.count) * (keyBytes + 10) + values)
    places.reserveCapacity(records)
    if baselineCount == 0 || tableHasBaseline { table.reserve(expected) }
  }

  /// Puts the baseline's keys in `table`, once, the first time a record is not where the
  /// baseline's order says (`expected`): the table of the run that read the baseline when it
  /// holds them (`baselineTable`), else a table they are hashed and put into.
  private mutating func addBaselineToTable() {
    tableHasBaseline = true
    guard let baseline else { return }
    if var table = baselineTable.take(), table.count == baseline.count {
      table.makeCurrentTheBaseline()
      self.table = table
      return
    }
    var table = KeyTable(
      capacity: max(expectedRecords, baseline.count + self.table.count + 1024))
    // A chunk of keys is hashed and its slots asked for before the first is put in, so the
    // cache misses of the chunk overlap.
    var hashes: [UInt64] = Array(repeating: 0, count: 64)
    var start = 0
    while start < baseline.count {
      let end = min(baseline.count, start + hashes.count)
      for i in start..<end {
        hashes[i - start] = ChangeCoding.hash(baseline.key(i))
        table.prefetch(hashes[i - start])
      }
      for i in start..<end {
        let k = baseline.key(i)
        let hash = hashes[i - start]
        table.makeRoomForOne()
        let slot = table.slot(hash) { b, _ in baseline.hasKey(Int(b), k) }
        table.setBaseline(Int32(i), hash: hash, at: slot)
      }
      start = end
    }
    self.table = table
  }

  /// Puts baseline record `i` into `next` where its bytes lie (`ChangeBaseline.lend`),
  /// when its kept values are those `keepValues` says (`nil`: any); `false` when they are not.
  @inline(__always)
  private mutating func borrow(_ i: Int, keepValues: Bool?) -> Bool {
    // `baseline?.` again: no bound copy to retain (`takeInOrder`).
    baseline?.lend(i, to: &next, keepValues: keepValues) ?? false
  }

  /// The records so far were the baseline's first ones, in its order and unchanged, so `next`
  /// was left empty: it gets those records of the baseline now, where their bytes lie, and is
  /// built record by record from here on.
  private mutating func stopMirroring() {
    mirrored = false
    guard let baseline else { return }
    if expectedRecords > 0 { makeRoom(for: expectedRecords) }
    for i in 0..<records {
      let kept = baseline.packedValues(i)
      let fits = kept.map { next.keptValueBytes + $0.count <= budget } ?? false
      if !baseline.lend(i, to: &next, keepValues: lentValues(fits)) {
        next.append(key: baseline.key(i), content: baseline.content(i), values: kept, budget: budget)
      }
    }
  }

  /// Every column's text of the record, for `text(_:)`.
  private mutating func fillTexts(_ row: RowView, _ cs: [OutputColumn]) {
    texts.removeAll(keepingCapacity: true)
    ends.removeAll(keepingCapacity: true)
    for c in cs {
      c.value(row).withDecoded(scratch: &scratch) { texts.append(contentsOf: $0) }
      ends.append(texts.count)
    }
  }

  @inline(__always)
  private static func take(_ row: inout ChangeRow) -> ChangeRow {
    let taken = row
    row = ChangeRow()
    return taken
  }

  @inline(__always)
  private static func take(_ digests: inout RecordDigests) -> RecordDigests {
    let taken = digests
    digests = RecordDigests(keyColumns: [])
    return taken
  }

  mutating func end() throws(OutputError) {
    // While every record was the baseline's record of the same number, the gone ones are the
    // rest: the rows of their second chunk are made on a thread of its own while the next
    // baseline is completed here (`stopMirroring`).
    var aside: GoneRowsAside?
    if mirrored, let baseline, records < baseline.count {
      aside = startGoneRowsAside(Array(Int32(records)..<Int32(baseline.count)), of: baseline)
    }
    if mirrored, let baseline {
      if records == baseline.count {
        // Every record was the baseline's, in order and unchanged: the next baseline is the
        // same records, at this run's time.
        let since = next.since
        next = baseline
        next.since = since
        next.columns = columns
        next.keys = keys
      } else {
        stopMirroring()
      }
    }
    try settleHeldAtEnd()
    if let baseline {
      let (inner, copier) = (self.inner, self.copier)
      // The gone records, found once: for the heading, the count and the rows.
      var gone = aside?.gone ?? []
      if aside == nil {
        for i in 0..<baseline.count where currentOf[i] < 0 { gone.append(Int32(i)) }
      }
      counts.gone += gone.count
      // After groups, the gone records go under a heading of their own, not the last group's.
      if grouped, let inner, !gone.isEmpty {
        try inner.beginGroup(.counted([Self.goneHeading], gone.count))
      }
      if aside == nil { aside = startGoneRowsAside(gone, of: baseline) }
      if let aside, let copier {
        try writeGone(aside, of: baseline, to: copier)
      } else {
        for i in gone { try emitGone(Int(i), of: baseline, inner: inner, copier: copier) }
      }
    }
    try inner?.end()
  }

  /// The fewest gone rows made a pair of chunks at a time (`GoneRowsAside`).
  private static let fewestGoneAside = 8192

  /// The gone records whose rows are made two chunks at a time, the second of each pair on a
  /// thread of its own while this one makes and writes the first (Docs/Performance.md, "A first
  /// run's rows written in the parts"), so that at most two chunks' rows are held at once.
  private struct GoneRowsAside {
    let gone: [Int32]
    /// Rows per chunk: 16,384, or half the gone ones when they are fewer than two chunks.
    let size: Int
    /// The second chunk's rows, begun when the gone records were known.
    let second: WorkAside<RowTexts>

    /// Chunk `n`'s gone records (empty past the last).
    func chunk(_ n: Int) -> ArraySlice<Int32> {
      gone[min(n * size, gone.count)..<min((n + 1) * size, gone.count)]
    }
  }

  /// Begins making the rows of the gone records `gone` a pair of chunks at a time, for a copying
  /// writer, when it may (`goneRowsAside`) and they are many; else `nil`.
  private func startGoneRowsAside(_ gone: [Int32], of baseline: ChangeBaseline) -> GoneRowsAside? {
    guard goneRowsAside, inner != nil, copier != nil, gone.count >= Self.fewestGoneAside else {
      return nil
    }
    let size = min(16_384, (gone.count + 1) / 2)
    // The thread reads its own copy of the maker, and the baseline's bytes, which stay.
    let maker = goneRowMaker
    let second = gone[size..<min(2 * size, gone.count)]
    return GoneRowsAside(
      gone: gone, size: size, second: WorkAside { maker.texts(second, of: baseline) })
  }

  /// Writes the gone rows `aside` holds, in order: of each pair of chunks, the first made here
  /// while the second is made on a thread of its own.
  private func writeGone(
    _ aside: GoneRowsAside, of baseline: ChangeBaseline, to copier: RowTextCopying
  ) throws(OutputError) {
    let maker = goneRowMaker
    var n = 0
    while !aside.chunk(n).isEmpty {
      let second = aside.chunk(n + 1)
      let made =
        n == 0 ? aside.second : second.isEmpty ? nil : WorkAside { maker.texts(second, of: baseline) }
      try maker.texts(aside.chunk(n), of: baseline).write(to: copier)
      try (made?.wait() ?? maker.texts(second, of: baseline)).write(to: copier)
      n += 2
    }
  }

  /// The text of column `c` of the current record.
  private func text(_ c: Int) -> ArraySlice<UInt8> {
    texts[(c == 0 ? 0 : ends[c - 1])..<ends[c]]
  }

  /// The columns both runs have whose value differs from `old`'s.
  private func differing(_ old: [UnsafeBufferPointer<UInt8>]) -> [(base: Int, current: Int)] {
    common.filter { $0.base < old.count && !old[$0.base].elementsEqual(text($0.current)) }
  }

  /// `status=pending; qty=5`: the columns both runs have whose value differs, with the old value.
  private func was(_ old: [UnsafeBufferPointer<UInt8>]?) -> [UInt8] {
    guard let old else { return Self.notKeptBytes }
    var out: [UInt8] = []
    // Each field by this run's name for it (the baseline's may differ in case or spelling).
    for (base, current) in differing(old) {
      if !out.isEmpty { out.append(contentsOf: "; ".utf8) }
      out.append(contentsOf: columns[current].utf8)
      out.append(UInt8(ascii: "="))
      out.append(contentsOf: old[base])
    }
    return out
  }

  /// `grn_no=GRN-1, line=2` for messages.
  private func keyDescription(_ key: UnsafeBufferPointer<UInt8>) -> String {
    let parts = key.split(separator: 0x1f, omittingEmptySubsequences: false)
    return zip(keys, parts).map { "\($0)=\(String(decoding: $1, as: UTF8.self))" }
      .joined(separator: ", ")
  }

  /// Writes the changed record whose texts are in `texts`, or defers it behind a held record.
  private mutating func emit(_ change: StaticString, was: [UInt8], striking: Striking)
    throws(OutputError)
  {
    guard inner != nil else { return }
    var out = Self.take(&outgoing)
    defer { outgoing = out }
    out.start(change, asText: copier != nil)
    for c in columns.indices { out.add(text(c)) }
    out.add(was)
    if !deferred.isEmpty {
      if deferred.count < Self.mostDeferred {
        return deferred.append(.row(out, striking: striking))
      }
      try settleHeld()
    }
    try send(&out, striking: striking, inner: inner, copier: copier)
  }

  /// A gone record: its last values under the current columns, or only its key when its values
  /// were not kept.
  private mutating func emitGone(
    _ i: Int, of baseline: ChangeBaseline, inner: RecordWriter?, copier: RowTextCopying?
  ) throws(OutputError) {
    guard inner != nil else { return }
    var out = Self.take(&outgoing)
    defer { outgoing = out }
    // For CSV, the row's own text, which the writer copies whole (`ChangeRow.isText`).
    let striking = goneRowMaker.fill(i, of: baseline, asText: copier != nil, into: &out)
    try send(&out, striking: striking, inner: inner, copier: copier)
  }

  /// What a gone record's row is made from besides the baseline, apart from the rest of the
  /// comparison: the thread that makes a chunk of the gone rows takes a copy of this alone.
  private struct GoneRowMaker {
    let columns: [String]
    let keyColumns: [Int]
    /// Baseline column → current column, for the columns both have.
    let common: [(base: Int, current: Int)]
    let sameColumns: Bool

    /// Makes `out` the row of gone record `i` (its own CSV text when `asText`), and says what the
    /// HTML writer strikes through.
    func fill(
      _ i: Int, of baseline: ChangeBaseline, asText: Bool, into out: inout ChangeRow
    ) -> Striking {
      out.start("gone", asText: asText)
      var striking = Striking.none
      let packed = baseline.packedValues(i)
      if let v = packed, sameColumns {
        // The kept values, in the columns' order: added as they lie in the state, unpacked into
        // no array of their own (Docs/Performance.md, "Changes since the last run").
        var at = 0
        var added = 0
        while added < columns.count, at < v.count, let n = ChangeCoding.readVarint(v, at: &at),
          at + n <= v.count
        {
          out.add(UnsafeBufferPointer(rebasing: v[at..<at + n]))
          at += n
          added += 1
        }
        for _ in added..<max(added, columns.count) { out.addEmpty() }
        out.addEmpty()
      } else if packed == nil && keyColumns.count == 1 {
        // Only the key was kept: it in its column, the others empty.
        let keyBytes = baseline.key(i)
        for c in columns.indices {
          if c == keyColumns[0] { out.add(keyBytes) } else { out.addEmpty() }
        }
        out.add(ChangeComparison.notKeptBytes)
        striking = .notKept
      } else {
        var fields = Array(repeating: UnsafeBufferPointer<UInt8>(start: nil, count: 0), count: columns.count)
        var was: [UInt8] = []
        if let old = baseline.values(i) {
          for (base, current) in common where base < old.count { fields[current] = old[base] }
        } else {
          let parts = baseline.key(i).split(separator: 0x1f, omittingEmptySubsequences: false)
          for (n, k) in keyColumns.enumerated() where n < parts.count {
            fields[k] = UnsafeBufferPointer(rebasing: parts[n])
          }
          was = ChangeComparison.notKeptBytes
          striking = .notKept
        }
        for f in fields { out.add(f) }
        out.add(was)
      }
      return striking
    }

    /// The rows of gone records `indices` as a copying writer takes them (`ChangeRow.isText`).
    func texts(_ indices: ArraySlice<Int32>, of baseline: ChangeBaseline) -> RowTexts {
      var texts = RowTexts()
      // Room for a row of a key and a few values each, so that the text is seldom copied to grow.
      texts.bytes.reserveCapacity(indices.count * 64)
      texts.extents.reserveCapacity(indices.count * 2)
      var out = ChangeRow()
      for i in indices {
        _ = fill(Int(i), of: baseline, asText: true, into: &out)
        let start = Int32(truncatingIfNeeded: texts.bytes.count)
        out.appendText(to: &texts.bytes)
        texts.extents.append(start)
        texts.extents.append(Int32(truncatingIfNeeded: texts.bytes.count))
      }
      return texts
    }
  }

  private var goneRowMaker: GoneRowMaker {
    GoneRowMaker(columns: columns, keyColumns: keyColumns, common: common, sameColumns: sameColumns)
  }

  /// Adds one value to a content hash; the value's length in the hash keeps `ab|c` apart from
  /// `a|bc`.
  static func mix<C: Collection<UInt8>>(_ value: C, into hash: UInt64) -> UInt64 {
    ChangeCoding.hash(value, into: hash)
  }
}

/// Rows as a copying writer takes them (`ChangeRow.isText`), one after another in `bytes`, each
/// from its start to its end in `extents`.
private struct RowTexts {
  var bytes: [UInt8] = []
  var extents: [Int32] = []

  /// Hands the rows to `copier`, each with its line end, in one call.
  func write(to copier: RowTextCopying) throws(OutputError) {
    let rows = Array(0..<Int32(truncatingIfNeeded: extents.count / 2))
    var ends: [Int] = []
    try ChangeRow.withCursor(over: bytes, extents: extents) { cursor throws(OutputError) in
      try copier.write(
        rows: rows[...], of: cursor, between: UnsafeBufferPointer(start: nil, count: 0),
        and: UnsafeBufferPointer(start: nil, count: 0), ends: &ends)
    }
  }
}

/// The new records of a batch waiting to be handed to the copying writer together (`write`):
/// the batch's cursor while it is compared, and the waiting rows.
private final class PendingNewRows {
  var cursor: RowCursor?
  var rows: [Int32] = []
  /// Where each row ends in the output; not used.
  var ends: [Int] = []

  /// Hands the waiting rows to `copier`, each `new,`, its text and `,`, in one call (a method
  /// of this object, not of the comparison: called on the comparison, each row written after
  /// would copy it).
  func write(to copier: RowTextCopying?) throws(OutputError) {
    guard !rows.isEmpty, let cursor, let copier else { return }
    defer {
      rows.removeAll(keepingCapacity: true)
      ends.removeAll(keepingCapacity: true)
    }
    let written = ChangeRow.newBefore.withUnsafeBufferPointer { before in
      ChangeRow.newAfter.withUnsafeBufferPointer { after in
        Result { () throws(OutputError) in
          try copier.write(rows: rows[...], of: cursor, between: before, and: after, ends: &ends)
        }
      }
    }
    try written.get()
  }

  /// The batch is done: its cursor is let go, and no row waits.
  func clear() {
    cursor = nil
    rows.removeAll(keepingCapacity: true)
  }
}
