/// How output is written: the format and what the writers cannot decide themselves.
public struct WriterOptions: Sendable {
  /// The output format.
  public var format: OutputFormat
  /// The field delimiter of `csv` output (`tsv` always uses a tab).
  public var delimiter: UInt8
  /// Per output column, whether it holds numbers (from the engine's type inference): `table`
  /// right-aligns those columns, `markdown` marks them `---:`. Missing entries mean text.
  public var numericColumns: [Bool]
  /// The terminal width `table` output must fit, or `nil` for no limit.
  public var maxWidth: Int?
  /// ASCII decorations only (`...` for `…`; see `TableWriter`).
  public var ascii: Bool
  /// `csv`/`tsv`: the byte order mark and line end to write (the input's, for CSV in, CSV out).
  public var textStyle: TextConventions
  /// `csv`/`tsv`: write the header row (not with `--no-header`).
  public var header: Bool
  /// `html`: the records are a grouped summary, so the last is its `Total` row (Docs/Aggregates.md).
  public var endsWithTotal: Bool
  /// `xlsx`: per output column, its type and the conventions its values are written in
  /// (Docs/Formats.md, Writing workbooks).
  public var columnReadings: [ColumnReading]
  /// `xlsx`: the sheet's name (made valid by Excel's rules).
  public var sheetName: String
  /// `html`: the header's labels (a view's, else Title Case; Docs/Reports.md, The table).
  public var labels: Labels?

  public init(
    format: OutputFormat, delimiter: UInt8 = UInt8(ascii: ","), numericColumns: [Bool] = [],
    maxWidth: Int? = nil, ascii: Bool = false, textStyle: TextConventions = .plain, header: Bool = true,
    endsWithTotal: Bool = false, columnReadings: [ColumnReading] = [], sheetName: String = "Sheet1",
    labels: Labels? = nil
  ) {
    self.labels = labels
    self.columnReadings = columnReadings
    self.sheetName = sheetName
    self.endsWithTotal = endsWithTotal
    self.format = format
    self.textStyle = textStyle
    self.header = header
    self.delimiter = delimiter
    self.numericColumns = numericColumns
    self.maxWidth = maxWidth
    self.ascii = ascii
  }
}

/// The writer for `options.format`, writing into `output` (whose `lineBuffered` decides
/// flushing per record).
public func makeWriter(_ options: WriterOptions, output: OutputBuffer) -> any RecordWriter {
  switch options.format {
  case .table:
    TableWriter(
      output: output, numericColumns: options.numericColumns, maxWidth: options.maxWidth,
      ascii: options.ascii)
  case .csv:
    CSVWriter(
      output: output, dialect: .csv(delimiter: options.delimiter), style: options.textStyle,
      header: options.header)
  case .tsv:
    CSVWriter(output: output, dialect: .tsv, style: options.textStyle, header: options.header)
  case .json: JSONWriter(output: output, layout: .array)
  case .ndjson: JSONWriter(output: output, layout: .lines)
  case .markdown: MarkdownWriter(output: output, numericColumns: options.numericColumns)
  case .html, .eml:
    HTMLWriter(
      output: output, numericColumns: options.numericColumns,
      endsWithTotal: options.endsWithTotal, labels: options.labels,
      decimalMarks: options.columnReadings.map(\.decimalMark))
  case .xlsx:
    XLSXWorkbook(output: output, sheetNames: [options.sheetName])
      .sheet(0, columns: options.columnReadings)
  }
}
