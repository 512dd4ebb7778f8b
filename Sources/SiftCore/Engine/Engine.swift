/// One run of a plan over a `Dataset`'s inputs: read → filter → sort/group → limit → write
/// (Docs/Architecture.md, The dataset).
///
/// The dataset opens the readers and takes the sample; its first run starts with the sampled
/// batches and reads on where the sample stopped, a later run starts from freshly opened readers.
/// The run hands each batch's matches to the sink the plan's shape calls for (stream, order,
/// count, tally or summary: Docs/Architecture.md, Filter, order, write), a large file in parts
/// on several threads.
final class Engine {
  /// Told the records read so far after each batch or part; false stops the run.
  var watch: RunWatch?
  let readers: [RecordReader]
  private var sample: Sample
  /// The index of the first reader not yet read to its end.
  private var current: Int
  /// An input error met while sampling: raised after the sampled records are processed, since
  /// every record before an error is written (Docs/Formats.md, Errors).
  private var sampleFailure: SiftError?
  /// How many threads filter a large file, and in what parts.
  var parallel: ParallelOptions
  /// The next source number for a part of a file read in parallel (readers are 0..<count).
  private var nextPartSource: Int

  init(
    readers: [RecordReader], sample: Sample, current: Int, sampleFailure: SiftError?,
    parallel: ParallelOptions
  ) {
    self.readers = readers
    self.sample = sample
    self.current = current
    self.sampleFailure = sampleFailure
    self.parallel = parallel
    self.nextPartSource = readers.count
  }

  /// Runs `plan` over every record: the sample first, then the rest of the input, into the sink
  /// of the plan's shape. A plan made for a count writes nothing; one made for records writes
  /// them to `writer`, and without one is counted as `-c` counts (per group with `group:`).
  func run(_ plan: Plan, writer: RecordWriter?) throws(SiftError) -> RunSummary {
    let limit = plan.limit ?? Int.max
    switch plan.shape {
    case .count, .tally:
      return try count(plan)
    case .stream:
      guard let writer else { return try count(plan) }
      readAsWritten(plan, by: writer)
      var pass = Pass(plan: plan, sink: StreamSink(writer: writer, limit: limit))
      return try run(&pass, writer: writer)
    case .order:
      guard let writer else { return try count(plan) }
      var pass = Pass(plan: plan, sink: OrderSink(plan: plan, writer: writer, limit: limit, options: parallel))
      return try run(&pass, writer: writer)
    case .summarize:
      var pass = Pass(plan: plan, sink: SummarySink(plan: plan, writer: writer, memoryBudget: parallel.memoryBudget))
      return try run(&pass, writer: writer)
    }
  }

  /// Counts the matches of `plan`, per group with `group:`, writing nothing.
  private func count(_ plan: Plan) throws(SiftError) -> RunSummary {
    guard plan.group.isEmpty else {
      var pass = Pass(plan: plan, sink: TallySink(plan: plan, memoryBudget: parallel.memoryBudget))
      return try run(&pass, writer: nil)
    }
    // With no filter, how many records there are is all the run needs (Docs/Performance.md,
    // Counting without fields).
    if plan.filter == nil {
      for reader in readers[current...] { reader.readWithoutFields() }
    }
    var pass = Pass(plan: plan, sink: CountSink())
    return try run(&pass, writer: nil)
  }

