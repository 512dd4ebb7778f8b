/// The regex syntax of Docs/QueryLanguage.md ("Regular expressions"), parsed into a small tree
/// that `RegexProgram` compiles to an automaton. Only a yes/no match is ever needed, so groups
/// capture nothing and laziness is accepted but ignored.

/// A rejected pattern: what is wrong and the byte offset in the pattern where it is.
struct RegexError: Error, Sendable, Equatable {
  var message: String
  var offset: Int
}

/// Zero-width tests between two scalars.
enum RegexAssertion: Sendable {
  case start, end, wordBoundary, notWordBoundary
}

indirect enum RegexNode: Sendable {
  case empty
  case set(ScalarSet)
  case assertion(RegexAssertion)
  case concat([RegexNode])
  case alternation([RegexNode])
  case repetition(RegexNode, min: Int, max: Int?)
}

/// A set of scalars: an ASCII bitmap plus, above ASCII, sorted ranges and Unicode classes.
/// Invalid UTF-8 bytes decode to values above U+10FFFF: only negated sets and `.` hold them.
struct ScalarSet: Sendable {
  var low: UInt64 = 0
  var high: UInt64 = 0
  var ranges: [ClosedRange<UInt32>] = []
  var classes: UInt8 = 0
  var negated = false

  static let digit: UInt8 = 1, word: UInt8 = 2, space: UInt8 = 4
  static let notDigit: UInt8 = 8, notWord: UInt8 = 16, notSpace: UInt8 = 32

  mutating func insert(_ r: ClosedRange<UInt32>) {
    var lo = r.lowerBound
    while lo <= r.upperBound && lo < 128 {
      if lo < 64 { low |= 1 << UInt64(lo) } else { high |= 1 << UInt64(lo - 64) }
      lo += 1
    }
    if lo <= r.upperBound { ranges.append(lo...r.upperBound) }
  }

  mutating func insertClass(_ c: UInt8) {
    classes |= c
    for b in UInt32(0)..<128 where Self.classHolds(c, b) { insert(b...b) }
  }

  static func classHolds(_ c: UInt8, _ s: UInt32) -> Bool {
    (c & digit != 0 && isDigit(s)) || (c & word != 0 && isWord(s))
      || (c & space != 0 && isSpace(s)) || (c & notDigit != 0 && !isDigit(s))
      || (c & notWord != 0 && !isWord(s)) || (c & notSpace != 0 && !isSpace(s))
  }

  /// Sorts and merges the ranges.
  mutating func normalize() {
    ranges.sort { $0.lowerBound < $1.lowerBound }
    var merged: [ClosedRange<UInt32>] = []
    for r in ranges {
      if let last = merged.last, r.lowerBound <= last.upperBound &+ 1 {
        merged[merged.count - 1] = last.lowerBound...Swift.max(last.upperBound, r.upperBound)
      } else {
        merged.append(r)
      }
    }
    ranges = merged
  }

  /// Adds the lowercase form of every member, so a folded scalar can be looked up.
  mutating func closeUnderFolding() {
    for b in UInt32(65)...90 where contains(b) { insert((b + 32)...(b + 32)) }
    for b in UInt32(97)...122 where contains(b) { insert((b - 32)...(b - 32)) }
    var extra: [ClosedRange<UInt32>] = []
    for r in ranges {
      var s = r.lowerBound
      while s <= Swift.min(r.upperBound, 0x1_FFFF) {
        let f = RegexFold.fold(s)
        if f != s { extra.append(f...f) }
        s += 1
      }
    }
    for r in extra { insert(r) }
    normalize()
  }

  func contains(_ s: UInt32) -> Bool {
    if s < 64 { return low & (1 << UInt64(s)) != 0 }
    if s < 128 { return high & (1 << UInt64(s - 64)) != 0 }
    var found = classes != 0 && s <= 0x10_FFFF && Self.classHolds(classes, s)
    if !found {
      var lo = 0
      var hi = ranges.count
      while lo < hi {
        let mid = (lo + hi) / 2
        if ranges[mid].upperBound < s { lo = mid + 1 } else { hi = mid }
      }
      found = lo < ranges.count && ranges[lo].contains(s)
    }
    return found != negated
  }

