/// The output formats of Docs/Formats.md, Output.
public enum OutputFormat: String, Sendable, CaseIterable {
  case table, csv, tsv, json, ndjson, markdown, html, xlsx, eml

  /// Whether the format is binary, so not for a terminal (`xlsx`).
  public var isBinary: Bool {
    switch self {
    case .xlsx: return true
    case .table, .csv, .tsv, .json, .ndjson, .markdown, .html, .eml: return false
    }
  }

  /// Whether the records are laid out whole (column widths, a document around them), so that
  /// a title and the feedback bar can stand above them; the other formats stream their records
  /// as they are found (Docs/Architecture.md, Presentation).
  public var laysOutWhole: Bool {
    switch self {
    case .table, .markdown, .html, .eml: return true
    case .csv, .tsv, .json, .ndjson, .xlsx: return false
    }
  }

  /// Whether a summary per group ends with a `Total` row (`Plan.endsWithTotal`): reports for
  /// people (table, Markdown, HTML) do, data (CSV, TSV, JSON, workbooks) does not
  /// (Docs/Aggregates.md).
  public var writesTotals: Bool {
    switch self {
    case .table, .markdown, .html, .eml: return true
    case .csv, .tsv, .json, .ndjson, .xlsx: return false
    }
  }

  /// Whether each record's own keys are written (JSON), rather than one column per field, so
  /// that every key must be known before the first record (Docs/Formats.md, Several inputs).
  public var writesEachRecordsKeys: Bool {
    switch self {
    case .json, .ndjson: return true
    case .table, .csv, .tsv, .markdown, .html, .xlsx, .eml: return false
    }
  }
}

/// One output column: its header name and where its value comes from in a record.
public struct OutputColumn: Sendable {
  /// The header name (the input's field name, or the `fields:` name resolved to it).
  public var name: String
  /// How to get the value from a record of the current input.
  public var value: FieldAccessor

  public init(name: String, value: FieldAccessor) {
    self.name = name
    self.value = value
  }

  /// The column for top-level field `index`.
  public static func field(_ name: String, at index: Int) -> OutputColumn {
    OutputColumn(name: name, value: FieldAccessor(index: index))
  }
}

/// Writes records in one output format. The engine calls `begin` once, then `write` per record
/// (with `beginGroup` before each group when grouping), then `end` once.
public protocol RecordWriter: AnyObject {
  /// Starts the output with its column names (CSV writes the header even if no record follows).
  func begin(columns: [String]) throws(OutputError)
  /// Starts the output with unique column names (`a_2`, JSON keys) and the header as the input
  /// wrote it (`a`, CSV/TSV, table and Markdown headers). By default the names serve as both.
  func begin(columns: [String], headers: [[UInt8]]) throws(OutputError)
  /// A new group starts, under `heading` (table and Markdown: a heading line).
  func beginGroup(_ heading: GroupHeading) throws(OutputError)
  /// Writes one record. `columns` are the output columns for the record's input (they have the
  /// names given to `begin`, in the same order). `verbatim` is true when the record's own text
  /// stands for the output: no `fields:`, and for CSV input the columns are exactly the
  /// record's fields in their order (JSON output may then write a JSON record's text as it is,
  /// CSV output a CSV row's).
  func write(_ row: RowView, columns: [OutputColumn], verbatim: Bool) throws(OutputError)
  /// Ends the output (closing bracket, table body, flush).
  func end() throws(OutputError)
  /// Writes out the records written so far, where the format streams them (CSV, TSV, JSON,
  /// NDJSON): called when the input waits for its writer (Docs/Formats.md, Streaming input).
  /// Formats laid out whole (table, Markdown, HTML, XLSX) keep them until `end`.
  func flush() throws(OutputError)
  /// The run stopped at a record (a malformed one, a key `--changes` finds twice): writes what
  /// the records before it need to be read at all, where `flush` is not enough (a workbook's
  /// sheet and central directory; `--changes` rows held back). Nothing by default (Docs/Formats.md,
  /// Errors).
  func endStopped()
  /// Whether a summary ends with a `Total` row: reports for people (table, Markdown, HTML) do, data
  /// (CSV, TSV, JSON) does not (Docs/Aggregates.md).
  var writesTotals: Bool { get }
}

/// A writer whose records can be written on other threads: the matches of a part of the input
/// are written by a part writer into bytes of their own, which are then added to this writer's
/// output in input order (Docs/Architecture.md, Filter, order, write).
public protocol PartWritable: RecordWriter {
  /// A writer of the same records into `output` (`begin` already done), or `nil` where a
  /// record's bytes depend on the records before it, or the output goes out line by line.
  func partWriter(into output: OutputBuffer) -> RecordWriter?
  /// Adds whole records a part writer wrote to the output.
  func appendPart(_ bytes: UnsafeBufferPointer<UInt8>) throws(OutputError)
}

/// A writer that takes a batch's matching records in one call, so that it can copy a run of
/// records whose text it writes as it is in one piece (CSV pass-through: Docs/Performance.md,
/// Pass-through at the speed of a copy).
public protocol BatchWriting: RecordWriter {
  /// Writes the records `rows` of `cursor`, in order, byte for byte as `write` writes each
  /// one, and appends to `ends` where each record ends in the output (`OutputBuffer.position`).
  func write(
    rows: ArraySlice<Int32>, of cursor: RowCursor, columns: [OutputColumn], verbatim: Bool,
    ends: inout [Int]
  ) throws(OutputError)
}

/// A writer that copies whole the records of a batch read as written (`RecordBatch.asWritten`,
/// Docs/Performance.md, Pass-through without fields).
public protocol RowTextCopying: BatchWriting {
  /// The delimiter of the CSV rows this writer writes as their own text, or `nil` when it
  /// writes none that way: the engine asks its readers for rows as written with it
  /// (`RecordReader.readAsWritten`) when the run writes every record unchanged.
  var copiedDelimiter: UInt8? { get }
  /// Writes the records `rows` of `cursor`, a batch read as written with `copiedDelimiter`, each
  /// as `prefix`, its text and `suffix` (a `--changes` row of a new record: `new,` … `,`) with
  /// this writer's line end, and appends to `ends` where each ends in the output.
  func write(
    rows: ArraySlice<Int32>, of cursor: RowCursor, between prefix: UnsafeBufferPointer<UInt8>,
    and suffix: UnsafeBufferPointer<UInt8>, ends: inout [Int]
  ) throws(OutputError)
}

extension RecordWriter {
  public var writesTotals: Bool { false }

  public func flush() throws(OutputError) {}

  public func endStopped() {}

  public func begin(columns: [String], headers: [[UInt8]]) throws(OutputError) {
    try begin(columns: columns)
  }
}
