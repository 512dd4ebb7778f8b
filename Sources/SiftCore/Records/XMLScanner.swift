/// A pull scanner of the XML in a workbook part, over bytes as they inflate (Docs/Formats.md,
/// Workbooks): start and end tags with their attributes, and text with the five predefined
/// entities and numeric character references decoded. A DTD or entity declaration is refused
/// (no external or billion-laughs entities); comments and processing instructions are skipped.
/// Names are compared by their local part (`x:c` is `c`).
final class XMLScanner {
  /// What `next()` found.
  enum Token: Equatable { case start, end, text, endOfInput }

  private let source: ByteSource
  /// `book.xlsx`, for messages.
  let archive: String
  /// `xl/worksheets/sheet1.xml`, for messages.
  let part: String

  // Unread bytes are `buffer[position..<count]`; `base` is the part offset of `buffer[0]`.
  @exclusivity(unchecked) private var buffer: UnsafeMutablePointer<UInt8>
  @exclusivity(unchecked) private var capacity = 1 << 16
  @exclusivity(unchecked) private var count = 0
  @exclusivity(unchecked) private var position = 0
  @exclusivity(unchecked) private var base = 0
  @exclusivity(unchecked) private var ended = false

  /// The current tag's local name, as `buffer` offsets (valid until the next `next()`).
  @exclusivity(unchecked) private var nameStart = 0
  @exclusivity(unchecked) private var nameEnd = 0
  /// The current start tag's attributes: local name and raw value offsets, four per attribute.
  @exclusivity(unchecked) private var attributeBounds: [Int] = []
  /// The current start tag ends in `/>`: `next()` gives its end tag next.
  @exclusivity(unchecked) private(set) var selfClosing = false
  @exclusivity(unchecked) private var pendingEnd = false
  /// The current text's bytes, decoded.
  @exclusivity(unchecked) private(set) var text: [UInt8] = []

  /// The longest single token (a tag or a run of text) a part may hold.
  static let longestToken = 1 << 28

  init(source: ByteSource, archive: String, part: String) {
    self.source = source
    self.archive = archive
    self.part = part
    buffer = .allocate(capacity: capacity)
  }

  deinit { buffer.deallocate() }

  func fail(_ what: String) -> InputError {
    InputError(name: archive, line: 0, column: 0, message: "part \(part): \(what)")
  }

  private func malformed(_ what: String, at offset: Int) -> InputError {
    fail("malformed XML at byte \(base + offset): \(what)")
  }