  mutating func negate() {
    low = ~low
    high = ~high
    negated.toggle()
  }
}

/// `\d`: Unicode decimal digits (category Nd).
func isDigit(_ s: UInt32) -> Bool {
  if s < 128 { return s >= 48 && s <= 57 }
  guard let u = Unicode.Scalar(s) else { return false }
  return u.properties.generalCategory == .decimalNumber
}

/// `\w`: letters and numbers of any script, and `_`.
func isWord(_ s: UInt32) -> Bool {
  if s < 128 {
    return (s >= 48 && s <= 57) || (s >= 65 && s <= 90) || (s >= 97 && s <= 122) || s == 95
  }
  guard let u = Unicode.Scalar(s) else { return false }
  switch u.properties.generalCategory {
  case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
    .decimalNumber, .letterNumber, .otherNumber:
    return true
  default:
    return false
  }
}

/// `\s`: ASCII space, tab, line feed, carriage return, vertical tab, form feed and Unicode
/// White_Space.
func isSpace(_ s: UInt32) -> Bool {
  if s < 128 { return s == 32 || (s >= 9 && s <= 13) }
  guard let u = Unicode.Scalar(s) else { return false }
  return u.properties.isWhitespace
}

/// Case folding for the `i` flag: a scalar's Unicode lowercase mapping when that is one scalar.
enum RegexFold {
  static func fold(_ s: UInt32) -> UInt32 {
    if s < 128 { return s >= 65 && s <= 90 ? s + 32 : s }
    guard let u = Unicode.Scalar(s), u.properties.changesWhenLowercased else { return s }
    let lower = u.properties.lowercaseMapping.unicodeScalars
    guard lower.count == 1, let first = lower.first else { return s }
    return first.value
  }
}

/// Decodes one scalar at `i`; an invalid byte decodes to `0x110000 + byte`, length 1.
@inline(__always)
func decodeScalar(_ b: UnsafeBufferPointer<UInt8>, _ i: Int) -> (UInt32, Int) {
  let b0 = UInt32(b[i])
  if b0 < 0x80 { return (b0, 1) }
  let n = b.count - i
  @inline(__always) func cont(_ k: Int) -> UInt32? {
    guard k < n else { return nil }
    let c = UInt32(b[i + k])
    return c & 0xC0 == 0x80 ? c & 0x3F : nil
  }
  if b0 >= 0xC2 && b0 <= 0xDF, let c1 = cont(1) { return ((b0 & 0x1F) << 6 | c1, 2) }
  if b0 >= 0xE0 && b0 <= 0xEF, let c1 = cont(1), let c2 = cont(2) {
    let s = (b0 & 0x0F) << 12 | c1 << 6 | c2
    if s >= 0x800 && !(0xD800...0xDFFF).contains(s) { return (s, 3) }
  }
  if b0 >= 0xF0 && b0 <= 0xF4, let c1 = cont(1), let c2 = cont(2), let c3 = cont(3) {
    let s = (b0 & 0x07) << 18 | c1 << 12 | c2 << 6 | c3
    if s >= 0x1_0000 && s <= 0x10_FFFF { return (s, 4) }
  }
  return (0x11_0000 + b0, 1)
}

/// Recursive-descent parser over the pattern's UTF-8 bytes.
struct RegexParser {
  static let maxDepth = 100
  static let maxCount = 1000
  /// The most instructions a compiled pattern may have.
  static let maxSize = 10_000

  let bytes: [UInt8]
  let caseInsensitive: Bool
  var pos = 0
  var depth = 0

  init(_ pattern: String, caseInsensitive: Bool) {
    bytes = Array(pattern.utf8)
    self.caseInsensitive = caseInsensitive
  }

