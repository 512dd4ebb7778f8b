import Testing

@testable import SiftCore

/// The views file of Docs/Views.md, The views file: what a view holds after reading, and errors that name the file,
/// the view and the key.
@Suite struct ViewsFileTests {
  func parse(_ text: String, path: String = "conf/sift.json") throws(ViewsFileError) -> ViewsFile {
    try ViewsFile.parse(Array(text.utf8), path: path)
  }

  func failure(_ text: String) -> ViewsFileError? {
    do throws(ViewsFileError) {
      _ = try parse(text)
      return nil
    } catch {
      return error
    }
  }

  @Test func readsEveryKeyOfTheSpecExample() throws {
    let file = try parse(
      """
      {
        "views": {
          "grn": {
            "title": "GRN List",
            "source": "data/grn.csv",
            "sort": "-date",
            "sortOptions": ["date", "grn_no"],
            "query": "status:received",
            "fastFilters": ["status", "customer", "updated:today"],
            "labels": { "grn_no": "GRN No" },
            "badge": "status:pending"
          },
          "orders": { "source": "/srv/orders.ndjson" }
        }
      }
      """)
    #expect(file.views.map(\.name) == ["grn", "orders"])
    let grn = try #require(file.view(named: "grn"))
    #expect(grn.title == "GRN List")
    #expect(grn.source == "conf/data/grn.csv", "relative to the views file")
    #expect(grn.sort?.text == "-date")
    #expect(grn.sort?.keys.map(\.field.name) == ["date"])
    #expect(grn.sort?.keys.map(\.descending) == [true])
    #expect(grn.sortOptions == ["date", "grn_no"])
    #expect(grn.query.parsed.canonicalForm == "(status = \"received\")")
    #expect(grn.fastFilters.map(\.text) == ["status", "customer", "updated:today"])
    if case .term = grn.fastFilters[2] {} else { Issue.record("a term with ':' is a whole term") }
    if case .field = grn.fastFilters[0] {} else { Issue.record("a bare name is a field") }
    #expect(grn.labels == ["grn_no": "GRN No"])
    #expect(grn.badge?.text == "status:pending")
    let orders = try #require(file.view(named: "orders"))
    #expect(orders.source == "/srv/orders.ndjson", "absolute sources stay as they are")
    #expect(orders.displayTitle == "orders", "a view without a title shows its name")
    #expect(orders.sort == nil && orders.badge == nil && orders.fastFilters.isEmpty)
  }

  @Test func syntaxErrorsGiveTheJSONPosition() throws {
    let error = try #require(failure("{\n  \"views\": {\n    \"a\": {}\n    \"b\": {}\n  }\n}"))
    #expect(
      error.rendered == "sift: conf/sift.json:4:5: expected ',' or '}' after an object member\n")
  }

  @Test(arguments: [
    (
      #"{"views": {"v": {"sort": 1}}}"#,
      "sift: conf/sift.json:1:26: view 'v', key 'sort': expected a string\n"
    ),
    (
      #"{"views": {"v": {"fastFilters": ["a", 2]}}}"#,
      "sift: conf/sift.json:1:33: view 'v', key 'fastFilters': expected an array of strings\n"
    ),
    (
      #"{"views": {"v": {"labels": {"a": 1}}}}"#,
      "sift: conf/sift.json:1:34: view 'v', key 'labels': the label of 'a' must be a string\n"
    ),
    (
      #"{"views": {"v": {"badge": "x:1"}}}"#,
      "sift: conf/sift.json:1:17: view 'v', key 'badge': a badge needs a \"source\" to count\n"
    ),
    (
      #"{"views": {"v": {"title": "a", "title": "b"}}}"#,
      "sift: conf/sift.json:1:41: view 'v', key 'title': the key is given twice\n"
    ),
    (
      #"{"views": {"v": {}, "v": {}}}"#,
      "sift: conf/sift.json:1:26: view 'v': the view is defined twice\n"
    ),
    (
      #"{"views": {"a b": {}}}"#,
      "sift: conf/sift.json:1:19: view 'a b': a view name must be one word (it is run as @NAME)\n"
    ),
    (
      #"{"views": []}"#,
      "sift: conf/sift.json:1:11: key 'views': expected an object of named views\n"
    ),
    (
      #"{"view": {}}"#,
      "sift: conf/sift.json:1:10: unknown key 'view'; the file holds \"views\" and a \"title\"\n"
    ),
    (#"[]"#, "sift: conf/sift.json:1:1: expected an object with a \"views\" object\n"),
    (#"{}"#, "sift: conf/sift.json:1:1: expected a \"views\" object\n"),
  ])
  func mistakesNameTheFileTheViewAndTheKey(text: String, rendered: String) throws {
    #expect(try #require(failure(text)).rendered == rendered)
  }

  @Test func unknownKeysSuggestTheNearOne() throws {
    let error = try #require(failure(#"{"views": {"v": {"Fast-Filters": []}}}"#))
    #expect(error.message == "unknown key 'Fast-Filters'; did you mean 'fastFilters'?")
    #expect(
      error.details == ["keys: title, source, sort, sortOptions, query, fastFilters, labels, badge, key"]
    )
  }

  @Test func queryErrorsPointIntoTheirOwnText() throws {
    let error = try #require(failure("{\"views\": {\"v\": {\n  \"query\": \"a (b\"}}}"))
    #expect(
      error.rendered == """
        sift: conf/sift.json:2:12: view 'v', key 'query': unclosed '(': expected ')'
          a (b
            ^

        """)
  }

  @Test(arguments: ["-date customer", "-date limit:3", "", "date,"])
  func sortMustBeSortKeysOnly(sort: String) throws {
    let error = try #require(failure(#"{"views": {"v": {"sort": "\#(sort)"}}}"#))
    #expect(error.key == "sort")
  }

  @Test(arguments: ["a:1 b:2", "sort:date", "a:1 limit:3", "(a:1 b:2)"])
  func aTermFastFilterIsOneTermWithoutDirectives(filter: String) throws {
    let error = try #require(failure(#"{"views": {"v": {"fastFilters": ["\#(filter)"]}}}"#))
    #expect(error.key == "fastFilters")
    #expect(error.message.hasPrefix("a fast filter is a field name or one filter term"))
  }

  @Test func aByteOrderMarkAndEscapesAreRead() throws {
    let file = try ViewsFile.parse(
      [0xEF, 0xBB, 0xBF] + Array(#" {"views": {"gr\u006e": {"title": "Caf\u00e9 \"A\""}}} "#.utf8),
      path: "sift.json")
    #expect(file.views.first?.name == "grn")
    #expect(file.views.first?.title == "Café \"A\"")
    #expect(file.views.first?.source == nil)
  }

  @Test func nearestViewNameIsSuggested() throws {
    let file = try parse(#"{"views": {"grn": {}, "orders": {}}}"#)
    #expect(file.suggestion(for: "grm") == "grn")
    #expect(file.suggestion(for: "zzzzzzzz") == nil)
  }
}
