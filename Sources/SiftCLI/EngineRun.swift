#if canImport(Glibc)
  import Glibc
#endif
import SiftCore

/// `--engine duckdb` (Docs/Engines.md, Engines): the query's statement runs in the engine's
/// command-line client; its CSV result is read back and written as sift writes its own, the
/// feedback bar's counts taken from the engine too.
extension QueryCommand {
  func runOnEngine() -> ExitStatus {
    do throws(Problem) {
      var (plan, writer, inputs, now) = try SQLCommand.prepare(options, query: query, context: context)
      writer.groupColumn = true
      let statements = try SQLCommand.sql(writer.statements)
      let totals = try SQLCommand.sql(writer.totals)
      let files = try EngineClient(context: context).run(
        setup: Array(statements.dropLast()), queries: [totals, statements.last!])
      var summary = try counts(files[0])
      let result: RecordReader
      do throws(InputError) {
        result = try ReaderFactory.makeReader(
          source: try ByteSource(path: files[1]), format: .csv, options: ReaderOptions(name: "duckdb")
        ).reader
      } catch {
        throw .input(error, hint: nil)
      }
      let dataset = Dataset(inputs: [DatasetInput(reader: result)], parallel: ParallelOptions(workers: 1))
      let resultPlan: Plan
      // Records come in the engine's order; with `group:`, their groups (already in order)
      // are marked again for the group headers.
      let regroup = !plan.group.isEmpty && plan.aggregates.isEmpty && !options.count
      let groupColumns = SQLWriter.groupColumns(plan.group.count)
      let resultQuery =
        regroup
        ? "group:" + groupColumns.joined(separator: ",") + " fields:"
          + groupColumns.map { "-" + $0 }.joined(separator: ",") : ""
      do throws(PlanError) {
        resultPlan = try dataset.plan((try? Parser.parse(resultQuery)) ?? Query(), now: now)
      } catch {
        throw .plan(error, query: resultQuery, view: nil)
      }
      let format = outputFormat(inputs.formats)
      let presentation = console.presentation(format, options, title: nil)
      let records = RecordOutput(presentation, stdout: context.stdout)
      let written: RunSummary
      if options.count {
        written = try countsOnly(dataset, resultPlan, grouped: !plan.group.isEmpty)
      } else {
        let output = makeWriter(resultPlan, inputs, presentation, records)
        do throws(SiftError) { written = try dataset.run(resultPlan, writer: output) } catch {
          throw Problem(error, query: options.query, view: nil)
        }
      }
      for path in files { unlink(path) }
      summary.shown = written.shown
      summary.groupCounts = written.groupCounts
      summary.groups = written.groups
      summary.outputClosed = written.outputClosed
      if !plan.group.isEmpty && !plan.aggregates.isEmpty { summary.groups = written.shown }
      return try present(plan, summary, presentation, records: records, fastFilterChips: [])
    } catch {
      return console.report(error)
    }
  }

  /// The bar's counts from the engine's `total,matched` row.
  private func counts(_ path: String) throws(Problem) -> RunSummary {
    let bytes = try EngineClient.contents(path)
    let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n")
    let numbers = lines.count == 2 ? lines[1].split(separator: ",").compactMap { Int($0) } : []
    guard numbers.count == 2 else {
      throw .usage(UsageError("duckdb returned no counts", hint: "check the duckdb client"))
    }
    var summary = RunSummary()
    summary.total = numbers[0]
    summary.matched = numbers[1]
    return summary
  }

  /// `-c`: the engine's count, or its `value,count` rows with `group:` (`value1,value2,count`
  /// with `group:a,b`).
  private func countsOnly(_ dataset: Dataset, _ plan: Plan, grouped: Bool) throws(Problem) -> RunSummary {
    let collector = RowCollector()
    do throws(SiftError) { _ = try dataset.run(plan, writer: collector) } catch {
      throw Problem(error, query: options.query, view: nil)
    }
    var summary = RunSummary()
    if grouped {
      summary.groupCounts = collector.rows.map { (Array($0.dropLast()), Int($0.last ?? "") ?? 0) }
      summary.shown = summary.groupCounts.reduce(0) { $0 + $1.count }
      summary.groups = summary.groupCounts.count
    } else {
      summary.shown = collector.rows.first.flatMap { Int($0[0]) } ?? 0
    }
    return summary
  }
}

