/// The key a group is numbered by: with one group field its value's decoded bytes (empty for an
/// empty, missing or null value); with several, each field's value's bytes after their length
/// (LEB128), so that no two combinations share a key. A field with a time bucket gives its
/// bucket's label instead of its value (`GroupBucketing`).
enum GroupKey {
  /// Calls `body` with the group key of `row`, built in `scratch` when it is not one value's
  /// bytes as they stand.
  static func withKey<R>(
    of row: RowView, fields: [FieldAccessor], scratch: inout [UInt8],
    _ body: (UnsafeBufferPointer<UInt8>) -> R
  ) -> R {
    if fields.count == 1 {
      let v = fields[0](row)
      if v.isNullLike { return body(UnsafeBufferPointer(start: nil, count: 0)) }
      if let bucketing = fields[0].bucketing {
        scratch.removeAll(keepingCapacity: true)
        bucketing.appendLabel(of: v, to: &scratch)
        return scratch.withUnsafeBufferPointer(body)
      }
      return v.withDecoded(scratch: &scratch, body)
    }
    scratch.removeAll(keepingCapacity: true)
    for field in fields {
      let v = field(row)
      if v.isNullLike {
        scratch.append(0)
      } else if let bucketing = field.bucketing {
        // The label's length goes before it once it is known: one byte for any date's label.
        let start = scratch.count
        scratch.append(0)
        bucketing.appendLabel(of: v, to: &scratch)
        var n = scratch.count - start - 1
        if n < 0x80 {
          scratch[start] = UInt8(n)
        } else {
          // A long text that is not a date, kept as its group.
          var length: [UInt8] = []
          while n >= 0x80 {
            length.append(UInt8(truncatingIfNeeded: n) | 0x80)
            n >>= 7
          }
          length.append(UInt8(n))
          scratch.replaceSubrange(start..<(start + 1), with: length)
        }
      } else {
        withValueBytes(v) { bytes in
          var n = bytes.count
          while n >= 0x80 {
            scratch.append(UInt8(truncatingIfNeeded: n) | 0x80)
            n >>= 7
          }
          scratch.append(UInt8(n))
          scratch.append(contentsOf: bytes)
        }
      }
    }
    return scratch.withUnsafeBufferPointer(body)
  }

  /// The values a key holds, outermost first.
  static func parts(of key: UnsafeBufferPointer<UInt8>, arity: Int) -> [UnsafeBufferPointer<UInt8>] {
    guard arity > 1 else { return [key] }
    var parts: [UnsafeBufferPointer<UInt8>] = []
    var at = 0
    for _ in 0..<arity {
      var n = 0
      var shift = 0
      while key[at] & 0x80 != 0 {
        n |= Int(key[at] & 0x7f) << shift
        shift += 7
        at += 1
      }
      n |= Int(key[at]) << shift
      at += 1
      parts.append(UnsafeBufferPointer(rebasing: key[at..<(at + n)]))
      at += n
    }
    return parts
  }

  /// Whether key `a` comes before key `b` by the bytes of their values, field by field.
  static func precedes(
    _ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>, arity: Int
  ) -> Bool {
    for (x, y) in zip(parts(of: a, arity: arity), parts(of: b, arity: arity))
    where !x.elementsEqual(y) {
      return x.lexicographicallyPrecedes(y)
    }
    return false
  }
}
