/// How a `group:date/UNIT` field's values become their buckets' labels (Docs/QueryLanguage.md,
/// Time buckets): each value is read as a date in its field's convention (an instant moved
/// onto the `--tz` wall clock), then labelled by `unit`. A value that is not a date keeps its
/// own text as its group, so no record is lost or put in another's bucket.
public struct GroupBucketing: Sendable {
  public let unit: TimeBucket
  public let convention: DateConvention

  public init(unit: TimeBucket, convention: DateConvention) {
    self.unit = unit
    self.convention = convention
  }

  /// Appends the label of the bucket of `v`, a value that is not null-like, to `bytes`.
  func appendLabel(of v: FieldValue, to bytes: inout [UInt8]) {
    withValueBytes(v) { text in
      if let date = DateParser.parse(text, convention) {
        unit.appendLabel(of: date.time, to: &bytes)
      } else {
        bytes.append(contentsOf: text)
      }
    }
  }
}
