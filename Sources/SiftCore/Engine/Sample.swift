/// The first records of the input (Docs/Formats.md, How values are read), held in memory while the plan is made and then
/// processed like any other batches, so nothing is read twice.
struct Sample {
  /// Batches read so far, with the index of the reader that made each.
  var batches: [(reader: Int, batch: RecordBatch)] = []
  var records = 0

  /// Calls `body` with each sampled value of `field` (all elements of JSON arrays, values at its
  /// nested path), at most `TypeInference.sampleSize` records.
  func forEachValue(
    of field: ResolvedField, schema: Schema, names: [[String]], _ body: (FieldValue) -> Void
  ) {
    var seen = 0
    for (reader, batch) in batches {
      guard seen < TypeInference.sampleSize else { return }
      let layout = SourceLayout(names: names[reader], schema: schema, encoding: batch.encoding)
      let local = field.index < layout.local.count ? layout.local[field.index] : -1
      batch.withRows { rows in
        let n = min(rows.count, TypeInference.sampleSize - seen)
        seen += n
        guard local >= 0 else { return }
        for r in 0..<n {
          let value = rows.row(r).field(local)
          if batch.encoding == .json {
            _ = JSONPath.anyValue(at: field.path[...], in: value) { body($0); return false }
          } else {
            body(value)
          }
        }
      }
    }
  }

  /// The type of `field` by the sample.
  func type(of field: ResolvedField, schema: Schema, names: [[String]]) -> ColumnType {
    var inference = TypeInference()
    forEachValue(of: field, schema: schema, names: names) { inference.add($0) }
    return inference.type
  }
}
