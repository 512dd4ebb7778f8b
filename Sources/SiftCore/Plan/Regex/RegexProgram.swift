/// A compiled regex and its matcher: a Thompson NFA simulated one scalar at a time over the
/// value's UTF-8 bytes (Docs/QueryLanguage.md, "Regular expressions"). Every input scalar is
/// looked at once with at most one visit per instruction, so matching is linear in the value
/// whatever the pattern: `/(a+)+$/` cannot blow up.
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

/// The matcher's state lists: sparse sets of instruction indices, reused across values.
struct RegexMatcher {
  let program: RegexProgram
  private var current: SparseSet
  private var next: SparseSet
  private var stack: [Int] = []
  private var foldCache: [UInt32: UInt32] = [:]

  init(_ program: RegexProgram) {
    self.program = program
    current = SparseSet(capacity: program.insts.count)
    next = SparseSet(capacity: program.insts.count)
  }

  /// Whether the pattern matches anywhere in `bytes`.
  mutating func matches(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    var current = self.current
    var next = self.next
    var stack = self.stack
    self.current = SparseSet(capacity: 0)
    self.next = SparseSet(capacity: 0)
    self.stack = []
    defer {
      self.current = current
      self.next = next
      self.stack = stack
    }
    let insts = program.insts
    let end = UInt32.max
    current.clear()
    var prev = end
    var i = 0
    var cur = end
    var curLength = 0
    if i < bytes.count { (cur, curLength) = decodeScalar(bytes, i) }
    while true {
      if Self.addClosure(insts, &current, &stack, from: 0, prev: prev, cur: cur) { return true }
      if cur == end { return false }
      let nextIndex = i + curLength
      var nxt = end
      var nxtLength = 0
      if nextIndex < bytes.count { (nxt, nxtLength) = decodeScalar(bytes, nextIndex) }
      let key = program.caseInsensitive ? fold(cur) : cur
      next.clear()
      for k in 0..<current.count {
        let pc = current.dense[k]
        let hit: Bool
        switch insts[pc] {
        case .scalar(let s): hit = s == cur
        case .set(let index): hit = program.sets[index].contains(key)
        default: hit = false
        }
        if hit && Self.addClosure(insts, &next, &stack, from: pc + 1, prev: cur, cur: nxt) {
          return true
        }
      }
      swap(&current, &next)
      prev = cur
      cur = nxt
      i = nextIndex
      curLength = nxtLength
    }
  }

  private mutating func fold(_ s: UInt32) -> UInt32 {
    if s < 128 { return s }
    if let f = foldCache[s] { return f }
    let f = RegexFold.fold(s)
    if foldCache.count < 4096 { foldCache[s] = f }
    return f
  }

  /// Adds `pc` and everything reachable from it without reading a scalar; true at a match.
  private static func addClosure(
    _ insts: [RegexProgram.Inst], _ list: inout SparseSet, _ stack: inout [Int], from pc: Int,
    prev: UInt32, cur: UInt32
  ) -> Bool {
    stack.append(pc)
    while let pc = stack.popLast() {
      if list.contains(pc) { continue }
      list.insert(pc)
      switch insts[pc] {
      case .match:
        stack.removeAll(keepingCapacity: true)
        return true
      case .jump(let t):
        stack.append(t)
      case .split(let a, let b):
        stack.append(b)
        stack.append(a)
      case .assertion(let a):
        if holds(a, prev: prev, cur: cur) { stack.append(pc + 1) }
      case .scalar, .set:
        break
      }
    }
    return false
  }

  private static func holds(_ a: RegexAssertion, prev: UInt32, cur: UInt32) -> Bool {
    switch a {
    case .start: return prev == UInt32.max
    case .end: return cur == UInt32.max
    case .wordBoundary, .notWordBoundary:
      let before = prev != UInt32.max && isWord(prev)
      let after = cur != UInt32.max && isWord(cur)
      return (before != after) == (a == .wordBoundary)
    }
  }
}

struct SparseSet {
  var dense: [Int]
  var sparse: [Int]
  var count = 0

  init(capacity: Int) {
    dense = Array(repeating: 0, count: capacity)
    sparse = Array(repeating: 0, count: capacity)
  }

  func contains(_ v: Int) -> Bool {
    let k = sparse[v]
    return k < count && dense[k] == v
  }

  mutating func insert(_ v: Int) {
    sparse[v] = count
    dense[count] = v
    count += 1
  }

  mutating func clear() { count = 0 }
}