  /// The whole pattern and its instruction count.
  mutating func parse() throws(RegexError) -> (RegexNode, Int) {
    let result = try parseAlternation()
    if pos < bytes.count {
      throw RegexError(message: "unmatched ')'", offset: pos)
    }
    return result
  }

  func peek(_ k: Int = 0) -> UInt8? { pos + k < bytes.count ? bytes[pos + k] : nil }

  mutating func parseAlternation() throws(RegexError) -> (RegexNode, Int) {
    var branches: [RegexNode] = []
    var size = 0
    while true {
      let (node, n) = try parseConcat()
      branches.append(node)
      size += n + 2
      guard peek() == UInt8(ascii: "|") else { break }
      pos += 1
    }
    if branches.count == 1 { return (branches[0], size - 2) }
    return (.alternation(branches), size)
  }

  mutating func parseConcat() throws(RegexError) -> (RegexNode, Int) {
    var items: [RegexNode] = []
    var size = 0
    while let b = peek(), b != UInt8(ascii: "|"), b != UInt8(ascii: ")") {
      let start = pos
      var (atom, n) = try parseAtom()
      if let q = try parseQuantifier() {
        if case .assertion = atom, bytes[start] != UInt8(ascii: "(") {
          throw RegexError(message: "nothing to repeat before the quantifier", offset: q.offset)
        }
        let copies = q.max ?? (q.min + 1)
        let total = n.multipliedReportingOverflow(by: copies)
        n = total.overflow ? Int.max : total.partialValue + copies + 1
        if n > Self.maxSize {
          throw RegexError(
            message: "the expression is too large (more than \(Self.maxSize) steps)",
            offset: q.offset)
        }
        atom = .repetition(atom, min: q.min, max: q.max)
      }
      size += n
      if size > Self.maxSize {
        throw RegexError(
          message: "the expression is too large (more than \(Self.maxSize) steps)", offset: start)
      }
      items.append(atom)
    }
    if items.count == 1 { return (items[0], size) }
    return (items.isEmpty ? .empty : .concat(items), size)
  }

  /// `{n}`, `{n,}`, `{n,m}`, `{,m}` at `pos`, or nil when the brace is a literal.
  func braceQuantifier() -> (min: Int, max: Int?, length: Int)? {
    var i = pos + 1
    func number() -> Int? {
      var v: Int?
      while i < bytes.count, bytes[i] >= 48, bytes[i] <= 57 {
        v = Swift.min((v ?? 0) * 10 + Int(bytes[i] - 48), 1_000_000)
        i += 1
      }
      return v
    }
    let lo = number()
    if i < bytes.count, bytes[i] == UInt8(ascii: "}") {
      guard let lo else { return nil }
      return (lo, lo, i + 1 - pos)
    }
    guard i < bytes.count, bytes[i] == UInt8(ascii: ",") else { return nil }
    i += 1
    let hi = number()
    guard i < bytes.count, bytes[i] == UInt8(ascii: "}"), lo != nil || hi != nil else {
      return nil
    }
    return (lo ?? 0, hi, i + 1 - pos)
  }

