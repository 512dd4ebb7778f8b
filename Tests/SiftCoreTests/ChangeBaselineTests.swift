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
    let kept = (0..<b.count).filter { b.values($0) != nil }.count
    #expect(kept > 0 && kept < 10)
    #expect((0..<b.count).map { String(decoding: b.key($0), as: UTF8.self) } == (0..<10).map { "G\($0)" })
    #expect(try ChangeBaseline(decoding: b.encoded()) == b)
  }

  /// A state of many megabytes is written in pieces (`encode`: the header, the records where they
  /// lie, the checksum over both): it is read back (the checksum checked against the whole), and
  /// its bytes are the pieces one after another.
  @Test func aStateWrittenInPiecesIsReadBack() throws {
    let b = sample(records: 200_000)
    var pieces: [[UInt8]] = []
    b.encode { pieces.append(Array($0)) }
    let bytes = b.encoded()
    #expect(pieces.count > 2 && bytes.count > 3 << 20)
    #expect(pieces.flatMap { $0 } == bytes)
    #expect(try ChangeBaseline(decoding: bytes) == b)
  }

  /// A state of megabytes read with its checksum taken on a thread of its own is the same
  /// baseline, and one damaged byte anywhere (header, records, the checksum itself) is refused.
  @Test func aChecksumTakenAsideChecksTheSame() throws {
    let b = sample(records: 100_000)
    let bytes = b.encoded()
    #expect(bytes.count > 1 << 20)
    func read(_ bytes: [UInt8]) throws(ChangeStateError) -> ChangeBaseline {
      let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count, alignment: 8)
      copy.copyBytes(from: bytes)
      let address = Int(bitPattern: copy.baseAddress)
      return try ChangeBaseline(
        decodingHandedOver: UnsafeRawBufferPointer(copy), checksumAside: true,
        release: { UnsafeMutableRawPointer(bitPattern: address)?.deallocate() })
    }
    #expect(try read(bytes) == b)
    for at in [9, bytes.count / 3, bytes.count / 2, bytes.count - 12, bytes.count - 1] {
      var damaged = bytes
      damaged[at] ^= 0x10
      #expect(throws: ChangeStateError.self) { try read(damaged) }
    }
  }

  /// The checksum over a header and the records where they lie is the checksum of the two
  /// joined, wherever the header ends and however short either is; and a single changed byte
  /// anywhere changes it.
  @Test func theChecksumOfPiecesIsTheChecksumOfAllJoined() {
    let bytes = (0..<100).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
    for n in 0...bytes.count {
      let joined = Array(bytes[0..<n]).withUnsafeBufferPointer { StateChecksum.of($0) }
      for cut in 0...n {
        var sum = StateChecksum()
        Array(bytes[0..<cut]).withUnsafeBufferPointer { sum.add($0) }
        Array(bytes[cut..<n]).withUnsafeBufferPointer { sum.add($0) }
        #expect(sum.value == joined, "\(n) bytes cut at \(cut)")
      }
      for i in 0..<n {
        var damaged = Array(bytes[0..<n])
        damaged[i] ^= 0x01
        #expect(damaged.withUnsafeBufferPointer { StateChecksum.of($0) } != joined)
      }
    }
  }

  /// A baseline read from a state file and then appended to gets records of its own; the one it
  /// was copied from keeps its records.
  @Test func appendingToACopyLeavesTheOriginalAsItWas() throws {
    let read = try ChangeBaseline(decoding: sample().encoded())
    var copy = read
    Array("G9".utf8).withUnsafeBufferPointer { k in
      copy.append(key: k, content: 9, values: nil, budget: .max)
    }
    #expect(copy.count == 4 && read.count == 3)
    #expect(read == sample())
    #expect(String(decoding: copy.key(3), as: UTF8.self) == "G9")
    #expect(String(decoding: copy.key(0), as: UTF8.self) == "G0")
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

  /// Keys are found among all records without a key table: short keys, keys alike in their
  /// length and first and last eight bytes, and keys no record has.
  @Test func recordsAreFoundByTheirKeys() throws {
    var b = ChangeBaseline(columns: ["k"], keys: ["k"], since: "")
    let keys = (0..<3000).map { "K\($0)" } + ["ABCDEFGH-x-12345678", "ABCDEFGH-y-12345678", "", "é"]
    for k in keys {
      Array(k.utf8).withUnsafeBufferPointer { b.append(key: $0, content: 1, values: nil, budget: 0) }
    }
    let read = try ChangeBaseline(decoding: b.encoded())
    let asked = ["K0", "K2999", "ABCDEFGH-y-12345678", "ABCDEFGH-z-12345678", "", "é", "K3000", "K17"]
    #expect(read.records(withKeys: asked.map { Array($0.utf8) }) == [0, 2999, 3001, -1, 3002, 3003, -1, 17])
    #expect(read.records(withKeys: []) == [])
  }

  static let magic: [UInt8] = Array("SIFTCHG\n".utf8)
  static let foreign: [UInt8] = Array("grn_no,status\nG1,hold\n".utf8)
  /// A state file of version 1 (before a record's content hash was the hash of its canonical
  /// CSV text, Docs/Performance.md, "A record's digest from its bytes"), and of a version to come.
  static let version1: [UInt8] = magic + [1, 0, 0, 0, 0, 0, 0, 0] + [UInt8](repeating: 0, count: 16)
  static let version3: [UInt8] = magic + [3, 0, 0, 0, 0, 0, 0, 0] + [UInt8](repeating: 0, count: 16)
  static let cut: [UInt8] = magic + [2, 0, 0]

  @Test(arguments: [
    (foreign, ChangeStateError.foreign), (version1, ChangeStateError.version(1)),
    (version3, ChangeStateError.version(3)), (cut, ChangeStateError.damaged),
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

/// The hash of keys and values, one byte at a time as its doc comment says (Docs/Performance.md,
/// "Changes since the last run"): the word-at-a-time code must give the same numbers, or every
/// state file written before would read as all changed.
private func hashByteByByte(_ bytes: [UInt8], into start: UInt64 = ChangeCoding.fnvOffset) -> UInt64 {
  let prime = ChangeCoding.wordPrime
  guard !bytes.isEmpty else { return (start ^ 0xff) &* prime }
  var h = start
  var i = 0
  func word(_ at: Int, _ count: Int) -> UInt64 {
    (0..<count).reduce(UInt64(0)) { $0 | UInt64(bytes[at + $1]) << (8 * UInt64($1)) }
  }
  while i + 8 <= bytes.count {
    h = (h ^ word(i, 8)) &* prime
    h ^= h >> 32
    i += 8
  }
  h = (h ^ word(i, bytes.count - i) ^ (UInt64(bytes.count) << 56)) &* prime
  return h ^ (h >> 29)
}

@Suite struct ChangeHashTests {
  /// Every length from 0 to 40 (each tail of 0 to 7 bytes after 0 to 5 words), at every offset
  /// in a buffer, continuing from another hash or not.
  @Test(arguments: 0...40)
  func theHashIsTheByteByByteHash(length: Int) {
    var random = SplitMix(seed: UInt64(length))
    let buffer = (0..<length + 8).map { _ in UInt8(random.next(256)) }
    for offset in 0..<8 {
      let bytes = Array(buffer[offset..<offset + length])
      let start = UInt64(random.next(Int.max)) &* 3
      buffer.withUnsafeBufferPointer { b in
        let slice = UnsafeBufferPointer(rebasing: b[offset..<offset + length])
        #expect(ChangeCoding.hash(slice) == hashByteByByte(bytes))
        #expect(ChangeCoding.hash(slice, into: start) == hashByteByByte(bytes, into: start))
      }
    }
  }

  /// The hash of a key's text, so a change of the hash is seen: the same in format versions 1
  /// and 2 (version 2 changed what a record's content hash is taken of, its canonical text,
  /// not the hash: `RecordDigestsTests.theContentOfARecordIsPinned`).
  @Test func theHashOfAKeyIsTheOneStateFilesHold() {
    #expect(ChangeCoding.hash(Array("GRN-000001".utf8)) == hashByteByByte(Array("GRN-000001".utf8)))
    #expect(ChangeCoding.hash(Array("GRN-000001".utf8)) == 0x9740_608f_b694_a7d6)
  }
}

/// The columns a baseline and a run both have (Docs/Reports.md, Changes since the last run): by
/// the same name first, then by the name a query would take for a column (another case, or
/// normalized), never when two of the run's columns answer one name.
@Suite struct CommonColumnsTests {
  @Test(arguments: [
    (["a", "b"], ["a", "b"], [[0, 0], [1, 1]]),
    (["a", "b"], ["b", "a", "c"], [[0, 1], [1, 0]]),
    (["GRN No", "Qty"], ["grn_no", "qty"], [[0, 0], [1, 1]]),
    (["GRN No"], ["grn-no", "GRN No"], [[0, 1]]),  // the same name before a normalized one
    (["qty", "Qty"], ["qty"], [[0, 0]]),  // the run's column taken once
    (["Qty"], ["qty", "QTY"], []),  // two answer: neither
    (["x"], ["y"], []),
  ] as [([String], [String], [[Int]])])
  func columnsBothHave(base: [String], current: [String], pairs: [[Int]]) {
    let found = ChangeBaseline.commonColumns(base, current).map { [$0.base, $0.current] }
    #expect(found == pairs)
  }
}
