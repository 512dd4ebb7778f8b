// A run's baseline as edits of the state file (Docs/Reports.md, "The state"; Docs/Performance.md,
// "Records taken where they lie"): records taken where they lie in the baseline read are written
// as the same bytes as records copied, kept beside the state file as edits they read back as the
// same baseline, and edits that do not fit their state file are refused.

import Testing

@testable import SiftCore

/// Records `G<key>` with two values each, as a run appends them.
private func records(_ keys: [Int], budget: Int = ChangeBaseline.valueBudget) -> ChangeBaseline {
  var b = ChangeBaseline(columns: ["grn_no", "status"], keys: ["grn_no"], since: "2026-11-24 06:00")
  for i in keys { append(i, to: &b, budget: budget) }
  return b
}

private func append(_ i: Int, to b: inout ChangeBaseline, budget: Int, changed: Bool = false) {
  var values: [UInt8] = []
  for v in ["G\(i)", changed ? "released" : "hold"] {
    ChangeCoding.appendVarint(v.utf8.count, to: &values)
    values.append(contentsOf: v.utf8)
  }
  let key = Array("G\(i)".utf8)
  key.withUnsafeBufferPointer { k in
    values.withUnsafeBufferPointer { v in
      b.append(key: k, content: UInt64(i) &* 0x9e37_79b9 &+ (changed ? 1 : 0), values: v, budget: budget)
    }
  }
}

/// The baseline read back from a state file of records `0..<count`.
private func stateFile(_ count: Int, budget: Int = ChangeBaseline.valueBudget) throws -> ChangeBaseline {
  try ChangeBaseline(decoding: records(Array(0..<count), budget: budget).encoded())
}

/// A run over the state file's records with `gone` left out, `changed` changed and `new` records
/// (keys from 1000) before the records at their places: the unchanged ones taken where they lie.
private func run(
  over state: ChangeBaseline, gone: Set<Int> = [], changed: Set<Int> = [], new: [Int: Int] = [:],
  budget: Int = ChangeBaseline.valueBudget
) -> ChangeBaseline {
  var next = ChangeBaseline(columns: state.columns, keys: state.keys, since: "2026-11-25 06:00")
  for i in 0..<state.count {
    if let n = new[i] { append(n, to: &next, budget: budget) }
    if gone.contains(i) { continue }
    if changed.contains(i) {
      append(i, to: &next, budget: budget, changed: true)
    } else if !state.lend(i, to: &next, keepValues: state.packedValues(i) != nil) {
      append(i, to: &next, budget: budget)
    }
  }
  return next
}

@Suite struct ChangeEditsTests {
  /// Records taken where they lie are written as the bytes a baseline that copied them writes.
  @Test func aBaselineThatBorrowsIsWrittenAsOneThatCopies() throws {
    let state = try stateFile(50)
    let next = run(over: state, gone: [0, 7, 8, 49], changed: [3, 30], new: [0: 1000, 20: 1001])
    var copied = ChangeBaseline(columns: state.columns, keys: state.keys, since: "2026-11-25 06:00")
    for i in [1000] + Array(1..<50).filter({ ![7, 8, 49].contains($0) }) {
      if i == 20 { append(1001, to: &copied, budget: ChangeBaseline.valueBudget) }
      append(i, to: &copied, budget: ChangeBaseline.valueBudget, changed: [3, 30].contains(i))
    }
    #expect(next == copied)
    #expect(next.encoded() == copied.encoded())
    var pieces = 0
    next.forEachPiece { _ in pieces += 1 }
    #expect(pieces > 3, "own records and runs of borrowed ones")
  }

