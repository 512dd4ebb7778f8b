import Testing

@testable import SiftCore

/// Inputs the fuzzer found (issue 27, item 5), each a regression test of the property it broke.
@Suite struct FuzzCrashTests {
  /// What reading `bytes` as JSON with chunks of `chunkSize` gives: the records read before
  /// the end or the error, and the error's position and message.
  struct Outcome: Equatable {
    var records: [[UInt8]] = []
    var error: String?
  }

  static func outcome(_ bytes: [UInt8], chunkSize: Int) -> Outcome {
    let reader = JSONReader(
      source: ByteSource(bytes: bytes, name: "t.json"), options: ReaderOptions(name: "t.json"),
      prefix: [], chunkSize: chunkSize)
    var outcome = Outcome()
    do {
      while let batch = try reader.nextBatch() {
        batch.withRows { rows in
          for r in 0..<rows.count { outcome.records.append(Array(rows.row(r).text)) }
        }
      }
    } catch {
      outcome.error = "\(error.line):\(error.column): \(error.message)"
    }
    return outcome
  }

  /// The JSON reader's crash: a NUL, a run of 44 CRs, then records with escaped surrogates and
  /// damage straddling the chunk boundaries, CRs again and a byte that is not UTF-8.
  static let carriageReturnRun: [UInt8] =
    [0x00] + Array(repeating: 0x0D, count: 44)
    + Array(#"{"a":"\u00fc\ud73d\ude00"},{"a"8I"#.utf8) + [0x09]
    + [0x0D, 0x0D, 0x0D, 0xF7] + Array("nabt".utf8) + [0xA9] + Array(#"a":{bm"#.utf8)

  /// The same bytes without the leading NUL, inside an array, so that records come before the
  /// damage: a reader that loses its place at a chunk boundary reports another position.
  static let carriageReturnRunInArray: [UInt8] =
    Array("[".utf8) + Array(repeating: 0x0D, count: 44)
    + Array(#"{"a":"\u00fc\ud73d\ude00"},{"a"8I"#.utf8) + [0x09]
    + [0x0D, 0x0D, 0x0D, 0xF7] + Array("nabt".utf8) + [0xA9] + Array(#"a":{bm"#.utf8)

  @Test(arguments: [carriageReturnRun, carriageReturnRunInArray])
  func jsonAfterACarriageReturnRunReadsTheSameAtEveryChunkSize(bytes: [UInt8]) {
    let whole = Self.outcome(bytes, chunkSize: ChunkedInput.defaultChunkSize)
    #expect(whole.error != nil)
    for size in 1...(bytes.count + 1) {
      #expect(Self.outcome(bytes, chunkSize: size) == whole, "chunk size \(size)")
    }
  }
}
