import SiftCore

/// One record as text for the clipboard (Docs/Interactive.md, The record's page): the header
/// and the record's values as the list shows them, written by sift's own writer for the output
/// format of `-o` (CSV when none is given, or for `-o table` and `-o xlsx`: a clipboard holds
/// text), so quoting, numbers and escaping are exactly what `sift -o FORMAT` writes.
enum RecordCopy {
  static func text(columns: [String], cells: [String], numeric: [Bool], format: OutputFormat) -> String {
    let sink = MemorySink()
    let output = OutputBuffer(sink: sink)
    let writer = makeWriter(
      WriterOptions(format: clipboardFormat(format), numericColumns: numeric), output: output)
    // The values as one plain-text record: each cell's bytes, one after the other, a span each.
    var bytes: [UInt8] = []
    var spans: [Int32] = []
    for column in columns.indices {
      spans.append(Int32(clamping: bytes.count))
      if column < cells.count { bytes += cells[column].utf8 }
      spans.append(Int32(clamping: bytes.count))
    }
    let end = bytes.count
    // A byte past the values, so the buffer has an address even when every value is empty.
    bytes.append(0)
    let outputColumns = columns.enumerated().map { OutputColumn.field($1, at: $0) }
    do throws(OutputError) {
      try writer.begin(columns: columns)
      try bytes.withUnsafeBufferPointer { (text) throws(OutputError) in
        try spans.withUnsafeBufferPointer { (spans) throws(OutputError) in
          guard let base = text.baseAddress, let spanBase = spans.baseAddress else { return }
          let row = RowView(
            base: base, spans: spanBase, width: columns.count, encoding: .plain, extentStart: 0,
            extentEnd: end)
          try writer.write(row, columns: outputColumns, verbatim: false)
        }
      }
      try writer.end()
    } catch {
      // A memory sink takes every byte; what was written is the best there is.
    }
    return sink.text
  }

  /// The format the clipboard gets for `-o format`: the text formats as they are, CSV for the
  /// terminal's table and for workbooks.
  static func clipboardFormat(_ format: OutputFormat) -> OutputFormat {
    switch format {
    case .csv, .tsv, .json, .ndjson, .markdown, .html: format
    case .table, .xlsx, .eml: .csv
    }
  }
}
