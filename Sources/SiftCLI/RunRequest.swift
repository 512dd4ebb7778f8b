import SiftCore

/// What the command line asks for a query run, independent of how it was spelled.
struct RunRequest {
  var queryText: String
  var files: [String]
  var format: InputFormat?
  var output: OutputFormat?
  var delimiter: UInt8?
  var noHeader = false
  var countOnly = false
  var summary: SummaryMode = .bar
  var color: ColorChoice = .auto
  var ascii = false
  var now: String?
  var skipBad = false
  /// From a view (SPEC §7): the preset query, default sort, labels, fast filters, title.
  var view: ViewContext?
}

/// `--summary`.
enum SummaryMode: String {
  case bar, text, json, none
}

/// `--color`.
enum ColorChoice: String {
  case auto, always, never
}

/// What a view adds to a run (SPEC §7.2).
struct ViewContext {
  var title: String?
  var sourceName: String?
  var defaultSort: [(field: String, descending: Bool)]
  var labels: [String: String]
  var fastFilters: [String]
}