/// Keeps the rows of a result as text.
private final class RowCollector: RecordWriter {
  var rows: [[String]] = []
  func begin(columns: [String]) throws(OutputError) {}
  func beginGroup(_ heading: GroupHeading) throws(OutputError) {}
  func write(_ row: RowView, columns: [OutputColumn], verbatim: Bool) throws(OutputError) {
    rows.append(columns.map { String(decoding: $0.value(row).decodedBytes(), as: UTF8.self) })
  }
  func end() throws(OutputError) {}
}

/// The `duckdb` command-line client: `$SIFT_DUCKDB`, else `duckdb` on `PATH`.
struct EngineClient {
  let context: ProcessContext

  /// Runs `setup`, then each query with its CSV result in a file of its own; returns the files.
  /// A client that cannot start, or that fails, is an error with its message.
  func run(setup: [String], queries: [String]) throws(Problem) -> [String] {
    let program = context.environment["SIFT_DUCKDB"].flatMap { $0.isEmpty ? nil : $0 } ?? "duckdb"
    var template = Array(((context.environment["TMPDIR"] ?? "/tmp") + "/sift-engine-XXXXXX").utf8CString)
    guard let dir = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
      throw .usage(UsageError("cannot make a temporary folder for the engine's results"))
    }
    let folder = String(cString: dir)
    let files = queries.indices.map { "\(folder)/result\($0).csv" }
    let messages = "\(folder)/messages.txt"
    var arguments = [program, "-csv", "-nullvalue", "", "-bail"]
    for statement in setup { arguments += ["-c", statement] }
    for (file, query) in zip(files, queries) { arguments += ["-c", ".once \(file)", "-c", query] }
    let status = spawn(arguments, output: messages)
    let said = (try? EngineClient.contents(messages)).map { String(decoding: $0, as: UTF8.self) } ?? ""
    defer {
      unlink(messages)
      rmdir(folder)
    }
    guard let status else {
      let reason = String(cString: strerror(errno))
      for f in files { unlink(f) }
      throw .usage(UsageError(
        "cannot run the engine '\(program)': \(reason)",
        hint: "install DuckDB (https://duckdb.org) or set SIFT_DUCKDB to its client"))
    }
    guard status == 0 else {
      for f in files { unlink(f) }
      throw .usage(UsageError(
        "duckdb failed (exit \(status)): "
          + said.split(separator: "\n").prefix(6).joined(separator: "\n  "),
        hint: "sift --sql duckdb shows the statement"))
    }
    return files
  }

  /// Runs `arguments` with standard output and error into the file `output`; the exit status,
  /// or `nil` when it cannot start.
  private func spawn(_ arguments: [String], output: String) -> Int32? {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    posix_spawn_file_actions_adddup2(&actions, 1, 2)
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    let variables = context.environment.map { "\($0.key)=\($0.value)" }
    var pid = pid_t()
    let started = withCStrings(arguments) { argv in
      withCStrings(variables) { envp in posix_spawnp(&pid, arguments[0], &actions, nil, argv, envp) }
    }
    guard started == 0 else {
      errno = started
      return nil
    }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    return (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
  }

  /// The rows of a CSV result file (its header row left out), removed once read.
  func rows(_ path: String) throws(Problem) -> [[String]] {
    defer { unlink(path) }
    let collector = RowCollector()
    do throws(InputError) {
      let reader = try ReaderFactory.makeReader(
        source: try ByteSource(path: path), format: .csv, options: ReaderOptions(name: "duckdb")
      ).reader
      let dataset = Dataset(inputs: [DatasetInput(reader: reader)], parallel: ParallelOptions(workers: 1))
      let plan = try? dataset.plan(Query(), now: 0)
      if let plan { _ = try? dataset.run(plan, writer: collector) }
    } catch {
      throw .input(error, hint: nil)
    }
    return collector.rows
  }

  /// The bytes of a file.
  static func contents(_ path: String) throws(Problem) -> [UInt8] {
    do throws(InputError) {
      let source = try ByteSource(path: path)
      var bytes: [UInt8] = []
      while try source.read(into: &bytes, maxCount: 1 << 16) > 0 {}
      return bytes
    } catch {
      throw .input(error, hint: nil)
    }
  }
}
