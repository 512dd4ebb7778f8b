import SiftCore

/// A run of the job's query over its records, in the steps the modes that run one share
/// (Docs/Architecture.md, The front): open the inputs and plan the query over them, make the
/// writer, and run; the frontend presents what the run made (`Frontend.present`).
struct RecordRun: ModeSteps {
  let job: Job
  let frontend: Frontend

  /// The job's inputs opened, the output format chosen, and the query planned over them.
  struct Opened {
    var inputs: Inputs
    var format: OutputFormat
    var dataset: Dataset
    var plan: Plan
  }

  /// Opens the inputs and plans the query over their dataset, its notes reported.
  func open() throws(Problem) -> Opened {
    let inputs = try frontend.open(options)
    let format = outputFormat(inputs.formats)
    let dataset = inputs.dataset(
      parallel: frontend.parallel(options), allKeys: job.writesEveryKeyAsAColumn(format))
    let plan = try makePlan(on: dataset, now: now)
    return Opened(inputs: inputs, format: format, dataset: dataset, plan: plan)
  }

  /// The bar's note when a text term with accents matched nothing in inputs holding bytes that
  /// are not UTF-8, read as they are (Docs/FeedbackBar.md, Notes); `nil` otherwise or with `-q`.
  func bytesNotUTF8Note(_ plan: Plan, _ summary: RunSummary, _ inputs: Inputs) -> String? {
    let names = inputs.namesHoldingBytesNotUTF8
    guard !options.quiet, summary.matched == 0, !names.isEmpty, plan.hasTextTermBeyondASCII
    else { return nil }
    return "note: \(names.joined(separator: ", ")) \(names.count == 1 ? "holds" : "hold") bytes"
      + " that are not UTF-8, read as they are, which a term with accents does not match;"
      + " try --encoding windows-1252 or --encoding latin-1"
  }

  /// The plan of the query over `dataset`, its notes reported.
  private func makePlan(on dataset: Dataset, now: WallTime) throws(Problem) -> Plan {
    let plan = try frontend.plan(
      query, over: dataset, now: now, for: job.intent, text: options.query, view: view)
    for note in query.notes + plan.notes { console.note(note + "\n") }
    for note in dataset.dateNotes(for: plan) { console.note(note + "\n") }
    return plan
  }

  /// The chips of the view's fast filters that `plan` does not apply, a term's fields typed by
  /// `dataset` where one is given.
  func inactiveChips(
    _ plan: Plan, ascii: Bool, over dataset: Dataset? = nil
  ) throws(Problem) -> [Chip] {
    guard let view else { return [] }
    do throws(FastFilterError) {
      return try view.inactiveChips(plan, ascii: ascii, over: dataset)
    } catch {
      throw .fastFilter(error, view: view)
    }
  }

  /// The writer of the records, `nil` with `-c`.
  func makeWriter(
    _ plan: Plan, _ inputs: Inputs, _ presentation: Presentation, _ records: Frontend.RecordOutput,
    changes: Bool = false
  ) -> RecordWriter? {
    if options.count { return nil }
    let format = presentation.format
    let numeric = plan.outputTypes.map { $0 == .number }
    // `--changes` writes a `change` column before the fields and a `was` column after them.
    let text = ColumnReading(type: .text)
    let readings = changes ? [text] + plan.outputReadings + [text] : plan.outputReadings
    let main = SiftCore.makeWriter(
      WriterOptions(
        format: format, delimiter: outputDelimiter(format, inputs),
        numericColumns: changes ? [false] + numeric + [false] : numeric,
        maxWidth: presentation.tableOnTerminal ? presentation.width : nil,
        ascii: !presentation.unicode, textStyle: delimitedStyle(format, inputs),
        header: !options.noHeader, endsWithTotal: plan.endsWithTotal,
        columnReadings: readings, sheetName: workbookSheetName(files: options.files, view: view),
        labels: view?.labels(in: plan.schema) ?? Labels()),
      output: records.buffer)
    guard let mail = presentation.mail else { return main }
    // `-o eml`: the plain-text table and the attachment are written in the same run.
    var others: [RecordWriter] = [
      TableWriter(
        output: OutputBuffer(sink: mail.text),
        numericColumns: changes ? [false] + numeric + [false] : numeric, maxWidth: nil,
        ascii: false)
    ]
    if let attachment = mail.attachment {
      others.append(
        SiftCore.makeWriter(
          WriterOptions(
            format: attachment.format.outputFormat,
            numericColumns: changes ? [false] + numeric + [false] : numeric,
            columnReadings: readings, sheetName: workbookSheetName(files: options.files, view: view)),
          output: OutputBuffer(sink: attachment.sink)))
    }
    return FanOutWriter(main, others)
  }


