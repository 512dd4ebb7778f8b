/// The pipeline of one run: read → filter → sort/group → limit → write (Docs/Architecture.md).
///
/// Readers are opened by the caller. The engine samples the first records to learn the schema
/// and types, plans the query against them, then streams every batch (the sample first) through
/// the compiled filter. Without `sort:` and `group:` matches are written as they are found and
/// memory stays flat; with them, matching batches are kept and ordered at the end.
public final class Engine {
  let readers: [RecordReader]
  private var sample = Sample()
  /// Each reader's field names when the sample was taken.
  private var sampledNames: [[String]] = []
  /// The index of the first reader not yet read to its end.
  private var current = 0
  public internal(set) var schema = Schema(names: [])
  /// An input error met while sampling: raised after the sampled records are processed, since
  /// every record before an error is written (Docs/Formats.md, Errors).
  private var sampleFailure: SiftError?
  /// How many threads filter a large file, and in what parts.
  public var parallel: ParallelOptions
  /// The next source number for a part of a file read in parallel (readers are 0..<count).
  private var nextPartSource: Int

  /// Per reader, how to read its input again for the keys of every record, for JSON and NDJSON
  /// files (Docs/Formats.md, Several inputs); `nil` where that cannot be done (standard input).
  private var keyScans: [KeyScan?]
  /// Keys found by `keyScans` beyond those each reader had seen when the sample was taken.
  private var laterKeys: [[String]]

  public init(
    readers: [RecordReader], keyScans: [KeyScan?] = [], parallel: ParallelOptions
  ) {
    self.readers = readers
    self.keyScans = keyScans + Array(repeating: nil, count: max(0, readers.count - keyScans.count))
    self.laterKeys = Array(repeating: [], count: readers.count)
    self.parallel = parallel
    self.nextPartSource = readers.count
  }

  /// Reads the first `TypeInference.sampleSize` records and unites the inputs' fields. With
  /// `allKeys`, JSON and NDJSON files the sample did not read to their end are read once more
  /// for the keys first seen after it, so that they are fields too.
  @discardableResult
  public func readSample(allKeys: Bool = false) throws(SiftError) -> Schema {
    while sample.records < TypeInference.sampleSize, current < readers.count {
      do throws(SiftError) {
        if let batch = try next(from: current) {
          sample.batches.append((current, batch))
          sample.records += batch.count
        } else {
          current += 1
        }
      } catch {
        sampleFailure = error
        current = readers.count
      }
    }
    // Every input's header counts, also of files the sample did not reach (Docs/Formats.md).
    for reader in readers.dropFirst(current) { reader.readHeader() }
    sampledNames = readers.map(\.fieldNames)
    if allKeys { scanLaterKeys() }
    makeSchema()
    return schema
  }

  /// Reads the JSON and NDJSON files not yet read to their end once more for their keys; returns
  /// whether any key was new. Each file is scanned once.
  @discardableResult
  private func scanLaterKeys() -> Bool {
    var found = false
    for i in readers.indices where i >= current {
      guard let scan = keyScans[i] else { continue }
      keyScans[i] = nil
      let known = Set(sampledNames[i])
      laterKeys[i] = scan().filter { !known.contains($0) }
      found = found || !laterKeys[i].isEmpty
    }
    return found
  }

  /// Makes the schema of the sampled names and the later keys: fields in order of first
  /// appearance, their header bytes, and the nested paths the sample shows.
  private func makeSchema() {
    var names: [String] = []
    var seen = Set<String>()
    for (list, later) in zip(sampledNames, laterKeys) {
      for n in list + later where seen.insert(n).inserted { names.append(n) }
    }
    schema = Schema(names: names)
    sample.lay(against: schema, names: sampledNames)
    let position = Dictionary(uniqueKeysWithValues: names.enumerated().map { ($1, $0) })
    for (reader, list) in zip(readers, sampledNames) {
      guard let bytes = reader.headerBytes else { continue }
      for (local, name) in list.enumerated() where local < bytes.count {
        guard let i = position[name], schema.headers[i] == nil else { continue }
        if !name.utf8.elementsEqual(bytes[local]) { schema.headers[i] = bytes[local] }
      }
    }
    var nested: [Int: [String]] = [:]
    for (i, _) in names.enumerated() {
      var paths: [String] = []
      var known = Set<String>()
      let field = ResolvedField(index: i, path: [], name: names[i])
      sample.forEachValue(of: field) { v in
        guard v.form == .jsonNested else { return }
        for p in JSONPath.nestedPaths(of: v) where known.insert(p).inserted { paths.append(p) }
      }
      if !paths.isEmpty { nested[i] = paths }
    }
    schema.nestedPaths = nested
  }

  /// The type the sample gives `field`.
  public func type(of field: ResolvedField) -> ColumnType {
    sample.type(of: field)
  }

