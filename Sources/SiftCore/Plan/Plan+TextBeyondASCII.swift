extension Plan {
  /// True when the filter holds a text term whose literal has a character beyond ASCII
  /// (`Kunde:müller*`, `café`): such a term cannot match bytes written in another encoding and
  /// read as they are (Docs/FeedbackBar.md, Notes).
  public var hasTextTermBeyondASCII: Bool {
    filter.map(Self.hasTextBeyondASCII) ?? false
  }

  private static func hasTextBeyondASCII(_ filter: TypedFilter) -> Bool {
    switch filter {
    case .all(let operands), .any(let operands): return operands.contains(where: hasTextBeyondASCII)
    case .not(let operand): return hasTextBeyondASCII(operand)
    case .field(_, let tests): return tests.contains(where: hasTextBeyondASCII)
    case .anyFieldContains(let text): return beyondASCII(text)
    }
  }

  private static func hasTextBeyondASCII(_ test: TypedTest) -> Bool {
    switch test {
    case .textIn(let texts): return texts.contains(where: beyondASCII)
    case .numberEquals(_, let text): return beyondASCII(text)
    case .inPeriod(_, let text, _): return text.map(beyondASCII) ?? false
    case .textCompare(_, let text), .glob(let text): return beyondASCII(text)
    case .textRange(let low, let high): return [low, high].contains { $0.map(beyondASCII) ?? false }
    case .regex(let pattern, _, _): return beyondASCII(pattern)
    case .switchIs, .numberCompare, .dateCompare, .numberRange, .dateRange, .empty, .present:
      return false
    }
  }

  private static func beyondASCII(_ text: String) -> Bool { text.utf8.contains { $0 >= 0x80 } }
}
