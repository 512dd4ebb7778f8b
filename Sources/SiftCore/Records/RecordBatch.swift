/// How the field bytes of a batch are written, which decides how a value is decoded.
public enum FieldEncoding: Sendable, Equatable {
  /// CSV: a field whose first byte is `"` is quoted; inside, `""` stands for `"`.
  case csv
  /// TSV (and CSV read with quoting off): every field's bytes are its value.
  case plain
  /// JSON: each field is the text of a JSON value (strings keep their quotes and escapes).
  case json
}

/// A run of records read from one chunk of input. It owns the bytes; every record and field is a
/// byte range into them, decoded only when asked (Docs/Performance.md).
///
/// Layout: record `r` has `width` fields; field `f` of record `r` is
/// `spans[2 * (r * width + f)] ..< spans[2 * (r * width + f) + 1]`, a start of `-1` meaning the
/// field is missing (a JSON record without that key). A JSON batch whose records brought new
/// keys is ragged instead: record `r`'s spans start at `rowStarts[r]`; its first `rowWidths[r]`
/// fields are span pairs as above, and after them come its fields past that width as
/// `(field, start, end)` triples sorted by field (a field in neither is missing). A new key
/// never widens the records before it, and a record that brings a key far past the fields it
/// has keeps that key as a triple, so the spans grow with the keys records have, not with the
/// keys the file has (Docs/Performance.md, Width). `extents[2 * r] ..< extents[2 * r + 1]` is
/// the record's whole text (a CSV row without its line end; a JSON object's text).
public final class RecordBatch: @unchecked Sendable {
  /// The input bytes the spans point into.
  public let bytes: [UInt8]
  public let encoding: FieldEncoding
  /// How the input writes numbers (Docs/Formats.md, Decimal commas): decided once per file.
  public let decimalMark: DecimalMark
  /// Fields per record: the reader's field count when the batch was made.
  public let width: Int
  /// The batch holds no fields (width 0): each record's text is exactly what the CSV writer
  /// the run writes with would write for its fields (`RecordReader.readAsWritten`).
  public let asWritten: Bool
  /// Field ranges, two `Int32` per field, `width` fields per record; record text ranges, two
  /// `Int32` per record; the 1-based input line on which each record starts (for messages).
  /// Held in stores a reader hands over whole, so a batch's spans are never copied.
  private let spanStore: PointerStore<Int32>
  private let extentStore: PointerStore<Int32>
  private let lineStore: PointerStore<Int32>
  /// Where each record's spans start, in a ragged batch; `nil` when every record has `width`.
  private let rowStartStore: PointerStore<Int>?
  /// Each record's span pairs, in a ragged batch (its triples follow them).
  private let rowWidthStore: PointerStore<Int32>?

  /// The number of records in the batch.
  public var count: Int { extentStore.count / 2 }

  public convenience init(
    bytes: [UInt8], encoding: FieldEncoding, width: Int, spans: [Int32], extents: [Int32],
    lines: [Int32], decimalMark: DecimalMark = .point, asWritten: Bool = false
  ) {
    self.init(
      bytes: bytes, encoding: encoding, width: width, spans: PointerStore(copying: spans),
      extents: PointerStore(copying: extents), lines: PointerStore(copying: lines),
      decimalMark: decimalMark, asWritten: asWritten)
  }

  init(
    bytes: [UInt8], encoding: FieldEncoding, width: Int, spans: PointerStore<Int32>,
    extents: PointerStore<Int32>, lines: PointerStore<Int32>, decimalMark: DecimalMark = .point,
    rowStarts: PointerStore<Int>? = nil, rowWidths: PointerStore<Int32>? = nil,
    asWritten: Bool = false
  ) {
    precondition(
      rowStarts != nil || spans.count == extents.count * width,
      "spans must hold width fields per record")
    precondition(rowStarts.map { $0.count * 2 == extents.count } ?? true, "one start per record")
    precondition(rowStarts?.count == rowWidths?.count, "one width per record start")
    precondition(lines.count * 2 == extents.count, "one line number per record")
    rowStartStore = rowStarts
    rowWidthStore = rowWidths
    self.bytes = bytes
    self.encoding = encoding
    self.decimalMark = decimalMark
    self.width = width
    self.asWritten = asWritten
    spanStore = spans
    extentStore = extents
    lineStore = lines
  }

