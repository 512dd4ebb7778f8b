/// Notes about a query that runs but may not mean what was meant (Docs/QueryLanguage.md,
/// "Notes"): a lowercase `or`, `and` or `not` between terms is searched as text.
extension Query {
  /// One line per lowercase keyword used as a search word, e.g.
  /// `note: 'or' is searched as text; write OR to match either side`.
  public var notes: [String] {
    guard let filter else { return [] }
    var words: [Literal] = []
    var terms = 0
    Query.collectWords(filter, into: &words, terms: &terms)
    guard terms > 1 else { return [] }
    var seen: Set<String> = []
    var notes: [String] = []
    for word in words where seen.insert(word.text).inserted {
      let upper = word.text.uppercased()
      let meaning =
        switch upper {
        case "OR": "match either side"
        case "AND": "require both sides"
        default: "negate the next term"
        }
      notes.append("note: '\(word.text)' is searched as text; write \(upper) to \(meaning)")
    }
    return notes
  }

  private static func collectWords(_ e: Expr, into words: inout [Literal], terms: inout Int) {
    switch e {
    case .and(let parts, _), .or(let parts, _):
      for p in parts { collectWords(p, into: &words, terms: &terms) }
    case .not(let inner, _): collectWords(inner, into: &words, terms: &terms)
    case .term(.text(let literal, _)):
      terms += 1
      if !literal.quoted, ["or", "and", "not"].contains(literal.text.lowercased()) {
        words.append(literal)
      }
    case .term: terms += 1
    }
  }
}
