/// Draws one of several values with a chance proportional to its weight, in constant time (a
/// lookup table holding each value `weight` times).
struct WeightedChoice<Element> {
  private let table: [Element]

  /// `choices` pairs each value with its relative chance; the weights must not all be zero.
  init(_ choices: [(Element, Int)]) {
    table = choices.flatMap { repeatElement($0.0, count: $0.1) }
  }

  /// One value drawn with `random`.
  @inline(__always)
  func draw(_ random: inout SplitMix64) -> Element {
    table[random.below(table.count)]
  }
}

extension WeightedChoice: Sendable where Element: Sendable {}