  /// The bytes this batch holds, for a memory budget.
  var heldBytes: Int {
    bytes.capacity + 4 * (spanStore.capacity + extentStore.capacity + lineStore.capacity)
      + 8 * (rowStartStore?.capacity ?? 0) + 4 * (rowWidthStore?.capacity ?? 0) + 64
  }

  /// The input line on which record `r` starts.
  public func line(_ r: Int) -> Int { Int(lineStore.base[r]) }

  /// Calls `body` with a cursor whose row views are valid only inside `body`.
  /// A typed error from `body` comes out typed (the arrays' own `withUnsafeBufferPointer` only
  /// rethrows untyped), so callers need not capture it by hand.
  public func withRows<R, E: Error>(_ body: (RowCursor) throws(E) -> R) throws(E) -> R {
    let result = bytes.withUnsafeBufferPointer { b in
      Result { () throws(E) -> R in
        try body(
          RowCursor(
            bytes: b, spans: spanStore.values, extents: extentStore.values, width: width,
            encoding: encoding, rowStarts: rowStartStore?.values, rowWidths: rowWidthStore?.values,
            asWritten: asWritten, sharedBytes: bytes))
      }
    }
    return try result.get()
  }
}

/// Unsafe access to the rows of a batch, valid inside `RecordBatch.withRows`.
public struct RowCursor {
  public let bytes: UnsafeBufferPointer<UInt8>
  public let spans: UnsafeBufferPointer<Int32>
  public let extents: UnsafeBufferPointer<Int32>
  /// The widest record's field count (every record's, unless the batch is ragged).
  public let width: Int
  public let encoding: FieldEncoding
  /// Where each record's spans start in a ragged batch (`RecordBatch`); `nil` when uniform.
  let rowStarts: UnsafeBufferPointer<Int>?
  /// Each record's span pairs in a ragged batch; `nil` when uniform.
  let rowWidths: UnsafeBufferPointer<Int32>?
  /// The rows have no fields, only their text as written (`RecordBatch.asWritten`).
  public let asWritten: Bool
  /// The batch's own array of `bytes`, which a writer may keep a part of rather than copy it
  /// (`OutputBuffer.append(shared:)`); `nil` for a cursor over bytes of someone else's.
  let sharedBytes: [UInt8]?

  public init(
    bytes: UnsafeBufferPointer<UInt8>, spans: UnsafeBufferPointer<Int32>,
    extents: UnsafeBufferPointer<Int32>, width: Int, encoding: FieldEncoding
  ) {
    self.init(
      bytes: bytes, spans: spans, extents: extents, width: width, encoding: encoding, rowStarts: nil,
      rowWidths: nil, asWritten: false, sharedBytes: nil)
  }

  init(
    bytes: UnsafeBufferPointer<UInt8>, spans: UnsafeBufferPointer<Int32>,
    extents: UnsafeBufferPointer<Int32>, width: Int, encoding: FieldEncoding,
    rowStarts: UnsafeBufferPointer<Int>?, rowWidths: UnsafeBufferPointer<Int32>?, asWritten: Bool,
    sharedBytes: [UInt8]?
  ) {
    self.bytes = bytes
    self.spans = spans
    self.extents = extents
    self.width = width
    self.encoding = encoding
    self.rowStarts = rowStarts
    self.rowWidths = rowWidths
    self.asWritten = asWritten
    self.sharedBytes = sharedBytes
  }

  public var count: Int { extents.count / 2 }

  /// The view of record `r`.
  public func row(_ r: Int) -> RowView {
    var start = r * width * 2
    var rowWidth = width
    var extraCount = 0
    if let rowStarts, let rowWidths {
      start = rowStarts[r]
      rowWidth = Int(rowWidths[r])
      let end = r + 1 < rowStarts.count ? rowStarts[r + 1] : spans.count
      extraCount = (end - start - 2 * rowWidth) / 3
    }
    return RowView(
      base: bytes.baseAddress ?? UnsafePointer(bitPattern: 1)!,
      spans: spans.baseAddress.map { $0 + start } ?? UnsafePointer(bitPattern: 4)!,
      width: rowWidth, extraCount: extraCount, encoding: encoding,
      extentStart: Int(extents[r * 2]), extentEnd: Int(extents[r * 2 + 1]))
  }
}

