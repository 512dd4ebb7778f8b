/// What a view adds to a query run (SPEC §7.2): default sort, labels, fast filters and title.
struct ViewContext {
  var title: String?
  var sourceName: String?
  var defaultSort: [(field: String, descending: Bool)]
  var labels: [String: String]
  var fastFilters: [String]
}
