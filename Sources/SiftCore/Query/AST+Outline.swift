/// A span-free outline of a parsed query, for tests and for comparing two parses.
///
///     status:received,pending -qty:>10 sort:-date
///     (and (field status (= received) (= pending)) (not (field qty (> 10)))) sort(-date)
///
/// Quoted literals print in double quotes, unquoted ones bare; names print between `[` `]`
/// when they contain anything but letters, digits, `_`, `-` and `.`.
extension Query {
  /// The outline of the whole query.
  public var outline: String { outline(quotingPlainWords: false) }

  /// Whether `other` means the same query: equal ignoring spans, and ignoring whether a plain
  /// word (`Literal.isPlainWord`), or a word that reads back differently bare
  /// (`Literal.readsBackDifferently`), was quoted: both mean the same text either way.
  public func isEquivalent(to other: Query) -> Bool {
    outline(quotingPlainWords: true) == other.outline(quotingPlainWords: true)
  }

  private func outline(quotingPlainWords: Bool) -> String {
    var parts: [String] = []
    if let filter { parts.append(filter.outline(quotingPlainWords)) }
    parts += directives.map { "\($0.kind.name)(\($0.value.outline))" }
    return parts.joined(separator: " ")
  }
}

extension DirectiveValue {
  fileprivate var outline: String {
    switch self {
    case .sort(let keys):
      return keys.map { ($0.descending ? "-" : "") + $0.field.outline }.joined(separator: ",")
    case .group(let fields): return fields.map(\.outline).joined(separator: ",")
    case .limit(let n, let perGroup): return "\(n)" + (perGroup ? "/group" : "")
    case .fields(let names, let excluding):
      return names.map { (excluding ? "-" : "") + $0.outline }.joined(separator: ",")
    case .aggregate(_, let names):
      return names.map(\.outline).joined(separator: ",")
    }
  }
}

extension Expr {
  fileprivate func outline(_ quotingPlainWords: Bool) -> String {
    switch self {
    case .and(let operands, _):
      return "(and " + operands.map { $0.outline(quotingPlainWords) }.joined(separator: " ") + ")"
    case .or(let operands, _):
      return "(or " + operands.map { $0.outline(quotingPlainWords) }.joined(separator: " ") + ")"
    case .not(let operand, _):
      return "(not \(operand.outline(quotingPlainWords)))"
    case .term(.field(let name, let values, _)):
      let shown = values.map { $0.outline(quotingPlainWords) }.joined(separator: " ")
      return "(field \(name.outline) \(shown))"
    case .term(.has(let name, _)):
      return "(has \(name.outline))"
    case .term(.text(let literal, _)):
      return "(text \(literal.outline(quotingPlainWords)))"
    }
  }
}

extension Value {
  fileprivate func outline(_ quotingPlainWords: Bool) -> String {
    switch self {
    case .equals(let literal): return "(= \(literal.outline(quotingPlainWords)))"
    case .compare(let comparison, let literal):
      return "(\(comparison.rawValue) \(literal.outline(quotingPlainWords)))"
    case .range(let lower, let upper, _):
      let ends = [lower, upper].map { $0?.outline(quotingPlainWords) ?? "*" }
      return "(range \(ends[0]) \(ends[1]))"
    case .glob(let pattern, _): return "(glob \(quotedText(pattern)))"
    case .regex(let pattern, let caseInsensitive, _):
      return "(regex \(quotedText(pattern))\(caseInsensitive ? " i" : ""))"
    case .empty: return "(empty)"
    }
  }
}

extension Literal {
  fileprivate func outline(_ quotingPlainWords: Bool) -> String {
    quoted || (quotingPlainWords && (isPlainWord || readsBackDifferently)) ? quotedText(text) : text
  }
}

extension FieldName {
  fileprivate var outline: String {
    let simple =
      !name.isEmpty
      && name.utf8.allSatisfy {
        $0.isASCIILetter || $0.isDigit || $0 >= 0x80 || $0 == UInt8(ascii: "_") || $0 == .minus
          || $0 == .dot
      }
    return (simple ? name : "[\(name)]") + (bucket.map { "/" + $0.rawValue } ?? "")
  }
}
