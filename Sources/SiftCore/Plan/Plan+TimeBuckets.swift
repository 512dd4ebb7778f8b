/// `group:date/month` and the other time buckets (Docs/QueryLanguage.md, Time buckets).
extension Plan {
  /// Per `group:` field, outermost first, its time bucket; `nil` for a field grouped by value.
  public var groupBuckets: [TimeBucket?] { query.group.map(\.bucket) }

  /// How each group's values are ordered (`GroupTally`): a field's by its own date convention,
  /// a time bucket's labels (`2024-06-12`, `2024-W23`) as ISO text, which orders them in time.
  var groupConventions: [DateConvention] {
    zip(group, groupBuckets).map { field, bucket in bucket == nil ? convention(of: field) : .iso }
  }

  /// Checks each time bucket against its field's type: a bucket needs dates (a field whose
  /// sample is all empty may have them), `/hour` needs date-times.
  static func checkBuckets(
    _ query: Query, resolved: (FieldName) -> ResolvedField, types: [ResolvedField: ColumnType]
  ) throws(PlanError) {
    for name in query.group {
      guard let bucket = name.bucket else { continue }
      let field = resolved(name)
      let type = types[field] ?? .text
      let at = name.bucketSpan ?? name.span
      switch type {
      case .dateTime, .empty: continue
      case .date where !bucket.needsTime: continue
      case .date:
        throw PlanError(
          message: "'/hour' groups date-times, and \(field.name) holds dates without a time",
          span: at, notes: ["  group:\(name.canonicalTextWithout)/day groups by the day"])
      case .number, .boolean, .text:
        throw PlanError(
          message: "'/\(bucket.rawValue)' groups dates, and \(field.name) holds \(type.plural)",
          span: at,
          notes: ["  a time bucket (\(TimeBucket.spelled)) groups a date or date-time field"])
      }
    }
  }
}

extension ColumnType {
  /// What a field of this type holds, in a sentence: `numbers`, `text`.
  fileprivate var plural: String {
    switch self {
    case .number: "numbers"
    case .date: "dates"
    case .dateTime: "date-times"
    case .boolean: "switches (yes/no)"
    case .text: "text"
    case .empty: "no values"
    }
  }
}

extension FieldName {
  /// The name in canonical form without its time bucket.
  fileprivate var canonicalTextWithout: String {
    var name = self
    name.bucket = nil
    return name.canonicalText
  }
}
