/// A compiled regex: a Thompson NFA over Unicode scalars, which `RegexMatcher` turns into a DFA
/// lazily while it reads a value (Docs/QueryLanguage.md, "Regular expressions").
public struct RegexProgram: Sendable {
  enum Inst: Sendable {
    case scalar(UInt32)
    case set(Int)
    case assertion(RegexAssertion)
    case split(Int, Int)
    case jump(Int)
    case match
  }

  var insts: [Inst] = []
  var sets: [ScalarSet] = []
  let caseInsensitive: Bool

  init(pattern: String, caseInsensitive: Bool) throws(RegexError) {
    self.caseInsensitive = caseInsensitive
    var parser = RegexParser(pattern, caseInsensitive: caseInsensitive)
    let (node, _) = try parser.parse()
    emit(node)
    insts.append(.match)
  }

  private mutating func emit(_ node: RegexNode) {
    switch node {
    case .empty:
      break
    case .set(let s):
      if !caseInsensitive, !s.negated, s.classes == 0, let only = s.single { insts.append(.scalar(only)) } else {
        sets.append(s)
        insts.append(.set(sets.count - 1))
      }
    case .assertion(let a):
      insts.append(.assertion(a))
    case .concat(let items):
      for item in items { emit(item) }
    case .alternation(let branches):
      var jumps: [Int] = []
      for (k, branch) in branches.enumerated() {
        if k == branches.count - 1 {
          emit(branch)
        } else {
          let split = insts.count
          insts.append(.split(split + 1, 0))
          emit(branch)
          jumps.append(insts.count)
          insts.append(.jump(0))
          insts[split] = .split(split + 1, insts.count)
        }
      }
      for j in jumps { insts[j] = .jump(insts.count) }
    case .repetition(let body, let min, let max):
      for _ in 0..<min { emit(body) }
      if let max {
        var splits: [Int] = []
        for _ in min..<max {
          splits.append(insts.count)
          insts.append(.split(insts.count + 1, 0))
          emit(body)
        }
        for s in splits { insts[s] = .split(s + 1, insts.count) }
      } else {
        let loop = insts.count
        insts.append(.split(loop + 1, 0))
        emit(body)
        insts.append(.jump(loop))
        insts[loop] = .split(loop + 1, insts.count)
      }
    }
  }
}

extension ScalarSet {
  /// The one scalar a plain, case-sensitive literal set holds.
  var single: UInt32? {
    if ranges.isEmpty {
      let bits = low.nonzeroBitCount + high.nonzeroBitCount
      guard bits == 1 else { return nil }
      return low != 0
        ? UInt32(low.trailingZeroBitCount) : UInt32(64 + high.trailingZeroBitCount)
    }
    guard low == 0, high == 0, ranges.count == 1, ranges[0].count == 1 else { return nil }
    return ranges[0].lowerBound
  }
}
