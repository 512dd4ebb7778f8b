/// A bare word written as another language's comparison — `qty>10`, `status==received`,
/// `status!=void` — which sift would otherwise search as text and find nothing
/// (Docs/QueryLanguage.md, Errors). Quoting the word searches it as text.
struct ForeignComparison {
  /// The field name before the operator, e.g. `qty`.
  let field: Substring
  /// The operator as written: `>`, `>=`, `<`, `<=`, `=`, `==`, `!=` or `<>`.
  let op: Substring
  /// The value after the operator, e.g. `10`.
  let value: Substring

  /// The word split at its operator, or `nil` when it does not look like a comparison: the
  /// name starts with a letter or `_` and holds letters, digits, `_`, `.` or inner `-`; the value
  /// is not empty and does not start with another operator character.
  init?(_ word: String) {
    let s = Substring(word)
    guard let opStart = s.firstIndex(where: { "<>=!".contains($0) }) else { return nil }
    let name = s[..<opStart]
    guard let first = name.first, first.isLetter || first == "_", name.last != "-",
      name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." || $0 == "-" })
    else { return nil }
    var opEnd = s.index(after: opStart)
    if opEnd < s.endIndex, "=>".contains(s[opEnd]) { opEnd = s.index(after: opEnd) }
    let op = s[opStart..<opEnd]
    guard ["<", "<=", ">", ">=", "=", "==", "!=", "<>"].contains(op) else { return nil }
    let value = s[opEnd...]
    guard let v = value.first, !"<>=!".contains(v) else { return nil }
    field = name
    self.op = op
    self.value = value
  }

  /// sift's spelling of the same test: `qty:>10`, `status:received`, `-status:void`.
  var siftSpelling: String {
    switch op {
    case "=", "==": "\(field):\(value)"
    case "!=", "<>": "-\(field):\(value)"
    default: "\(field):\(op)\(value)"
    }
  }
}
