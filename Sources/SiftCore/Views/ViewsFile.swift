/// The views file (Docs/Views.md, The views file): named views, in file order.
///
///     { "views": { "grn": { "title": "GRN List", "source": "grn.csv", "sort": "-date", … } } }
///
/// The JSON is checked with the readers' strict scanner (`JSONValidator`) and walked with
/// `JSONPath`; every query-like text (`query`, `sort`, `badge`, fast filters) is parsed when
/// the file is read, so a mistake is reported with the file, the view and the key.
public struct ViewsFile: Sendable {
  /// The path the file was read from; `source` paths are relative to its folder.
  public var path: String
  /// The file's own `title` (`"Warehouse"`): the heading of the views digest (Docs/Reports.md).
  public var title: String?
  public var views: [View]

  public init(path: String, title: String? = nil, views: [View]) {
    self.path = path
    self.title = title
    self.views = views
  }

  /// The view called `name`.
  public func view(named name: String) -> View? {
    views.first { $0.name == name }
  }

  /// The keys a view may have.
  static let viewKeys = [
    "title", "source", "sort", "sortOptions", "query", "fastFilters", "labels", "badge", "key",
  ]

  /// Parses the bytes of the views file at `path`.
  public static func parse(_ bytes: [UInt8], path: String) throws(ViewsFileError) -> ViewsFile {
    do throws(InputError) { try JSONValidator.validate(bytes, name: path) } catch {
      throw ViewsFileError(
        file: path, line: error.line, column: error.column, message: error.message)
    }
    return try bytes.withUnsafeBufferPointer { all throws(ViewsFileError) in
      var start = 0
      var end = all.count
      if all.count >= 3 && all[0] == 0xEF && all[1] == 0xBB && all[2] == 0xBF { start = 3 }
      while start < end, all[start].isJSONWhitespace { start += 1 }
      while end > start, all[end - 1].isJSONWhitespace { end -= 1 }
      let reader = ViewsFileReader(bytes: all, path: path)
      let root = FieldValue(raw: UnsafeBufferPointer(rebasing: all[start..<end]), encoding: .json)
      var title: String?
      let views = try reader.views(in: root, title: &title)
      return ViewsFile(path: path, title: title, views: views)
    }
  }
}

/// Walks the validated JSON of a views file and builds the views, reporting the first mistake.
private struct ViewsFileReader {
  let bytes: UnsafeBufferPointer<UInt8>
  let path: String

  /// The folder `source` paths are relative to, with its trailing `/` (empty for the current one).
  var folder: String {
    guard let slash = path.lastIndex(of: "/") else { return "" }
    return String(path[...slash])
  }

  func views(in root: FieldValue, title: inout String?) throws(ViewsFileError) -> [View] {
    guard isObject(root) else {
      throw error(at: root, message: "expected an object with a \"views\" object")
    }
    var views: [View] = []
    var names = Set<String>()
    var found = false
    var fileTitle: String?
    try members(of: root) { key, value throws(ViewsFileError) in
      if key == "title" {
        guard value.form == .jsonString else {
          throw error(at: value, message: "the file's \"title\" must be a string")
        }
        fileTitle = value.string
        return
      }
      guard key == "views" else {
        throw error(
          at: value, message: "unknown key '\(key)'; the file holds \"views\" and a \"title\"")
      }
      guard isObject(value) else {
        throw error(at: value, key: "views", message: "expected an object of named views")
      }
      found = true
      try members(of: value) { name, body throws(ViewsFileError) in
        // A set, not a search of the views so far: a file of many views reads in linear time
        // (Docs/Performance.md, Bounds).
        guard names.insert(name).inserted else {
          throw error(at: body, view: name, message: "the view is defined twice")
        }
        views.append(try view(name, body))
      }
    }
    guard found else { throw error(at: root, message: "expected a \"views\" object") }
    title = fileTitle
    return views
  }

