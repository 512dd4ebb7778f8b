/// Walks nested JSON values that a reader has already validated: dotted paths reach into objects,
/// and arrays fan out, so a term on an array matches when any element does (SPEC §2.4).
enum JSONValues {
  /// Calls `body` with every value at `path` inside `value` (the value itself for an empty path),
  /// looking into arrays element by element; stops early when `body` returns true.
  @discardableResult
  static func visit(at path: ArraySlice<String>, in value: FieldValue, _ body: (FieldValue) -> Bool) -> Bool {
    if value.form == .jsonNested, value.raw.first == UInt8(ascii: "[") {
      return forEachElement(of: value) { visit(at: path, in: $0, body) }
    }
    guard let key = path.first else { return body(value) }
    guard value.form == .jsonNested, value.raw.first == UInt8(ascii: "{") else { return false }
    var member: FieldValue?
    forEachMember(of: value) { name, v in
      // The last duplicate wins, as for top-level fields.
      if name.elementsEqual(key.utf8) { member = v }
      return false
    }
    guard let member else { return false }
    return visit(at: path.dropFirst(), in: member, body)
  }

  /// Whether any value at `path` passes `test`.
  static func anyValue(at path: [String], in value: FieldValue, where test: (FieldValue) -> Bool) -> Bool {
    visit(at: path[...], in: value, test)
  }

  /// Calls `body` with each value at `path`.
  static func forEach(at path: [String], in value: FieldValue, _ body: (FieldValue) -> Void) {
    visit(at: path[...], in: value) { body($0); return false }
  }

  /// The first value at `path`, if any.
  static func first(at path: [String], in value: FieldValue) -> FieldValue? {
    var found: FieldValue?
    visit(at: path[...], in: value) { found = $0; return true }
    return found
  }

  /// The dotted paths of every member inside a nested value (through arrays), e.g. `name`,
  /// `address.city`, in first-seen order.
  static func nestedPaths(of value: FieldValue) -> [String] {
    var out: [String] = []
    var seen = Set<String>()
    func walk(_ v: FieldValue, prefix: String, depth: Int) {
      guard v.form == .jsonNested, depth < 64 else { return }
      if v.raw.first == UInt8(ascii: "[") {
        forEachElement(of: v) { walk($0, prefix: prefix, depth: depth + 1); return false }
        return
      }
      forEachMember(of: v) { name, member in
        let path = prefix.isEmpty ? String(decoding: name, as: UTF8.self) : prefix + "." + String(decoding: name, as: UTF8.self)
        if seen.insert(path).inserted { out.append(path) }
        walk(member, prefix: path, depth: depth + 1)
        return false
      }
    }
    walk(value, prefix: "", depth: 0)
    return out
  }

  // MARK: - Scanning validated JSON text

  /// Calls `body` with each element of an array; stops when it returns true.
  @discardableResult
  static func forEachElement(of array: FieldValue, _ body: (FieldValue) -> Bool) -> Bool {
    let b = array.raw
    var i = skipSpace(b, 1)
    while i < b.count, b[i] != UInt8(ascii: "]") {
      let end = skipValue(b, i)
      if body(slice(b, i, end)) { return true }
      i = skipSpace(b, end)
      if i < b.count, b[i] == UInt8(ascii: ",") { i = skipSpace(b, i + 1) }
    }
    return false
  }

  /// Calls `body` with each member's raw key (inside the quotes) and value.
  static func forEachMember(of object: FieldValue, _ body: (UnsafeBufferPointer<UInt8>, FieldValue) -> Bool) {
    let b = object.raw
    var i = skipSpace(b, 1)
    while i < b.count, b[i] == UInt8(ascii: "\"") {
      let keyEnd = skipValue(b, i)
      let keyValue = slice(b, i, keyEnd)
      i = skipSpace(b, keyEnd)
      guard i < b.count, b[i] == UInt8(ascii: ":") else { return }
      i = skipSpace(b, i + 1)
      let end = skipValue(b, i)
      if keyValue.isVerbatim {
        if body(keyValue.content, slice(b, i, end)) { return }
      } else {
        let decoded = keyValue.decodedBytes()
        let stop = decoded.withUnsafeBufferPointer { body($0, slice(b, i, end)) }
        if stop { return }
      }
      i = skipSpace(b, end)
      if i < b.count, b[i] == UInt8(ascii: ",") { i = skipSpace(b, i + 1) }
    }
  }

  private static func slice(_ b: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> FieldValue {
    FieldValue(raw: UnsafeBufferPointer(rebasing: b[start..<end]), encoding: .json)
  }

  private static func skipSpace(_ b: UnsafeBufferPointer<UInt8>, _ from: Int) -> Int {
    var i = from
    while i < b.count, b[i] == .space || b[i] == .tab || b[i] == 0x0A || b[i] == 0x0D { i += 1 }
    return i
  }

  /// The end of the value starting at `start` (strings, containers and scalars).
  private static func skipValue(_ b: UnsafeBufferPointer<UInt8>, _ start: Int) -> Int {
    var i = start
    var depth = 0
    repeat {
      guard i < b.count else { return b.count }
      switch b[i] {
      case UInt8(ascii: "\""):
        i += 1
        while i < b.count, b[i] != UInt8(ascii: "\"") { i += b[i] == UInt8(ascii: "\\") ? 2 : 1 }
        i += 1
      case UInt8(ascii: "{"), UInt8(ascii: "["):
        depth += 1
        i += 1
      case UInt8(ascii: "}"), UInt8(ascii: "]"):
        depth -= 1
        i += 1
      default:
        if depth == 0 {
          while i < b.count, !isDelimiter(b[i]) { i += 1 }
        } else {
          i += 1
        }
      }
    } while depth > 0
    return min(i, b.count)
  }

  private static func isDelimiter(_ c: UInt8) -> Bool {
    c == UInt8(ascii: ",") || c == UInt8(ascii: "]") || c == UInt8(ascii: "}") || c == .space
      || c == .tab || c == 0x0A || c == 0x0D
  }
}
