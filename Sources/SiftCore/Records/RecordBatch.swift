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
/// keys is ragged instead: record `r`'s spans start at `rowStarts[r]` and it has as many fields
/// as were known when it was read (a field past them is missing), so a new key never widens the
/// records before it (Docs/Performance.md, Width). `extents[2 * r] ..< extents[2 * r + 1]` is
/// the record's whole text (a CSV row without its line end; a JSON object's text).
public final class RecordBatch: @unchecked Sendable {
  /// The input bytes the spans point into.
  public let bytes: [UInt8]
  public let encoding: FieldEncoding
  /// How the input writes numbers (Docs/Formats.md, Decimal commas): decided once per file.
  public let decimalMark: DecimalMark
  /// Fields per record: the reader's field count when the batch was made.
  public let width: Int
  /// Field ranges, two `Int32` per field, `width` fields per record; record text ranges, two
  /// `Int32` per record; the 1-based input line on which each record starts (for messages).
  /// Held in stores a reader hands over whole, so a batch's spans are never copied.
  private let spanStore: PointerStore<Int32>
  private let extentStore: PointerStore<Int32>
  private let lineStore: PointerStore<Int32>
  /// Where each record's spans start, in a ragged batch; `nil` when every record has `width`.
  private let rowStartStore: PointerStore<Int>?

  /// The number of records in the batch.
  public var count: Int { extentStore.count / 2 }

  public convenience init(
    bytes: [UInt8], encoding: FieldEncoding, width: Int, spans: [Int32], extents: [Int32],
    lines: [Int32], decimalMark: DecimalMark = .point
  ) {
    self.init(
      bytes: bytes, encoding: encoding, width: width, spans: PointerStore(copying: spans),
      extents: PointerStore(copying: extents), lines: PointerStore(copying: lines),
      decimalMark: decimalMark)
  }

  init(
    bytes: [UInt8], encoding: FieldEncoding, width: Int, spans: PointerStore<Int32>,
    extents: PointerStore<Int32>, lines: PointerStore<Int32>, decimalMark: DecimalMark = .point,
    rowStarts: PointerStore<Int>? = nil
  ) {
    precondition(
      rowStarts != nil || spans.count == extents.count * width,
      "spans must hold width fields per record")
    precondition(rowStarts.map { $0.count * 2 == extents.count } ?? true, "one start per record")
    precondition(lines.count * 2 == extents.count, "one line number per record")
    rowStartStore = rowStarts
    self.bytes = bytes
    self.encoding = encoding
    self.decimalMark = decimalMark
    self.width = width
    spanStore = spans
    extentStore = extents
    lineStore = lines
  }

  /// The bytes this batch holds, for a memory budget.
  var heldBytes: Int {
    bytes.capacity + 4 * (spanStore.capacity + extentStore.capacity + lineStore.capacity)
      + 8 * (rowStartStore?.capacity ?? 0) + 64
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
            encoding: encoding, rowStarts: rowStartStore?.values))
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

  public init(
    bytes: UnsafeBufferPointer<UInt8>, spans: UnsafeBufferPointer<Int32>,
    extents: UnsafeBufferPointer<Int32>, width: Int, encoding: FieldEncoding
  ) {
    self.init(bytes: bytes, spans: spans, extents: extents, width: width, encoding: encoding, rowStarts: nil)
  }

  init(
    bytes: UnsafeBufferPointer<UInt8>, spans: UnsafeBufferPointer<Int32>,
    extents: UnsafeBufferPointer<Int32>, width: Int, encoding: FieldEncoding,
    rowStarts: UnsafeBufferPointer<Int>?
  ) {
    self.bytes = bytes
    self.spans = spans
    self.extents = extents
    self.width = width
    self.encoding = encoding
    self.rowStarts = rowStarts
  }

  public var count: Int { extents.count / 2 }

  /// The view of record `r`.
  public func row(_ r: Int) -> RowView {
    var start = r * width * 2
    var rowWidth = width
    if let rowStarts {
      start = rowStarts[r]
      rowWidth = ((r + 1 < rowStarts.count ? rowStarts[r + 1] : spans.count) - start) / 2
    }
    return RowView(
      base: bytes.baseAddress ?? UnsafePointer(bitPattern: 1)!,
      spans: spans.baseAddress.map { $0 + start } ?? UnsafePointer(bitPattern: 4)!,
      width: rowWidth, encoding: encoding,
      extentStart: Int(extents[r * 2]), extentEnd: Int(extents[r * 2 + 1]))
  }
}

/// One record: field values by index, without copying. Valid only while its batch's rows are.
public struct RowView {
  public let base: UnsafePointer<UInt8>
  public let spans: UnsafePointer<Int32>
  public let width: Int
  public let encoding: FieldEncoding
  public let extentStart: Int
  public let extentEnd: Int

  public init(
    base: UnsafePointer<UInt8>, spans: UnsafePointer<Int32>, width: Int,
    encoding: FieldEncoding, extentStart: Int, extentEnd: Int
  ) {
    self.base = base
    self.spans = spans
    self.width = width
    self.encoding = encoding
    self.extentStart = extentStart
    self.extentEnd = extentEnd
  }

  /// Field `f`; a field past the batch's width is missing.
  public func field(_ f: Int) -> FieldValue {
    guard f < width else { return FieldValue(missingWith: encoding) }
    let start = Int(spans[f &* 2])
    guard start >= 0 else { return FieldValue(missingWith: encoding) }
    let end = Int(spans[f &* 2 &+ 1])
    return FieldValue(
      raw: UnsafeBufferPointer(start: base + start, count: end &- start), encoding: encoding)
  }

  /// The record's whole text (a CSV row without its line end; a JSON object).
  public var text: UnsafeBufferPointer<UInt8> {
    UnsafeBufferPointer(start: base + extentStart, count: extentEnd &- extentStart)
  }
}