/// One record: field values by index, without copying. Valid only while its batch's rows are.
public struct RowView {
  public let base: UnsafePointer<UInt8>
  public let spans: UnsafePointer<Int32>
  /// The width and the triple count share a word, so the view stays six words: it is passed
  /// to every compiled test by value.
  private let widthAndExtra: (width: Int32, extra: Int32)
  public let encoding: FieldEncoding
  public let extentStart: Int
  public let extentEnd: Int
  /// Fields with a span pair.
  public var width: Int { Int(widthAndExtra.width) }
  /// The `(field, start, end)` triples after the `width` span pairs, sorted by field: the
  /// record's fields past its width (a record of a ragged batch, `RecordBatch`).
  public var extraCount: Int { Int(widthAndExtra.extra) }

  public init(
    base: UnsafePointer<UInt8>, spans: UnsafePointer<Int32>, width: Int,
    encoding: FieldEncoding, extentStart: Int, extentEnd: Int
  ) {
    self.init(
      base: base, spans: spans, width: width, extraCount: 0, encoding: encoding,
      extentStart: extentStart, extentEnd: extentEnd)
  }

  init(
    base: UnsafePointer<UInt8>, spans: UnsafePointer<Int32>, width: Int, extraCount: Int,
    encoding: FieldEncoding, extentStart: Int, extentEnd: Int
  ) {
    self.base = base
    self.spans = spans
    self.widthAndExtra = (Int32(truncatingIfNeeded: width), Int32(truncatingIfNeeded: extraCount))
    self.encoding = encoding
    self.extentStart = extentStart
    self.extentEnd = extentEnd
  }

  /// Field `f`; a field past the record's width and not among its triples is missing.
  @inline(__always)
  public func field(_ f: Int) -> FieldValue {
    guard f < width else { return extraValue(f) }
    let start = Int(spans[f &* 2])
    guard start >= 0 else { return FieldValue(missingWith: encoding) }
    let end = Int(spans[f &* 2 &+ 1])
    return FieldValue(
      raw: UnsafeBufferPointer(start: base + start, count: end &- start), encoding: encoding)
  }

  /// Field `f` past the width: one of the triples, or missing.
  @inline(never)
  private func extraValue(_ f: Int) -> FieldValue {
    let (start, end) = extraSpan(f)
    guard start >= 0 else { return FieldValue(missingWith: encoding) }
    return FieldValue(
      raw: UnsafeBufferPointer(start: base + Int(start), count: Int(end &- start)),
      encoding: encoding)
  }

  /// The span of field `f` (a start of -1 when missing), at or past the width too.
  public func span(_ f: Int) -> (start: Int32, end: Int32) {
    f < width ? (spans[f &* 2], spans[f &* 2 &+ 1]) : extraSpan(f)
  }

  /// One past the highest field the record has: its width, or its last triple's field + 1.
  public var fullWidth: Int {
    extraCount == 0 ? width : Int(spans[2 &* width &+ 3 &* (extraCount &- 1)]) &+ 1
  }

  /// The field of the `k`-th triple and its value.
  public func extraField(_ k: Int) -> (field: Int, value: FieldValue) {
    let triple = spans + (2 &* width &+ 3 &* k)
    let start = Int(triple[1])
    return (
      Int(triple[0]),
      FieldValue(raw: UnsafeBufferPointer(start: base + start, count: Int(triple[2]) &- start), encoding: encoding)
    )
  }

  /// The span of field `f` past the width: a binary search of the triples.
  private func extraSpan(_ f: Int) -> (start: Int32, end: Int32) {
    let triples = spans + (2 &* width)
    var low = 0
    var high = extraCount
    while low < high {
      let mid = (low &+ high) >> 1
      let field = Int(triples[3 &* mid])
      if field == f { return (triples[3 &* mid &+ 1], triples[3 &* mid &+ 2]) }
      if field < f { low = mid &+ 1 } else { high = mid }
    }
    return (-1, -1)
  }

  /// The record's whole text (a CSV row without its line end; a JSON object).
  public var text: UnsafeBufferPointer<UInt8> {
    UnsafeBufferPointer(start: base + extentStart, count: extentEnd &- extentStart)
  }
}
