/// Matches a `RegexProgram` against values with a DFA built lazily from its NFA (Docs/Performance.md,
/// "Bounds"). A DFA state is the set of NFA instructions waiting for the next scalar (before their
/// closure) and what the scalar before was (the start, a word scalar or another), so a state's
/// step on a scalar is a pure function, worked out once by simulating the NFA and then cached:
/// an ASCII byte of a value costs one table look-up once its step is known. The cache is bounded
/// (`stateLimit` states, `seedLimit` stored instructions); past either it is emptied and built
/// again, so a pattern with more states than the cache costs at most one NFA step (instructions
/// of the pattern) per scalar, as a plain NFA simulation would. State lists are reused across values.
struct RegexMatcher {
  let program: RegexProgram
  /// Instructions visited while working out steps: the test seam for the bound.
  private(set) var steps = 0

  private struct StateKey: Hashable {
    var seeds: [Int32]
    /// 0: the value's start (only where the pattern has `^`), 1: after a non-word scalar,
    /// 2: after a word scalar (only where the pattern has `\b` or `\B`).
    var previous: UInt8
  }

  private static let unknown: Int32 = -1
  private static let matched: Int32 = -2

  private let stateLimit: Int
  private let seedLimit: Int
  private let startClass: UInt8
  private let usesWord: Bool
  private var keys: [StateKey] = []
  private var index: [StateKey: Int32] = [:]
  /// 128 entries per state: the next state on each ASCII scalar, `unknown` or `matched`.
  private var ascii: [Int32] = []
  /// The next states on other scalars, keyed by state << 32 | scalar.
  private var wide: [UInt64: Int32] = [:]
  /// Per state: whether the value's end matches there (1), not (0), or not yet known (-1).
  private var endMatches: [Int8] = []
  private var storedSeeds = 0
  private var start = unknown
  private var list: SparseSet
  private var stack: [Int] = []
  private var foldCache: [UInt32: UInt32] = [:]

  init(_ program: RegexProgram, stateLimit: Int = 4096, seedLimit: Int = 1 << 20) {
    self.program = program
    self.stateLimit = max(stateLimit, 2)
    self.seedLimit = seedLimit
    var usesStart = false
    var usesWord = false
    for inst in program.insts {
      guard case .assertion(let a) = inst else { continue }
      switch a {
      case .start: usesStart = true
      case .end: break
      case .wordBoundary, .notWordBoundary: usesWord = true
      }
    }
    startClass = usesStart ? 0 : 1
    self.usesWord = usesWord
    list = SparseSet(capacity: program.insts.count)
  }

  /// Whether the pattern matches anywhere in `bytes`.
  mutating func matches(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    if start == Self.unknown { start = intern(StateKey(seeds: [], previous: startClass)) }
    var state = start
    var i = 0
    let count = bytes.count
    while i < count {
      let byte = bytes[i]
      var next: Int32
      if byte < 0x80 {
        next = ascii[Int(state) &* 128 &+ Int(byte)]
        if next == Self.unknown { next = step(state, UInt32(byte)) }
        i &+= 1
      } else {
        let (scalar, length) = decodeScalar(bytes, i)
        if let known = wide[UInt64(UInt32(bitPattern: state)) << 32 | UInt64(scalar)] {
          next = known
        } else {
          next = step(state, scalar)
        }
        i &+= length
      }
      if next == Self.matched { return true }
      state = next
    }
    return matchesAtEnd(state)
  }

  /// Works out and caches the step of `state` on `scalar`: `matched`, or the next state (whose
  /// index may be from a cache emptied on the way).
  private mutating func step(_ state: Int32, _ scalar: UInt32) -> Int32 {
    let key = keys[Int(state)]
    let context = Context(
      previous: key.previous, currentIsEnd: false, currentIsWord: usesWord && isWord(scalar))
    let next: Int32
    if closure(of: key.seeds, context) {
      next = Self.matched
    } else {
      let folded = program.caseInsensitive ? fold(scalar) : scalar
      var seeds: [Int32] = []
      for k in 0..<list.count {
        let pc = list.dense[k]
        let hit: Bool
        switch program.insts[pc] {
        case .scalar(let s): hit = s == scalar
        case .set(let set): hit = program.sets[set].contains(folded)
        case .assertion, .split, .jump, .match: hit = false
        }
        if hit { seeds.append(Int32(pc + 1)) }
      }
      seeds.sort()
      let target = StateKey(seeds: seeds, previous: usesWord && isWord(scalar) ? 2 : 1)
      if index[target] == nil && (keys.count >= stateLimit || storedSeeds + seeds.count > seedLimit) {
        clearCache()
        return intern(target)
      }
      next = intern(target)
    }
    if scalar < 0x80 {
      ascii[Int(state) * 128 + Int(scalar)] = next
    } else {
      if wide.count >= stateLimit * 16 { wide.removeAll(keepingCapacity: true) }
      wide[UInt64(UInt32(bitPattern: state)) << 32 | UInt64(scalar)] = next
    }
    return next
  }

  private mutating func matchesAtEnd(_ state: Int32) -> Bool {
    let known = endMatches[Int(state)]
    if known >= 0 { return known == 1 }
    let key = keys[Int(state)]
    let hit = closure(
      of: key.seeds, Context(previous: key.previous, currentIsEnd: true, currentIsWord: false))
    endMatches[Int(state)] = hit ? 1 : 0
    return hit
  }

  private mutating func intern(_ key: StateKey) -> Int32 {
    if let known = index[key] { return known }
    let id = Int32(keys.count)
    keys.append(key)
    index[key] = id
    ascii.append(contentsOf: repeatElement(Self.unknown, count: 128))
    endMatches.append(-1)
    storedSeeds += key.seeds.count
    return id
  }

  private mutating func clearCache() {
    keys.removeAll(keepingCapacity: true)
    index.removeAll(keepingCapacity: true)
    ascii.removeAll(keepingCapacity: true)
    wide.removeAll(keepingCapacity: true)
    endMatches.removeAll(keepingCapacity: true)
    storedSeeds = 0
    start = Self.unknown
  }

  private struct Context {
    var previous: UInt8
    var currentIsEnd: Bool
    var currentIsWord: Bool

    func holds(_ a: RegexAssertion) -> Bool {
      switch a {
      case .start: return previous == 0
      case .end: return currentIsEnd
      case .wordBoundary: return (previous == 2) != currentIsWord
      case .notWordBoundary: return (previous == 2) == currentIsWord
      }
    }
  }

  /// Fills `list` with the seeds, the program's start (the search is unanchored) and everything
  /// reachable from them without reading a scalar; true as soon as `match` is reached.
  private mutating func closure(of seeds: [Int32], _ context: Context) -> Bool {
    list.clear()
    stack.removeAll(keepingCapacity: true)
    stack.append(0)
    for s in seeds.reversed() { stack.append(Int(s)) }
    let insts = program.insts
    while let pc = stack.popLast() {
      if list.contains(pc) { continue }
      list.insert(pc)
      steps &+= 1
      switch insts[pc] {
      case .match:
        return true
      case .jump(let t):
        stack.append(t)
      case .split(let a, let b):
        stack.append(b)
        stack.append(a)
      case .assertion(let a):
        if context.holds(a) { stack.append(pc + 1) }
      case .scalar, .set:
        break
      }
    }
    return false
  }

  private mutating func fold(_ s: UInt32) -> UInt32 {
    if s < 128 { return s }
    if let f = foldCache[s] { return f }
    let f = RegexFold.fold(s)
    if foldCache.count < 4096 { foldCache[s] = f }
    return f
  }
}

/// A set of instruction indices with constant-time clear.
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
