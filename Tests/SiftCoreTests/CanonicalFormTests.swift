import Testing

@testable import SiftCore

@Suite struct CanonicalFormTests {
  @Test(arguments: [
    (
      "status:received customer:\"Acme\" sort:-date group:customer",
      "(status = \"received\") AND (customer = \"Acme\") sort: date desc group: customer"
    ),
    (
      "qty:10..50 -status:cancelled,quality-hold",
      "(qty = 10..50) AND NOT (status = \"cancelled\",quality-hold)"
    ),
    (
      "(status:pending OR qty:0) date:this-week",
      "((status = \"pending\") OR (qty = 0)) AND (date = this-week)"
    ),
    ("status:received sort:-date", "(status = \"received\") sort: date desc"),
    ("", ""),
    (
      "limit:0 fields:grn_no,\"GRN No\" sort:a,-b",
      "sort: a asc, b desc limit: 0 fields: grn_no, \"GRN No\""
    ),
    ("qty:>10 qty:<=5,>100", "(qty > 10) AND (qty = <=5,>100)"),
    (
      "customer:acme* item:/bolt\\s+m\\d+/i note:\"\"",
      "(customer = acme*) AND (item = /bolt\\s+m\\d+/i) AND (note = \"\")"
    ),
    (
      "date:*..2024-03 date:\"today\" date:today",
      "(date = *..2024-03) AND (date = \"today\") AND (date = today)"
    ),
    ("has:\"GRN No\" acme \"acme inc\" 42", "has:\"GRN No\" AND \"acme\" AND \"acme inc\" AND 42"),
    ("NOT (a OR b c) -d", "NOT (\"a\" OR (\"b\" AND \"c\")) AND NOT \"d\""),
    ("a OR (b OR c)", "\"a\" OR (\"b\" OR \"c\")"),
    (
      "\"sort\":x OR:y \"a b\":\"say \\\"hi\\\"\"",
      "(\"sort\" = \"x\") AND (\"OR\" = y) AND (\"a b\" = \"say \\\"hi\\\"\")"
    ),
    ("customer:Müller", "(customer = \"Müller\")"),
  ])
  func canonicalForm(query: String, expected: String) throws {
    #expect(try Parser.parse(query).canonicalForm == expected)
  }

  @Test(arguments: ParserTests.allForms)
  func canonicalFormParsesBackToTheSameQuery(query: String) throws {
    let parsed = try Parser.parse(query)
    let canonical = parsed.canonicalForm
    let reparsed = try Parser.parse(canonical)
    #expect(reparsed.isEquivalent(to: parsed), "\(canonical)")
    #expect(reparsed.canonicalForm == canonical)
  }

  @Test func equivalenceKeepsQuotingThatChangesMeaning() throws {
    #expect(
      try Parser.parse("status:received").isEquivalent(to: Parser.parse("status:\"received\"")))
    #expect(try !Parser.parse("date:today").isEquivalent(to: Parser.parse("date:\"today\"")))
    #expect(try !Parser.parse("qty:10").isEquivalent(to: Parser.parse("qty:\"10\"")))
    #expect(try !Parser.parse("a b").isEquivalent(to: Parser.parse("a OR b")))
  }
}
