/// A reader chosen for one input, and the format it reads.
public struct OpenedInput {
  public let reader: any RecordReader
  public let format: InputFormat
  /// Notes for standard error (`note: reading grn.csv with ';' as the delimiter; …`).
  public var notes: [String] = []
}

/// Chooses and makes the reader for an input (Docs/Formats.md, Choosing the format).
public enum ReaderFactory {
  /// The format named by a path's extension (`.csv .tsv .tab .json .ndjson .jsonl`, any case).
  public static func format(forPath path: String) -> InputFormat? {
    var path = path
    if path.lowercased().hasSuffix(".gz") { path.removeLast(3) }
    guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
    switch path[path.index(after: dot)...].lowercased() {
    case "csv": return .csv
    case "tsv", "tab": return .tsv
    case "json": return .json
    case "ndjson", "jsonl": return .ndjson
    default: return nil
    }
  }

  /// A reader of `source` in `format`; without one, the format of the source's name's extension,
  /// else the one sniffed from its first bytes (which the reader still reads: nothing is lost on
  /// standard input).
  public static func makeReader(
    source: ByteSource, format: InputFormat?, options: ReaderOptions,
    encoding: TextEncoding = .utf8
  ) throws(InputError) -> OpenedInput {
    var source = source
    var options = options
    var notes: [String] = []
    let magic = try source.peek(8)
    if magic.count >= 2 && magic[0] == 0x1F && magic[1] == 0x8B {
      let stream = Inflater(inner: source, initial: [])
      source = ByteSource(stage: stream, name: source.name)
      source.decompresses = true
    }
    if encoding != .utf8 {
      let decompresses = source.decompresses
      source = ByteSource(stage: Transcoder(inner: source, encoding: encoding), name: source.name)
      source.decompresses = decompresses
    }
    let head = try source.peek(FormatSniffer.sampleSize)
    if let kind = FormatSniffer.binaryKind(head) {
      throw InputError(
        name: options.name, line: 0, column: 0,
        message: "this looks like \(kind), not CSV/TSV/JSON; export it as CSV first")
    }
    if let delimiter = options.delimiter,
      delimiter == .quote || delimiter == .lineFeed || delimiter == .carriageReturn
    {
      throw InputError(
        name: options.name, line: 0, column: 0,
        message: "the delimiter cannot be a quote or a line end")
    }
    var prefix: [UInt8] = []
    var chosen = format ?? Self.format(forPath: source.name)
    if chosen == nil {
      var atEnd = false
      var limit = FormatSniffer.sampleSize
      while !atEnd && prefix.count < limit {
        let wanted = min(limit - prefix.count, FormatSniffer.sampleSize)
        atEnd = try source.read(into: &prefix, maxCount: wanted) == 0
        if prefix.count == limit && limit < FormatSniffer.longestObjectLine
          && FormatSniffer.endsInsideFirstObjectLine(prefix)
        {
          limit = min(2 * limit, FormatSniffer.longestObjectLine)
        }
      }
      chosen = FormatSniffer.sniff(prefix, complete: atEnd)
    }
    let resolved = chosen ?? .csv
    if resolved == .csv, options.delimiter == nil, let d = FormatSniffer.delimiter(head) {
      options.delimiter = d
      notes.append(
        "note: reading \(options.name) with '\(Character(Unicode.Scalar(d)))' as the delimiter;"
          + " use -d to choose")
    }
    let reader: any RecordReader
    switch resolved {
    case .csv, .tsv:
      reader = CSVReader(source: source, options: options, format: resolved, prefix: prefix)
    case .json: reader = JSONReader(source: source, options: options, prefix: prefix)
    case .ndjson: reader = NDJSONReader(source: source, options: options, prefix: prefix)
    }
    return OpenedInput(reader: reader, format: resolved, notes: notes)
  }
}
