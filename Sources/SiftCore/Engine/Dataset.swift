/// One input of a `Dataset`: the reader its first run reads, and how to read it again from the
/// start for a later run (Docs/Architecture.md, The dataset).
public struct DatasetInput {
  public var reader: RecordReader
  /// Opens the input again from its start; `nil` where it cannot be (standard input whose
  /// bytes were not kept).
  public var reopen: (() throws(InputError) -> RecordReader)?
  /// How to read the input again for the keys of every record (JSON and NDJSON files,
  /// Docs/Formats.md, Several inputs); `nil` where that cannot be done.
  public var keyScan: KeyScan?

  public init(
    reader: RecordReader, reopen: (() throws(InputError) -> RecordReader)? = nil,
    keyScan: KeyScan? = nil
  ) {
    self.reader = reader
    self.reopen = reopen
    self.keyScan = keyScan
  }
}

/// The inputs of a query, opened and sampled once (Docs/Architecture.md, The dataset): the
/// schema and field types come from the first records, and any number of plans made against
/// them can run over the inputs. The first run starts with the sample already read, so nothing
/// is read twice; a later run reads every input again from its start.
public final class Dataset {
  /// The readers the first run reads, the sample already taken from them; `nil` after it.
  private var firstReaders: [RecordReader]?
  private let reopeners: [(() throws(InputError) -> RecordReader)?]
  private var sample = Sample()
  /// Each input's field names when the sample was taken, and the bytes of its header row.
  private var sampledNames: [[String]] = []
  private var headerBytes: [[[UInt8]]?] = []
  /// The index of the first input the sample did not read to its end.
  private var sampledThrough = 0
  /// An input error met while sampling: raised by the first run after the sampled records are
  /// processed, since every record before an error is written (Docs/Formats.md, Errors).
  private var sampleFailure: SiftError?
  /// Per input, how to read it again for its keys; `nil` once scanned or where impossible.
  private var keyScans: [KeyScan?]
  /// Keys found by `keyScans` beyond those each input had shown when the sample was taken.
  private var laterKeys: [[String]]
  public private(set) var schema = Schema(names: [])
  /// `.comma` when every input writes a decimal comma, for the query's number literals
  /// (Docs/QueryLanguage.md, Numbers in a file's style).
  public let decimalMark: DecimalMark
  /// How many threads filter a large file, and in what parts.
  public var parallel: ParallelOptions
  /// `--dates`, `--tz` and the decimal mark (Docs/Formats.md, Dates).
  public var dateSettings = DateSettings() {
    didSet {
      dateReadingMade = nil
      inferences = [:]
    }
  }
  private var dateReadingMade: DateReading?
  /// What the sample shows of each field asked about, under the current schema and
  /// `dateSettings`: planning asks for a field's type, its dates' convention, whether it is
  /// mostly numbers and the input's date reading, and each would read the sample again.
  private var inferences: [ResolvedField: TypeInference] = [:]

  /// Reads the first `TypeInference.sampleSize` records of `inputs` (fewer where a pipe waits
  /// for its writer) and unites their fields.
  /// With `allKeys`, JSON and NDJSON files the sample did not read to their end are read once
  /// more for the keys first seen after it, so that they are fields too.
  public init(inputs: [DatasetInput], parallel: ParallelOptions, allKeys: Bool = false) {
    let readers = inputs.map(\.reader)
    firstReaders = readers
    reopeners = inputs.map(\.reopen)
    keyScans = inputs.map(\.keyScan)
    laterKeys = Array(repeating: [], count: inputs.count)
    self.parallel = parallel
    decimalMark = !readers.isEmpty && readers.allSatisfy { $0.decimalMark == .comma } ? .comma : .point
    while sample.records < TypeInference.sampleSize, sampledThrough < readers.count {
      do throws(InputError) {
        if let batch = try readers[sampledThrough].nextBatch() {
          sample.batches.append((sampledThrough, batch))
          sample.records += batch.count
          // A pipe waiting for its writer: the records so far are the sample, so that they go
          // out now (Docs/Formats.md, Streaming input).
          if readers[sampledThrough].wentIdle { break }
        } else {
          sampledThrough += 1
        }
      } catch {
        sampleFailure = .input(error)
        sampledThrough = readers.count
      }
    }
    // Every input's header counts, also of files the sample did not reach (Docs/Formats.md).
    for reader in readers.dropFirst(sampledThrough) { reader.readHeader() }
    sampledNames = readers.map(\.fieldNames)
    headerBytes = readers.map(\.headerBytes)
    if allKeys { scanLaterKeys() }
    makeSchema()
  }

  /// Whether a run after the first can read every input again.
  public var canRunAgain: Bool { reopeners.allSatisfy { $0 != nil } }

