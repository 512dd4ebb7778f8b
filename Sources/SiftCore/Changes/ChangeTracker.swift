/// Compares a run's matching records with a baseline by their key fields and writes only what
/// changed (Docs/Reports.md, "Changes since the last run"): each record `new` or `changed` as it
/// comes, with a first column `change` and a last column `was` (`status=pending; qty=5`), then the
/// baseline's records no longer there as `gone`, with their last values. It sits between the
/// engine and the format's writer, and builds the next baseline as the records pass.
public final class ChangeTracker: RecordWriter {
  let inner: RecordWriter?
  let keys: [String]
  let baseline: ChangeBaseline?
  let budget: Int
  /// The baseline the next run compares with: this run's matching records.
  public private(set) var next: ChangeBaseline
  public private(set) var counts: ChangeCounts
  /// Set when two records share a key; the writer then stops the run.
  public private(set) var failure: ChangeError?

  private var columns: [String] = []
  private var keyColumns: [Int] = []
  /// Baseline column → current column, for the columns both have.
  private var common: [(base: Int, current: Int)] = []
  private var sameColumns = true
  private var baseIndex: [UInt64: Int32] = [:]
  private var matched: [Bool] = []
  private var seen: [UInt64: Int32] = [:]
  private var outputColumns: [OutputColumn] = []
  private var texts: [UInt8] = []
  private var ends: [Int] = []
  private var scratch: [UInt8] = []
  private var keyText: [UInt8] = []
  private var values: [UInt8] = []

  /// - Parameters:
  ///   - inner: the format's writer, or `nil` to only build `next` (an earlier export read
  ///     for `--against`).
  ///   - keys: the key fields, as output column names.
  ///   - baseline: the records to compare with; `nil` on a first run (every record is new).
  ///   - since: when this run is made, for `next`.
  ///   - budget: the most bytes of values `next` keeps (`ChangeBaseline.valueBudget`).
  public init(
    inner: RecordWriter?, keys: [String], keyLabel: String, baseline: ChangeBaseline?,
    since: String, budget: Int = ChangeBaseline.valueBudget
  ) {
    self.inner = inner
    self.keys = keys
    self.baseline = baseline
    self.budget = budget
    next = ChangeBaseline(columns: [], keys: keys, since: since)
    counts = ChangeCounts(keyLabel: keyLabel, since: baseline?.since)
  }

  public func begin(columns: [String]) throws(OutputError) {
    try begin(columns: columns, headers: columns.map { Array($0.utf8) })
  }

  public func begin(columns: [String], headers: [[UInt8]]) throws(OutputError) {
    self.columns = columns
    next.columns = columns
    keyColumns = keys.compactMap { columns.firstIndex(of: $0) }
    if let baseline {
      sameColumns = baseline.columns == columns
      common = baseline.columns.enumerated().compactMap { base in
        columns.firstIndex(of: base.element).map { (base.offset, $0) }
      }
      matched = Array(repeating: false, count: baseline.entries.count)
      baseIndex.reserveCapacity(baseline.entries.count)
      for i in baseline.entries.indices {
        baseIndex[ChangeCoding.hash(baseline.key(i))] = Int32(i)
      }
    }
    let names = ["change"] + columns + ["was"]
    outputColumns = names.enumerated().map { OutputColumn.field($0.element, at: $0.offset) }
    try inner?.begin(
      columns: names, headers: [Array("change".utf8)] + headers + [Array("was".utf8)])
  }

  public func beginGroup(_ heading: GroupHeading) throws(OutputError) {
    try inner?.beginGroup(heading)
  }

  public var writesTotals: Bool { false }

  public func write(_ row: RowView, columns cs: [OutputColumn], verbatim: Bool) throws(OutputError) {
    texts.removeAll(keepingCapacity: true)
    ends.removeAll(keepingCapacity: true)
    values.removeAll(keepingCapacity: true)
    var content = ChangeCoding.fnvOffset
    for c in cs {
      c.value(row).decode(into: &scratch)
      texts.append(contentsOf: scratch)
      ends.append(texts.count)
      ChangeCoding.appendVarint(scratch.count, to: &values)
      values.append(contentsOf: scratch)
      content = Self.mix(scratch, into: content)
    }
    keyText.removeAll(keepingCapacity: true)
    for (n, k) in keyColumns.enumerated() {
      if n > 0 { keyText.append(0x1f) }
      keyText.append(contentsOf: text(k))
    }
    let keyHash = ChangeCoding.hash(keyText)
    let index = Int32(next.entries.count)
    if let first = seen[keyHash], next.key(Int(first)).elementsEqual(keyText) {
      failure = .duplicateKey(key: keyDescription(keyText), first: Int(first) + 1, second: Int(index) + 1)
      throw .failed("a key repeats")
    }
    seen[keyHash] = index
    keyText.withUnsafeBufferPointer { k in
      values.withUnsafeBufferPointer { v in
        next.append(key: k, content: content, values: v, budget: budget)
      }
    }
    guard let baseline else { return try emit("new", was: []) }
    guard let b = baseIndex[keyHash], baseline.key(Int(b)).elementsEqual(keyText) else {
      counts.new += 1
      return try emit("new", was: [])
    }
    matched[Int(b)] = true
    let old = baseline.values(Int(b))
    if sameColumns {
      guard baseline.entries[Int(b)].content != content else {
        counts.unchanged += 1
        return
      }
    } else if let old {
      var a = ChangeCoding.fnvOffset
      var o = ChangeCoding.fnvOffset
      for (base, current) in common {
        a = Self.mix(text(current), into: a)
        o = Self.mix(base < old.count ? old[base] : [], into: o)
      }
      guard a != o else {
        counts.unchanged += 1
        return
      }
    } else {
      counts.comparedByKeyOnly += 1
      counts.unchanged += 1
      return
    }
    counts.changed += 1
    try emit("changed", was: was(old, baseline: baseline))
  }

