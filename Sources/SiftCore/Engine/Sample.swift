/// The first records of the input (Docs/Formats.md, How values are read), held in memory while the plan is made and then
/// processed like any other batches, so nothing is read twice.
struct Sample {
  /// Batches read so far, with the index of the reader that made each.
  var batches: [(reader: Int, batch: RecordBatch)] = []
  var records = 0
  /// Each batch's layout against the schema, made once per schema by `lay(against:names:)`
  /// (once per field would be quadratic in the number of fields).
  private var layouts: [SourceLayout] = []

  /// Lays every batch out against `schema`, its reader's fields being `names[reader]`.
  mutating func lay(against schema: Schema, names: [[String]]) {
    var byReader: [Int: SourceLayout] = [:]
    layouts = batches.map { reader, batch in
      if let layout = byReader[reader], layout.encoding == batch.encoding,
        layout.decimalMark == batch.decimalMark
      {
        return layout
      }
      let layout = SourceLayout(
        names: names[reader], schema: schema, encoding: batch.encoding,
        decimalMark: batch.decimalMark)
      byReader[reader] = layout
      return layout
    }
  }

  /// Calls `body` with each sampled value of `field` (all elements of JSON arrays, values at its
  /// nested path), at most `TypeInference.sampleSize` records.
  func forEachValue(of field: ResolvedField, _ body: (FieldValue) -> Void) {
    forEachValue(of: field) { value, _ in body(value) }
  }

  /// Calls `body` with each sampled value of `field` and the decimal mark of its input.
  func forEachValue(of field: ResolvedField, _ body: (FieldValue, DecimalMark) -> Void) {
    var seen = 0
    for ((_, batch), layout) in zip(batches, layouts) {
      guard seen < TypeInference.sampleSize else { return }
      let local = field.index < layout.local.count ? layout.local[field.index] : -1
      batch.withRows { rows in
        let n = min(rows.count, TypeInference.sampleSize - seen)
        seen += n
        guard local >= 0 else { return }
        for r in 0..<n {
          let value = rows.row(r).field(local)
          if batch.encoding == .json {
            _ = JSONPath.anyValue(at: field.path[...], in: value) {
              body($0, layout.decimalMark)
              return false
            }
          } else {
            body(value, layout.decimalMark)
          }
        }
      }
    }
  }

  /// What the sample shows of `field`, its numbers read with their input's decimal mark and its
  /// numeric dates in `order` (`nil`: either).
  func inference(of field: ResolvedField, order: DateOrder? = nil) -> TypeInference {
    var inference = TypeInference(order: order)
    forEachValue(of: field) { inference.add($0, mark: $1) }
    return inference
  }
}
