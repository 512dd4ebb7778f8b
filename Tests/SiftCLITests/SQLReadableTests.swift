import Foundation
import SiftCore
import Testing

/// Docs/Engines.md, Readable statements: `--sql` writes one common table expression per stage,
/// each rule once as a named column, and comments naming the sift term each part comes from,
/// which no term can break out of.
@Suite struct SQLReadableTests {
  static let grn = SQLDifferentialTests.grn

  static func statement(_ dialect: SQLDialect, _ query: String, _ more: [String] = []) -> String {
    let result = sift(
      ["--sql", dialect.rawValue, "-q"] + (dialect == .trino ? ["--table", "grn"] : []) + more
        + ["--", query, grn])
    #expect(result.status == .matched, "\(query): \(result.stderr)")
    return result.text
  }

  /// How many times `needle` is in `text`.
  static func count(_ needle: String, in text: String) -> Int {
    text.components(separatedBy: needle).count - 1
  }

  /// A filter, a filter and a sort: the stages in order, each derived column named for its
  /// field, each rule written once, a comment per term, and well under 5 KB on DuckDB.
  @Test(arguments: [SQLDialect.duckdb, .postgres, .spark, .clickhouse, .trino])
  func threeTermsReadInStages(dialect: SQLDialect) throws {
    let text = Self.statement(dialect, "status:received qty:>10 sort:-date")
    let q = dialect == .spark || dialect == .clickhouse ? "`" : "\""
    let stages = ["WITH source AS (", "typed AS (", "filtered AS (", "\nSELECT "]
    let at = stages.map { text.range(of: $0)?.lowerBound }
    #expect(at.allSatisfy { $0 != nil }, "\(text)")
    #expect(at.compactMap { $0 } == at.compactMap { $0 }.sorted(), "stages out of order: \(text)")
    for name in ["qty_number", "date_number", "date_key"] {
      #expect(Self.count("AS \(q)\(name)\(q)", in: text) == 1, "\(name): \(text)")
    }
    let tokens = try SQLTokens(text, dialect: dialect)
    for term in ["status:received", "qty:>10", "sort:-date", "input order"] {
      #expect(tokens.comments.contains(term), "\(term): \(tokens.comments)")
    }
    // The number grammar once per field read as a number, the date pattern once.
    #expect(Self.count("[0-9]{1,3}(,[0-9]{3})+", in: text) == 2, "\(text)")
    #expect(Self.count("(0[13578]|1[02])-(0[1-9]", in: text) == 1, "\(text)")
    if dialect == .duckdb { #expect(text.utf8.count < 4_000, "\(text.utf8.count) bytes") }
  }

  /// A stage with nothing to do is left out: no `typed` without a derived column, no
  /// `filtered` without a filter.
  @Test func emptyStagesAreLeftOut() {
    let all = Self.statement(.duckdb, "")
    #expect(all.hasPrefix("WITH source AS (") && !all.contains("typed AS") && !all.contains("filtered AS"), "\(all)")
    let text = Self.statement(.duckdb, "status:received", ["-c"])
    #expect(!text.contains("typed AS") && text.contains("filtered AS"), "\(text)")
  }

  /// A table named like a stage (`main.Source`) is read by its name; the stages take `sift_`
  /// names, so none of them hides it.
  @Test func aTableNamedLikeAStageIsNotHidden() {
    let result = sift(["--sql", "duckdb", "--table", "main.Source", "-q", "--", "qty:>1", Self.grn])
    #expect(result.text.hasPrefix("WITH sift_source AS ("), "\(result.text)")
    #expect(result.text.contains("FROM \"main\".\"Source\"\n),\nsift_typed AS ("), "\(result.text)")
    #expect(!result.text.contains("\nsource AS") && !result.text.contains("FROM source"), "\(result.text)")
  }

  /// The double-column summary: the group values and each field's exact total computed once
  /// (the sum and the mean of a field share DuckDB's; its parts summed once per row, in
  /// `partial`, and merged once per group), a fraction of the size the nested
  /// statements had (DuckDB 16,088 bytes, Spark 23,888, ClickHouse 121,096; Spark's exact mean,
  /// rounded half to even by hand, is most of its 11 KB).
  @Test(arguments: [(SQLDialect.duckdb, 12_000), (.spark, 12_000), (.clickhouse, 19_000), (.postgres, 7_500)])
  func summariesComputeEachTotalOnce(dialect: SQLDialect, bound: Int) throws {
    let text = Self.statement(dialect, "group:customer,status sum:amount avg:amount")
    #expect(text.utf8.count < bound, "\(text.utf8.count) bytes")
    #expect(text.contains("grouped AS ("), "\(text)")
    let tokens = try SQLTokens(text, dialect: dialect)
    for term in ["group:customer", "group:status", "sum:amount", "avg:amount"] {
      #expect(tokens.comments.contains(term), "\(term): \(tokens.comments)")
    }
    if dialect == .duckdb {
      // Summed once per row (`partial`, the groups as read), merged once per group.
      #expect(Self.count("AS \"amount_total\"", in: text) == 1, "\(text)")
      #expect(Self.count("AS \"amount_units\"", in: text) == 1, "\(text)")
      #expect(Self.count("sum(CASE", in: text) == 1, "\(text)")
      #expect(Self.count("sum(\"amount_units\")", in: text) == 1, "\(text)")
      #expect(text.contains("partial AS ("), "\(text)")
    }
  }

  /// Terms holding a line break, `*/`, `--`, a quote or a trailing backslash stay inside their
  /// comment: every dialect's lexer reads the statement as sift wrote it, and DuckDB's answer
  /// is sift's own.
  @Test(arguments: SQLDialect.allCases)
  func aTermCannotBreakOutOfItsComment(dialect: SQLDialect) throws {
    let hostile = ["a\n) SELECT 1 --", "b */ SELECT 2 /* c", "d\r\nDROP TABLE x;", "e\u{2028}f", "g'`;"]
    // A word ending in a backslash (Spark's lexer goes on to the next line after one).
    let queries = hostile.map { "item:\"" + $0 + "\" sort:qty" } + ["item:x\\ sort:qty"]
    for query in queries {
      do {
        let text = Self.statement(dialect, query)
        let tokens = try SQLTokens(text, dialect: dialect)
        #expect(tokens.statements == (dialect == .spark ? 2 : dialect == .postgres ? 3 : 1), "\(text)")
        #expect(!tokens.outside.contains("SELECT 1") && !tokens.outside.contains("SELECT 2"), "\(text)")
        #expect(!tokens.outside.contains("DROP"), "\(text)")
        #expect(tokens.comments.contains { $0.hasPrefix("item:") }, "\(tokens.comments)")
        for comment in tokens.comments {
          #expect(!comment.contains("\n") && !comment.contains("\r"), "\(comment)")
        }
        if dialect == .duckdb, SQLDifferentialTests.duckdb != nil {
          let answer = SQLDifferentialTests.runDuckDB(text, query)
          let own = sift(["-q", "-o", "csv", "--", query, Self.grn])
          #expect(CSVText.rows(answer) == CSVText.rows(own.text), "\(query): \(answer)")
        }
      }
    }
  }

  /// A field named like a derived column (`qty_number` beside `qty`) keeps its name; the
  /// derived column takes another (`qty_number_2`), and the answer is sift's.
  @Test(.enabled(if: SQLDifferentialTests.duckdb != nil, "duckdb is not installed"))
  func aFieldNamedLikeADerivedColumnKeepsItsName() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sift-readable-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("t.csv").path
    try "qty,QTY_NUMBER,qty_number_2\n5,x,y\n20,z,w\n1,0,0\n".write(toFile: file, atomically: true, encoding: .utf8)
    let query = "qty:>2 sort:-qty"
    let result = sift(["--sql", "duckdb", "--", query, file])
    #expect(result.text.contains("AS \"qty_number_3\""), "\(result.text)")
    let answer = SQLDifferentialTests.runDuckDB(result.text, query)
    let own = sift(["-q", "-o", "csv", "--", query, file])
    #expect(CSVText.rows(answer) == CSVText.rows(own.text), "\(answer)")
  }
}
