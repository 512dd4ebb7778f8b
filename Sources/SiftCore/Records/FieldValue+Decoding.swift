extension FieldValue {
  /// True when the raw bytes are the value itself, so bytes can be compared without decoding.
  public var isVerbatim: Bool {
    switch form {
    case .plain, .jsonNumber, .jsonBool, .jsonNull, .jsonNested, .missing: return true
    case .csvQuoted: return false
    case .jsonString: return !containsByte(.backslash, in: raw)
    }
  }

  /// The bytes the value's text is made of, before unescaping: inside the quotes for quoted CSV
  /// and JSON strings, else the raw bytes. Equal to the value when `isVerbatim`.
  public var content: UnsafeBufferPointer<UInt8> {
    switch form {
    case .csvQuoted, .jsonString:
      guard raw.count >= 2, let base = raw.baseAddress else {
        return UnsafeBufferPointer(start: raw.baseAddress, count: 0)
      }
      return UnsafeBufferPointer(start: base + 1, count: raw.count - 2)
    default:
      return raw
    }
  }

  /// The value's bytes with quoting and escapes removed (JSON `\u` escapes become UTF-8).
  /// A missing field is empty; `null`, numbers, booleans and nested values are their text.
  public func decodedBytes() -> [UInt8] {
    var out = [UInt8]()
    decode(into: &out)
    return out
  }

  /// Calls `body` with the decoded bytes (`decodedBytes()`): the value's own bytes when they are
  /// its value (`isVerbatim`), else decoded into `scratch`. The one place a value is read that
  /// way on a hot path (`--changes`'s keys, hashes and rows, group keys).
  @inline(__always)
  func withDecoded<R>(scratch: inout [UInt8], _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
    if isVerbatim { return body(content) }
    decode(into: &scratch)
    return scratch.withUnsafeBufferPointer(body)
  }

  /// Replaces `out`'s bytes with `decodedBytes()`, keeping its capacity (a caller decoding a
  /// value per record reuses one buffer instead of allocating an array each time).
  public func decode(into out: inout [UInt8]) {
    out.removeAll(keepingCapacity: true)
    switch form {
    case .csvQuoted:
      out.reserveCapacity(raw.count)
      let c = content
      var i = 0
      while i < c.count {
        let b = c[i]
        out.append(b)
        // A doubled quote stands for one quote.
        i += (b == UInt8(ascii: "\"") && i + 1 < c.count && c[i + 1] == b) ? 2 : 1
      }
    case .jsonString:
      out.append(contentsOf: JSONString.unescape(content))
    default:
      out.append(contentsOf: raw)
    }
  }

  /// The decoded value as a `String` (invalid UTF-8 repaired; for messages, typing and display).
  public var string: String {
    if isVerbatim {
      return String(decoding: content, as: UTF8.self)
    }
    return String(decoding: decodedBytes(), as: UTF8.self)
  }

  /// An empty JSON array or object (`[]`, `{ }`): empty like a missing value
  /// (Docs/Formats.md, JSON).
  var isEmptyContainer: Bool {
    let r = raw
    guard r.count >= 2 else { return false }
    for i in 1..<r.count {
      switch r[i] {
      case .space, .tab, .lineFeed, .carriageReturn: continue
      default: return i == r.count - 1
      }
    }
    return false
  }

  /// Missing, empty, JSON `null`, an empty JSON array or object, or one of the null tokens of
  /// Docs/Formats.md, How values are read (`NA`, `N/A`, `null`, `None` in any case, `-`).
  public var isNullLike: Bool {
    switch form {
    case .missing, .jsonNull: return true
    case .jsonNumber, .jsonBool: return false
    case .jsonNested: return isEmptyContainer
    case .plain, .csvQuoted, .jsonString:
      let c = content
      if c.isEmpty { return true }
      if c.count > 4 { return false }
      return NullTokens.isNullToken(c)
    }
  }
}

/// The null spellings of Docs/Formats.md, How values are read: `-`, and `NA`, `N/A`, `null`,
/// `None` in any letter case (`n/a`, `NULL`, `none`).
public enum NullTokens {
  public static func isNullToken(_ c: UnsafeBufferPointer<UInt8>) -> Bool {
    // ASCII letters OR 0x20 are lowercase; `/` and `-` are unchanged by it.
    @inline(__always) func lower(_ b: UInt8) -> UInt8 { b | 0x20 }
    switch c.count {
    case 1: return c[0] == UInt8(ascii: "-")
    case 2: return lower(c[0]) == UInt8(ascii: "n") && lower(c[1]) == UInt8(ascii: "a")
    case 3:
      return lower(c[0]) == UInt8(ascii: "n") && c[1] == UInt8(ascii: "/")
        && lower(c[2]) == UInt8(ascii: "a")
    case 4:
      let w = (UInt32(c[0]) << 24) | (UInt32(c[1]) << 16) | (UInt32(c[2]) << 8) | UInt32(c[3])
      let folded = w | 0x2020_2020
      // "null" and "none" in any case: OR 0x20 maps exactly the two cases of each letter here.
      return folded == 0x6E75_6C6C || folded == 0x6E6F_6E65
    default: return false
    }
  }
}

/// JSON string escapes.
public enum JSONString {
  /// Decodes the inside of a JSON string literal (between its quotes). Lone surrogates become
  /// U+FFFD; the reader has already rejected malformed escapes.
  public static func unescape(_ c: UnsafeBufferPointer<UInt8>) -> [UInt8] {
    var out = [UInt8]()
    out.reserveCapacity(c.count)
    var i = 0
    func hex4(_ at: Int) -> UInt32? {
      guard at + 4 <= c.count else { return nil }
      var v: UInt32 = 0
      for k in at..<(at + 4) {
        let b = c[k]
        let d: UInt32
        switch b {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(b - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): d = UInt32(b - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): d = UInt32(b - UInt8(ascii: "A") + 10)
        default: return nil
        }
        v = v << 4 | d
      }
      return v
    }
    func appendScalar(_ v: UInt32) {
      let scalar = Unicode.Scalar(v) ?? "\u{FFFD}"
      if let encoded = UTF8.encode(scalar) { out.append(contentsOf: encoded) }
    }
    while i < c.count {
      let b = c[i]
      guard b == UInt8(ascii: "\\"), i + 1 < c.count else {
        out.append(b)
        i += 1
        continue
      }
      let e = c[i + 1]
      i += 2
      switch e {
      case UInt8(ascii: "n"): out.append(0x0A)
      case UInt8(ascii: "t"): out.append(0x09)
      case UInt8(ascii: "r"): out.append(0x0D)
      case UInt8(ascii: "b"): out.append(0x08)
      case UInt8(ascii: "f"): out.append(0x0C)
      case UInt8(ascii: "u"):
        guard let u = hex4(i) else {
          out.append(contentsOf: [UInt8(ascii: "\\"), e])
          continue
        }
        i += 4
        if (0xD800..<0xDC00).contains(u), i + 6 <= c.count, c[i] == UInt8(ascii: "\\"),
          c[i + 1] == UInt8(ascii: "u"), let low = hex4(i + 2), (0xDC00..<0xE000).contains(low)
        {
          i += 6
          appendScalar(0x10000 + ((u - 0xD800) << 10) + (low - 0xDC00))
        } else {
          appendScalar(u)
        }
      default: out.append(e)  // \" \\ \/
      }
    }
    return out
  }
}
