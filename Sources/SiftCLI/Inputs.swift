import SiftCore

/// The opened inputs of a run: one reader per FILE (standard input for `-` or no FILE).
struct Inputs {
  var readers: [RecordReader]
  var formats: [InputFormat]
  /// For each JSON or NDJSON file, how to read it again for all its keys (Docs/Formats.md,
  /// Several inputs); `nil` for standard input and CSV/TSV.
  var keyScans: [KeyScan?] = []

  /// Opens every input, or reports the first that cannot be opened and returns `nil`.
  static func open(_ request: Options, context: ProcessContext) -> Inputs? {
    let console = Console(context: context)
    if request.files.isEmpty && context.stdinIsTerminal {
      console.error("sift: no input: give a FILE, or pipe records into standard input\n  try 'sift --help'\n")
      return nil
    }
    var inputs = Inputs(readers: [], formats: [])
    for file in request.files.isEmpty ? ["-"] : request.files {
      let name = file == "-" ? "stdin" : file
      do throws(InputError) {
        let source = file == "-" ? context.stdin : try ByteSource(path: file)
        let options = ReaderOptions(
          name: name, delimiter: request.delimiter, noHeader: request.noHeader,
          skipBad: request.skipBad)
        let opened = try ReaderFactory.makeReader(
          source: source, format: request.format, options: options, encoding: request.encoding)
        for note in opened.notes { console.error(note + "\n") }
        opened.reader.onSkip = { console.error("sift: \($0) (skipped)\n") }
        inputs.readers.append(opened.reader)
        inputs.formats.append(opened.format)
        let keyed = file != "-" && (opened.format == .json || opened.format == .ndjson)
        inputs.keyScans.append(keyed ? { [encoding = request.encoding] in
          do throws(InputError) {
            let again = try ReaderFactory.makeReader(
              source: try ByteSource(path: file), format: opened.format, options: options,
              encoding: encoding)
            return again.reader.drainForFieldNames()
          } catch {
            return []
          }
        } : nil)
      } catch {
        console.error("sift: \(error)\n")
        if error.line == 0, file.contains(":") { console.error(hint(request, file: file)) }
        return nil
      }
    }
    return inputs
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
