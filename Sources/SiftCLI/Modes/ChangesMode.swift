import SiftCore

extension Frontend {
  /// `--changes KEY…` (Docs/Reports.md, Changes since the last run): only the records that are
  /// new, changed or gone since the baseline.
  func changes(_ job: Job) -> ExitStatus {
    let recordRun = RecordRun(job: job, frontend: self)
    do throws(Problem) {
      let opened = try recordRun.open()
      return try recordRun.runChanges(
        opened.plan, on: opened.dataset, inputs: opened.inputs, format: opened.format, now: job.now)
    } catch {
      return report(error)
    }
  }
}

extension RecordRun {
  /// Runs the query with `--changes` (Docs/Reports.md, "Changes since the last run"): compares
  /// its matching records with the baseline (the state file, or `--against` an earlier export),
  /// writes only what changed, and moves the baseline only when the whole run succeeded.
  func runChanges(
    _ plan: Plan, on dataset: Dataset, inputs: Inputs, format: OutputFormat, now: WallTime
  ) throws(Problem) -> ExitStatus {
    // `--changes` without KEY: the view's own `key` (Docs/Views.md).
    var requested = options.changes ?? []
    if requested.isEmpty {
      guard let key = view?.view.key else {
        throw .usage(UsageError(
          "--changes needs the key fields: --changes KEY[,KEY…]",
          hint: "or run a view whose views file names its \"key\": sift @VIEW --changes"))
      }
      requested = [key]
    }
    if plan.query.limit != nil {
      throw .usage(
        UsageError("--changes cannot be used with limit:: the records past the limit would read as gone",
          hint: "drop limit:"))
    }
    let keys = try Self.resolveKeys(requested, in: plan.outputNames, source: nil)
    let labels = view?.labels(in: plan.schema) ?? Labels()
    let keyLabel = keys.map { labels.label($0) }.joined(separator: ", ")
    var state: ChangesState?
    defer { state?.close() }
    let baseline: ChangeBaseline?
    var earlier: ChangeTracker?
    if !options.against.isEmpty {
      earlier = try earlierExport(keys: requested, now: now)
      baseline = earlier?.next
    } else {
      let (stateDirectory, currentDirectory) = frontend.changesState
      guard let directory = stateDirectory else {
        throw .changes("--changes has no state directory: set SIFT_STATE_DIR")
      }
      let name = ChangesState.fileName(
        view: view?.view.name, typed: options.query, query: query, files: options.files, keys: keys,
        cwd: currentDirectory)
      let opened = try ChangesState.open(directory: directory, name: name, readOnly: options.peek)
      state = opened
      baseline = try opened.read(checksumAside: frontend.parallel(options).workers > 1)
      if baseline == nil {
        console.note("note: --changes: no baseline yet for this query, so every record is new\n")
      }
    }
    if let baseline, baseline.columns != plan.outputNames {
      let names = plan.outputNames
      let common = ChangeBaseline.commonColumns(baseline.columns, names)
      let (inBase, inCurrent) = (Set(common.map(\.base)), Set(common.map(\.current)))
      let added = names.indices.filter { !inCurrent.contains($0) }.map { names[$0] }
      let dropped = baseline.columns.indices.filter { !inBase.contains($0) }
        .map { baseline.columns[$0] }
      let renamed = common.filter { baseline.columns[$0.base] != names[$0.current] }
        .map { "\(baseline.columns[$0.base]) → \(names[$0.current])" }
      let both = common.count
      var what: [String] = []
      if !added.isEmpty { what.append("new: " + added.joined(separator: ", ")) }
      if !dropped.isEmpty { what.append("gone: " + dropped.joined(separator: ", ")) }
      if !renamed.isEmpty { what.append("renamed: " + renamed.joined(separator: ", ")) }
      console.note(
        "note: --changes: the fields changed since the baseline (\(what.joined(separator: "; "))); "
          + "records are compared on the \(both) fields both have\n")
    }
    let presentation = frontend.presentation(format, of: job)
    let fastFilterChips = try inactiveChips(plan, ascii: !presentation.unicode)
    let records = frontend.recordOutput(presentation)
    let tracker = ChangeTracker(
      inner: makeWriter(plan, inputs, presentation, records, changes: true), keys: keys,
      keyLabel: keyLabel, baseline: baseline, since: ChangeCounts.sinceText(now),
      nextIsWritten: state != nil && !options.peek)
    if let earlier { tracker.takeKeyTable(of: earlier) }
    tracker.inputBytes = ChangesState.inputBytes(options.files)
    tracker.goneRowsAside = frontend.parallel(options).workers > 1
    let summary: RunSummary
    do throws(Problem) {
      summary = try execute(plan, on: dataset, writer: tracker, records: records)
    } catch {
      if let failure = tracker.failure { throw Self.problem(failure, in: nil, files: options.files) }
      throw error
    }
    var counts = tracker.counts
    if !options.against.isEmpty {
      counts.since = options.against.map {
        $0 == "-" ? "stdin" : $0.split(separator: "/").last.map(String.init) ?? $0
      }
        .joined(separator: ", ")
    }
    if counts.comparedByKeyOnly > 0 {
      let n = counts.comparedByKeyOnly
      console.note(
        "note: --changes: \(groupedDigits(n)) \(n == 1 ? "record was" : "records were") compared by key only: "
          + "their earlier values were not kept (past 16 MiB of values)\n")
    }
    // The next baseline is written and synced before the output is claimed as sent; it
    // replaces the old one only after (Docs/Reports.md, The state).
    let moves = state != nil && !options.peek && !summary.outputClosed
    if moves, let state { try state.prepare(tracker.next) }
    let status = try frontend.present(
      plan, summary, presentation, records: records, of: job, fastFilterChips: fastFilterChips,
      changes: counts)
    if moves && status != .error, let state { try state.commit() }
    return status
  }

