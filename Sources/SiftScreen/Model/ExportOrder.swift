import SiftCore

/// What an export writes (Docs/Interactive.md, Export): the file, its format (named by the
/// file's extension), which records of the result (all of them, or the marked ones by their
/// place in the result), and whether an existing file may be replaced.
public struct ExportOrder: Hashable, Sendable {
  public var path: String
  public var format: OutputFormat
  /// The places (from 0) of the records to write, in order; `nil` writes every record of the
  /// result, past the rows the list keeps.
  public var records: [Int]?
  /// Whether a file already at `path` is replaced; without it the export is refused.
  public var replace: Bool

  public init(path: String, format: OutputFormat, records: [Int]?, replace: Bool) {
    self.path = path
    self.format = format
    self.records = records
    self.replace = replace
  }

  /// The extensions an export understands, in the order the prompt names them.
  static let extensions: [(name: String, format: OutputFormat)] = [
    ("csv", .csv), ("tsv", .tsv), ("json", .json), ("ndjson", .ndjson), ("md", .markdown),
    ("html", .html), ("xlsx", .xlsx),
  ]

  /// The format a file name's extension names (`grn.csv` → CSV, case ignored); `nil` for a name
  /// without one or with another.
  static func format(ofPath path: String) -> OutputFormat? {
    let name = path.split(separator: "/", omittingEmptySubsequences: false).last ?? ""
    guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
    let ext = name[name.index(after: dot)...].lowercased()
    return extensions.first { $0.name == ext }?.format
  }

  /// The extension of `format`: `-o`'s format, when it is one a file takes, else `csv`.
  static func fileExtension(_ format: OutputFormat) -> String {
    extensions.first { $0.format == format }?.name ?? "csv"
  }

  /// The name an export offers: the view's name, else the file's without its extension, then
  /// today's date and the extension (`grn-2024-06-12.csv`).
  static func defaultName(source: String, today: String, format: OutputFormat) -> String {
    let file = source.split(separator: "/").last.map(String.init) ?? source
    let stem = file.firstIndex(of: ".").map { String(file[..<$0]) } ?? file
    let base = stem.isEmpty ? "export" : stem
    return (today.isEmpty ? base : base + "-" + today) + "." + fileExtension(format)
  }
}
