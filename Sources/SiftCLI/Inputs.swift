import SiftCore

/// The opened inputs of a query: one per FILE (standard input for `-` or no FILE), each with
/// how to open it again for a later run (Docs/Architecture.md, The dataset).
struct Inputs {
  var opened: [DatasetInput] = []
  var formats: [InputFormat] = []

  /// The first input's reader, whose style CSV output keeps.
  var first: RecordReader? { opened.first?.reader }

  /// Opens every input, or throws for the first that cannot be opened. A stream (standard input,
  /// or a FILE that is not a regular file: a named pipe, a process substitution, a device) is
  /// read once (Docs/Formats.md, Pipes and devices): it can be read again only with
  /// `keepStreams`, and then it is read whole into memory first.
  static func open(
    _ request: Options, context: ProcessContext, keepStreams: Bool = false
  ) throws(Problem) -> Inputs {
    let console = Console(context: context)
    if request.files.isEmpty && context.stdinIsTerminal { throw .noInput }
    var inputs = Inputs()
    for file in request.files.isEmpty ? ["-"] : request.files {
      let name = file == "-" ? "stdin" : file
      let options = ReaderOptions(
        name: name, delimiter: request.delimiter, noHeader: request.noHeader,
        skipBad: request.skipBad)
      func reader(_ source: ByteSource, _ format: InputFormat?) throws(InputError) -> OpenedInput {
        try ReaderFactory.makeReader(
          source: source, format: format, options: options, encoding: request.encoding)
      }
      // A reader for a run reports the records it skips.
      func reporting(_ reader: RecordReader) -> RecordReader {
        reader.onSkip = { console.error("sift: \($0) (skipped)\n") }
        return reader
      }
      do throws(InputError) {
        let stream = file == "-" ? context.stdin : try ByteSource(path: file)
        // Only a regular file has a size; opening its path again reads it from the start.
        let regularFile = file != "-" && stream.knownSize != nil
        let source: () throws(InputError) -> ByteSource
        if regularFile {
          source = { () throws(InputError) in try ByteSource(path: file) }
        } else if keepStreams {
          let kept = try readWhole(stream)
          source = { ByteSource(bytes: kept, name: name) }
        } else {
          source = { stream }
        }
        let opened = try reader(regularFile ? stream : try source(), request.format)
        for note in opened.notes { console.error(note + "\n") }
        let again = { () throws(InputError) in try reader(try source(), opened.format).reader }
        let canOpenAgain = regularFile || keepStreams
        let keyed = canOpenAgain && (opened.format == .json || opened.format == .ndjson)
        inputs.opened.append(
          DatasetInput(
            reader: reporting(opened.reader),
            reopen: canOpenAgain ? { () throws(InputError) in reporting(try again()) } : nil,
            keyScan: keyed ? { (try? again())?.drainForFieldNames() ?? [] } : nil))
        inputs.formats.append(opened.format)
      } catch {
        throw .input(error, hint: error.line == 0 && file.contains(":") ? hint(request, file: file) : nil)
      }
    }
    return inputs
  }

  /// Opens the inputs' dataset: the sample is read (Docs/Architecture.md, The dataset).
  func dataset(parallel: ParallelOptions, allKeys: Bool = false) -> Dataset {
    Dataset(inputs: opened, parallel: parallel, allKeys: allKeys)
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
