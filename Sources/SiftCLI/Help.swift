/// The version `sift --version` prints.
let siftVersion = "0.1.0"

/// What sift does, in one line: the help's first line and the man page's NAME.
let siftTagline = "filter CSV, TSV, JSON and NDJSON records with a search language"

/// An example of the query language and what it means (`meaning` empty: the example speaks
/// for itself).
struct QueryExample: Sendable {
  let text: String
  let meaning: String
}

/// A titled part of the query-language summary that `--help` and `--man` both show.
struct QuerySection: Sendable {
  let title: String
  let examples: [QueryExample]
}

/// The lines of the usage synopsis: a command line and what it does.
let usageLines: [(command: String, meaning: String)] = [
  ("sift [OPTIONS] QUERY [FILE...]", ""),
  ("sift [OPTIONS] @VIEW [QUERY] [FILE...]", ""),
  ("sift --fields [FILE...|@VIEW]", "list fields: type, non-empty count, samples"),
  ("sift --views", "the views, each with its @name"),
  ("sift -i [@VIEW] [QUERY] [FILE...]", ""),
]

/// What QUERY and FILE are, said under the usage: one note a line in the manual page, wrapped
/// at 80 columns in `--help`.
let usageNotes = [
  "QUERY is one argument: quote it. '' matches everything.",
  "FILE '-' or none: standard input; a lone FILE (sift grn.csv) is read with no query.",
  "A query may start with '-' (sift '-status:cancelled' grn.csv); one that looks like options (-cq) goes after --: sift -- '-cq' grn.csv",
]

/// The query language in examples (Docs/QueryLanguage.md has the whole of it).
let querySummary: [QuerySection] = [
  QuerySection(title: "Filters", examples: [
    QueryExample(text: "status:received", meaning: "the field equals the value (any case)"),
    QueryExample(text: "status:received,pending", meaning: "any of the values"),
    QueryExample(
      text: "qty:>10  qty:>=10  qty:<10  qty:<=10",
      meaning: "compare as numbers, dates, else text"),
    QueryExample(text: "qty:10..50  qty:10..*  qty:*..50", meaning: "inclusive range, open-ended with *"),
    QueryExample(text: "date:2024-01-01..2024-03-31", meaning: "date range"),
    QueryExample(text: "date:2024-03", meaning: "a partial date: the whole month (or year)"),
    QueryExample(text: "customer:acme*  sku:*-00*", meaning: "glob: * is any run of characters"),
    QueryExample(text: "item:/bolt\\s+m\\d+/i", meaning: "regular expression; i: case-insensitive"),
    QueryExample(text: "customer:\"\"", meaning: "the field is empty or missing"),
    QueryExample(text: "has:customer", meaning: "the field is present and non-empty"),
    QueryExample(text: "empty_stock:on", meaning: "switch: on yes true 1 y / off no false 0 n"),
    QueryExample(text: "acme  \"acme inc\"", meaning: "free text in any field"),
    QueryExample(text: "\"GRN No\":42  customer:\"Acme Inc\"", meaning: "quoted field names and values"),
    QueryExample(text: "-status:cancelled", meaning: "NOT status:cancelled: negation"),
    QueryExample(text: "status:pending OR qty:0", meaning: "either"),
    QueryExample(
      text: "(status:pending OR qty:0) date:this-week",
      meaning: "grouping; terms side by side all match (AND)"),
  ]),
  QuerySection(title: "Relative dates", examples: [
    QueryExample(text: "date:today  date:yesterday  date:this-week  date:last-week", meaning: ""),
    QueryExample(text: "date:this-month  date:last-month  date:this-year  date:last-year", meaning: ""),
    QueryExample(text: "date:last-7d  date:last-2w  date:last-3m", meaning: ""),
    QueryExample(text: "date:<this-month  date:last-week..today", meaning: ""),
  ]),
  QuerySection(title: "Directives (not filters)", examples: [
    QueryExample(text: "sort:date  sort:-date,customer", meaning: "sort keys; - for descending"),
    QueryExample(text: "group:customer  group:a,b", meaning: "group by a field; by b inside a"),
    QueryExample(text: "group:date/month  group:at/hour", meaning: "by day, week, month, quarter, year, hour"),
    QueryExample(text: "limit:20  limit:3/group", meaning: "the first 20 records; 3 per group"),
    QueryExample(text: "fields:grn_no,date,customer", meaning: "output only these fields, in this order"),
    QueryExample(text: "fields:-sku,item", meaning: "every field but these"),
  ]),
  QuerySection(title: "Aggregates (one summary row per group)", examples: [
    QueryExample(text: "group:customer sum:amount", meaning: "count and sum per customer: amount_sum"),
    QueryExample(text: "avg:qty  min:date  max:date", meaning: "mean; smallest, largest value"),
    QueryExample(text: "distinct:customer", meaning: "how many different values"),
    QueryExample(text: "p95:delay  median:qty", meaning: "percentile pN (1 to 99), median = p50"),
    QueryExample(text: "sort:-amount_sum limit:5", meaning: "sort and limit the summary rows"),
  ]),
]

/// Whole command lines, shown under Examples.
let commandExamples = [
  "sift 'status:received customer:\"Acme\" sort:-date group:customer' grn.csv",
  "sift 'qty:10..50 -status:cancelled,quality-hold' grn.csv",
  "sift --explain '(status:pending OR qty:0) date:this-week'",
]

let exitStatusLine = "0 records matched, 1 none matched, 2 error."

/// What `sift --help` prints: usage, every option of `OptionTable`, and an example of every
/// query form; no line is wider than 80 columns.
let helpText: String = {
  var lines = ["sift \(siftVersion): \(siftTagline)", "", "Usage:"]
  lines += usageLines.flatMap { columns("  " + $0.command, $0.meaning, at: 33) }
  lines += [""] + usageNotes.flatMap { wrap($0, width: 80) } + ["", "Options:"]
  lines += OptionTable.visible.flatMap { columns("  " + $0.synopsis, $0.help, at: 26) }
  for section in querySummary {
    lines += ["", section.title + ":"]
    lines += section.examples.flatMap { columns("  " + $0.text, $0.meaning, at: 36) }
  }
  lines += ["", "Examples:"] + commandExamples.map { "  " + $0 }
  lines += ["", "Exit status: " + exitStatusLine]
  return lines.joined(separator: "\n") + "\n"
}()

/// `left` then `right` starting at column `column` (on the next line when `left` is too wide),
/// `right` wrapped to end by column 80.
private func columns(_ left: String, _ right: String, at column: Int) -> [String] {
  guard !right.isEmpty else { return [left] }
  let wrapped = wrap(right, width: 80 - column)
  let indent = String(repeating: " ", count: column)
  var lines: [String]
  if left.count + 2 <= column {
    lines = [left + String(repeating: " ", count: column - left.count) + wrapped[0]]
  } else {
    lines = [left, indent + wrapped[0]]
  }
  lines += wrapped.dropFirst().map { indent + $0 }
  return lines
}

/// `text` broken at spaces into lines of at most `width` characters (a longer word stands alone).
func wrap(_ text: String, width: Int) -> [String] {
  var lines: [String] = []
  var line = ""
  for word in text.split(separator: " ") {
    if !line.isEmpty && line.count + 1 + word.count > width {
      lines.append(line)
      line = ""
    }
    line += (line.isEmpty ? "" : " ") + word
  }
  return lines + [line]
}
