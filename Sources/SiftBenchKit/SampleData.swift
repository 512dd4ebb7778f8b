import SiftCore

/// One file of the sample data set.
public struct SampleFile: Sendable {
  /// The file name, e.g. `grn.csv`.
  public let name: String
  public let bytes: [UInt8]
}

/// The warehouse files committed under SampleData/, made from fixed seeds so that
/// `sift-bench sample DIR` rebuilds them byte for byte. Their "now" is 2024-06-12T10:00
/// (`sift --now 2024-06-12T10:00`): relative dates such as `today` and `this-week` find records.
public enum SampleData {
  /// "Now" for the sample data: nothing happens at or after it.
  static let now = GRNGenerator.now
  /// The sample's "today", 2024-06-12 (a Wednesday).
  static let today = GRNGenerator.lastDay

  /// All sample files: `grn.csv`, `dispatch.csv`, `invoices.json`, `orders.ndjson`.
  public static func files() -> [SampleFile] {
    [grnFile(), dispatchFile(), invoicesFile(), ordersFile()]
  }

  /// The bytes `write` produces.
  static func render(_ write: (BlockWriter) -> Void) -> [UInt8] {
    let sink = MemorySink()
    let out = BlockWriter(sink: sink)
    write(out)
    try? out.finish()  // A MemorySink never fails.
    return sink.bytes
  }

  /// `elements` in an order drawn with `random` (Fisher–Yates).
  static func shuffled<T>(_ elements: [T], _ random: inout SplitMix64) -> [T] {
    var elements = elements
    for i in elements.indices.dropLast() {
      elements.swapAt(i, i + random.below(elements.count - i))
    }
    return elements
  }
}
