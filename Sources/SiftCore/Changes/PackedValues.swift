#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
import Synchronization

/// A record's values packed as `ChangeBaseline` keeps them: each column's text, decoded, after
/// its length (a varint). Packed where the record is compared (the calling thread) or, on a run
/// without a baseline, where it was read (`ValuesPackedAhead`).
enum PackedValues {
  /// Appends the values of a row read as written, `text`, packed, when it has no quote,
  /// `columns` fields and its values take under 128 bytes in all: its text with a one-byte
  /// length before the first value and in place of each delimiter (Docs/Performance.md, "A
  /// first run's rows written in the parts"). `false` otherwise, and `values` is as it was.
  static func append(
    asWritten text: UnsafeBufferPointer<UInt8>, columns: Int, to values: inout [UInt8]
  ) -> Bool {
    guard let start = text.baseAddress, text.count &- (columns &- 1) < 128,
      memchr(start, Int32(UInt8.quote), text.count) == nil
    else { return false }
    let first = values.count
    values.append(0)
    values.append(contentsOf: text)
    var fields = 1
    values.withUnsafeMutableBufferPointer { v in
      // Values are short: a byte at a time costs less than a call to find each delimiter.
      var lengthAt = first
      for p in (first &+ 1)..<v.count where v[p] == RecordDigests.delimiter {
        v[lengthAt] = UInt8(truncatingIfNeeded: p &- lengthAt &- 1)
        lengthAt = p
        fields &+= 1
      }
      v[lengthAt] = UInt8(truncatingIfNeeded: v.count &- lengthAt &- 1)
    }
    guard fields == columns else {
      values.removeSubrange(first...)
      return false
    }
    return true
  }

  /// Appends the values of `row`, whose fields were found, packed: each column's value decoded
  /// once (`scratch`).
  static func append(
    _ row: RowView, _ cs: [OutputColumn], to values: inout [UInt8], scratch: inout [UInt8]
  ) {
    cs.withUnsafeBufferPointer { columns in
      for i in columns.indices {
        columns[i].value(row).withDecoded(scratch: &scratch) { t in
          ChangeCoding.appendVarint(t.count, to: &values)
          values.append(contentsOf: t)
        }
      }
    }
  }
}

/// Whether the parts' workers pack each record's values beside its digest (`RecordDigests`),
/// so that the calling thread only copies them into the next baseline (Docs/Performance.md,
/// "Comparing with an earlier export"). On for a run without a baseline (a first run, an earlier
/// export read for `--against`), whose every record is new and keeps its values while the
/// budget lasts; the comparison turns it off at the first record whose values it does not
/// keep, and the records packed after that are packed for nothing (at most the parts a worker
/// runs ahead).
final class ValuesPackedAhead: Sendable {
  private let on = Atomic<Bool>(true)

  var isOn: Bool { on.load(ordering: .relaxed) }

  func turnOff() { on.store(false, ordering: .relaxed) }
}
