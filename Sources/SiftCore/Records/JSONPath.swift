/// Nested JSON fields by dotted path (Docs/QueryLanguage.md, Filter terms: `customer.name:acme`; a term on an array field
/// matches when any element matches). Works on the raw text of a value the reader has checked;
/// text that is not well-formed yields nothing rather than an error.
public enum JSONPath {
  /// Appends the values at `path` inside `value` to `out`. Each key is looked up in an object
  /// (the last of duplicate keys wins); an array met on the way, or at the end, fans out over its
  /// elements. An empty path means `value` itself (its elements, if it is an array).
  public static func values(
    at path: ArraySlice<String>, in value: FieldValue, into out: inout [FieldValue]
  ) {
    visit(path, in: value, depth: 0) {
      out.append($0)
      return false
    }
  }

  /// Whether any value at `path` inside `value` passes `test` (arrays fan out as in `values`),
  /// without collecting them; stops at the first that passes.
  public static func anyValue(
    at path: ArraySlice<String>, in value: FieldValue, where test: (FieldValue) -> Bool
  ) -> Bool {
    visit(path, in: value, depth: 0, test)
  }

  /// The first value at `path` inside `value`, if any.
  public static func first(at path: ArraySlice<String>, in value: FieldValue) -> FieldValue? {
    var found: FieldValue?
    visit(path, in: value, depth: 0) {
      found = $0
      return true
    }
    return found
  }

  /// The value of member `key` of an object (the last, if the key repeats), else `nil`.
  public static func member(_ key: String, of value: FieldValue) -> FieldValue? {
    guard value.form == .jsonNested, value.raw.first == .openBrace else { return nil }
    let wanted = Array(key.utf8)
    var found: FieldValue?
    forEachMember(of: value) { name, member in
      if keyEquals(name, wanted) { found = member }
    }
    return found
  }

  /// The elements of an array (none when `value` is not an array).
  public static func elements(of value: FieldValue) -> [FieldValue] {
    var out: [FieldValue] = []
    forEachElement(of: value) { out.append($0) }
    return out
  }

  /// The dotted paths of the leaves inside an object or array value, relative to it, in
  /// first-seen order: `{"name": "Acme", "address": {"city": "Oslo"}}` gives `name`,
  /// `address.city`; an array of objects gives the union of its elements' paths. A leaf is a
  /// scalar, an array without objects, or an empty object.
  public static func nestedPaths(of value: FieldValue) -> [String] {
    var paths: [String] = []
    var seen: Set<String> = []
    addPaths(of: value, prefix: "", into: &paths, seen: &seen, depth: 0)
    return paths
  }

  /// Calls `body` with each value at `path`; stops, returning true, when `body` returns true.
  @discardableResult
  private static func visit(
    _ path: ArraySlice<String>, in value: FieldValue, depth: Int, _ body: (FieldValue) -> Bool
  ) -> Bool {
    guard depth < JSONScanner.maxDepth else { return false }
    if value.form == .jsonNested && value.raw.first == .openBracket {
      var stopped = false
      var any = false
      forEachElement(of: value) { element in
        any = true
        if !stopped { stopped = visit(path, in: element, depth: depth + 1, body) }
      }
      // An empty array is one empty value, so `tags:""` and `-has:tags` agree.
      return any ? stopped : body(value)
    }
    guard let key = path.first else { return body(value) }
    guard let next = member(key, of: value) else { return false }
    return visit(path.dropFirst(), in: next, depth: depth + 1, body)
  }

  private static func addPaths(
    of value: FieldValue, prefix: String, into paths: inout [String], seen: inout Set<String>,
    depth: Int
  ) {
    func add(_ path: String) {
      if seen.insert(path).inserted { paths.append(path) }
    }
    guard depth < JSONScanner.maxDepth, value.form == .jsonNested else {
      if !prefix.isEmpty { add(prefix) }
      return
    }
    var isLeaf = true
    if value.raw.first == .openBrace {
      forEachMember(of: value) { name, member in
        isLeaf = false
        let key = String(decoding: JSONString.unescape(name), as: UTF8.self)
        let path = prefix.isEmpty ? key : prefix + "." + key
        addPaths(of: member, prefix: path, into: &paths, seen: &seen, depth: depth + 1)
      }
    } else {
      forEachElement(of: value) { element in
        if element.form == .jsonNested {
          isLeaf = false
          addPaths(of: element, prefix: prefix, into: &paths, seen: &seen, depth: depth + 1)
        }
      }
    }
    if isLeaf && !prefix.isEmpty { add(prefix) }
  }

  /// Calls `body` with each member's key (between its quotes, escapes not decoded) and value.
  static func forEachMember(
    of value: FieldValue, _ body: (UnsafeBufferPointer<UInt8>, FieldValue) -> Void
  ) {
    let scanner = JSONScanner(value.raw, isLast: true)
    guard value.raw.first == .openBrace else { return }
    var p = scanner.skipWhitespace(from: 1)
    while p < value.raw.count && value.raw[p] == .quote {
      guard let (nameEnd, start) = try? scanner.scanMemberName(at: p),
        let end = try? scanner.scanValue(at: start, depth: 1)
      else { return }
      body(
        UnsafeBufferPointer(rebasing: value.raw[(p + 1)..<(nameEnd - 1)]),
        FieldValue(raw: UnsafeBufferPointer(rebasing: value.raw[start..<end]), encoding: .json))
      p = scanner.skipWhitespace(from: end)
      guard p < value.raw.count, value.raw[p] == .comma else { return }
      p = scanner.skipWhitespace(from: p + 1)
    }
  }

  /// Calls `body` with each element of an array.
  static func forEachElement(of value: FieldValue, _ body: (FieldValue) -> Void) {
    let scanner = JSONScanner(value.raw, isLast: true)
    guard value.form == .jsonNested, value.raw.first == .openBracket else { return }
    var p = scanner.skipWhitespace(from: 1)
    while p < value.raw.count && value.raw[p] != .closeBracket {
      guard let end = try? scanner.scanValue(at: p, depth: 1) else { return }
      body(FieldValue(raw: UnsafeBufferPointer(rebasing: value.raw[p..<end]), encoding: .json))
      p = scanner.skipWhitespace(from: end)
      guard p < value.raw.count, value.raw[p] == .comma else { return }
      p = scanner.skipWhitespace(from: p + 1)
    }
  }

  /// True when a key as written (between its quotes) means `wanted`.
  private static func keyEquals(_ name: UnsafeBufferPointer<UInt8>, _ wanted: [UInt8]) -> Bool {
    name.contains(.backslash) ? JSONString.unescape(name) == wanted : name.elementsEqual(wanted)
  }
}
