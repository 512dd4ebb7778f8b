/// A statement written as one common table expression per stage (Docs/Engines.md, Readable
/// statements): `source` (the reader), `nested` (nested JSON fields' values), `typed` (the
/// derived columns), `filtered` (the WHERE),
/// `partial` (groups as read), `grouped`, `summary`, `numbered`, each reading the one before it, and a final query that
/// reads the last. A stage is added only where it has work to do.
struct SQLStages {
  /// The stages so far: each one's name and its lines, indented as they are written.
  private(set) var stages: [(name: String, lines: [String])] = []
  /// What the next stage reads: the last stage's name.
  private(set) var last = ""
  /// `sift_` where a table the source reads has one of the stages' names, else nothing.
  let prefix: String

  /// The names of the stages.
  static let names: Set<String> = [
    "source", "nested", "typed", "filtered", "partial", "grouped", "summary", "numbered",
  ]

  /// What the statement ends with after its final query (`SETTINGS …`: SQLSource.settings).
  let settings: String?

  /// Stages for a statement over `source`, whose own name (a table's) must not be a stage's,
  /// ended with `settings`.
  init(source: SQLSource, settings: String?) {
    self.settings = settings
    var clash = false
    if case .table(let name) = source {
      let last = name.split(separator: ".").last.map { $0.lowercased() } ?? ""
      clash = SQLStages.names.contains(last)
    }
    prefix = clash ? "sift_" : ""
  }

  /// Adds the stage `name` (`typed`), whose lines are written inside its parentheses.
  mutating func add(_ name: String, _ lines: [String]) {
    stages.append((prefix + name, lines))
    last = prefix + name
  }

  /// The stage `name` as the statement names it.
  func name(_ name: String) -> String { prefix + name }

  /// The statement: `WITH` and the stages, then `final`.
  func statement(_ final: String) -> String {
    let final = settings.map { final + "\n" + $0 } ?? final
    guard !stages.isEmpty else { return final }
    let written = stages.map { stage in
      "\(stage.name) AS (\n" + stage.lines.map { "  " + $0 }.joined(separator: "\n") + "\n)"
    }
    return "WITH " + written.joined(separator: ",\n") + "\n" + final
  }

  /// `SELECT` of the relation's columns and `columns` (each `expression AS name`, after its
  /// comment lines), from `relation`.
  static func select(adding columns: [[String]], from relation: String) -> [String] {
    guard !columns.isEmpty else { return ["SELECT *", "FROM \(relation)"] }
    return ["SELECT *,"] + list(columns) + ["FROM \(relation)"]
  }

  /// Items (columns, sort keys) one a line, indented, each after its comment lines, a comma
  /// after each but the last.
  static func list(_ items: [[String]]) -> [String] {
    var lines: [String] = []
    for (i, item) in items.enumerated() {
      let last = item.count - 1
      for (j, line) in item.enumerated() {
        lines.append("  " + line + (j == last && i < items.count - 1 ? "," : ""))
      }
    }
    return lines
  }
}
