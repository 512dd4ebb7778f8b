import Testing

@testable import SiftCore

/// The canonical form means exactly what the query means (Docs/QueryLanguage.md, "Canonical
/// form"): for random queries built from the grammar with hostile values, the canonical form
/// parses back to the same query (spans aside, and quotes that change nothing) and is a fixed
/// point.
@Suite struct CanonicalRoundTripTests {
  typealias Generator = ParserFuzzTests.Generator

  /// Pieces of values and names: quotes, backslashes, spaces, `..`, `*`, `,`, `:`, operators,
  /// keywords, directive names, relative dates, numbers, dates and non-ASCII text.
  static let pieces = [
    "a", "Acme", "x y", "\"", "'", "\\", " ", "..", "*", ",", ":", "<", ">", "<=", ">=", "=",
    "OR", "or", "AND", "NOT", "not", "sort", "has", "fields", "-", "/", "(", ")", "today",
    "this-week", "last-3d", "on", "2024-03", "2024-03-01", "10", "1.5", "é", "Müller", "📦", "\t",
  ]

  struct Builder {
    var random: Generator

    mutating func pick<T>(_ items: [T]) -> T { items[Int.random(in: 0..<items.count, using: &random)] }
    mutating func chance(_ n: Int) -> Bool { Int.random(in: 0..<n, using: &random) == 0 }

    /// A random text, written quoted (escaped) or bare.
    mutating func literal() -> String {
      var text = ""
      for _ in 0..<Int.random(in: 1...3, using: &random) { text += pick(CanonicalRoundTripTests.pieces) }
      if chance(2) {
        let quote = chance(2) ? "\"" : "'"
        var out = quote
        for c in text {
          if String(c) == quote || c == "\\" { out += "\\" }
          out.append(c)
        }
        return out + quote
      }
      return text
    }

    mutating func value() -> String {
      switch Int.random(in: 0..<6, using: &random) {
      case 0: return pick(["<", ">", "<=", ">="]) + literal()
      case 1: return (chance(3) ? "*" : literal()) + ".." + (chance(3) ? "*" : literal())
      case 2: return "/" + pick(["a b", "x\\/y", "\\d+", "("]) + "/" + (chance(2) ? "i" : "")
      case 3: return "\"\""
      default: return literal()
      }
    }

    mutating func term() -> String {
      switch Int.random(in: 0..<6, using: &random) {
      case 0: return "has:" + literal()
      case 1, 2: return literal()
      case 3:
        // The spaced form `field > value`.
        return literal() + " " + pick([">", "<", ">=", "<="]) + " " + literal()
      default:
        var values = [value()]
        while chance(3) { values.append(value()) }
        return literal() + ":" + values.joined(separator: ",")
      }
    }

    mutating func expr(depth: Int) -> String {
      if depth > 3 || chance(3) { return (chance(4) ? pick(["-", "NOT "]) : "") + term() }
      let parts = (0..<Int.random(in: 2...3, using: &random)).map { _ in expr(depth: depth + 1) }
      let joined = parts.joined(separator: pick([" ", " AND ", " OR "]))
      return chance(2) ? "(" + joined + ")" : joined
    }

    mutating func directives() -> String {
      var out: [String] = []
      if chance(3) { out.append("sort:" + (chance(2) ? "-" : "") + literal()) }
      if chance(4) { out.append("group:" + literal()) }
      if chance(4) { out.append("limit:\(Int.random(in: 0...99, using: &random))") }
      if chance(4) {
        let minus = chance(2) ? "-" : ""
        out.append("fields:" + minus + literal() + (chance(2) ? ",\(minus)" + literal() : ""))
      }
      return out.joined(separator: " ")
    }

    mutating func query() -> String {
      let filter = chance(8) ? "" : expr(depth: 0)
      return [filter, directives()].filter { !$0.isEmpty }.joined(separator: " ")
    }
  }

  @Test func canonicalFormReadsBackToTheSameQuery() {
    var builder = Builder(random: Generator(state: 14))
    var parsed = 0
    for _ in 0..<20_000 {
      let text = builder.query()
      guard let query = try? Parser.parse(text) else { continue }
      parsed += 1
      expectCanonicalFormReadsBack(query, from: text)
    }
    // The generator must mostly make queries that parse, or the property says little.
    #expect(parsed > 5_000, "only \(parsed) generated queries parsed")
  }

  @Test(arguments: [
    ("a < =x,>t", "(a = <\"=x\",>\"t\")"),
    ("(a OR b) sort:x", "(\"a\" OR \"b\") sort: x asc"),
    ("a:\"x..y\"..z", "(a = \"x..y\"..\"z\")"),
    ("a:\"/x\"", "(a = \"/x\")"),
    ("fields:-a,-b", "fields: -a, -b"),
  ])
  func hostileValuesKeepTheirMeaning(_ query: String, _ canonical: String) throws {
    let parsed = try Parser.parse(query)
    #expect(parsed.canonicalForm == canonical)
    #expect(try Parser.parse(canonical).isEquivalent(to: parsed))
  }
}

/// The canonical form of `query` (parsed from `text`) parses back to an equivalent query and is
/// its own canonical form.
func expectCanonicalFormReadsBack(_ query: Query, from text: String) {
  let canonical = query.canonicalForm
  do {
    let reparsed = try Parser.parse(canonical)
    #expect(reparsed.isEquivalent(to: query), "\(text) → \(canonical)")
    #expect(reparsed.canonicalForm == canonical, "\(text) → \(canonical)")
  } catch {
    Issue.record("\(text) → \(canonical) does not parse: \(error)")
  }
}