  /// Reads the JSON and NDJSON files not yet read to their end once more for their keys; returns
  /// whether any key was new. Each file is scanned once.
  @discardableResult
  private func scanLaterKeys() -> Bool {
    var found = false
    for i in keyScans.indices where i >= sampledThrough {
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
    for (header, list) in zip(headerBytes, sampledNames) {
      guard let bytes = header else { continue }
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
    dateReadingMade = nil
    inferences = [:]
  }

  /// What the sample shows of `field`, read once per schema and date settings.
  private func inference(of field: ResolvedField) -> TypeInference {
    if let known = inferences[field] { return known }
    let made = sample.inference(of: field, order: dateSettings.order)
    inferences[field] = made
    return made
  }

  /// The type the sample gives `field`.
  public func type(of field: ResolvedField) -> ColumnType {
    inference(of: field).type
  }

  /// How the input's fields read their dates, decided from the sample once per schema.
  private var dateReading: DateReading {
    if let made = dateReadingMade, made.settings == dateSettings { return made }
    let fields = schema.names.enumerated().map { i, name in
      let field = ResolvedField(index: i, path: [], name: name)
      return (name: name, evidence: inference(of: field).dateEvidence)
    }
    let made = DateReading(settings: dateSettings, fields: fields)
    dateReadingMade = made
    return made
  }

  /// How `field`'s dates are read (Docs/Formats.md, Dates).
  public func dateConvention(of field: ResolvedField) -> DateConvention {
    guard field.index >= 0, field.index < schema.names.count else {
      return DateConvention(order: dateSettings.order ?? .ymd, zone: dateSettings.zone)
    }
    let shown = inference(of: field)
    return dateReading.convention(
      for: shown.dateEvidence, offsets: shown.offsets, otherStyles: shown.otherStyles > 0)
  }

  /// The notes that say how the dates of the fields `plan` uses are read, where sift decided it.
  public func dateNotes(for plan: Plan) -> [String] {
    let used = Set(plan.fields.values).sorted { ($0.index, $0.name) < ($1.index, $1.name) }
    return used.compactMap { field in
      guard field.index >= 0, plan.type(of: field).isTemporal else { return nil }
      let evidence = inference(of: field).dateEvidence
      return dateReading.note(field: field.name, evidence: evidence)
    }
  }

  /// Resolves and types `query` against the sample. A query naming a field the sample lacks is
  /// tried again after the JSON and NDJSON files are scanned for later keys (other errors are
  /// reported without reading anything more). `intent` is what the plan is made for: the
  /// records, or a count (`-c`).
  public func plan(_ query: Query, now: WallTime, for intent: Plan.Intent = .records) throws(PlanError) -> Plan {
    do throws(PlanError) {
      return try Plan(
        query: query, schema: schema, now: now, decimalMark: decimalMark, intent: intent,
        typeOf: { type(of: $0) }, conventionOf: { dateConvention(of: $0) },
        mostlyNumbers: { inference(of: $0).mostlyNumbers })
    } catch {
      guard error.unknownField, scanLaterKeys() else { throw error }
      makeSchema()
      return try Plan(
        query: query, schema: schema, now: now, decimalMark: decimalMark, intent: intent,
        typeOf: { type(of: $0) }, conventionOf: { dateConvention(of: $0) },
        mostlyNumbers: { inference(of: $0).mostlyNumbers })
    }
  }

  /// How the first run of `plan` will read each input, in words (`2 workers, 15 parts of 8 MiB`,
  /// or `1 worker` and why), from the rule the engine follows (Docs/QueryLanguage.md, Explain).
  public func threading(for plan: Plan) -> [String] {
    (firstReaders ?? []).map { reader in
      guard let deferred = reader as? DeferredReader else {
        return parallel.threadingWords(reader, for: plan)
      }
      defer { deferred.letGoUnstarted() }
      if let opened = deferred.openedForParts() { return parallel.threadingWords(opened, for: plan) }
      // Read to its end with the sample: said as its reader would have said it.
      return parallel.threadingWords(
        split: .oneThread(deferred.readsInOrder ? .notSplittable : .sampleReadAll), for: plan)
    }
  }

  /// Runs `plan` over every record of the inputs. A plan made for a count (`-c`) writes
  /// nothing; one made for records writes them to `writer`, and without one is counted as `-c` counts.
  /// `watch` is told the records read after each batch (or part) and stops the run, as a closed
  /// output would, when it returns false.
  public func run(
    _ plan: Plan, writer: RecordWriter?, watch: RunWatch? = nil
  ) throws(SiftError) -> RunSummary {
    let engine = try startRun()
    engine.watch = watch
    return try engine.run(plan, writer: writer)
  }

  /// A run over the inputs: the first starts with the sample, a later one opens them again.
  func startRun() throws(SiftError) -> Engine {
    if let readers = firstReaders {
      firstReaders = nil
      defer { sampleFailure = nil }
      return Engine(
        readers: readers, sample: sample, current: sampledThrough, sampleFailure: sampleFailure,
        parallel: parallel)
    }
    var readers: [RecordReader] = []
    for reopen in reopeners {
      // A caller runs again only where `canRunAgain`: standard input only when its bytes were kept.
      guard let reopen else { preconditionFailure("an input that cannot be opened again ran twice") }
      do throws(InputError) { readers.append(try reopen()) } catch { throw .input(error) }
    }
    return Engine(readers: readers, sample: Sample(), current: 0, sampleFailure: nil, parallel: parallel)
  }
}
