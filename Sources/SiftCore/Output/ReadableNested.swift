/// A nested JSON value (an object or array) as text a person reads in a report cell
/// (Docs/Reports.md, The table): an object's members as `key: value` joined by `; `, an array's
/// elements joined by `, `, a nested object or array inside another in parentheses, strings
/// unquoted and unescaped, `null` as nothing.
///
///     {"name":"Acme","city":"Pune"}          name: Acme; city: Pune
///     [{"sku":"A1","qty":2},{"sku":"B2"}]    (sku: A1; qty: 2), (sku: B2)
enum ReadableNested {
  /// How deep nesting is written; deeper values are written as `…`.
  static let maxDepth = 8

  /// Appends the readable text of `value` to `out`.
  static func append(_ value: FieldValue, to out: inout [UInt8]) {
    append(value, depth: 0, to: &out)
  }

  private static func append(_ value: FieldValue, depth: Int, to out: inout [UInt8]) {
    switch value.form {
    case .missing, .jsonNull: return
    case .plain, .jsonNumber, .jsonBool: out.append(contentsOf: value.raw)
    case .csvQuoted, .jsonString: out.append(contentsOf: value.decodedBytes())
    case .jsonNested:
      guard depth < maxDepth else {
        out.append(contentsOf: "…".utf8)
        return
      }
      let inner = depth > 0
      if inner { out.append(.leftParen) }
      var first = true
      if value.raw.first == .openBrace {
        JSONPath.forEachMember(of: value) { key, member in
          if !first { out.append(contentsOf: "; ".utf8) }
          first = false
          out.append(contentsOf: JSONString.unescape(key))
          out.append(contentsOf: ": ".utf8)
          append(member, depth: depth + 1, to: &out)
        }
      } else {
        JSONPath.forEachElement(of: value) { element in
          if !first { out.append(contentsOf: ", ".utf8) }
          first = false
          append(element, depth: depth + 1, to: &out)
        }
      }
      if inner { out.append(.rightParen) }
    }
  }
}
