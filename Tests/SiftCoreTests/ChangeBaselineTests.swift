// The state file of `--changes` (Docs/Reports.md, "The state"): what is written is read back,
// and a damaged, foreign or other-version file is refused, never read as an empty baseline.

import Testing

@testable import SiftCore

private func sample(records: Int = 3, budget: Int = ChangeBaseline.valueBudget) -> ChangeBaseline {
  var b = ChangeBaseline(columns: ["grn_no", "status"], keys: ["grn_no"], since: "2026-11-24 06:00")
  for i in 0..<records {
    var values: [UInt8] = []
    for v in ["G\(i)", i % 2 == 0 ? "hold" : "released"] {
      ChangeCoding.appendVarint(v.utf8.count, to: &values)
      values.append(contentsOf: v.utf8)
    }
    let key = Array("G\(i)".utf8)
    key.withUnsafeBufferPointer { k in
      values.withUnsafeBufferPointer { v in
        b.append(key: k, content: UInt64(i) &* 0x9e37_79b9, values: v, budget: budget)
      }
    }
  }
  return b
}

@Suite struct ChangeBaselineTests {
  @Test func whatIsWrittenIsReadBack() throws {
    let b = sample()
    let read = try ChangeBaseline(decoding: b.encoded())
    #expect(read == b)
    #expect(read.values(1)?.map { String(decoding: $0, as: UTF8.self) } == ["G1", "released"])
  }

  @Test func valuesPastTheBudgetAreNotKeptButKeysAre() throws {
    let b = sample(records: 10, budget: 30)
    let kept = b.entries.indices.filter { b.values($0) != nil }.count
    #expect(kept > 0 && kept < 10)
    #expect(b.entries.indices.map { String(decoding: b.key($0), as: UTF8.self) } == (0..<10).map { "G\($0)" })
    #expect(try ChangeBaseline(decoding: b.encoded()) == b)
  }

  /// Any single damaged byte, and any cut, is refused.
  @Test func aDamagedFileIsRefused() {
    let bytes = sample().encoded()
    for i in stride(from: 0, to: bytes.count, by: 3) {
      var damaged = bytes
      damaged[i] ^= 0x5a
      #expect(throws: ChangeStateError.self) { try ChangeBaseline(decoding: damaged) }
    }
    for cut in [0, 4, 12, bytes.count / 2, bytes.count - 1] {
      #expect(throws: ChangeStateError.self) { try ChangeBaseline(decoding: Array(bytes[0..<cut])) }
    }
  }

  static let magic: [UInt8] = Array("SIFTCHG\n".utf8)
  static let foreign: [UInt8] = Array("grn_no,status\nG1,hold\n".utf8)
  static let version2: [UInt8] = magic + [2, 0, 0, 0, 0, 0, 0, 0] + [UInt8](repeating: 0, count: 16)
  static let cut: [UInt8] = magic + [1, 0, 0]

  @Test(arguments: [
    (foreign, ChangeStateError.foreign), (version2, ChangeStateError.version(2)),
    (cut, ChangeStateError.damaged),
  ])
  func aForeignOrOtherVersionFileIsRefused(bytes: [UInt8], error: ChangeStateError) {
    #expect(throws: error) { try ChangeBaseline(decoding: bytes) }
  }

  @Test(arguments: [
    (WallTime(0), "1970-01-01 00:00"),
    (WallTime(20_416) * Calendar.microsPerDay + 6 * 3_600_000_000 + 59_000_000, "2025-11-24 06:00"),
  ])
  func sinceIsTheDayAndTheMinute(time: WallTime, text: String) {
    #expect(ChangeCounts.sinceText(time) == text)
  }
}