  /// The edits beside the state file read back as the baseline they were made of, through their
  /// own file's bytes; the same records as the state file's are `.same`.
  @Test func editsOfTheStateFileReadBackAsTheBaseline() throws {
    let state = try stateFile(200)
    let next = run(over: state, gone: [5, 6, 150], changed: [9], new: [100: 1000])
    let edits = try #require(next.asEdits(of: state.stateIdentity, most: .max))
    guard case .edited(let e) = edits else {
      Issue.record("expected edits")
      return
    }
    let file = ChangeSince(stateChecksum: 42, since: next.since, records: edits).encoded()
    let read = try ChangeSince(decoding: file)
    #expect(read.records == edits && read.since == "2026-11-25 06:00" && read.stateChecksum == 42)
    let back = try ChangeBaseline(edits: e, since: read.since, over: state)
    #expect(back == next)
    #expect(back.encoded() == next.encoded())
    // A run over those edits borrows from the state file again.
    let later = run(over: back, gone: [0])
    #expect(later.asEdits(of: state.stateIdentity, most: .max) != nil)
    #expect(later.count == back.count - 1)
    // Every record of the state file, unchanged and in order, is one run; the state file's own
    // baseline is the same records.
    guard case .edited(let all)? = run(over: state).asEdits(of: state.stateIdentity, most: .max) else {
      Issue.record("expected edits")
      return
    }
    #expect(all.runs.count == 1 && all.own.isEmpty && all.count == 200)
    #expect(state.asEdits(of: state.stateIdentity, most: 0) == .same)
  }

  /// Edits that take more than they may, or borrow from another file, are written whole.
  @Test func editsTooLargeOrOfAnotherFileAreWrittenWhole() throws {
    let state = try stateFile(200)
    let other = try stateFile(200)
    let next = run(over: state, changed: Set(0..<100))
    #expect(next.asEdits(of: state.stateIdentity, most: .max) != nil)
    #expect(next.asEdits(of: state.stateIdentity, most: 100) == nil)
    #expect(next.asEdits(of: other.stateIdentity, most: .max) == nil)
    #expect(records(Array(0..<3)).asEdits(of: state.stateIdentity, most: .max) == nil)
  }

  /// Runs that do not start or end at a record of the state file, own bytes or a count that do
  /// not match, and any damaged byte of the file, are refused as damaged.
  @Test func editsThatDoNotFitTheirStateFileAreRefused() throws {
    let state = try stateFile(60)
    let next = run(over: state, gone: [10], new: [30: 1000])
    guard case .edited(let e)? = next.asEdits(of: state.stateIdentity, most: .max) else {
      Issue.record("expected edits")
      return
    }
    var bad: [ChangeEdits] = []
    for r in e.runs.indices {
      var shifted = e
      shifted.runs[r].start += 1
      bad.append(shifted)
      var cut = e
      cut.runs[r].end -= 1
      bad.append(cut)
      var beyond = e
      beyond.runs[r].ownAt = e.own.count + 1
      bad.append(beyond)
    }
    var counted = e
    counted.count += 1
    bad.append(counted)
    var short = e
    short.own.removeLast()
    bad.append(short)
    for edits in bad {
      #expect(throws: ChangeStateError.damaged) {
        try ChangeBaseline(edits: edits, since: "", over: state)
      }
    }
    let file = ChangeSince(stateChecksum: 1, since: "t", records: .edited(e)).encoded()
    for i in 0..<file.count {
      var damaged = file
      damaged[i] ^= 0x5a
      #expect(throws: ChangeStateError.self) { try ChangeSince(decoding: damaged) }
    }
  }

  /// A time file of version 1 (the time only, before edits were kept beside the state) is read.
  @Test func aTimeFileOfVersion1IsRead() throws {
    var bytes = Array("SIFTSNC\n".utf8)
    ChangeCoding.appendUInt64(1, to: &bytes)
    ChangeCoding.appendUInt64(77, to: &bytes)
    ChangeCoding.appendText("2026-11-24 06:00", to: &bytes)
    ChangeCoding.appendUInt64(ChangeCoding.hash(bytes), to: &bytes)
    #expect(try ChangeSince(decoding: bytes) == ChangeSince(stateChecksum: 77, since: "2026-11-24 06:00"))
  }

  /// Values kept past the budget are not borrowed: a record the budget leaves without values is
  /// taken only where the baseline kept none either.
  @Test func aRecordIsBorrowedOnlyWithTheValuesTheBudgetKeeps() throws {
    let state = try stateFile(20, budget: 40)
    var next = ChangeBaseline(columns: state.columns, keys: state.keys, since: "")
    let kept = (0..<20).filter { state.packedValues($0) != nil }
    #expect(!kept.isEmpty && kept.count < 20)
    #expect(!state.lend(kept[0], to: &next, keepValues: false))
    #expect(!state.lend(19, to: &next, keepValues: true))
    #expect(state.lend(kept[0], to: &next, keepValues: true))
    #expect(state.lend(19, to: &next, keepValues: false))
    #expect(next.count == 2 && next.keptValueBytes == state.packedValues(kept[0])?.count)
  }
}
