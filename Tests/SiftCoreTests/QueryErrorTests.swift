import Testing

@testable import SiftCore

/// Every query error of Docs/QueryLanguage.md, Errors: its message and the byte the caret points at.
@Suite struct QueryErrorTests {
  func error(_ query: String) -> QueryError? {
    do {
      _ = try Parser.parse(query)
      return nil
    } catch {
      return error
    }
  }

  @Test(arguments: [
    ("status: customer:\"Acme\"", "expected a value after 'status:'", 7),
    ("status:", "expected a value after 'status:'", 7),
    ("status:a,", "expected a value after ','", 9),
    ("status:,a", "expected a value after 'status:'", 7),
    ("qty:>", "expected a value after '>'", 5),
    ("qty:<= ", "expected a value after '<='", 6),
    ("(qty > )", "expected a value after '>'", 7),
    ("qty:..5", "expected a value or '*' before '..'", 4),
    ("qty:5..", "expected a value or '*' after '..'", 7),
    ("status:\"a\"b", "expected ',' or a space after the value", 10),
    ("customer:\"Acme", "unclosed quote: expected a closing \"", 9),
    ("x 'it", "unclosed quote: expected a closing '", 2),
    ("\"acme\"inc", "expected a space after the closing quote", 6),
    (":x", "expected a field name before ':'", 0),
    ("a \"\":x", "expected a field name before ':'", 2),
    ("has:\"\"", "expected a field name after 'has:'", 4),
    ("sort:-\"\"", "expected a field name after '-'", 6),
    ("group:\"\"", "expected a field name after 'group:'", 6),
    ("group:,a", "expected a field name after 'group:'", 6),
    ("(status:a OR b", "unclosed '(': expected ')'", 0),
    ("a (b (c)", "unclosed '(': expected ')'", 2),
    ("a)", "unmatched ')': no '(' opens it", 1),
    ("()", "expected a term after '('", 1),
    ("OR", "expected a term before 'OR'", 0),
    ("OR a", "expected a term before 'OR'", 0),
    ("a OR", "expected a term after 'OR'", 4),
    ("a OR OR b", "expected a term after 'OR'", 4),
    ("(a OR) b", "expected a term after 'OR'", 5),
    ("AND a", "expected a term before 'AND'", 0),
    ("a AND", "expected a term after 'AND'", 5),
    ("a AND OR b", "expected a term after 'AND'", 5),
    ("NOT", "expected a term after 'NOT'", 3),
    ("a NOT OR b", "expected a term after 'NOT'", 5),
    ("item:/bolt m", "unclosed regex: expected a closing '/'", 5),
    ("item://", "expected a regex pattern between '/' and '/'", 6),
    ("item:/a/x", "unknown regex flag 'x': expected 'i' or nothing", 8),
    ("has:", "expected a field name after 'has:'", 4),
    ("has:a,b", "'has:' takes one field name; write one has: per field", 5),
    ("(sort:date)", "'sort:' must stand at the top level of the query, not inside parentheses", 1),
    (
      "a OR sort:date",
      "'sort:' cannot be part of an OR; it applies to the whole query, so write it outside the OR",
      5
    ),
    (
      "group:x OR a",
      "'group:' cannot be part of an OR; it applies to the whole query, so write it outside the OR",
      0
    ),
    (
      "a sort:date OR b",
      "'sort:' cannot be part of an OR; it applies to the whole query, so write it outside the OR",
      2
    ),
    ("-sort:date", "'sort:' cannot be negated; directives are not filters", 0),
    ("a NOT limit:5", "'limit:' cannot be negated; directives are not filters", 2),
    (
      "sort:a sort:b",
      "'sort:' may appear only once; list all keys in one, e.g. sort:-date,customer", 7
    ),
    ("group:a x group:b", "'group:' may appear only once; list all group fields in one, e.g. group:customer,status", 10),
    ("limit:1 limit:2", "'limit:' may appear only once; a query has one limit", 8),
    (
      "fields:a fields:b",
      "'fields:' may appear only once; list all fields in one, e.g. fields:date,customer", 9
    ),
    ("limit:-1", "expected a whole number (0 or more) after 'limit:', not '-1'", 6),
    ("limit:1.5", "expected a whole number (0 or more) after 'limit:', not '1.5'", 6),
    ("limit:ten", "expected a whole number (0 or more) after 'limit:', not 'ten'", 6),
    ("limit:", "expected a value after 'limit:'", 6),
    ("sort:-", "expected a field name after '-'", 6),
    ("sort:a,", "expected a field name after ','", 7),
    ("sort: date", "expected 'asc' or 'desc' after 'date'", 10),
    ("group:a,,b", "expected a field name after ','", 8),
    ("group:a,b,A", "group:A is named twice; name each group field once", 10),
    ("group:a,-b", "'group:' takes field names; to reverse the groups, sort by the group field: group:FIELD sort:-FIELD", 8),
    ("limit:3/grp", "expected 'group' after '3/', not 'grp'", 8),
    ("limit:0/group", "limit:0/group would keep no record of any group", 6),
    ("limit:x/group", "expected a whole number (0 or more) after 'limit:', not 'x'", 6),
    ("fields:a,", "expected a field name after ','", 9),
    ("fields: a,", "expected a field name after ','", 10),
    ("qty>10", "'qty>10' is not a sift comparison: did you mean qty:>10?", 0),
    ("a qty>=1.5", "'qty>=1.5' is not a sift comparison: did you mean qty:>=1.5?", 2),
    ("unit_price<5", "'unit_price<5' is not a sift comparison: did you mean unit_price:<5?", 0),
    ("status==received", "'status==received' is not a sift comparison: did you mean status:received?", 0),
    ("status=received", "'status=received' is not a sift comparison: did you mean status:received?", 0),
    ("status!=void", "'status!=void' is not a sift comparison: did you mean -status:void?", 0),
    ("a.b<>c", "'a.b<>c' is not a sift comparison: did you mean -a.b:c?", 0),
  ])
  func messageAndPosition(query: String, message: String, offset: Int) {
    let found = error(query)
    #expect(found?.message == message)
    #expect(found?.offset == offset)
  }

