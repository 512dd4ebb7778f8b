extension Plan {
  /// Reads a field's value from a record of an input with `layout`: for a nested path, the first
  /// value it reaches; a field the input lacks is missing.
  public func accessor(for field: ResolvedField, layout: SourceLayout) -> @Sendable (RowView) -> FieldValue {
    let index = field.index >= 0 && field.index < layout.local.count ? layout.local[field.index] : -1
    let encoding = layout.encoding
    guard index >= 0 else { return { _ in FieldValue(missingWith: encoding) } }
    let path = field.path
    if path.isEmpty { return { $0.field(index) } }
    return { row in JSONPath.first(at: path[...], in: row.field(index)) ?? FieldValue(missingWith: encoding) }
  }

  /// The output columns for an input with `layout`: the `fields:` projection, else every field.
  public func outputColumns(layout: SourceLayout) -> [OutputColumn] {
    outputFields.map { OutputColumn(name: $0.name, value: accessor(for: $0, layout: layout)) }
  }

  /// The fields written, in order: the `fields:` projection, else every top-level field.
  public var outputFields: [ResolvedField] {
    projection ?? schema.names.enumerated().map {
      ResolvedField(index: $0.offset, path: [], name: $0.element)
    }
  }

  /// The output column names, in order.
  public var outputNames: [String] { outputFields.map(\.name) }

  /// The output header, in order: a top-level field's header as the input wrote it (duplicate
  /// CSV names stay duplicates), a nested path's name.
  public var outputHeaders: [[UInt8]] {
    outputFields.map { $0.path.isEmpty ? schema.header($0.index) : Array($0.name.utf8) }
  }
}
