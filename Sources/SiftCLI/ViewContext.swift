import SiftCore

/// What a view adds to a query run (Docs/Views.md, Running a view): default sort, labels, fast filters, the title
/// line, and where each part of the composed query came from, for error messages.
struct ViewContext {
  /// The views file's path.
  var file: String
  var view: View
  var composed: ComposedQuery
  /// The subtitle of the title line: the name of the file read.
  var sourceName: String?

  var title: String? { view.displayTitle }

  /// The view's default sort keys, resolved against the input (unresolvable names as written).
  func defaultSort(in schema: Schema) -> [(field: String, descending: Bool)] {
    let resolver = FieldResolver(schema: schema)
    return (view.sort?.keys ?? []).map { key in
      let name = (try? resolver.resolve(key.field))?.name ?? key.field.name
      return (name, key.descending)
    }
  }

  /// The view's labels keyed by the fields they name in the input.
  func labels(in schema: Schema) -> Labels {
    let resolver = FieldResolver(schema: schema)
    var resolved: [String: String] = [:]
    for (field, label) in view.labels {
      let name = (try? resolver.resolve(FieldName(field, span: Span(0, 0))))?.name ?? field
      resolved[name] = label
    }
    return Labels(resolved)
  }

  /// The chips of the fast filters `plan` does not apply; a fast filter given as a term is typed
  /// by `dataset` where one is given (a plain count's plan types no field it does not name).
  func inactiveChips(
    _ plan: Plan, ascii: Bool, over dataset: Dataset? = nil
  ) throws(FastFilterError) -> [Chip] {
    try FilterChips(plan: plan, labels: labels(in: plan.schema), ascii: ascii)
      .inactiveChips(for: view.fastFilters, typeOf: dataset.map { d in { d.type(of: $0) } })
  }

  /// The title line (Docs/Views.md, Running a view), cut to fit.
  func titleLine(unicode: Bool) -> String? {
    title.map { TitleLine(title: $0, subtitle: sourceName, ascii: !unicode).text }
  }
}
