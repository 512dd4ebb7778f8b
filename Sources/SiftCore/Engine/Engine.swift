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
  public private(set) var schema = Schema(names: [])
  /// An input error met while sampling: raised after the sampled records are processed, since
  /// every record before an error is written (SPEC §6).
  private var sampleFailure: SiftError?

  public init(readers: [RecordReader]) {
    self.readers = readers
  }

  /// Reads the first `TypeInference.sampleSize` records and unites the inputs' fields.
  @discardableResult
  public func readSample() throws(SiftError) -> Schema {
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
    sampledNames = readers.map(\.fieldNames)
    var names: [String] = []
    var seen = Set<String>()
    for list in sampledNames {
      for n in list where seen.insert(n).inserted { names.append(n) }
    }
    schema = Schema(names: names)
    var nested: [Int: [String]] = [:]
    for (i, _) in names.enumerated() {
      var paths: [String] = []
      var known = Set<String>()
      let field = ResolvedField(index: i, path: [], name: names[i])
      sample.forEachValue(of: field, schema: schema, names: sampledNames) { v in
        guard v.form == .jsonNested else { return }
        for p in JSONPath.nestedPaths(of: v) where known.insert(p).inserted { paths.append(p) }
      }
      if !paths.isEmpty { nested[i] = paths }
    }
    schema.nestedPaths = nested
    return schema
  }

  /// The type the sample gives `field`.
  public func type(of field: ResolvedField) -> ColumnType {
    sample.type(of: field, schema: schema, names: sampledNames)
  }

  /// Sampled values of `field`, for `--fields`.
  public func sampleValues(of field: ResolvedField, _ body: (FieldValue) -> Void) {
    sample.forEachValue(of: field, schema: schema, names: sampledNames, body)
  }

  /// Resolves and types `query` against the sample.
  public func plan(_ query: Query, now: WallTime) throws(PlanError) -> Plan {
    try Plan(query: query, schema: schema, now: now) { type(of: $0) }
  }

  /// Runs `plan` over every record: the sample first, then the rest of the input.
  /// With `writer == nil` (`--count`) nothing is written, only counted.
  public func run(_ plan: Plan, writer: RecordWriter?) throws(SiftError) -> RunSummary {
    var pass = Pass(plan: plan, writer: writer, readers: readers)
    do throws(OutputError) { try writer?.begin(columns: plan.outputNames) } catch {
      throw .output(error)
    }
    try forEachBatch { batch, reader throws(SiftError) in try pass.process(batch, from: reader) }
    return try pass.finish()
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
    do throws(InputError) { return try readers[reader].nextBatch() } catch { throw .input(error) }
  }
}
