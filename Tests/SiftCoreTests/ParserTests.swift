import Testing

@testable import SiftCore

/// Every form of Docs/QueryLanguage.md, as the outline of the parsed query (`Query.outline`).
@Suite struct ParserTests {
  /// Every table below: the forms the canonical-form and fuzz tests also run.
  static var allForms: [String] {
    (termsAndDirectives + lexicalForms + precedenceForms).map(\.0)
  }

  func outline(_ text: String) throws -> String {
    try Parser.parse(text).outline
  }

  static let termsAndDirectives: [(String, String)] = [
    // §2.3 filter terms, row by row
    ("status:received", "(field status (= received))"),
    ("status:received,pending", "(field status (= received) (= pending))"),
    ("qty:>10", "(field qty (> 10))"),
    ("qty:>=10", "(field qty (>= 10))"),
    ("qty:<10", "(field qty (< 10))"),
    ("qty:<=10", "(field qty (<= 10))"),
    ("qty:10..50", "(field qty (range 10 50))"),
    ("date:2024-01-01..2024-03-31", "(field date (range 2024-01-01 2024-03-31))"),
    ("qty:10..*", "(field qty (range 10 *))"),
    ("qty:*..50", "(field qty (range * 50))"),
    ("customer:acme*", "(field customer (glob \"acme*\"))"),
    ("sku:*-00*", "(field sku (glob \"*-00*\"))"),
    (#"item:/bolt\s+m\d+/i"#, #"(field item (regex "bolt\\s+m\\d+" i))"#),
    ("item:/bolt/", "(field item (regex \"bolt\"))"),
    ("customer:\"\"", "(field customer (empty))"),
    ("has:customer", "(has customer)"),
    ("empty_stock:on", "(field empty_stock (= on))"),
    ("acme", "(text acme)"),
    ("\"acme inc\"", "(text \"acme inc\")"),
    ("date:today", "(field date (= today))"),
    ("-status:cancelled", "(not (field status (= cancelled)))"),
    ("NOT status:cancelled", "(not (field status (= cancelled)))"),
    ("a OR b", "(or (text a) (text b))"),
    ("(a OR b) c", "(and (or (text a) (text b)) (text c))"),
    ("qty:>10 qty:<100", "(and (field qty (> 10)) (field qty (< 100)))"),
    // §2.6 relative dates
    ("date:yesterday", "(field date (= yesterday))"),
    ("updated:this-week", "(field updated (= this-week))"),
    ("date:last-week", "(field date (= last-week))"),
    ("date:this-month", "(field date (= this-month))"),
    ("date:last-month", "(field date (= last-month))"),
    ("date:this-year", "(field date (= this-year))"),
    ("date:last-year", "(field date (= last-year))"),
    ("date:last-7d", "(field date (= last-7d))"),
    ("date:last-2w", "(field date (= last-2w))"),
    ("date:last-3m", "(field date (= last-3m))"),
    ("date:<this-month", "(field date (< this-month))"),
    ("date:last-week..today", "(field date (range last-week today))"),
    // §2.7 directives
    ("sort:date", "sort(date)"),
    ("sort:-date,customer", "sort(-date,customer)"),
    ("group:customer", "group(customer)"),
    ("limit:20", "limit(20)"),
    ("limit:0", "limit(0)"),
    ("fields:grn_no,date,customer", "fields(grn_no,date,customer)"),
    (
      "status:received sort:-date group:customer limit:5 fields:a,b",
      "(field status (= received)) sort(-date) group(customer) limit(5) fields(a,b)"
    ),
  ]

  @Test(arguments: termsAndDirectives)
  func filterTermsAndDirectives(query: String, expected: String) throws {
    #expect(try outline(query) == expected)
  }

  static let lexicalForms: [(String, String)] = [
    // §2.1 lexical rules
    ("", ""),
    ("   ", ""),
    ("a or b", "(and (text a) (text or) (text b))"),
    ("time:10:30", "(field time (= 10:30))"),
    ("\"GRN No\":42", "(field [GRN No] (= 42))"),
    ("'GRN No':42", "(field [GRN No] (= 42))"),
    (#"name:"say \"hi\"""#, #"(field name (= "say \"hi\""))"#),
    (#"name:'it\'s'"#, #"(field name (= "it's"))"#),
    (#"path:"a\\b""#, #"(field path (= "a\\b"))"#),
    ("customer:\"acme*\"", "(field customer (= \"acme*\"))"),
    ("qty:\">10\"", "(field qty (= \">10\"))"),
    ("qty:\"10..50\"", "(field qty (= \"10..50\"))"),
    ("date:\"today\"", "(field date (= \"today\"))"),
    ("qty:1..>5", "(field qty (range 1 >5))"),
    ("status:\"a b\",c", "(field status (= \"a b\") (= c))"),
    ("(status:received)", "(field status (= received))"),
    ("item:/a b (c)/ x", "(and (field item (regex \"a b (c)\")) (text x))"),
    ("item:/a\\/b/", "(field item (regex \"a\\\\/b\"))"),
    ("has:\"GRN No\"", "(has [GRN No])"),
    ("\"has\":x", "(field has (= x))"),
    ("\"sort\":x", "(field sort (= x))"),
    ("customer.name:acme", "(field customer.name (= acme))"),
    ("- x", "(and (text -) (text x))"),
    ("--x", "(not (not (text x)))"),
    ("sort:-\"GRN No\"", "sort(-[GRN No])"),
    // non-ASCII
    ("customer:Müller", "(field customer (= Müller))"),
    ("Kunde:Müller", "(field Kunde (= Müller))"),
    ("größe:>3", "(field größe (> 3))"),
    ("note:📦 🚚", "(and (field note (= 📦)) (text 🚚))"),
    ("\"名前\":\"東京\"", "(field 名前 (= \"東京\"))"),
    // canonical syntax
    ("(status = \"received\")", "(field status (= \"received\"))"),
    ("(qty > 10)", "(field qty (> 10))"),
    ("(qty = 10..50)", "(field qty (range 10 50))"),
    ("sort: date desc, customer asc", "sort(-date,customer)"),
    ("fields: a, b", "fields(a,b)"),
    ("group: customer limit: 3", "group(customer) limit(3)"),
  ]

  @Test(arguments: lexicalForms)
  func lexicalRules(query: String, expected: String) throws {
    #expect(try outline(query) == expected)
  }

  static let precedenceForms: [(String, String)] = [
    ("a b OR c", "(or (and (text a) (text b)) (text c))"),
    ("a OR b c", "(or (text a) (and (text b) (text c)))"),
    ("a AND b OR c AND d", "(or (and (text a) (text b)) (and (text c) (text d)))"),
    ("-a b", "(and (not (text a)) (text b))"),
    ("NOT a OR b", "(or (not (text a)) (text b))"),
    ("-(a OR b)", "(not (or (text a) (text b)))"),
    ("NOT(a)", "(not (text a))"),
    ("a OR b OR c", "(or (text a) (text b) (text c))"),
    ("a b c", "(and (text a) (text b) (text c))"),
    ("a (b c)", "(and (text a) (and (text b) (text c)))"),
    (
      "(status:pending OR qty:0) date:this-week",
      "(and (or (field status (= pending)) (field qty (= 0))) (field date (= this-week)))"
    ),
  ]

  @Test(arguments: precedenceForms)
  func precedence(query: String, expected: String) throws {
    #expect(try outline(query) == expected)
  }

  @Test func spansAreByteOffsets() throws {
    let query = try Parser.parse("customer:Müller -qty:>10 sort:-date")
    let parts = query.topLevelFilters
    #expect(parts.map(\.span) == [Span(0, 16), Span(17, 25)])
    guard case .term(.field(let name, let values, _)) = parts[0] else {
      Issue.record("expected a field term")
      return
    }
    #expect(name.span == Span(0, 8))
    #expect(values.map(\.span) == [Span(9, 16)])
    #expect(query.directives.map(\.kind) == [.sort])
    #expect(query.directives.map(\.span) == [Span(26, 36)])
    #expect(query.sort.map(\.field.span) == [Span(32, 36)])
  }
}
