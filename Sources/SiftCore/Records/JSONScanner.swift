/// Why JSON scanning stopped: the text is malformed, or it runs past the end of a buffer that
/// is not the end of the input (the caller reads more and scans again).
enum JSONScanFailure: Error {
  case truncated
  case malformed(offset: Int, message: String)
}

/// A strict RFC 8259 scanner over a buffer: it finds where values end and checks them, without
/// building anything. Nesting is tracked with an explicit stack, never with recursion.
struct JSONScanner {
  /// The deepest nesting accepted (Docs/Formats.md, JSON).
  static let maxDepth = 512

  let b: UnsafeBufferPointer<UInt8>
  /// True when the buffer ends where the input ends; else running out of bytes is `truncated`.
  let isLast: Bool
  /// What the end of the buffer is called in messages (`input`, `line`).
  let endName: StaticString

  init(_ b: UnsafeBufferPointer<UInt8>, isLast: Bool, endName: StaticString = "input") {
    self.b = b
    self.isLast = isLast
    self.endName = endName
  }

  /// The failure for running out of bytes.
  func ranOut() -> JSONScanFailure {
    isLast ? .malformed(offset: b.count, message: "unexpected end of \(endName)") : .truncated
  }

  @inline(__always)
  func skipWhitespace(from p: Int) -> Int {
    var p = p
    while p < b.count && b[p].isJSONWhitespace { p += 1 }
    return p
  }

  /// Skips whitespace and checks a byte is there.
  @inline(__always)
  func nextToken(from p: Int) throws(JSONScanFailure) -> Int {
    let q = skipWhitespace(from: p)
    guard q < b.count else { throw ranOut() }
    return q
  }

  /// Scans the value starting at `p` (not whitespace) inside `depth` open containers; returns
  /// the offset after it.
  func scanValue(at p: Int, depth: Int) throws(JSONScanFailure) -> Int {
    guard p < b.count else { throw ranOut() }
    switch b[p] {
    case .quote: return try scanString(at: p)
    case .openBrace, .openBracket: return try scanContainer(at: p, depth: depth)
    default: return try scanScalar(at: p)
    }
  }

  /// Scans a number or a literal at `p`.
  private func scanScalar(at p: Int) throws(JSONScanFailure) -> Int {
    switch b[p] {
    case UInt8(ascii: "t"): return try scanWord("true", at: p)
    case UInt8(ascii: "f"): return try scanWord("false", at: p)
    case UInt8(ascii: "n"): return try scanWord("null", at: p)
    case .minus, .digitZero ... .digitNine: return try scanNumber(at: p)
    default: throw .malformed(offset: p, message: "expected a value")
    }
  }

  private func scanWord(_ word: StaticString, at p: Int) throws(JSONScanFailure) -> Int {
    let count = word.utf8CodeUnitCount
    let text = word.utf8Start
    if p + count <= b.count, sameBytes(text, b.baseAddress! + p, count: count) {
      return try endOfToken(p + count)
    }
    for k in 0..<count {
      guard p + k < b.count else { throw ranOut() }
      guard b[p + k] == text[k] else { throw .malformed(offset: p, message: "expected a value") }
    }
    return try endOfToken(p + count)
  }

  /// A token ending at the buffer's end may go on in the next buffer.
  @inline(__always)
  private func endOfToken(_ p: Int) throws(JSONScanFailure) -> Int {
    if p >= b.count && !isLast { throw .truncated }
    return p
  }

  private func scanNumber(at start: Int) throws(JSONScanFailure) -> Int {
    var p = start
    if b[p] == .minus { p += 1 }
    guard p < b.count else { throw ranOut() }
    if b[p] == .digitZero {
      p += 1
    } else if b[p].isDigit {
      while p < b.count && b[p].isDigit { p += 1 }
    } else {
      throw .malformed(offset: p, message: "expected a digit in a number")
    }
    if p < b.count && b[p] == .dot {
      p += 1
      p = try digits(from: p, after: "'.'")
    }
    if p < b.count && (b[p] == UInt8(ascii: "e") || b[p] == UInt8(ascii: "E")) {
      p += 1
      if p < b.count && (b[p] == .plus || b[p] == .minus) { p += 1 }
      p = try digits(from: p, after: "an exponent")
    }
    return try endOfToken(p)
  }

