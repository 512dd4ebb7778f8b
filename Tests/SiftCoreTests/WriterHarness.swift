@testable import SiftCore

/// Builds record batches by hand and runs a writer over them, returning the bytes it wrote.
struct WriterHarness {
  /// One record: its fields' raw texts (`nil`: missing), and optionally its whole text.
  struct Record {
    var fields: [[UInt8]?]
    var text: [UInt8]?
  }

  var encoding: FieldEncoding
  var columns: [String]
  var records: [Record] = []
  /// Groups started before the record at the given index.
  var groups: [(before: Int, label: String, count: Int)] = []

  init(_ encoding: FieldEncoding, columns: [String]) {
    self.encoding = encoding
    self.columns = columns
  }

  /// Adds a record from raw field texts as the input has them (CSV quotes, JSON text).
  mutating func add(_ fields: [String?], text: String? = nil) {
    records.append(
      Record(fields: fields.map { $0.map { Array($0.utf8) } }, text: text.map { Array($0.utf8) }))
  }

  /// Adds a record from raw field bytes (for ill-formed UTF-8).
  mutating func add(bytes fields: [[UInt8]]) {
    records.append(Record(fields: fields, text: nil))
  }

  mutating func group(_ label: String, count: Int) {
    groups.append((records.count, label, count))
  }

  /// The batch: each record's text (given, or its fields joined with `,`), then its fields.
  func batch() -> RecordBatch {
    var bytes: [UInt8] = []
    var spans: [Int32] = []
    var extents: [Int32] = []
    for record in records {
      let start = bytes.count
      if let text = record.text {
        bytes += text
      } else {
        for (index, field) in record.fields.enumerated() {
          if index > 0 { bytes.append(UInt8(ascii: ",")) }
          bytes += field ?? []
        }
      }
      extents += [Int32(start), Int32(bytes.count)]
      for field in record.fields {
        if let field {
          spans += [Int32(bytes.count), Int32(bytes.count + field.count)]
          bytes += field
        } else {
          spans += [-1, -1]
        }
      }
    }
    return RecordBatch(
      bytes: bytes, encoding: encoding, width: columns.count, spans: spans, extents: extents,
      lines: records.indices.map { Int32($0 + 1) })
  }

  /// Writes every record with `options`, and returns the output bytes.
  func render(_ options: WriterOptions, verbatim: Bool = false) throws -> [UInt8] {
    let sink = MemorySink()
    let writer = makeWriter(options, output: OutputBuffer(sink: sink))
    let outputColumns = columns.enumerated().map { OutputColumn.field($1, at: $0) }
    try writer.begin(columns: columns)
    try batch().withRows { cursor in
      for r in 0..<cursor.count {
        for group in groups where group.before == r {
          try writer.beginGroup(.counted([group.label], group.count))
        }
        try writer.write(cursor.row(r), columns: outputColumns, verbatim: verbatim)
      }
    }
    try writer.end()
    return sink.bytes
  }

  /// The output as text.
  func text(_ options: WriterOptions, verbatim: Bool = false) throws -> String {
    String(decoding: try render(options, verbatim: verbatim), as: UTF8.self)
  }
}