  /// The baseline of `--against`: the earlier export's matching records, through the same query,
  /// as the tracker that read them holds them (its next baseline and key table); `keys` as
  /// given, named among the earlier export's own fields (its `GRN No` for today's `grn_no`).
  private func earlierExport(keys: [String], now: WallTime) throws(Problem) -> ChangeTracker {
    var earlier = options
    earlier.files = options.against
    let inputs = try frontend.open(earlier)
    let dataset = inputs.dataset(parallel: frontend.parallel(options))
    let plan = try frontend.plan(query, over: dataset, now: now, text: options.query, view: view)
    let source = options.against.joined(separator: ", ")
    let tracker = ChangeTracker(
      inner: nil, keys: try Self.resolveKeys(keys, in: plan.outputNames, source: source),
      keyLabel: "", baseline: nil, since: source, budget: .max)
    tracker.inputBytes = ChangesState.inputBytes(options.against)
    do throws(Problem) {
      _ = try frontend.run(plan, over: dataset, writer: tracker, text: options.query, view: view)
    } catch {
      if let failure = tracker.failure { throw Self.problem(failure, in: source, files: options.against) }
      throw error
    }
    return tracker
  }

  /// The key fields as output column names, matched as a query's field names are (Docs/
  /// QueryLanguage.md, Filter terms): as written, else in another case, else normalized
  /// (`grn_no` for `GRN No`).
  static func resolveKeys(_ keys: [String], in names: [String], source: String?)
    throws(Problem) -> [String]
  {
    var resolved: [String] = []
    let whose = source.map { " of the earlier export \($0)" } ?? ""
    let index = FieldResolver.NameIndex(names)
    for key in keys {
      let found = index.candidates(for: key)
      guard found.count == 1 else {
        if found.isEmpty {
          throw .changes(
            "query error: --changes: no field '\(key)' among the fields written\(whose)\n"
              + "  fields: " + names.joined(separator: ", "))
        }
        throw .changes(
          "query error: --changes: the key '\(key)' is ambiguous among the fields written\(whose)\n"
            + "  it could be: " + found.map { "'\($0)'" }.joined(separator: ", ")
            + "; give the exact name")
      }
      resolved.append(found[0])
    }
    return resolved
  }

  private static func problem(_ error: ChangeError, in source: String?, files: [String])
    -> Problem
  {
    switch error {
    case .duplicateKey(let key, let first, let second, let lines):
      let whose = source.map { " in the earlier export \($0)" } ?? ""
      func name(_ i: Int) -> String {
        let names = files.isEmpty ? ["stdin"] : files.map { $0 == "-" ? "stdin" : $0 }
        return i < names.count ? names[i] : "input \(i + 1)"
      }
      let places = lines.map {
        "\(name($0.first.source)):\($0.first.line) and \(name($0.second.source)):\($0.second.line)"
      } ?? "matching records \(groupedDigits(first)) and \(groupedDigits(second)) (in the order written)"
      return .changes(
        "--changes: the key \(key) repeats\(whose): \(places) have it\n"
          + "  a key must name one record; add a field: --changes KEY,FIELD")
    }
  }
}
