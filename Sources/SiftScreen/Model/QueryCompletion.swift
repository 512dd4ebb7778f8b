import SiftCore

/// Tab on the query line (Docs/Interactive.md, Completion): the word before the cursor
/// completed as the shell completion does (`sift <Tab>`, Docs/CommandLine.md, Completions): a
/// field name or a directive, a field name after `sort:`, `group:`, `fields:` or an aggregate,
/// or after `FIELD:` one of that field's counted values. One candidate is taken whole, several
/// are taken as far as they agree; when that adds nothing, the candidates are listed.
struct QueryCompletion: Hashable, Sendable {
  enum Kind: Hashable, Sendable {
    /// A field name (then `:`) or a directive (`sort:`).
    case name
    /// A field name in a directive's list (`sort:-da`, `fields:grn_no,cu`).
    case field
    /// A value of the field before the colon (`customer:ac`).
    case value(field: String)
  }

  var kind: Kind
  /// Where the word completed starts, in characters, and the word up to the cursor.
  var start: Int
  var word: String

  /// The word ending at `cursor` in `characters`, or `nil` when the cursor follows a space or
  /// stands at the start (Tab then moves the focus).
  init?(_ characters: [Character], cursor: Int) {
    var begin = cursor
    while begin > 0, !characters[begin - 1].isWhitespace, characters[begin - 1] != "(" { begin -= 1 }
    if begin < cursor, characters[begin] == "-" { begin += 1 }
    guard begin < cursor else { return nil }
    let term = Array(characters[begin..<cursor])
    guard let colon = term.firstIndex(of: ":") else {
      self.init(kind: .name, start: begin, word: String(term))
      return
    }
    let key = String(term[..<colon])
    if let directive = Directive(name: key.lowercased()), directive != .limit {
      // The last field of the list, after its `-` on `sort:`.
      var item = term[(colon + 1)...].lastIndex(of: ",").map { $0 + 1 } ?? colon + 1
      if directive == .sort, item < term.count, term[item] == "-" { item += 1 }
      self.init(kind: .field, start: begin + item, word: String(term[item...]))
    } else {
      self.init(kind: .value(field: Self.unquoted(key)), start: begin + colon + 1, word: String(term[(colon + 1)...]))
    }
  }

  private init(kind: Kind, start: Int, word: String) {
    self.kind = kind
    self.start = start
    self.word = word
  }

  /// The candidates for a name or a field of a directive's list, as the query writes them.
  static func names(fields: [String], kind: Kind) -> [String] {
    let names = fields.map(QueryText.fieldText)
    guard kind == .name else { return names }
    return names.map { $0 + ":" } + Directive.offered.map { $0.name + ":" }
  }

  /// What Tab did with the candidates.
  enum Outcome: Equatable {
    /// The word was completed (whole, or as far as the candidates agree).
    case taken
    /// Several candidates agree no further than the word: they are listed.
    case listed([String])
    /// No candidate goes beyond the word (it is whole already, or nothing starts with it).
    case none
  }

  /// Completes the word in `field` from `candidates` (as the query writes them, most likely
  /// first), case ignored.
  func complete(_ field: inout TextField, from candidates: [String]) -> Outcome {
    let typed = word.lowercased()
    let bare = typed.first == "\"" ? String(typed.dropFirst()) : typed
    let matching = candidates.filter {
      let candidate = $0.lowercased()
      return candidate.hasPrefix(typed) || (candidate.first == "\"" && candidate.dropFirst().hasPrefix(bare))
    }
    guard let first = matching.first, !matching.allSatisfy({ $0.lowercased() == typed }) else { return .none }
    if matching.count == 1 {
      let isValue = if case .value = kind { true } else { false }
      field.replace(start..<start + word.count, with: first + (isValue ? " " : ""))
      return .taken
    }
    var common = Array(first)
    for candidate in matching.dropFirst() {
      let other = Array(candidate)
      var length = 0
      while length < min(common.count, other.count),
        common[length].lowercased() == other[length].lowercased()
      {
        length += 1
      }
      common.removeSubrange(length...)
    }
    guard common.count > word.count else { return .listed(matching) }
    field.replace(start..<start + word.count, with: String(common))
    return .taken
  }

  /// Whether the word is already one of `values` (case ignored, quotes aside): a value's Tab
  /// then moves the focus without counting.
  func isWhole(among values: [String]) -> Bool {
    let bare = Self.unquoted(word.lowercased())
    return values.contains { $0.lowercased() == bare }
  }

  /// `text` without the double quotes around it, if it has them.
  static func unquoted(_ text: String) -> String {
    text.count >= 2 && text.first == "\"" && text.last == "\"" ? String(text.dropFirst().dropLast()) : text
  }
}
