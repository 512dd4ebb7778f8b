/// A reader chosen for one input, and the format it reads.
public struct OpenedInput {
  public let reader: any RecordReader
  public let format: InputFormat
}

/// Chooses and makes the reader for an input (SPEC §1 `--format`, §3.5).
public enum ReaderFactory {
  /// The format named by a path's extension (`.csv .tsv .tab .json .ndjson .jsonl`, any case).
  public static func format(forPath path: String) -> InputFormat? {
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
    source: ByteSource, format: InputFormat?, options: ReaderOptions
  ) throws(InputError) -> OpenedInput {
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
      while !atEnd && prefix.count < FormatSniffer.sampleSize {
        let wanted = FormatSniffer.sampleSize - prefix.count
        atEnd = try source.read(into: &prefix, maxCount: wanted) == 0
      }
      chosen = FormatSniffer.sniff(prefix, complete: atEnd)
    }
    let resolved = chosen ?? .csv
    let reader: any RecordReader
    switch resolved {
    case .csv, .tsv:
      reader = CSVReader(source: source, options: options, format: resolved, prefix: prefix)
    case .json: reader = JSONReader(source: source, options: options, prefix: prefix)
    case .ndjson: reader = NDJSONReader(source: source, options: options, prefix: prefix)
    }
    return OpenedInput(reader: reader, format: resolved)
  }
}
