@testable import SiftCore

/// What a reader produced, decoded for comparison.
struct ReadResult: Equatable {
  var fields: [String]
  /// Records as decoded values; a missing field is `nil`.
  var records: [[String?]]
  var lines: [Int]
  var shortRows = 0
  var skipped = 0
}

/// Reads every batch of `reader`, decoding each field.
func readAll(_ reader: any RecordReader) throws(InputError) -> ReadResult {
  var result = ReadResult(fields: [], records: [], lines: [])
  while let batch = try reader.nextBatch() {
    batch.withRows { rows in
      for r in 0..<rows.count {
        let row = rows.row(r)
        result.records.append(
          (0..<batch.width).map { f in
            let v = row.field(f)
            return v.form == .missing ? nil : v.string
          })
      }
    }
    result.lines += (0..<batch.count).map(batch.line)
  }
  result.fields = reader.fieldNames
  // Records of earlier, narrower batches lack the fields first seen later.
  result.records = result.records.map {
    $0 + Array(repeating: nil, count: result.fields.count - $0.count)
  }
  result.shortRows = reader.shortRows
  result.skipped = reader.skipped
  return result
}

/// The raw record texts of every batch.
func recordTexts(_ reader: any RecordReader) throws(InputError) -> [[UInt8]] {
  var texts: [[UInt8]] = []
  while let batch = try reader.nextBatch() {
    batch.withRows { rows in
      for r in 0..<rows.count { texts.append(Array(rows.row(r).text)) }
    }
  }
  return texts
}

/// The error a reader stops with, if any.
func readError(_ reader: any RecordReader) -> InputError? {
  do {
    while try reader.nextBatch() != nil {}
    return nil
  } catch {
    return error
  }
}
