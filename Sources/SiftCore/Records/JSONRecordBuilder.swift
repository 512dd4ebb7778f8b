/// Turns JSON objects into records: maps top-level keys to field indices in first-seen order and
/// writes each member's value span. Shared by the JSON and NDJSON readers.
///
/// The keys read for every record live in pointer stores: the loop reads their base pointers,
/// where copying an array out of the builder retained and released it per record (three arrays,
/// about 5% of an NDJSON filter's time, Docs/Performance.md).
final class JSONRecordBuilder {
  /// Field names in first-seen order.
  private(set) var fieldNames: [String] = []
  /// The width of the records of the batch being built (grows when a key is first seen).
  private(set) var width = 0
  let spans = PointerStore<Int32>(capacity: 1 << 16)
  let extents = PointerStore<Int32>()
  let lines = PointerStore<Int32>()
  /// Decoded key bytes of every field, back to back: field `f`'s are
  /// `keyBytes[keyBounds[f]..<keyBounds[f + 1]]`.
  private let keyBytes = PointerStore<UInt8>(capacity: 256)
  private let keyBounds: PointerStore<Int> = {
    let bounds = PointerStore<Int>(capacity: 64)
    bounds.append(0)
    return bounds
  }()
  private var fieldOfKey: [[UInt8]: Int] = [:]
  /// The field of the n-th member of the last object: objects usually repeat their key order.
  private let predicted = PointerStore<Int>(capacity: 64)

  /// Records in the batch being built.
  var count: Int { lines.count }

  /// Scans the object at `start` (its `{`) inside `depth` open containers and adds it as a
  /// record starting on `line`; returns the offset after it. On failure nothing is added.
  func addRecord(
    _ scanner: JSONScanner, at start: Int, depth: Int, line: Int
  ) throws(JSONScanFailure) -> Int {
    let b = scanner.b
    let row = count
    spans.reserve(2 * width)
    (spans.base + spans.count).update(repeating: -1, count: 2 * width)
    spans.count += 2 * width
    do throws(JSONScanFailure) {
      var p = try scanner.nextToken(from: start + 1)
      if b[p] != .closeBrace {
        var member = 0
        var width = self.width
        // This record's span pairs (moved when a new key widens the rows).
        var slots = spans.base + row * width * 2
        while true {
          let field: Int
          let valueStart: Int
          if member < predicted.count,
            let nameEnd = Self.nameEnd(
              ifKey: predicted.base[member], of: keyBytes.base, keyBounds.base, in: b, at: p)
          {
            field = predicted.base[member]
            valueStart = try scanner.memberValue(afterName: nameEnd)
            p = try scanner.scanValue(at: valueStart, depth: depth + 1)
          } else {
            let keyStart = p
            let keyEnd: Int
            (keyEnd, valueStart) = try scanner.scanMemberName(at: p)
            p = try scanner.scanValue(at: valueStart, depth: depth + 1)
            field = self.field(
              named: UnsafeBufferPointer(rebasing: b[(keyStart + 1)..<(keyEnd - 1)]),
              member: member, rows: row + 1)
            width = self.width
            slots = spans.base + row * width * 2
          }
          slots[2 &* field] = Int32(truncatingIfNeeded: valueStart)
          slots[2 &* field &+ 1] = Int32(truncatingIfNeeded: p)
          p = try scanner.nextToken(from: p)
          if b[p] == .closeBrace { break }
          guard b[p] == .comma else {
            throw .malformed(offset: p, message: "expected ',' or '}' after an object member")
          }
          p = try scanner.nextToken(from: p + 1)
          member += 1
        }
      }
      extents.append(Int32(truncatingIfNeeded: start))
      extents.append(Int32(truncatingIfNeeded: p + 1))
      lines.append(Int32(truncatingIfNeeded: line))
      return p + 1
    } catch {
      spans.count = row * width * 2
      throw error
    }
  }

  /// The field of a key (its bytes between the quotes), adding a field, and widening the
  /// `rows` rows built so far, for a new key.
  private func field(named raw: UnsafeBufferPointer<UInt8>, member: Int, rows: Int) -> Int {
    let plain = !raw.contains(.backslash)
    let key = plain ? Array(raw) : JSONString.unescape(raw)
    let field: Int
    if let known = fieldOfKey[key] {
      field = known
    } else {
      field = keyBounds.count - 1
      keyBytes.append(contentsOf: key)
      keyBounds.append(keyBytes.count)
      fieldOfKey[key] = field
      fieldNames.append(String(decoding: key, as: UTF8.self))
    }
    if field >= width {
      spans.widen(rows: rows, from: width, to: field + 1)
      width = field + 1
    }
    // A key whose text needs escapes is never predicted (-1): its raw bytes differ from it.
    let predictable = !key.contains { $0 == .quote || $0 == .backslash || $0 < 0x20 }
    let prediction = predictable ? field : -1
    if member < predicted.count {
      predicted.base[member] = prediction
    } else if member == predicted.count {
      predicted.append(prediction)
    }
    return field
  }

  /// Where the member name at `p` ends (after its closing quote) when it is field `f`'s key
  /// written as is: a quote, the key's bytes, a quote. A predicted key holds no quote,
  /// backslash or control byte (see `field(named:member:rows:)`), so scanning that string
  /// would end at the same place. `nil` otherwise, also when the closing quote would lie past
  /// the buffer (the full scan then reports what is there).
  @inline(__always)
  private static func nameEnd(
    ifKey f: Int, of keyBytes: UnsafePointer<UInt8>, _ keyBounds: UnsafePointer<Int>,
    in b: UnsafeBufferPointer<UInt8>, at p: Int
  ) -> Int? {
    guard f >= 0 else { return nil }
    let start = keyBounds[f]
    let count = keyBounds[f + 1] - start
    let close = p + 1 + count
    guard close < b.count, b[p] == .quote, b[close] == .quote else { return nil }
    guard count > 0 else { return close + 1 }
    let equal = sameBytes(
      keyBytes + start, UnsafeRawPointer(b.baseAddress! + p + 1), count: count)
    return equal ? close + 1 : nil
  }

  /// Hands the records built so far to a batch over `bytes`, and starts the next batch with
  /// every field known so far.
  func takeBatch(bytes: [UInt8]) -> RecordBatch {
    let batch = RecordBatch(
      bytes: bytes, encoding: .json, width: width, spans: spans.handOff(),
      extents: extents.handOff(), lines: lines.handOff())
    width = fieldNames.count
    return batch
  }
}

extension JSONRecordBuilder {
  /// Removes the record added last.
  func dropLastRecord() {
    spans.count -= 2 * width
    extents.count -= 2
    lines.count -= 1
  }
}
