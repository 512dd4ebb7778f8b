/// Draws an index with a chance proportional to its weight, in constant time (a lookup table
/// with each index repeated `weight` times).
struct WeightedChoice {
  private let table: [UInt16]

  /// `weights[i]` is the relative chance of index `i`; the weights must not all be zero.
  init(weights: [Int]) {
    var table: [UInt16] = []
    table.reserveCapacity(weights.reduce(0, +))
    for (index, weight) in weights.enumerated() {
      table.append(contentsOf: repeatElement(UInt16(index), count: weight))
    }
    self.table = table
  }

  /// One index drawn with `random`.
  @inline(__always)
  func draw(_ random: inout SplitMix64) -> Int {
    Int(table[random.below(table.count)])
  }
}