  public func end() throws(OutputError) {
    if let baseline {
      for i in baseline.entries.indices where !matched[i] {
        counts.gone += 1
        try emitGone(i, of: baseline)
      }
    }
    try inner?.end()
  }

  /// The text of column `c` of the current record.
  private func text(_ c: Int) -> ArraySlice<UInt8> {
    texts[(c == 0 ? 0 : ends[c - 1])..<ends[c]]
  }

  /// `status=pending; qty=5`: the columns both runs have whose value differs, with the old value.
  private func was(_ old: [ArraySlice<UInt8>]?, baseline: ChangeBaseline) -> [UInt8] {
    guard let old else { return Array("(earlier values not kept)".utf8) }
    var out: [UInt8] = []
    for (base, current) in common where base < old.count && !old[base].elementsEqual(text(current)) {
      if !out.isEmpty { out.append(contentsOf: "; ".utf8) }
      out.append(contentsOf: baseline.columns[base].utf8)
      out.append(UInt8(ascii: "="))
      out.append(contentsOf: old[base])
    }
    return out
  }

  /// `grn_no=GRN-1, line=2` for messages.
  private func keyDescription(_ key: [UInt8]) -> String {
    let parts = key.split(separator: 0x1f, omittingEmptySubsequences: false)
    return zip(keys, parts).map { "\($0)=\(String(decoding: $1, as: UTF8.self))" }
      .joined(separator: ", ")
  }

  private func emit(_ change: String, was: [UInt8]) throws(OutputError) {
    if change == "new" && baseline == nil { counts.new += 1 }
    try write(change: change, fields: columns.indices.map { text($0) }, was: was)
  }

  /// A gone record: its last values under the current columns, or only its key when its values
  /// were not kept.
  private func emitGone(_ i: Int, of baseline: ChangeBaseline) throws(OutputError) {
    var fields = Array(repeating: ArraySlice<UInt8>(), count: columns.count)
    var was: [UInt8] = []
    if let old = baseline.values(i) {
      for (base, current) in common where base < old.count { fields[current] = old[base] }
    } else {
      let parts = baseline.key(i).split(separator: 0x1f, omittingEmptySubsequences: false)
      for (n, k) in keyColumns.enumerated() where n < parts.count { fields[k] = parts[n] }
      was = Array("(earlier values not kept)".utf8)
    }
    try write(change: "gone", fields: fields, was: was)
  }

  private func write(change: String, fields: [ArraySlice<UInt8>], was: [UInt8]) throws(OutputError) {
    guard let inner else { return }
    var bytes: [UInt8] = []
    var spans: [Int32] = []
    func add<C: Collection<UInt8>>(_ c: C) {
      spans.append(Int32(bytes.count))
      bytes.append(contentsOf: c)
      spans.append(Int32(bytes.count))
    }
    add(change.utf8)
    for f in fields { add(f) }
    add(was)
    let batch = RecordBatch(
      bytes: bytes, encoding: .plain, width: fields.count + 2, spans: spans,
      extents: [0, Int32(bytes.count)], lines: [Int32(next.entries.count)])
    let columns = outputColumns
    try batch.withRows { cursor throws(OutputError) in
      try inner.write(cursor.row(0), columns: columns, verbatim: false)
    }
  }

  /// Adds one value to a content hash; the separator keeps `ab|c` apart from `a|bc`.
  @inline(__always)
  static func mix<C: Collection<UInt8>>(_ value: C, into hash: UInt64) -> UInt64 {
    let h = ChangeCoding.hash(value, into: hash)
    return (h ^ 0x1f) &* ChangeCoding.fnvPrime
  }
}
