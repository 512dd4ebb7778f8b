// What every fuzz target shares: the records a reader gives, and a failure libFuzzer sees.

#if canImport(Glibc)
  import Glibc
#endif

/// What reading gave: each record's text, then the error's position and message, if any.
struct ReadOutcome: Equatable {
  var records: [[UInt8]] = []
  var error: String?

  /// Every batch of `reader` until the end or the first error.
  init(_ reader: any RecordReader) {
    do {
      while let batch = try reader.nextBatch() {
        batch.withRows { rows in
          for r in 0..<rows.count { records.append(Array(rows.row(r).text)) }
        }
      }
    } catch {
      self.error = "\(error.line):\(error.column): \(error.message)"
    }
  }
}

/// Stops the run so libFuzzer saves the input: a property the target checks did not hold.
func propertyFailed(_ what: String) -> Never {
  fputs("property failed: \(what)\n", stderr)
  abort()
}

/// A chunk size from 1 to 64 chosen by the input's first byte (and that byte dropped), so the
/// fuzzer explores chunk boundaries as it explores content.
func chunkSizeAndRest(_ bytes: [UInt8]) -> (chunkSize: Int, rest: [UInt8]) {
  guard let first = bytes.first else { return (1, []) }
  return (Int(first % 64) + 1, Array(bytes.dropFirst()))
}

/// Fails when `read` at `chunkSize` gives other records or another error than one chunk of
/// `wholeSize` bytes (the whole input at once).
func expectSameAtChunkSize(
  _ what: String, _ chunkSize: Int, wholeSize: Int, _ read: (Int) -> ReadOutcome
) {
  if read(chunkSize) != read(wholeSize) {
    propertyFailed("\(what) chunk size \(chunkSize) reads differently")
  }
}