  /// One or more digits at `p`.
  private func digits(from p: Int, after what: String) throws(JSONScanFailure) -> Int {
    guard p < b.count else { throw ranOut() }
    guard b[p].isDigit else {
      throw .malformed(offset: p, message: "expected a digit after \(what)")
    }
    var p = p
    while p < b.count && b[p].isDigit { p += 1 }
    return p
  }

  /// Scans the string whose opening quote is at `p`; returns the offset after its closing quote.
  /// Bytes that are not valid UTF-8 are accepted (JSONTestSuite leaves them to the parser) and
  /// carried through unchanged.
  func scanString(at start: Int) throws(JSONScanFailure) -> Int {
    var p = start + 1
    let n = b.count
    while true {
      p = plainRunEnd(from: p)
      guard p < n else { throw ranOut() }
      let c = b[p]
      if c == .quote { return p + 1 }
      if c == .backslash {
        guard p + 1 < n else { throw ranOut() }
        switch b[p + 1] {
        case .quote, .backslash, UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
          UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
          p += 2
        case UInt8(ascii: "u"):
          for k in (p + 2)..<(p + 6) {
            guard k < n else { throw ranOut() }
            guard b[k].isHexDigit else {
              throw .malformed(offset: p, message: "expected four hex digits after '\\u'")
            }
          }
          p += 6
        default:
          throw .malformed(offset: p, message: "invalid escape in a string")
        }
        continue
      }
      if c < 0x20 {
        throw .malformed(offset: p, message: "control character in a string (write it escaped)")
      }
      p += 1
    }
  }

  /// Skips string bytes that need no attention (not `"`, `\\` or a control character), eight
  /// at a time: the lowest flagged byte of a word is exact (borrows only run upwards).
  @inline(__always)
  private func plainRunEnd(from start: Int) -> Int {
    var p = start
    let n = b.count
    guard let base = b.baseAddress else { return p }
    let raw = UnsafeRawPointer(base)
    let ones: UInt64 = 0x0101_0101_0101_0101
    let high: UInt64 = 0x8080_8080_8080_8080
    while p &+ 8 <= n {
      let w = raw.loadUnaligned(fromByteOffset: p, as: UInt64.self)
      let quotes = w ^ (ones &* UInt64(UInt8.quote))
      let backslashes = w ^ (ones &* UInt64(UInt8.backslash))
      let special =
        ((quotes &- ones) & ~quotes) | ((backslashes &- ones) & ~backslashes)
        | ((w &- ones &* 0x20) & ~w)
      let found = special & high
      if found != 0 { return p &+ found.trailingZeroBitCount >> 3 }
      p &+= 8
    }
    return p
  }

