import SiftCore

/// The opened inputs of a query: one per FILE (standard input for `-` or no FILE), each with
/// how to open it again for a later run (Docs/Architecture.md, The dataset).
struct Inputs {
  var opened: [DatasetInput] = []
  var formats: [InputFormat] = []
  /// Each workbook input's sheets (Docs/Formats.md, Workbooks): its name and the sheets' names.
  var sheets: [(input: String, sheets: [(name: String, hidden: Bool, read: Bool)])] = []
  /// What was given or sniffed for each input: its options, encoding and notes.
  var decisions: [OpenedInput] = []

  /// The inputs read as UTF-8 whose sample holds bytes that are not (Docs/FeedbackBar.md, Notes).
  var namesHoldingBytesNotUTF8: [String] {
    decisions.filter(\.holdsBytesNotUTF8).map(\.options.name)
  }
  /// `--dates` and `--tz` (Docs/Formats.md, Dates).
  var dates = DateSettings()

  /// The first input's reader, whose style CSV output keeps.
  var first: RecordReader? { opened.first?.reader }

  /// The zone dates are read in: `--tz`'s, else `environment`'s (`$TZ`).
  static func zone(_ request: Options, environment: [String: String]) throws(Problem) -> ZoneRules {
    guard let name = request.zone else { return Clock.zone(environment: environment) }
    guard let named = Clock.zone(named: name, environment: environment) else {
      throw .usage(UsageError(
        "option '--tz' needs a zone name (Europe/Berlin), UTC or an offset like +01:00, not '\(name)'",
        hint: "the zone names are the files under /usr/share/zoneinfo (TZDIR)"))
    }
    return named
  }