  /// With no filter, each record `writer` writes unchanged (every field, in order) need not be
  /// read into fields when its text is what the writer would write (Docs/Performance.md,
  /// Pass-through without fields), or, for `--changes`, what its digest is made from
  /// (`RecordDigesting.digestedDelimiter`, Docs/Performance.md, "A record's digest from its
  /// bytes"): the readers whose records are so written are told.
  private func readAsWritten(_ plan: Plan, by writer: RecordWriter) {
    guard plan.filter == nil,
      let delimiter = (writer as? RowTextCopying)?.copiedDelimiter
        ?? (writer as? RecordDigesting)?.digestedDelimiter
    else { return }
    for reader in readers[current...] where reader.encoding == .csv {
      let access = SourceAccess(
        plan: plan, names: reader.fieldNames, encoding: .csv, decimalMark: reader.decimalMark)
      if access.verbatim { reader.readAsWritten(delimiter: delimiter) }
    }
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
      // When the file the sample stopped in is read in parts, its workers start first and filter
      // while the sample is processed here.
      var early = sampleFailure == nil ? startParts(of: pass) : nil
      defer { early?.scan.stop() }
      for (reader, batch) in sampled {
        try pass.process(batch, from: reader, names: readers[reader].fieldNames)
        try check(pass.summary)
      }
      try flushIfWaiting(writer)
      if let failure = sampleFailure {
        sampleFailure = nil
        throw failure
      }
      while current < readers.count {
        if let parts = early ?? startParts(of: pass) {
          early = nil
          defer { parts.scan.stop() }
          if let ahead = parts.ahead {
            try pass.process(ahead, from: current, names: parts.reader.fieldNames)
          }
          try takeParts(parts, pass: &pass, writer: writer)
          (readers[current] as? DeferredReader)?.finish()
          current += 1
        } else if let batch = try next(from: current) {
          try pass.process(batch, from: current, names: readers[current].fieldNames)
          try check(pass.summary)
          try flushIfWaiting(writer)
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

  /// A file or stream being read in parts: its workers, where its rest starts, and the batch
  /// its reader had read ahead (which comes before the parts).
  private struct StartedParts<Part: PartCollector> {
    let scan: PartScan<Part>
    let started: Bool
    let line: Int
    let column: Int
    let reader: SplittableReader
    let ahead: RecordBatch?
  }

  /// When the current reader's rest is read in parts, hands it over and starts
  /// `parallel.workers` threads filtering it, each part's matches collected by the sink's part
  /// collector; else `nil`.
  private func startParts<Sink: MatchSink>(of pass: Pass<Sink>) -> StartedParts<Sink.Part>? {
    guard current < readers.count, let opened = openedForParts(readers[current]),
      let reader = opened as? SplittableReader
    else { return nil }
    let feed: PartFeed
    let (line, column): (Int, Int)
    switch parallel.split(opened) {
    case .parts(let rest):
      feed = .file(rest, partSize: parallel.filePartSize(for: pass.plan))
      (line, column) = (rest.line, rest.column)
    case .stream(let rest):
      guard let streamReader = reader as? any StreamSplittableReader else { return nil }
      let cutter = StreamCutter(
        rest, partSize: parallel.streamPartSize, rule: reader.boundaryRule,
        quote: streamReader.quoteByte)
      feed = .stream(cutter, reader: streamReader)
      (line, column) = (rest.line, 1)
    case .oneThread:
      return nil
    }
    let ahead = reader.handOverRest()
    let scan = PartScan<Sink.Part>(
      plan: pass.plan, reader: reader, feed: feed, firstSource: nextPartSource,
      makeCollector: pass.sink.partMaker(), options: parallel)
    nextPartSource += scan.fileParts
    let started = scan.start(workers: parallel.workers)
    return StartedParts(
      scan: scan, started: started, line: line, column: column, reader: reader, ahead: ahead)
  }

  /// Merges the parts in input order (filtering each here when no worker could start); after a
  /// part that did not read cleanly (a real error, or a part end inside a quoted field) the rest
  /// from that part's start is read here, as it would be without threads.
  private func takeParts<Sink: MatchSink>(
    _ parts: StartedParts<Sink.Part>, pass: inout Pass<Sink>, writer: RecordWriter?
  ) throws(SiftError) {
    let scan = parts.scan
    var line = parts.line
    var column = parts.column
    var index = 0
    defer { nextPartSource = max(nextPartSource, scan.firstSource + index) }
    while let part = parts.started ? scan.result(index) : scan.filterHere() {
      guard part.clean else {
        scan.stop()
        nextPartSource = max(nextPartSource, scan.firstSource + index)
        try readInOrder(
          scan.tailReader(from: index, start: part.start, line: line, column: column),
          pass: &pass, writer: writer)
        if let failure = scan.streamFailure { throw .input(failure) }
        return
      }
      (writer as? RecordPlaceTaking)?.takeOrigin(
        source: scan.firstSource + index, input: current, lineOffset: line - 1)
      try pass.merge(part, source: scan.firstSource + index)
      try check(pass.summary)
      if part.idle { try flush(writer) }
      line += part.lines
      column = part.lines > 0 ? part.endColumn : column + part.endColumn - 1
      index += 1
    }
    if let failure = scan.streamFailure { throw .input(failure) }
  }

  /// Reads the rest of a file or stream from an unclean part on, here, as it would be read
  /// without threads.
  private func readInOrder<Sink: MatchSink>(
    _ tail: any PartReader, pass: inout Pass<Sink>, writer: RecordWriter?
  ) throws(SiftError) {
    let source = nextSource()
    // The rest's lines are its input's own.
    (writer as? RecordPlaceTaking)?.takeOrigin(source: source, input: current, lineOffset: 0)
    while let batch = try read(tail) {
      try pass.process(batch, from: source, names: tail.fieldNames)
      try check(pass.summary)
      if tail.wentIdle { try flush(writer) }
    }
    pass.shortRowsElsewhere += tail.shortRows
  }

  /// Writes out what the writer holds when the input being read waits for its writer (a pipe
  /// or terminal), so that records go out as they arrive (Docs/Formats.md, Streaming input).
  private func flushIfWaiting(_ writer: RecordWriter?) throws(SiftError) {
    guard current < readers.count, readers[current].wentIdle else { return }
    try flush(writer)
  }

  private func flush(_ writer: RecordWriter?) throws(SiftError) {
    do throws(OutputError) { try writer?.flush() } catch { throw .output(error) }
  }

  /// Stops the run, as a closed output does, when `watch` says so.
  private func check(_ summary: RunSummary) throws(SiftError) {
    if let watch, !watch(summary.total) { throw .output(.closed) }
  }

  /// The reader whose rest may be read in parts: a deferred file's own reader, opened now.
  private func openedForParts(_ reader: RecordReader) -> RecordReader? {
    guard let deferred = reader as? DeferredReader else { return reader }
    return deferred.openedForParts()
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
