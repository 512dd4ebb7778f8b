/// One column of a summary (Docs/Aggregates.md): a group field, the count, or an aggregate of a
/// field (`amount_sum`).
public struct SummaryColumn: Sendable, Equatable {
  public enum Kind: Sendable, Equatable {
    case group
    case count
    case aggregate(AggregateFunction)
  }

  public var kind: Kind
  /// The input field it is made of; `nil` for `count`.
  public var field: ResolvedField?
  /// Its name in the output: `customer`, `count`, `amount_sum`.
  public var name: String

  /// The aggregate function, for an aggregate column.
  public var function: AggregateFunction? {
    if case .aggregate(let f) = kind { return f }
    return nil
  }
}

extension Plan {
  /// Whether a directive's field names are the summary's columns when the query aggregates.
  static func namesSummaryColumns(_ kind: Directive) -> Bool {
    kind == .sort || kind == .fields
  }

  /// The summary's columns in order: the group fields, `count`, then each aggregate's columns
  /// in query order; empty without aggregates.
  static func summaryColumns(group: [ResolvedField], aggregates: [SummaryColumn]) -> [SummaryColumn] {
    guard !aggregates.isEmpty else { return [] }
    return tallyColumns(group: group) + aggregates
  }

  /// The columns of a count per group (`-c group:`): the group fields, then `count`.
  static func tallyColumns(group: [ResolvedField]) -> [SummaryColumn] {
    group.map { SummaryColumn(kind: .group, field: $0, name: $0.name) }
      + [SummaryColumn(kind: .count, field: nil, name: "count")]
  }

  /// The aggregate directives' columns in query order. An aggregate that needs numbers takes a
  /// number field, or one most of whose sampled values are numbers (a `TBC` among them is left
  /// out and counted wherever it stands); any other field is an error naming its type.
  static func aggregateColumns(
    _ query: Query, resolved: (FieldName) -> ResolvedField, types: [ResolvedField: ColumnType],
    mostlyNumbers: (ResolvedField) -> Bool = { _ in false }
  ) throws(PlanError) -> [SummaryColumn] {
    var columns: [SummaryColumn] = []
    for (function, names) in query.aggregates {
      for name in names {
        let field = resolved(name)
        let type = types[field] ?? .text
        if function.needsNumbers && type != .number && type != .empty && !mostlyNumbers(field) {
          throw PlanError(
            message: "'\(function.name):' needs numbers, but \(field.name) holds "
              + (type == .text ? "text" : type == .boolean ? "switches" : "\(type.rawValue)s"),
            span: name.span,
            notes: ["  a field holds numbers when most values in its first "
              + "\(groupedDigits(TypeInference.sampleSize)) records are numbers"])
        }
        let column = field.name + "_" + function.name
        if column == "count" || columns.contains(where: { $0.name == column }) {
          throw PlanError(
            message: "\(function.name):\(field.name) is asked for twice; name each field once",
            span: name.span)
        }
        columns.append(SummaryColumn(kind: .aggregate(function), field: field, name: column))
      }
    }
    return columns
  }

  /// A `sort:` or `fields:` name that is not a column of the summary: the error names the
  /// columns, and suggests the aggregate of a field when the name is that field's
  /// (`sort:-amount` → `amount_sum`).
  static func unknownColumn(_ error: PlanError, name: FieldName, columns: [SummaryColumn]) -> PlanError {
    guard error.unknownField else { return error }
    let wanted = FieldResolver.normalize(name.name)
    let ofField = columns.first { $0.function != nil && FieldResolver.normalize($0.field!.name) == wanted }
    let suggestion = ofField?.name ?? FieldResolver(schema: Schema(names: columns.map(\.name)))
      .closest(to: name.name, among: columns.map(\.name))
    var message = "'\(name.name)' is not a column of the summary"
    if let suggestion { message += "; did you mean '\(suggestion)'?" }
    return PlanError(
      message: message, span: name.span,
      notes: ["columns: " + columns.map(\.name).joined(separator: ", ")])
  }

  /// The columns of a count per group (`-c group:` without aggregates, Docs/CommandLine.md,
  /// Counting), which its `tallySort` keys index; empty for any other plan.
  public var tallyColumns: [SummaryColumn] {
    guard intent == .count, aggregates.isEmpty, !group.isEmpty else { return [] }
    return Plan.tallyColumns(group: group)
  }

  /// The summary's columns (Docs/Aggregates.md); empty without aggregates.
  public var summaryColumns: [SummaryColumn] {
    Plan.summaryColumns(group: group, aggregates: aggregates)
  }
}