  /// Resolves and types `query` against the sample. A query naming a field the sample lacks is
  /// tried again after the JSON and NDJSON files are scanned for later keys (other errors are
  /// reported without reading anything more).
  public func plan(_ query: Query, now: WallTime) throws(PlanError) -> Plan {
    do throws(PlanError) {
      return try Plan(query: query, schema: schema, now: now) { type(of: $0) }
    } catch {
      guard error.unknownField, scanLaterKeys() else { throw error }
      makeSchema()
      return try Plan(query: query, schema: schema, now: now) { type(of: $0) }
    }
  }

  /// Runs `plan` over every record: the sample first, then the rest of the input.
  /// With `writer == nil` (`--count`) nothing is written, only counted.
  public func run(_ plan: Plan, writer: RecordWriter?) throws(SiftError) -> RunSummary {
    guard let writer else {
      if plan.group == nil {
        var pass = Pass(plan: plan, sink: CountSink())
        return try run(&pass, writer: nil)
      }
      var pass = Pass(plan: plan, sink: TallySink())
      return try run(&pass, writer: nil)
    }
    let limit = plan.query.limit ?? Int.max
    if plan.sort.isEmpty && plan.group == nil {
      var pass = Pass(plan: plan, sink: StreamSink(writer: writer, limit: limit))
      return try run(&pass, writer: writer)
    }
    let sink = OrderSink(plan: plan, writer: writer, limit: limit, options: parallel)
    var pass = Pass(plan: plan, sink: sink)
    return try run(&pass, writer: writer)
  }

  private func run<Sink: MatchSink>(
    _ pass: inout Pass<Sink>, writer: RecordWriter?
  ) throws(SiftError) -> RunSummary {
    do throws(SiftError) {
      let plan = pass.plan
      do throws(OutputError) {
        try writer?.begin(columns: plan.outputNames, headers: plan.outputHeaders)
      } catch {
        throw .output(error)
      }
      let sampled = sample.batches
      sample.batches.removeAll()
      for (reader, batch) in sampled {
        try pass.process(batch, from: reader, names: readers[reader].fieldNames)
      }
      if let failure = sampleFailure {
        sampleFailure = nil
        throw failure
      }
      while current < readers.count {
        if parallel.workers > 1, let splittable = readers[current] as? SplittableReader,
          let rest = splittable.handOverRest(minimum: parallel.minimumSize)
        {
          try runInParts(rest, of: splittable, pass: &pass)
          current += 1
        } else if let batch = try next(from: current) {
          try pass.process(batch, from: current, names: readers[current].fieldNames)
        } else {
          current += 1
        }
      }
      return try pass.finish(readers: readers)
    } catch .output(.closed) {
      // A closed pipe stops the run quietly; the caller still learns whether anything matched.
      var summary = pass.summary
      summary.outputClosed = true
      return summary
    }
  }

  /// Filters the rest of a file in parts on `parallel.workers` threads, each part's matches
  /// collected by the sink's part collector, and merges the parts in input order; after a part
  /// that did not read cleanly (a real error, or a part end inside a quoted field) the rest from
  /// that part's start is read here, as it would be without threads.
  private func runInParts<Sink: MatchSink>(
    _ rest: FileRest, of reader: SplittableReader, pass: inout Pass<Sink>
  ) throws(SiftError) {
    let scan = PartScan<Sink.Part>(
      plan: pass.plan, reader: reader, rest: rest, firstSource: nextPartSource,
      makeCollector: pass.sink.partMaker(), options: parallel)
    nextPartSource += scan.partCount
    let started = scan.start(workers: parallel.workers)
    defer { scan.stop() }
    var line = rest.line
    for index in 0..<scan.partCount {
      let part = started ? scan.result(index) : scan.filter(part: index)
      guard part.clean else {
        scan.stop()
        let tail = reader.partReader(part.start..<rest.range.upperBound, of: rest, line: line)
        let source = nextSource()
        while let batch = try read(tail) {
          try pass.process(batch, from: source, names: tail.fieldNames)
        }
        pass.shortRowsElsewhere += tail.shortRows
        return
      }
      try pass.merge(part, source: scan.firstSource + index)
      line += part.lines
    }
  }

  private func nextSource() -> Int {
    defer { nextPartSource += 1 }
    return nextPartSource
  }

  private func read(_ reader: RecordReader) throws(SiftError) -> RecordBatch? {
    do throws(InputError) { return try reader.nextBatch() } catch { throw .input(error) }
  }

  /// Calls `body` with every batch in input order: the sample first, then the rest of the input.
  /// The sample is handed over once; the engine keeps no batch after this.
  func forEachBatch(_ body: (RecordBatch, Int) throws(SiftError) -> Void) throws(SiftError) {
    let sampled = sample.batches
    sample.batches.removeAll()
    for (reader, batch) in sampled { try body(batch, reader) }
    if let failure = sampleFailure {
      sampleFailure = nil
      throw failure
    }
    while current < readers.count {
      if let batch = try next(from: current) {
        try body(batch, current)
      } else {
        current += 1
      }
    }
  }

  private func next(from reader: Int) throws(SiftError) -> RecordBatch? {
    try read(readers[reader])
  }
}