  /// Runs `plan` over `dataset`. After an input error, or a key `--changes` finds twice, the
  /// records before it are written (Docs/Formats.md, Errors; Docs/Reports.md, Changes since the
  /// last run).
  func execute(
    _ plan: Plan, on dataset: Dataset, writer: RecordWriter?, records: Frontend.RecordOutput
  ) throws(Problem) -> RunSummary {
    do throws(Problem) {
      return try frontend.run(plan, over: dataset, writer: writer, text: options.query, view: view)
    } catch {
      // A record that stops the run (a malformed one, or a key `--changes` finds twice) leaves
      // the records before it written, the writer ended as far as it needs (`endStopped`).
      var stoppedByRecord = (writer as? ChangeTracker)?.failure != nil
      if case .input = error { stoppedByRecord = true }
      if stoppedByRecord {
        writer?.endStopped()
        try? records.buffer.flush()
        if let body = records.body {
          _ = body.bytes.withUnsafeBufferPointer { try? frontend.standardOutput.write($0) }
        }
      }
      throw error
    }
  }

  /// The output format (Docs/Formats.md, Output): `-o`, else a table on a terminal, else the input's format
  /// (mixed inputs: NDJSON).
  func outputFormat(_ formats: [InputFormat]) -> OutputFormat {
    if let o = options.output { return o }
    if frontend.stdoutIsTerminal { return .table }
    let distinct = Set(formats)
    guard distinct.count == 1, let only = distinct.first else { return .ndjson }
    switch only {
    case .csv: return .csv
    case .tsv: return .tsv
    case .json: return .json
    case .ndjson: return .ndjson
    }
  }

  /// CSV/TSV in, CSV/TSV out keeps the first input's byte order mark and line end (Docs/Formats.md,
  /// Output); any other output, or input, is written plainly.
  private func delimitedStyle(_ format: OutputFormat, _ inputs: Inputs) -> TextConventions {
    guard format == .csv || format == .tsv, let first = inputs.first,
      inputs.formats.first == .csv || inputs.formats.first == .tsv
    else { return .plain }
    return first.textStyle
  }

  /// `-d`, else CSV in, CSV out keeps the first input's delimiter, given or sniffed (`;`);
  /// else `,` (Docs/Formats.md, CSV).
  private func outputDelimiter(_ format: OutputFormat, _ inputs: Inputs) -> UInt8 {
    if format == .tsv { return UInt8(ascii: "\t") }
    if let given = options.delimiter { return given }
    guard format == .csv, inputs.formats.first == .csv, let first = inputs.first else {
      return UInt8(ascii: ",")
    }
    return first.textStyle.delimiter
  }
}

/// A workbook's sheet name (Docs/Formats.md, Writing workbooks): the view's name, else the first
/// file's name without its extension, else `stdin`.
func workbookSheetName(files: [String], view: ViewContext?) -> String {
  if let view { return view.view.name }
  guard let file = files.first, file != "-" else { return "stdin" }
  let name = file.split(separator: "/").last.map(String.init) ?? file
  guard let dot = name.firstIndex(of: "."), dot != name.startIndex else { return name }
  return String(name[..<dot])
}
