// The key table of `--changes` (Docs/Performance.md, "Changes since the last run") against a
// Dictionary: whatever the hashes (many the same), growth and order, a look-up finds the records
// a Dictionary of the keys holds.

import Testing

@testable import SiftCore

/// The records at `slot` of `table`, found for `hash`: `(-1, -1)` at a free slot.
private func records(_ table: KeyTable, _ slot: Int, _ hash: UInt64) -> (Int32, Int32) {
  switch table.probe(slot, hash) {
  case .free, .other: (-1, -1)
  case .same(let b, let c): (b, c)
  }
}

@Suite struct KeyTableTests {
  /// Baseline keys, then this run's keys (some in the baseline, some repeated), with hashes from
  /// a few values only, so most look-ups pass other keys of the same hash.
  @Test(arguments: [(1, 0), (2, 50), (3, 500), (4, 2_000)])
  func aLookUpFindsWhatADictionaryHolds(seed: Int, baselineCount: Int) {
    var random = SplitMix(seed: UInt64(seed))
    func hash(_ key: Int) -> UInt64 { UInt64(key % 13) &* 0x9e37_79b9_7f4a_7c15 }
    var table = KeyTable(capacity: 4)
    var expected: [Int: (baseline: Int32, current: Int32)] = [:]
    let baselineKeys = (0..<baselineCount).map { $0 * 3 }
    for (i, key) in baselineKeys.enumerated() {
      table.makeRoomForOne()
      let slot = table.slot(hash(key)) { b, _ in baselineKeys[Int(b)] == key }
      #expect(records(table, slot, hash(key)) == (-1, -1))
      table.setBaseline(Int32(i), hash: hash(key), at: slot)
      expected[key] = (Int32(i), -1)
    }
    var currentKeys: [Int] = []
    for _ in 0..<3_000 {
      let key = random.next(baselineCount * 3 + 1_000)
      table.makeRoomForOne()
      let slot = table.slot(hash(key)) { b, c in
        b >= 0 ? baselineKeys[Int(b)] == key : currentKeys[Int(c)] == key
      }
      let found = records(table, slot, hash(key))
      let want = expected[key] ?? (-1, -1)
      #expect(found == want, "key \(key)")
      if found == (-1, -1) {
        table.setCurrent(Int32(currentKeys.count), hash: hash(key), at: slot)
        expected[key] = (-1, Int32(currentKeys.count))
        currentKeys.append(key)
      }
    }
    #expect(table.count == expected.count)
  }
}