  /// Reads more bytes, keeping those from `position` on (moved to the front); false at the end.
  private func more() throws(InputError) -> Bool {
    if ended { return false }
    if position > 0 {
      let keep = count - position
      if keep > 0 { buffer.update(from: buffer + position, count: keep) }
      base += position
      count = keep
      nameStart -= position
      nameEnd -= position
      position = 0
    }
    if count == capacity {
      guard capacity < Self.longestToken else { throw fail("a single XML token over 256 MiB") }
      let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity * 2)
      bigger.update(from: buffer, count: count)
      buffer.deallocate()
      buffer = bigger
      capacity *= 2
    }
    let got = try source.readBytes(to: buffer + count, maxCount: capacity - count)
    if got == 0 {
      ended = true
      return false
    }
    count += got
    return true
  }

  /// The offset, relative to `position`, of the first `byte` at or after relative `from`,
  /// reading more as needed; `nil` at the end of the input.
  private func find(_ byte: UInt8, from: Int) throws(InputError) -> Int? {
    var r = from
    while true {
      while position + r < count {
        if buffer[position + r] == byte { return r }
        r += 1
      }
      if try !more() { return nil }
    }
  }

  /// Whether the bytes at relative `r` start with `literal`, reading more as needed.
  private func looksAt(_ literal: StaticString, _ r: Int) throws(InputError) -> Bool {
    let n = literal.utf8CodeUnitCount
    while position + r + n > count {
      if try !more() { return false }
    }
    let p = literal.utf8Start
    for k in 0..<n where buffer[position + r + k] != p[k] { return false }
    return true
  }

  /// The next token.
  func next() throws(InputError) -> Token {
    if pendingEnd {
      pendingEnd = false
      selfClosing = false
      return .end
    }
    if position == count, try !more() { return .endOfInput }
    if buffer[position] != .less { return try scanText() }
    if position + 1 == count, try !more() {
      throw malformed("the part ends inside a tag (truncated)", at: position)
    }
    switch buffer[position + 1] {
    case .slash:
      guard let close = try find(.greater, from: 2) else {
        throw malformed("the part ends inside a tag (truncated)", at: position)
      }
      setName(from: position + 2, to: position + close)
      position += close + 1
      return .end
    case .question:
      var r = 2
      while true {
        guard let close = try find(.greater, from: r) else {
          throw malformed("unterminated processing instruction", at: position)
        }
        if buffer[position + close - 1] == .question {
          position += close + 1
          return try next()
        }
        r = close + 1
      }
    case .exclamation:
      return try scanDeclaration()
    default:
      return try scanStartTag()
    }
  }

  private func setName(from start: Int, to end: Int) {
    var s = start
    var e = start
    while e < end && !isSpace(buffer[e]) && buffer[e] != .slash && buffer[e] != .greater {
      if buffer[e] == .colon { s = e + 1 }
      e += 1
    }
    nameStart = s
    nameEnd = e
  }

  @inline(__always) private func isSpace(_ b: UInt8) -> Bool {
    b == .space || b == .lineFeed || b == .carriageReturn || b == .tab
  }

  private func scanDeclaration() throws(InputError) -> Token {
    if try looksAt("<!--", 0) {
      var r = 4
      while true {
        guard let close = try find(.greater, from: r) else {
          throw malformed("unterminated comment", at: position)
        }
        if close >= 6 && buffer[position + close - 1] == .minus && buffer[position + close - 2] == .minus {
          position += close + 1
          return try next()
        }
        r = close + 1
      }
    }
    if try looksAt("<![CDATA[", 0) {
      var r = 9
      while true {
        guard let close = try find(.greater, from: r) else {
          throw malformed("unterminated CDATA section", at: position)
        }
        if close >= 11 && buffer[position + close - 1] == .closeBracket
          && buffer[position + close - 2] == .closeBracket
        {
          text.removeAll(keepingCapacity: true)
          text.append(contentsOf: UnsafeBufferPointer(start: buffer + position + 9, count: close - 11))
          position += close + 1
          return .text
        }
        r = close + 1
      }
    }
    throw fail(
      "declares a DTD or entity (<!DOCTYPE or <!ENTITY); sift refuses them in workbooks"
        + " (no entity expansion)")
  }

  private func scanStartTag() throws(InputError) -> Token {
    // Find the closing '>' outside quoted attribute values.
    var r = 1
    var quote: UInt8 = 0
    while true {
      if position + r == count {
        if try !more() { throw malformed("the part ends inside a tag (truncated)", at: position) }
        continue
      }
      let b = buffer[position + r]
      if quote != 0 {
        if b == quote { quote = 0 }
      } else if b == .quote || b == .singleQuote {
        quote = b
      } else if b == .greater {
        break
      } else if b == .less {
        throw malformed("'<' inside a tag", at: position + r)
      }
      r += 1
    }
    let end = position + r
    setName(from: position + 1, to: end)
    selfClosing = buffer[end - 1] == .slash
    attributeBounds.removeAll(keepingCapacity: true)
    var p = nameEnd
    let limit = selfClosing ? end - 1 : end
    while true {
      while p < limit && isSpace(buffer[p]) { p += 1 }
      if p >= limit { break }
      var s = p
      while p < limit && buffer[p] != .equals && !isSpace(buffer[p]) {
        if buffer[p] == .colon { s = p + 1 }
        p += 1
      }
      let attributeNameEnd = p
      while p < limit && isSpace(buffer[p]) { p += 1 }
      guard p < limit, buffer[p] == .equals else { throw malformed("attribute without a value", at: p) }
      p += 1
      while p < limit && isSpace(buffer[p]) { p += 1 }
      guard p < limit, buffer[p] == .quote || buffer[p] == .singleQuote else {
        throw malformed("attribute value without quotes", at: p)
      }
      let q = buffer[p]
      let valueStart = p + 1
      p = valueStart
      while p < limit && buffer[p] != q { p += 1 }
      attributeBounds.append(contentsOf: [s, attributeNameEnd, valueStart, p])
      p += 1
    }
    position = end + 1
    pendingEnd = selfClosing
    return .start
  }

  private func scanText() throws(InputError) -> Token {
    let close = try find(.less, from: 0) ?? (count - position)
    text.removeAll(keepingCapacity: true)
    try decode(from: position, to: position + close, into: &text)
    position += close
    return .text
  }

  /// Appends the bytes `buffer[from..<to]` to `out` with entity and character references decoded.
  private func decode(from: Int, to: Int, into out: inout [UInt8]) throws(InputError) {
    var p = from
    var run = from
    while p < to {
      if buffer[p] != .ampersand {
        p += 1
        continue
      }
      out.append(contentsOf: UnsafeBufferPointer(start: buffer + run, count: p - run))
      var e = p + 1
      while e < to && buffer[e] != .semicolon && e - p < 12 { e += 1 }
      guard e < to, buffer[e] == .semicolon else { throw malformed("'&' not starting a reference", at: p) }
      let name = UnsafeBufferPointer(start: buffer + p + 1, count: e - p - 1)
      if let byte = Self.predefined(name) {
        out.append(byte)
      } else if name.first == .hash, let scalar = Self.characterReference(name.dropFirst()) {
        out.append(contentsOf: String(Character(scalar)).utf8)
      } else {
        throw fail(
          "refers to the entity &\(String(decoding: name, as: UTF8.self)); that XML does not"
            + " predefine (sift expands no declared entities)")
      }
      p = e + 1
      run = p
    }
    out.append(contentsOf: UnsafeBufferPointer(start: buffer + run, count: to - run))
  }

  private static func predefined(_ name: UnsafeBufferPointer<UInt8>) -> UInt8? {
    switch String(decoding: name, as: UTF8.self) {
    case "lt": return .less
    case "gt": return .greater
    case "amp": return .ampersand
    case "quot": return .quote
    case "apos": return .singleQuote
    default: return nil
    }
  }

  private static func characterReference(_ digits: Slice<UnsafeBufferPointer<UInt8>>) -> Unicode.Scalar? {
    var d = Substring(String(decoding: digits, as: UTF8.self))
    var radix = 10
    if d.first == "x" || d.first == "X" {
      radix = 16
      d = d.dropFirst()
    }
    guard !d.isEmpty, let v = UInt32(d, radix: radix) else { return nil }
    return Unicode.Scalar(v)
  }

  // MARK: The current tag

  /// Whether the current tag's local name is `name`.
  func isNamed(_ name: StaticString) -> Bool {
    let n = name.utf8CodeUnitCount
    guard nameEnd - nameStart == n else { return false }
    let p = name.utf8Start
    for k in 0..<n where buffer[nameStart + k] != p[k] { return false }
    return true
  }

  /// The index in `attributeBounds` of the current start tag's attribute `name`.
  private func attributeIndex(_ name: StaticString) -> Int? {
    let n = name.utf8CodeUnitCount
    let p = name.utf8Start
    var k = 0
    while k < attributeBounds.count {
      let s = attributeBounds[k]
      if attributeBounds[k + 1] - s == n {
        var same = true
        for j in 0..<n where buffer[s + j] != p[j] {
          same = false
          break
        }
        if same { return k }
      }
      k += 4
    }
    return nil
  }

  /// The raw bytes of the current start tag's attribute `name` (entities not decoded), passed to
  /// `body`; `nil` to `body` when the tag has none.
  func withAttribute<R>(_ name: StaticString, _ body: (UnsafeBufferPointer<UInt8>?) -> R) -> R {
    guard let k = attributeIndex(name) else { return body(nil) }
    let start = attributeBounds[k + 2]
    return body(UnsafeBufferPointer(start: buffer + start, count: attributeBounds[k + 3] - start))
  }

  /// The current start tag's attribute `name`, decoded, or `nil`.
  func attribute(_ name: StaticString) throws(InputError) -> String? {
    guard let k = attributeIndex(name) else { return nil }
    var out: [UInt8] = []
    try decode(from: attributeBounds[k + 2], to: attributeBounds[k + 3], into: &out)
    return String(decoding: out, as: UTF8.self)
  }

  /// The decoded text up to the end tag of the element just started (nested tags skipped, their
  /// text kept), for small elements such as `<t>`.
  func elementText() throws(InputError) -> [UInt8] {
    var out: [UInt8] = []
    var depth = 1
    while depth > 0 {
      switch try next() {
      case .start: depth += 1
      case .end: depth -= 1
      case .text: out.append(contentsOf: text)
      case .endOfInput: throw fail("the part ends inside an element (truncated)")
      }
    }
    return out
  }

  /// Reads the rest of the part unscanned (so a ZIP entry's CRC-32 is checked at its end).
  func drain() throws(InputError) {
    position = count
    while try more() { position = count }
  }

  /// Skips to the end tag of the element just started.
  func skipElement() throws(InputError) {
    var depth = 1
    while depth > 0 {
      switch try next() {
      case .start: depth += 1
      case .end: depth -= 1
      case .text: continue
      case .endOfInput: throw fail("the part ends inside an element (truncated)")
      }
    }
  }
}

extension UInt8 {
  fileprivate static let ampersand = UInt8(ascii: "&")
  fileprivate static let semicolon = UInt8(ascii: ";")
  fileprivate static let question = UInt8(ascii: "?")
  fileprivate static let exclamation = UInt8(ascii: "!")
  fileprivate static let hash = UInt8(ascii: "#")
}