  /// Scans the object or array opening at `start`, iteratively.
  private func scanContainer(at start: Int, depth: Int) throws(JSONScanFailure) -> Int {
    let room = Self.maxDepth - depth
    guard room > 0 else { throw tooDeep(start) }
    return try withUnsafeTemporaryAllocation(of: Bool.self, capacity: room) {
      isObject throws(JSONScanFailure) -> Int in
      // A state machine: `open` opened a container at p, `value` expects a value at p,
      // `after` has just finished a value (p is after it).
      enum State { case open, value, after }
      var open = 0
      var p = start
      var state = State.open
      while true {
        switch state {
        case .open:
          guard open < room else { throw tooDeep(p) }
          isObject[open] = b[p] == .openBrace
          open += 1
          p = try nextToken(from: p + 1)
          if b[p] == (isObject[open - 1] ? .closeBrace : .closeBracket) {
            p += 1
            open -= 1
            if open == 0 { return p }
            state = .after
          } else if isObject[open - 1] {
            p = try scanMemberName(at: p).value
            state = .value
          } else {
            state = .value
          }
        case .value:
          let c = b[p]
          if c == .openBrace || c == .openBracket {
            state = .open
          } else {
            p = c == .quote ? try scanString(at: p) : try scanScalar(at: p)
            state = .after
          }
        case .after:
          p = try nextToken(from: p)
          let inObject = isObject[open - 1]
          let c = b[p]
          if c == .comma {
            p = try nextToken(from: p + 1)
            if inObject { p = try scanMemberName(at: p).value }
            state = .value
          } else if c == (inObject ? .closeBrace : .closeBracket) {
            p += 1
            open -= 1
            if open == 0 { return p }
          } else {
            throw .malformed(
              offset: p,
              message: inObject
                ? "expected ',' or '}' after an object member"
                : "expected ',' or ']' after an array element")
          }
        }
      }
    }
  }

  /// Scans `"name" :` at `p`; returns the offsets after the name and of the member's value.
  func scanMemberName(at p: Int) throws(JSONScanFailure) -> (nameEnd: Int, value: Int) {
    guard b[p] == .quote else {
      throw .malformed(offset: p, message: "expected a string as an object key")
    }
    let nameEnd = try scanString(at: p)
    return (nameEnd, try memberValue(afterName: nameEnd))
  }

  /// Scans the `:` after a member name ending at `nameEnd`; returns the offset of the value.
  @inline(__always)
  func memberValue(afterName nameEnd: Int) throws(JSONScanFailure) -> Int {
    let colon = try nextToken(from: nameEnd)
    guard b[colon] == .colon else {
      throw .malformed(offset: colon, message: "expected ':' after an object key")
    }
    return try nextToken(from: colon + 1)
  }

  /// The failure for a container opening at `p` past `maxDepth`.
  func tooDeep(_ p: Int) -> JSONScanFailure {
    .malformed(offset: p, message: "nesting deeper than \(Self.maxDepth) levels")
  }
}

extension UInt8 {
  var isHexDigit: Bool {
    isDigit || (self | 0x20 >= UInt8(ascii: "a") && self | 0x20 <= UInt8(ascii: "f"))
  }
}

/// Checks that bytes are one JSON text (RFC 8259), as the JSON readers do.
public enum JSONValidator {
  /// Throws the position and reason of the first error; a leading UTF-8 byte order mark is
  /// ignored.
  public static func validate(_ bytes: [UInt8], name: String) throws(InputError) {
    try bytes.withUnsafeBufferPointer { all throws(InputError) in
      let hasMark = all.count >= 3 && all[0] == 0xEF && all[1] == 0xBB && all[2] == 0xBF
      let b = UnsafeBufferPointer(rebasing: all[(hasMark ? 3 : 0)...])
      let scanner = JSONScanner(b, isLast: true)
      do throws(JSONScanFailure) {
        let end = try scanner.scanValue(at: try scanner.nextToken(from: 0), depth: 0)
        let rest = scanner.skipWhitespace(from: end)
        if rest < b.count {
          throw .malformed(offset: rest, message: "unexpected text after the JSON value")
        }
      } catch {
        throw LineCursor().error(failure: error, in: b, name: name)
      }
    }
  }
}

extension LineCursor {
  /// The input error for a scan failure (`truncated` only happens before the input's end).
  func error(failure: JSONScanFailure, in b: UnsafeBufferPointer<UInt8>, name: String)
    -> InputError
  {
    switch failure {
    case .truncated: return error(at: b.count, in: b, name: name, "unexpected end of input")
    case .malformed(let offset, let message): return error(at: offset, in: b, name: name, message)
    }
  }
}
