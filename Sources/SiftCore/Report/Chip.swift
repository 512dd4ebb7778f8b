/// One chip of the feedback bar (Docs/FeedbackBar.md).
public struct Chip: Sendable, Equatable {
  public enum Kind: String, Sendable { case sort, group, aggregate, filter, changes }
  public var kind: Kind
  /// The field the chip is about (`nil` for free text and OR-groups).
  public var field: String?
  /// The label shown before the colon (`Status`), empty for OR-groups.
  public var label: String
  /// The value text after the colon (`received`, `> 10`, `not cancelled`).
  public var text: String
  /// The same content as words for `--summary text` (`status is received`).
  public var sentence: String
  /// Applied (`[…]`) or an inactive fast filter (`(…)`).
  public var active: Bool
  /// For an inactive fast filter, its index in the view's `fastFilters`: the interactive screen
  /// applies it from there (Docs/Interactive.md, Feedback bar).
  public var fastFilter: Int?

  public init(
    kind: Kind, field: String?, label: String, text: String, sentence: String, active: Bool,
    fastFilter: Int? = nil
  ) {
    self.fastFilter = fastFilter
    self.kind = kind
    self.field = field
    self.label = label
    self.text = text
    self.sentence = sentence
    self.active = active
  }

  /// `Label: text`, or the text alone for chips without a label.
  public var caption: String { label.isEmpty ? text : (text.isEmpty ? label : "\(label): \(text)") }
}

/// Field labels: the view's label for a field, else the name in Title Case (Docs/FeedbackBar.md).
public struct Labels: Sendable {
  public var custom: [String: String]
  public init(_ custom: [String: String] = [:]) { self.custom = custom }

  public func label(_ field: String) -> String { custom[field] ?? Labels.titleCase(field) }

  /// `empty_stock` → `Empty Stock`, `grnNo` → `Grn No`, `customer.name` → `Customer Name`.
  public static func titleCase(_ name: String) -> String {
    var words: [String] = []
    var word = ""
    var previousLower = false
    for ch in name {
      if ch == "_" || ch == "-" || ch == " " || ch == "." {
        if !word.isEmpty { words.append(word) }
        word = ""
        previousLower = false
        continue
      }
      if ch.isUppercase && previousLower && !word.isEmpty {
        words.append(word)
        word = ""
      }
      word.append(ch)
      previousLower = ch.isLowercase || ch.isNumber
    }
    if !word.isEmpty { words.append(word) }
    return words.map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined(separator: " ")
  }
}