  /// Opens every input, or throws for the first that cannot be opened. A stream (standard input,
  /// or a FILE that is not a regular file: a named pipe, a process substitution, a device) is
  /// read once (Docs/Formats.md, Pipes and devices): it can be read again only with
  /// `keepStreams`, and then it is read whole into memory first, unless `standardInput` holds
  /// its bytes already (the screen reads them on a thread of its own, Docs/Interactive.md, Piped
  /// standard input): they are kept as they are, not copied. `stdin` is the process's standard
  /// input, `environment` its environment (for `$TZ`); notes and skipped records go to `console`.
  static func open(
    _ request: Options, stdin: ByteSource, stdinIsTerminal: Bool, environment: [String: String],
    console: Console, keepStreams: Bool = false, standardInput: [UInt8]? = nil
  ) throws(Problem) -> Inputs {
    if request.files.isEmpty && stdinIsTerminal { throw .noInput }
    var inputs = Inputs()
    inputs.dates = DateSettings(order: request.dates, zone: try zone(request, environment: environment))
    for file in request.files.isEmpty ? ["-"] : request.files {
      let name = file == "-" ? "stdin" : file
      // `--sheet '*'`: every visible sheet of a workbook, each an input with a `sheet` field
      // (Docs/Formats.md, Workbooks).
      let allSheets = request.sheet == "*"
      var options = ReaderOptions(
        name: name, delimiter: request.delimiter, noHeader: request.noHeader,
        skipBad: request.skipBad, quoting: request.quoting, decimalMark: request.decimalMark,
        onNote: NoteSink { console.note($0 + "\n") })
      options.sheetColumn = allSheets
      func reader(
        _ source: ByteSource, _ format: InputFormat?, _ options: ReaderOptions,
        _ encoding: TextEncoding?
      ) throws(InputError) -> OpenedInput {
        try ReaderFactory.makeReader(
          source: source, format: format, options: options, encoding: encoding)
      }
      // A reader for a run reports the records it skips.
      func reporting(_ reader: RecordReader) -> RecordReader {
        reader.onSkip = { console.error("sift: \($0) (skipped)\n") }
        return reader
      }
      do throws(InputError) {
        let stream = file == "-" ? stdin : try ByteSource(path: file)
        // Only a regular file has a size; opening its path again reads it from the start.
        let regularFile = file != "-" && stream.knownSize != nil
        let source: () throws(InputError) -> ByteSource
        if regularFile {
          source = { () throws(InputError) in try ByteSource(path: file) }
        } else if keepStreams || allSheets {
          let kept: [UInt8]
          if file == "-", let given = standardInput { kept = given } else { kept = try readWhole(stream) }
          source = { ByteSource(bytes: kept, name: name) }
        } else {
          source = { stream }
        }
        let canOpenAgain = regularFile || keepStreams || allSheets
        func add(_ sniffed: OpenedInput) {
          var opened = sniffed
          // Notes on what was sniffed (Docs/Formats.md, Choosing the format); `-q` silences them.
          for note in opened.notes { console.note(note + "\n") }
          // Opened again, the input is read as first decided: nothing is sniffed twice.
          // (The closures keep the decisions, not the sniffed reader and its descriptor.)
          let (format, decided, encoding) = (opened.format, opened.options, opened.encoding)
          let again = { () throws(InputError) in
            try reader(try source(), format, decided, encoding).reader
          }
          // A regular file (not a workbook) holds no descriptor or buffer until its turn
          // (Docs/Performance.md, Bounds): its sniffed reader is let go here.
          let deferred = regularFile && opened.sheets.isEmpty
          let (fieldEncoding, mark) = (opened.reader.encoding, opened.reader.decimalMark)
          let deferredReader = { () -> RecordReader in
            DeferredReader(encoding: fieldEncoding, decimalMark: mark, open: again)
          }
          if deferred { opened.reader = deferredReader() }
          let keyed = canOpenAgain && (opened.format == .json || opened.format == .ndjson)
          inputs.opened.append(
            DatasetInput(
              reader: reporting(opened.reader),
              reopen: deferred
                ? { reporting(deferredReader()) }
                : canOpenAgain ? { () throws(InputError) in reporting(try again()) } : nil,
              keyScan: keyed ? { (try? again())?.drainForFieldNames() ?? [] } : nil))
          inputs.formats.append(opened.format)
          inputs.decisions.append(opened)
        }
        var firstOptions = options
        firstOptions.sheet = allSheets ? nil : request.sheet
        let opened = try reader(
          regularFile ? stream : try source(), request.format, firstOptions, request.encoding)
        if !opened.sheets.isEmpty {
          inputs.sheets.append(
            (name, allSheets ? opened.sheets.map { ($0.name, $0.hidden, !$0.hidden) } : opened.sheets))
        }
        if allSheets && !opened.sheets.isEmpty {
          // The first visible sheet is open; the other visible ones follow, by number.
          let visible = opened.sheets.indices.filter { !opened.sheets[$0].hidden }
          for (k, index) in visible.enumerated() {
            var each = options
            each.sheet = String(index + 1)
            add(k == 0 ? opened : try reader(try source(), opened.format, each, opened.encoding))
          }
        } else {
          add(opened)
        }
      } catch {
        throw .input(error, hint: error.line == 0 && file.contains(":") ? hint(request, file: file) : nil)
      }
    }
    return inputs
  }

  /// Opens the inputs' dataset: the sample is read (Docs/Architecture.md, The dataset).
  func dataset(parallel: ParallelOptions, allKeys: Bool = false) -> Dataset {
    let dataset = Dataset(inputs: opened, parallel: parallel, allKeys: allKeys)
    var settings = dates
    // A decimal-comma file's ambiguous dates are day-first (Docs/Formats.md, Dates).
    settings.decimalComma = dataset.decimalMark == .comma
    dataset.dateSettings = settings
    return dataset
  }

  private static func readWhole(_ source: ByteSource) throws(InputError) -> [UInt8] {
    var bytes: [UInt8] = []
    while try source.read(into: &bytes, maxCount: 1 << 16) > 0 {}
    return bytes
  }

  /// Docs/Formats.md, Input: a FILE that does not exist but looks like a query term was probably meant to be part
  /// of the query.
  private static func hint(_ request: Options, file: String) -> String {
    let terms = [request.query] + request.files.filter { $0.contains(":") }
    let files = request.files.filter { !$0.contains(":") }
    let quoted = "'" + terms.filter { !$0.isEmpty }.joined(separator: " ").replacing("'", with: "'\\''") + "'"
    return "  did you mean to quote the whole query? sift \(([quoted] + files).joined(separator: " "))\n"
  }
}