  /// Words that only resemble a comparison stay text searches.
  @Test(arguments: ["\"qty>10\"", "a->b", "10>5", "x>=", "a=>b", "?id=5", "e-mail", "<b>", "x=<y", "-b>", "qty >10"])
  func wordsThatAreNotForeignComparisonsStayText(query: String) {
    #expect(error(query) == nil)
  }

  @Test func nestingIsCappedAtTheParenthesisThatGoesTooDeep() {
    let found = error(String(repeating: "(", count: 300) + "a" + String(repeating: ")", count: 300))
    #expect(found?.message == "parentheses nested too deeply (the limit is 256)")
    #expect(found?.offset == 256)
    #expect(
      error(String(repeating: "(", count: 256) + "a" + String(repeating: ")", count: 256)) == nil)
  }

  @Test func negationsAreCapped() {
    let found = error(String(repeating: "-", count: 100_000) + "a")
    #expect(found?.message == "negations nested too deeply (the limit is 256)")
    #expect(found?.offset == 256)
    let mixed = error(
      String(repeating: "NOT (", count: 200) + "a" + String(repeating: ")", count: 200))
    #expect(mixed?.message == "negations nested too deeply (the limit is 256)")
    #expect(mixed?.offset == 128 * 5)
  }

  @Test func rendersAsSpecExample() throws {
    let query = "status: customer:\"Acme\""
    let found = try #require(error(query))
    #expect(
      found.rendered(against: query) == """
        sift: query error: expected a value after 'status:'
          status: customer:"Acme"
                 ^

        """)
  }

  @Test func caretLinesUpAfterNonASCIIText() throws {
    let query = "customer:Müller 📦 qty:>"
    let found = try #require(error(query))
    #expect(
      found.rendered(against: query) == """
        sift: query error: expected a value after '>'
          customer:Müller 📦 qty:>
                                  ^

        """)
  }

  @Test func rendersOnlyTheLineOfTheCaretAndNotes() {
    let found = QueryError(
      "unknown field 'custmer'; did you mean 'customer'?", at: Span(10, 17),
      notes: ["fields: grn_no, date, customer"])
    #expect(
      found.rendered(against: "a:1\n\tx:2  custmer:x") == """
        sift: query error: unknown field 'custmer'; did you mean 'customer'?
           x:2  custmer:x
                ^
        fields: grn_no, date, customer

        """)
  }
}

@Suite struct LongQueryEchoTests {
  @Test func aVeryLongQueryIsEchoedAsAWindowAroundTheCaret() throws {
    let query = String(repeating: "a:1 ", count: 5_000) + "b: " + String(repeating: "c:2 ", count: 5_000)
    do {
      _ = try Parser.parse(query)
      Issue.record("expected an error")
    } catch {
      let lines = error.rendered(against: query).split(separator: "\n", omittingEmptySubsequences: false)
      #expect(lines[0] == "sift: query error: expected a value after 'b:'")
      #expect(lines[1].count <= 110)
      #expect(lines[1].hasPrefix("  …") && lines[1].hasSuffix("…"))
      let caret = try #require(lines[2].firstIndex(of: "^"))
      let column = lines[2].distance(from: lines[2].startIndex, to: caret)
      let echoed = Array(lines[1])
      #expect(echoed[column - 2] == "b" && echoed[column - 1] == ":")  // the caret stands just past `b:`
    }
  }
}
