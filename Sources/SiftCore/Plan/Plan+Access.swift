/// Where a plan's field is in a record of one input (Docs/Architecture.md, Plan): a top-level
/// field's place, with the keys of a nested path inside it. A value, not a closure, so reading a
/// field per record costs no call through a context and no reference count.
public struct FieldAccessor: Sendable {
  /// The field's place in the input's records; -1 when the input lacks it (its value is
  /// missing).
  public let index: Int
  /// Keys to follow inside a nested JSON value; empty for a top-level field.
  public let path: [String]
  /// A `group:date/UNIT` field's time bucket: its group key is the bucket's label, not the
  /// value (`GroupKey`); `nil` for every other field.
  public var bucketing: GroupBucketing?

  public init(index: Int, path: [String] = []) {
    self.index = index
    self.path = path
  }

  /// The field's value in `row`: for a nested path, the first value it reaches.
  @inline(__always)
  public func callAsFunction(_ row: RowView) -> FieldValue {
    guard index >= 0 else { return FieldValue(missingWith: row.encoding) }
    if path.isEmpty { return row.field(index) }
    return JSONPath.first(at: path[...], in: row.field(index)) ?? FieldValue(missingWith: row.encoding)
  }
}

extension Plan {
  /// Reads a field's value from a record of an input with `layout`: for a nested path, the first
  /// value it reaches; a field the input lacks is missing.
  public func accessor(for field: ResolvedField, layout: SourceLayout) -> FieldAccessor {
    let index = field.index >= 0 && field.index < layout.local.count ? layout.local[field.index] : -1
    return FieldAccessor(index: index, path: field.path)
  }

  /// The group fields' accessors for an input with `layout`, outermost first, each with its
  /// time bucket (Docs/QueryLanguage.md, Time buckets).
  func groupAccessors(layout: SourceLayout) -> [FieldAccessor] {
    zip(group, groupBuckets).map { field, bucket in
      var access = accessor(for: field, layout: layout)
      access.bucketing = bucket.map { GroupBucketing(unit: $0, convention: convention(of: field)) }
      return access
    }
  }

  /// The output columns for an input with `layout`: the `fields:` projection, else every field.
  public func outputColumns(layout: SourceLayout) -> [OutputColumn] {
    outputFields.map { OutputColumn(name: $0.name, value: accessor(for: $0, layout: layout)) }
  }

  /// The fields written, in order: the `fields:` projection, else every top-level field. With
  /// aggregates, the summary's columns (their index is the column's).
  public var outputFields: [ResolvedField] {
    if let projection { return projection }
    let summary = summaryColumns
    let names = summary.isEmpty ? schema.names : summary.map(\.name)
    return names.enumerated().map { ResolvedField(index: $0.offset, path: [], name: $0.element) }
  }

  /// Each output column's type: a summary's counts, sums, means and percentiles are numbers.
  public var outputTypes: [ColumnType] {
    let summary = summaryColumns
    guard !summary.isEmpty else { return outputFields.map { type(of: $0) } }
    return outputFields.map { field in
      let column = summary[field.index]
      switch column.kind {
      case .count: return .number
      case .group:
        // A time bucket's label (`2024-W23`) is text, whatever its field's type; the group
        // columns come first, in group order.
        return groupBuckets[field.index] == nil ? type(of: column.field!) : .text
      case .aggregate(let f):
        return f == .min || f == .max ? type(of: column.field!) : .number
      }
    }
  }

  /// Each output column's type and the conventions its text is written in: a field's values and
  /// group values in the input's decimal mark and the field's date convention; a summary's
  /// computed numbers (counts, sums, means, percentiles, `min:`/`max:` of numbers) with a point.
  public var outputReadings: [ColumnReading] {
    let summary = summaryColumns
    return zip(outputFields, outputTypes).map { field, type in
      guard !summary.isEmpty else {
        return ColumnReading(type: type, decimalMark: decimalMark, convention: convention(of: field))
      }
      let column = summary[field.index]
      switch column.kind {
      case .count: return ColumnReading(type: type)
      case .group:
        return ColumnReading(type: type, decimalMark: decimalMark, convention: summaryColumnConvention(field.index))
      case .aggregate:
        return ColumnReading(type: type, convention: summaryColumnConvention(field.index))
      }
    }
  }

  /// The output column names, in order.
  public var outputNames: [String] { outputFields.map(\.name) }

  /// The output header, in order: a top-level field's header as the input wrote it (duplicate
  /// CSV names stay duplicates), a nested path's name.
  public var outputHeaders: [[UInt8]] {
    let summarizing = !aggregates.isEmpty
    return outputFields.map {
      $0.path.isEmpty && !summarizing ? schema.header($0.index) : Array($0.name.utf8)
    }
  }
}