  private func view(_ name: String, _ body: FieldValue) throws(ViewsFileError) -> View {
    guard !name.isEmpty, !name.contains(where: \.isWhitespace) else {
      throw error(
        at: body, view: name, message: "a view name must be one word (it is run as @NAME)")
    }
    guard isObject(body) else {
      throw error(at: body, view: name, message: "expected an object (title, source, sort, …)")
    }
    var view = View(
      name: name, title: nil, source: nil, sort: nil, sortOptions: [],
      query: (text: "", parsed: Query()), fastFilters: [], labels: [:], badge: nil)
    var seen = Set<String>()
    try members(of: body) { key, value throws(ViewsFileError) in
      guard ViewsFile.viewKeys.contains(key) else {
        let near = ViewsFile.viewKeys.first {
          FieldResolver.normalize($0) == FieldResolver.normalize(key)
        }
        throw error(
          at: value, view: name,
          message: "unknown key '\(key)'" + (near.map { "; did you mean '\($0)'?" } ?? ""),
          details: ["keys: " + ViewsFile.viewKeys.joined(separator: ", ")])
      }
      guard seen.insert(key).inserted else {
        throw error(at: value, view: name, key: key, message: "the key is given twice")
      }
      let field = Field(reader: self, view: name, key: key, value: value)
      switch key {
      case "title": view.title = try field.string()
      case "key": view.key = try field.string()
      case "source": view.source = folderRelative(try field.string())
      case "sort":
        let text = try field.string()
        let parsed = try field.query("sort:" + text)
        guard parsed.filter == nil, parsed.directives.map(\.kind) == [.sort]
        else { throw field.error("expected sort keys, like \"-date\" or \"-date,grn_no\"") }
        view.sort = (text, parsed.sort)
      case "sortOptions": view.sortOptions = try field.strings()
      case "query":
        let text = try field.string()
        view.query = (text, try field.query(text))
      case "fastFilters":
        var filters: [FastFilter] = []
        for text in try field.strings() { filters.append(try field.fastFilter(text)) }
        view.fastFilters = filters
      case "labels":
        guard isObject(value) else { throw field.error("expected an object of field → label") }
        try members(of: value) { fieldName, label throws(ViewsFileError) in
          guard label.form == .jsonString else {
            throw error(
              at: label, view: name, key: key,
              message: "the label of '\(fieldName)' must be a string")
          }
          view.labels[fieldName] = label.string
        }
      default:  // "badge"
        let text = try field.string()
        view.badge = (text, try field.query(text))
      }
    }
    if view.badge != nil && view.source == nil {
      throw error(
        at: body, view: name, key: "badge", message: "a badge needs a \"source\" to count")
    }
    return view
  }

  private func folderRelative(_ source: String) -> String {
    source.hasPrefix("/") ? source : folder + source
  }

  /// One key of one view, for typed reading and errors that name both.
  private struct Field {
    let reader: ViewsFileReader
    let view: String
    let key: String
    let value: FieldValue

    func error(_ message: String) -> ViewsFileError {
      reader.error(at: value, view: view, key: key, message: message)
    }

    func string() throws(ViewsFileError) -> String {
      guard value.form == .jsonString else { throw error("expected a string") }
      return value.string
    }

    func strings() throws(ViewsFileError) -> [String] {
      guard value.form == .jsonNested, value.raw.first == .openBracket else {
        throw error("expected an array of strings")
      }
      var out: [String] = []
      var wrong = false
      JSONPath.forEachElement(of: value) { element in
        if element.form == .jsonString { out.append(element.string) } else { wrong = true }
      }
      if wrong { throw error("expected an array of strings") }
      return out
    }

    /// `text` parsed as a query; an error shows `text` with a caret.
    func query(_ text: String) throws(ViewsFileError) -> Query {
      do throws(QueryError) { return try Parser.parse(text) } catch {
        throw textError(text, error.message, at: error.span, notes: error.notes)
      }
    }

    /// A field name, or (with a `:`) one complete filter term.
    func fastFilter(_ text: String) throws(ViewsFileError) -> FastFilter {
      guard text.contains(":") else {
        guard !text.isEmpty else { throw error("a fast filter cannot be empty") }
        return .field(FieldName(text, span: Span(0, text.utf8.count)), text: text)
      }
      let parsed = try query(text)
      guard let term = parsed.filter, parsed.topLevelFilters.count == 1, parsed.directives.isEmpty
      else {
        throw textError(
          text, "a fast filter is a field name or one filter term, like \"status:received\"",
          at: Span(0, 0))
      }
      return .term(term, text: text)
    }

    func textError(_ text: String, _ message: String, at span: Span?, notes: [String] = [])
      -> ViewsFileError
    {
      let (line, column) = reader.position(of: value)
      return ViewsFileError(
        file: reader.path, line: line, column: column, view: view, key: key, text: text,
        message: message, span: span, notes: notes)
    }
  }

  // MARK: - JSON helpers

  private func isObject(_ v: FieldValue) -> Bool {
    v.form == .jsonNested && v.raw.first == .openBrace
  }

  /// Calls `body` with each member's decoded key and value, in file order.
  private func members(
    of object: FieldValue, _ body: (String, FieldValue) throws(ViewsFileError) -> Void
  ) throws(ViewsFileError) {
    var failure: ViewsFileError?
    JSONPath.forEachMember(of: object) { key, value in
      guard failure == nil else { return }
      do throws(ViewsFileError) {
        try body(String(decoding: JSONString.unescape(key), as: UTF8.self), value)
      } catch {
        failure = error
      }
    }
    if let failure { throw failure }
  }

  /// The 1-based line and column of a value in the file.
  func position(of v: FieldValue) -> (line: Int, column: Int) {
    guard let at = v.raw.baseAddress, let base = bytes.baseAddress else { return (0, 0) }
    let e = LineCursor().error(at: at - base, in: bytes, name: path, "")
    return (e.line, e.column)
  }

  func error(
    at v: FieldValue, view: String? = nil, key: String? = nil, message: String,
    details: [String] = []
  ) -> ViewsFileError {
    let (line, column) = position(of: v)
    return ViewsFileError(
      file: path, line: line, column: column, view: view, key: key, message: message,
      details: details)
  }
}

extension ViewsFile {
  /// The view name nearest to `name` by edit distance, if one is close.
  public func suggestion(for name: String) -> String? {
    FieldResolver(schema: Schema(names: [])).closest(to: name, among: views.map(\.name))
  }
}