  func isQuantifierHere() -> Bool {
    switch peek() {
    case UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "?"): return true
    case UInt8(ascii: "{"): return braceQuantifier() != nil
    default: return false
    }
  }

  mutating func parseQuantifier() throws(RegexError) -> (min: Int, max: Int?, offset: Int)? {
    let offset = pos
    var q: (min: Int, max: Int?)
    switch peek() {
    case UInt8(ascii: "*"): q = (0, nil); pos += 1
    case UInt8(ascii: "+"): q = (1, nil); pos += 1
    case UInt8(ascii: "?"): q = (0, 1); pos += 1
    case UInt8(ascii: "{"):
      guard let b = braceQuantifier() else { return nil }
      if b.min > Self.maxCount || (b.max ?? 0) > Self.maxCount {
        throw RegexError(
          message: "a repetition count may be at most \(Self.maxCount)", offset: offset)
      }
      if let hi = b.max, hi < b.min {
        throw RegexError(message: "the repetition range is backwards", offset: offset)
      }
      q = (b.min, b.max)
      pos += b.length
    default:
      return nil
    }
    if peek() == UInt8(ascii: "?") {
      pos += 1
    } else if peek() == UInt8(ascii: "+") {
      throw RegexError(message: "possessive quantifiers are not supported", offset: pos)
    }
    if isQuantifierHere() {
      throw RegexError(
        message: "a quantifier cannot follow another; group the first with (?:...)", offset: pos)
    }
    return (q.min, q.max, offset)
  }

  mutating func parseAtom() throws(RegexError) -> (RegexNode, Int) {
    let start = pos
    guard let b = peek() else { return (.empty, 0) }
    switch b {
    case UInt8(ascii: "("):
      pos += 1
      if peek() == UInt8(ascii: "?") {
        switch (peek(1), peek(2)) {
        case (UInt8(ascii: ":"), _):
          pos += 2
        case (UInt8(ascii: "="), _), (UInt8(ascii: "!"), _),
          (UInt8(ascii: "<"), UInt8(ascii: "=")), (UInt8(ascii: "<"), UInt8(ascii: "!")):
          throw RegexError(message: "lookaround is not supported", offset: start)
        case (UInt8(ascii: ">"), _):
          throw RegexError(message: "atomic groups are not supported", offset: start)
        default:
          throw RegexError(
            message: "unknown group syntax: use (...) or (?:...)", offset: start)
        }
      }
      depth += 1
      if depth > Self.maxDepth {
        throw RegexError(
          message: "groups nest too deeply (at most \(Self.maxDepth))", offset: start)
      }
      let inner = try parseAlternation()
      guard peek() == UInt8(ascii: ")") else {
        throw RegexError(message: "expected ')'", offset: pos)
      }
      pos += 1
      depth -= 1
      return inner
    case UInt8(ascii: "["):
      return (.set(try parseClass()), 1)
    case UInt8(ascii: "."):
      pos += 1
      var s = ScalarSet()
      s.insert(10...10)
      s.negate()
      return (.set(s), 1)
    case UInt8(ascii: "^"):
      pos += 1
      return (.assertion(.start), 1)
    case UInt8(ascii: "$"):
      pos += 1
      return (.assertion(.end), 1)
    case UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "?"):
      throw RegexError(message: "nothing to repeat before the quantifier", offset: start)
    case UInt8(ascii: "{") where braceQuantifier() != nil:
      throw RegexError(message: "nothing to repeat before the quantifier", offset: start)
    case UInt8(ascii: "\\"):
      switch peek(1) {
      case UInt8(ascii: "b"): pos += 2; return (.assertion(.wordBoundary), 1)
      case UInt8(ascii: "B"): pos += 2; return (.assertion(.notWordBoundary), 1)
      default: break
      }
      var s = ScalarSet()
      try parseEscape(into: &s)
      return (.set(finish(s)), 1)
    default:
      var s = ScalarSet()
      let c = literalScalar()
      s.insert(c...c)
      return (.set(finish(s)), 1)
    }
  }

  mutating func literalScalar() -> UInt32 {
    let (s, n) = bytes.withUnsafeBufferPointer { decodeScalar($0, pos) }
    pos += n
    return s
  }

  func finish(_ set: ScalarSet) -> ScalarSet {
    var s = set
    s.normalize()
    if caseInsensitive { s.closeUnderFolding() }
    return s
  }

  /// An escape at `pos` (on the backslash): inserts what it stands for; returns the scalar
  /// when it stands for one (so it may end a range).
  @discardableResult
  mutating func parseEscape(into s: inout ScalarSet) throws(RegexError) -> UInt32? {
    let start = pos
    pos += 1
    guard let e = peek() else {
      throw RegexError(message: "expected a character after '\\'", offset: start)
    }
    pos += 1
    func one(_ c: UInt32) -> UInt32 {
      s.insert(c...c)
      return c
    }
    switch e {
    case UInt8(ascii: "d"): s.insertClass(ScalarSet.digit)
    case UInt8(ascii: "w"): s.insertClass(ScalarSet.word)
    case UInt8(ascii: "s"): s.insertClass(ScalarSet.space)
    case UInt8(ascii: "D"): s.insertClass(ScalarSet.notDigit)
    case UInt8(ascii: "W"): s.insertClass(ScalarSet.notWord)
    case UInt8(ascii: "S"): s.insertClass(ScalarSet.notSpace)
    case UInt8(ascii: "n"): return one(10)
    case UInt8(ascii: "t"): return one(9)
    case UInt8(ascii: "r"): return one(13)
    case UInt8(ascii: "f"): return one(12)
    case UInt8(ascii: "v"): return one(11)
    case UInt8(ascii: "x"):
      guard let h1 = peek().flatMap(hexValue), let h2 = peek(1).flatMap(hexValue) else {
        throw RegexError(message: "expected two hex digits after '\\x'", offset: start)
      }
      pos += 2
      return one(h1 << 4 | h2)
    case UInt8(ascii: "1")...UInt8(ascii: "9"), UInt8(ascii: "k"):
      throw RegexError(message: "backreferences are not supported", offset: start)
    default:
      if e >= 0x80 {
        pos -= 1
        return one(literalScalar())
      }
      let isAlnum = (e >= 48 && e <= 57) || (e >= 65 && e <= 90) || (e >= 97 && e <= 122)
      guard !isAlnum else {
        throw RegexError(
          message: "unknown escape '\\\(Character(Unicode.Scalar(e)))'", offset: start)
      }
      return one(UInt32(e))
    }
    return nil
  }

  func hexValue(_ b: UInt8) -> UInt32? {
    switch b {
    case 48...57: return UInt32(b - 48)
    case 65...70: return UInt32(b - 55)
    case 97...102: return UInt32(b - 87)
    default: return nil
    }
  }

  /// `[...]` at `pos`.
  mutating func parseClass() throws(RegexError) -> ScalarSet {
    let open = pos
    pos += 1
    var s = ScalarSet()
    var negated = false
    if peek() == UInt8(ascii: "^") {
      negated = true
      pos += 1
    }
    var first = true
    while true {
      guard let b = peek() else {
        throw RegexError(message: "expected ']' to close the class", offset: open)
      }
      if b == UInt8(ascii: "]") && !first { break }
      first = false
      let itemStart = pos
      var lo: UInt32?
      if b == UInt8(ascii: "\\") {
        if peek(1) == UInt8(ascii: "b") {
          pos += 2
          lo = 8
        } else {
          var tmp = ScalarSet()
          lo = try parseEscape(into: &tmp)
          if lo == nil { mergeClass(&s, tmp); continue }
        }
      } else {
        lo = literalScalar()
      }
      guard let low = lo else { continue }
      if peek() == UInt8(ascii: "-"), let next = peek(1), next != UInt8(ascii: "]") {
        pos += 1
        var hi: UInt32?
        if next == UInt8(ascii: "\\") {
          var tmp = ScalarSet()
          hi = try parseEscape(into: &tmp)
        } else {
          hi = literalScalar()
        }
        guard let high = hi else {
          throw RegexError(message: "a class escape cannot end a range", offset: itemStart)
        }
        guard low <= high else {
          throw RegexError(message: "the range is backwards", offset: itemStart)
        }
        s.insert(low...high)
      } else {
        s.insert(low...low)
      }
    }
    pos += 1
    s = finish(s)
    if negated { s.negate() }
    return s
  }

  func mergeClass(_ s: inout ScalarSet, _ other: ScalarSet) {
    s.low |= other.low
    s.high |= other.high
    s.classes |= other.classes
    s.ranges += other.ranges
  }
}
