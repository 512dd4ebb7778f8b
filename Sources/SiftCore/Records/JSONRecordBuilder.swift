/// Turns JSON objects into records: maps top-level keys to field indices in first-seen order and
/// writes each member's value span. Shared by the JSON and NDJSON readers.
///
/// The keys read for every record live in pointer stores: the loop reads their base pointers,
/// where copying an array out of the builder retained and released it per record (three arrays,
/// about 5% of an NDJSON filter's time, Docs/Performance.md).
final class JSONRecordBuilder {
  /// Field names in first-seen order.
  private(set) var fieldNames: [String] = []
  /// The fields known: those of the records before, and the keys the record being built brings.
  /// Records before it keep their own width (a ragged batch, `RecordBatch`), so a new key costs
  /// the one record, never all the records of the batch (Docs/Performance.md, Width).
  private(set) var width = 0
  /// The span pairs the next record starts with: as many as the record before ended with, so
  /// records with the same keys are uniform, and records that each bring new keys far past the
  /// fields they have do not each pay for every key the file has shown.
  private var expectedWidth = 0
  /// The width every record of the batch being built had when it started.
  private var batchWidth = 0
  /// Whether a key first seen inside this batch made its records differ in width.
  private var ragged = false
  let spans = PointerStore<Int32>(capacity: 1 << 16)
  /// Where each record's spans start.
  let rowStarts = PointerStore<Int>()
  /// Each record's span pairs (its triples follow them, `RecordBatch`).
  let rowWidths = PointerStore<Int32>()
  /// The `(field, start, end)` triples of the record being built: its fields past its pairs.
  private let extras = PointerStore<Int32>(capacity: 64)
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
    let rowStart = spans.count
    var rowWidth = min(width, expectedWidth)
    spans.reserve(2 * rowWidth)
    (spans.base + spans.count).update(repeating: -1, count: 2 * rowWidth)
    spans.count += 2 * rowWidth
    extras.count = 0
    do throws(JSONScanFailure) {
      var p = try scanner.nextToken(from: start + 1)
      if b[p] != .closeBrace {
        var member = 0
        // This record's span pairs (moved when a new key widens the record).
        var slots = spans.base + rowStart
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
              member: member)
          }
          if field >= rowWidth {
            // Widened while the record stays at least about half full; a key further out
            // is a triple.
            if field < 2 &* member &+ 16 {
              let added = 2 * (field + 1 - rowWidth)
              spans.reserve(added)
              (spans.base + spans.count).update(repeating: -1, count: added)
              spans.count += added
              rowWidth = field + 1
              slots = spans.base + rowStart
            } else {
              extras.append(Int32(truncatingIfNeeded: field))
              extras.append(Int32(truncatingIfNeeded: valueStart))
              extras.append(Int32(truncatingIfNeeded: p))
            }
          }
          if field < rowWidth {
            slots[2 &* field] = Int32(truncatingIfNeeded: valueStart)
            slots[2 &* field &+ 1] = Int32(truncatingIfNeeded: p)
          }
          p = try scanner.nextToken(from: p)
          if b[p] == .closeBrace { break }
          guard b[p] == .comma else {
            throw .malformed(offset: p, message: "expected ',' or '}' after an object member")
          }
          p = try scanner.nextToken(from: p + 1)
          member += 1
        }
      }
      let extraCount = appendExtras(pastWidth: rowWidth)
      extents.append(Int32(truncatingIfNeeded: start))
      extents.append(Int32(truncatingIfNeeded: p + 1))
      lines.append(Int32(truncatingIfNeeded: line))
      rowStarts.append(rowStart)
      rowWidths.append(Int32(truncatingIfNeeded: rowWidth))
      expectedWidth = rowWidth
      if rowWidth != batchWidth || extraCount > 0 { ragged = true }
      return p + 1
    } catch {
      // The keys it brought stay known (and `width` covers them: a predicted key is never
      // past it); the next record starts at that width.
      spans.count = rowStart
      throw error
    }
  }

  /// The field of a key (its bytes between the quotes), adding a field for a new key.
  private func field(named raw: UnsafeBufferPointer<UInt8>, member: Int) -> Int {
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
    width = max(width, field + 1)
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
    let starts = rowStarts.handOff()
    let widths = rowWidths.handOff()
    let batch = RecordBatch(
      bytes: bytes, encoding: .json, width: width, spans: spans.handOff(),
      extents: extents.handOff(), lines: lines.handOff(), rowStarts: ragged ? starts : nil,
      rowWidths: ragged ? widths : nil)
    width = fieldNames.count
    batchWidth = width
    ragged = false
    return batch
  }
}

extension JSONRecordBuilder {
  /// Removes the record added last.
  func dropLastRecord() {
    rowStarts.count -= 1
    rowWidths.count -= 1
    spans.count = rowStarts.base[rowStarts.count]
    expectedWidth = rowWidths.count > 0 ? Int(rowWidths.base[rowWidths.count - 1]) : min(expectedWidth, width)
    extents.count -= 2
    lines.count -= 1
  }

  /// Appends the triples of the record just scanned after its `rowWidth` pairs, sorted by
  /// field, a key given twice keeping its last value (as a pair does); returns how many.
  fileprivate func appendExtras(pastWidth rowWidth: Int) -> Int {
    let n = extras.count / 3
    guard n > 0 else { return 0 }
    let t = extras.base
    // Insertion sort, stable: new keys come in the order they were first seen, mostly sorted.
    for i in 1..<n {
      var j = i
      while j > 0, t[3 * (j - 1)] > t[3 * j] {
        for c in 0..<3 {
          let held = t[3 * (j - 1) + c]
          t[3 * (j - 1) + c] = t[3 * j + c]
          t[3 * j + c] = held
        }
        j -= 1
      }
    }
    var kept = 0
    for i in 0..<n {
      if i + 1 < n, t[3 * (i + 1)] == t[3 * i] { continue }
      spans.append(t[3 * i])
      spans.append(t[3 * i + 1])
      spans.append(t[3 * i + 2])
      kept += 1
    }
    extras.count = 0
    return kept
  }
}
