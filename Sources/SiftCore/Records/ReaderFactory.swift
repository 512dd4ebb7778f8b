/// A reader chosen for one input, and the format it reads.
public struct OpenedInput {
  public var reader: any RecordReader
  public let format: InputFormat
  /// Notes for standard error (`note: reading grn.csv with ';' as the delimiter; …`).
  public var notes: [String] = []
  /// The options the reader was made with, the sniffed delimiter and quoting included: opening
  /// the input again with them (and `encoding`) decides nothing twice.
  public var options: ReaderOptions
  /// The encoding the input is read in, given or sniffed (Docs/Formats.md, Encodings).
  public var encoding: TextEncoding
  /// True when the input is read as UTF-8 and its sample holds bytes that are not UTF-8 (read as
  /// they are): a text term with accents may miss them (Docs/FeedbackBar.md, Notes).
  public var holdsBytesNotUTF8 = false
  /// For a workbook, its sheets: each name, whether it is hidden, and whether it is the one read.
  public var sheets: [(name: String, hidden: Bool, read: Bool)] = []
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
  /// standard input). `encoding` `nil` sniffs it from those bytes too.
  public static func makeReader(
    source: ByteSource, format: InputFormat?, options: ReaderOptions,
    encoding: TextEncoding? = .utf8
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
    var chosenFormat = format
    var sheets: [(name: String, hidden: Bool, read: Bool)] = []
    if let compression = Self.unreadCompression(magic: magic, name: source.name) {
      throw InputError(
        name: options.name, line: 0, column: 0,
        message:
          "this is \(compression.name) data, which sift does not decompress; decompress it first:"
          + " \(compression.tool) -dc \(options.name) | sift …")
    }
    if magic.starts(with: [0x50, 0x4B, 0x03, 0x04]) || magic.starts(with: [0x50, 0x4B, 0x05, 0x06]),
      !source.decompresses
    {
      let archive = try ZipArchive(source: source)
      if Workbook.isWorkbook(archive) {
        let workbook = try Workbook(archive: archive)
        let sheet = try Self.sheet(of: workbook, named: options.sheet, input: options.name)
        let stream = try SheetStream(
          workbook: workbook, sheet: sheet, noHeader: options.noHeader,
          sheetColumn: options.sheetColumn, onNote: options.onNote)
        stream.findHeader()
        sheets = workbook.sheets.map { ($0.name, $0.hidden, $0.part == sheet.part && $0.name == sheet.name) }
        if workbook.sheets.count > 1 && options.sheet == nil && !options.sheetColumn {
          notes.append(
            "note: reading sheet \(sheet.name) of \(options.name), which has \(workbook.sheets.count);"
              + " use --sheet to choose")
        }
        notes += stream.notes
        source = ByteSource(stage: stream, name: source.name)
        source.keepAlive = workbook
        chosenFormat = .csv
        options.delimiter = .comma
      } else {
        let files = archive.files
        guard files.count == 1, let entry = files.first else {
          throw InputError(
            name: options.name, line: 0, column: 0,
            message: files.isEmpty
              ? "this ZIP archive holds no file"
              : "this ZIP archive holds \(files.count) files; sift reads a ZIP that holds one:"
                + " " + files.prefix(10).map(\.name).joined(separator: ", ")
                + (files.count > 10 ? " and \(files.count - 10) more" : ""))
        }
        source = try archive.open(entry)
        if try source.peek(2) == [0x1F, 0x8B] {
          // A gzipped file inside the ZIP (`grn.csv.gz` in `grn.zip`).
          source = ByteSource(stage: Inflater(inner: source, initial: []), name: source.name)
          source.decompresses = true
        }
        chosenFormat = format ?? Self.format(forPath: entry.name)
      }
    } else if format == nil, Self.isWorkbookName(source.name) {
      throw InputError(
        name: options.name, line: 0, column: 0,
        message: "this is named as an Excel workbook but is not one (it is not a ZIP archive)")
    }
    // A workbook's text is UTF-8 XML whatever `--encoding` says, and its sheet's CSV is not
    // sniffed (so an error in its first rows comes after them) (Docs/Formats.md, Workbooks).
    let sample = sheets.isEmpty ? try source.peek(FormatSniffer.sampleSize) : []
    let sniffed = EncodingSniffer.decide(sample, complete: sample.count < FormatSniffer.sampleSize)
    let chosenEncoding = sheets.isEmpty ? encoding ?? sniffed.encoding : .utf8
    if encoding == nil, sheets.isEmpty,
      let note = encodingNote(sniffed, sample: sample, name: options.name)
    {
      notes.append(note)
    }
    let decompresses = source.decompresses
    switch chosenEncoding {
    case .utf8: break
    case .latin1, .windows1252:
      source = ByteSource(stage: Transcoder(inner: source, encoding: chosenEncoding), name: source.name)
    case .utf16LittleEndian, .utf16BigEndian:
      let stage = UTF16Transcoder(inner: source, bigEndian: chosenEncoding == .utf16BigEndian)
      source = ByteSource(stage: stage, name: source.name)
    }
    source.decompresses = decompresses
    let head = sheets.isEmpty ? try source.peek(FormatSniffer.sampleSize) : []
    // Binary magic is looked for in the bytes as stored; UTF-16 text only once decoded.
    let transcodedUTF16 = chosenEncoding == .utf16LittleEndian || chosenEncoding == .utf16BigEndian
    if !transcodedUTF16, sample.starts(with: [0xFF, 0xFE]) || sample.starts(with: [0xFE, 0xFF]) {
      throw InputError(
        name: options.name, line: 0, column: 0,
        message: "this is UTF-16 text (it starts with a byte order mark), not \(chosenEncoding.name);"
          + " leave --encoding out to read it")
    }
    if let kind = FormatSniffer.binaryKind(transcodedUTF16 ? head : sample) {
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
    var chosen = chosenFormat ?? Self.format(forPath: source.name)
    if chosen == nil {
      var atEnd = false
      var limit = FormatSniffer.sampleSize
      while !atEnd && prefix.count < limit {
        let wanted = min(limit - prefix.count, FormatSniffer.sampleSize)
        atEnd = try source.read(into: &prefix, maxCount: wanted) == 0
        // A stream waiting for its writer is sniffed from its lines so far.
        if !atEnd, FormatSniffer.enoughFromStream(prefix), source.wouldWait() { break }
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
    if resolved == .tsv, options.quoting == nil,
      FormatSniffer.quotesFields(head, complete: head.count < FormatSniffer.sampleSize)
    {
      options.quoting = true
      notes.append(
        "note: reading \(options.name) with \"-quoted fields, as CSV quotes them;"
          + " use --quote none to read quotes as text")
    }
    if resolved == .csv || resolved == .tsv, options.decimalMark == nil {
      let delimiter = resolved == .tsv ? UInt8.tab : (options.delimiter ?? .comma)
      let decision = DecimalMarkSniffer.decide(head, delimiter: delimiter, header: !options.noHeader)
      options.decimalMark = decision.mark
      if let note = decision.note(name: options.name) { notes.append(note) }
    }
    let reader: any RecordReader
    switch resolved {
    case .csv, .tsv:
      reader = CSVReader(source: source, options: options, format: resolved, prefix: prefix)
    case .json: reader = JSONReader(source: source, options: options, prefix: prefix)
    case .ndjson: reader = NDJSONReader(source: source, options: options, prefix: prefix)
    }
    return OpenedInput(
      reader: reader, format: resolved, notes: notes, options: options, encoding: chosenEncoding,
      holdsBytesNotUTF8: chosenEncoding == .utf8 && sniffed.firstInvalidUTF8 != nil,
      sheets: sheets)
  }

  /// `.xlsx` or `.xlsm`, any case.
  static func isWorkbookName(_ path: String) -> Bool {
    let lower = path.lowercased()
    return lower.hasSuffix(".xlsx") || lower.hasSuffix(".xlsm")
  }

  /// The sheet `wanted` names (a name, else a 1-based number), or the first visible sheet;
  /// an unknown sheet is an error listing them all.
  static func sheet(of workbook: Workbook, named wanted: String?, input: String) throws(InputError)
    -> Workbook.Sheet
  {
    let sheets = workbook.sheets
    if let wanted {
      if let sheet = sheets.first(where: { $0.name == wanted }) { return sheet }
      if let number = Int(wanted), number >= 1, number <= sheets.count { return sheets[number - 1] }
      let names = sheets.map { $0.name + ($0.hidden ? " (hidden)" : "") }
      throw InputError(
        name: input, line: 0, column: 0,
        message: "no sheet '\(wanted)'; the sheets are: " + names.joined(separator: ", "))
    }
    return sheets.first { !$0.hidden } ?? sheets[0]
  }

  /// Compressions sift names but does not read (Docs/Formats.md, Compressed input): by magic
  /// bytes, else by extension.
  static func unreadCompression(magic: [UInt8], name: String) -> (name: String, tool: String)? {
    if magic.count == 8, magic.starts(with: Array("BZh".utf8)), magic[3].isDigit,
      magic[4...].elementsEqual([0x31, 0x41, 0x59, 0x26]) || magic[4...].elementsEqual([0x17, 0x72, 0x45, 0x38])
    {
      return ("bzip2", "bzip2")
    }
    if magic.starts(with: [0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00]) { return ("xz", "xz") }
    if magic.starts(with: [0x28, 0xB5, 0x2F, 0xFD]) { return ("zstd", "zstd") }
    let lower = name.lowercased()
    if lower.hasSuffix(".bz2") { return ("bzip2", "bzip2") }
    if lower.hasSuffix(".xz") { return ("xz", "xz") }
    if lower.hasSuffix(".zst") { return ("zstd", "zstd") }
    return nil
  }

  /// The note saying what sniffing decided about an input's encoding; `nil` for UTF-8.
  private static func encodingNote(
    _ decision: EncodingSniffer.Decision, sample: [UInt8], name: String
  ) -> String? {
    if decision.byteOrderMark {
      return "note: reading \(name) as \(decision.encoding.name) (it starts with a byte order mark)"
    }
    guard let invalid = decision.firstInvalidUTF8 else { return nil }
    let byte = String(sample[invalid], radix: 16, uppercase: true)
    let place = "line \(EncodingSniffer.line(of: invalid, in: sample)) has byte \(byte)"
    if decision.encoding == .windows1252 {
      return "note: reading \(name) as windows-1252, as it is not UTF-8 (\(place));"
        + " use --encoding to choose"
    }
    return "note: \(name) is neither UTF-8 nor windows-1252 (\(place)); its bytes are read as they"
      + " are; use --encoding to choose"
  }
}
