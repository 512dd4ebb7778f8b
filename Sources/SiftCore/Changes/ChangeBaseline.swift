/// The matching records of a run as `--changes` remembers them for the next run
/// (Docs/Reports.md, "Changes since the last run"): per record its key's text and a hash of its
/// values, and the values themselves while they fit `valueBudget`, so a gone record can be
/// printed and a changed one can say what it was.
public struct ChangeBaseline: Sendable, Equatable {
  /// The state file's format version; a file of another version is refused, never read as empty.
  public static let version: UInt32 = 2
  /// The most bytes of record values a baseline keeps (the first records' values, in run order);
  /// records past it keep only their key and hash.
  public static let valueBudget = 16 << 20

  /// One remembered record.
  public struct Entry: Sendable, Equatable {
    /// The hash of the record's values over `columns` (`RecordDigests.hashValues`).
    public var content: UInt64
    /// Where the key's text (the key fields' values joined by 0x1F) lies in `keyBytes`.
    public var keyStart: Int32
    public var keyEnd: Int32
    /// Where the values (each column's text, length-prefixed) lie in `valueBytes`; `-1` when
    /// they were not kept.
    public var valuesStart: Int32
    public var valuesEnd: Int32
  }

  /// The output columns the records were written with.
  public var columns: [String]
  /// The key fields, as named on the command line.
  public var keys: [String]
  /// When the run was made, as the bar shows it (`2026-11-24 06:00`).
  public var since: String
  public var entries: [Entry] = []
  /// The bytes the entries' keys lie in: the keys one after another as a run appends them, or
  /// the state file's bytes as read (Docs/Performance.md, "Changes since the last run").
  public var keyBytes: [UInt8] = []
  /// The bytes the entries' kept values lie in, the same way.
  public var valueBytes: [UInt8] = []

  public init(columns: [String], keys: [String], since: String) {
    self.columns = columns
    self.keys = keys
    self.since = since
  }

  /// Equal when they hold the same columns, keys, time and records (each record's key, hash and
  /// kept values), wherever their bytes lie.
  public static func == (a: Self, b: Self) -> Bool {
    a.columns == b.columns && a.keys == b.keys && a.since == b.since
      && a.entries.count == b.entries.count
      && a.entries.indices.allSatisfy {
        a.entries[$0].content == b.entries[$0].content && a.key($0).elementsEqual(b.key($0))
          && a.values($0) == b.values($0)
      }
  }

  /// The key text of entry `i`.
  public func key(_ i: Int) -> ArraySlice<UInt8> {
    keyBytes[Int(entries[i].keyStart)..<Int(entries[i].keyEnd)]
  }

  /// The values of entry `i`, one per column, or `nil` when they were not kept.
  public func values(_ i: Int) -> [ArraySlice<UInt8>]? {
    let e = entries[i]
    guard e.valuesStart >= 0 else { return nil }
    var out: [ArraySlice<UInt8>] = []
    var at = Int(e.valuesStart)
    let end = Int(e.valuesEnd)
    while at < end, let length = ChangeCoding.readVarint(valueBytes, at: &at),
      at + length <= end
    {
      out.append(valueBytes[at..<at + length])
      at += length
    }
    return out
  }

  /// Adds a record: its key text, its content hash and, while the budget lasts, its values.
  mutating func append(
    key: UnsafeBufferPointer<UInt8>, content: UInt64, values: UnsafeBufferPointer<UInt8>?,
    budget: Int
  ) {
    let keyStart = Int32(truncatingIfNeeded: keyBytes.count)
    keyBytes.append(contentsOf: key)
    var start: Int32 = -1
    var end: Int32 = -1
    if let values, valueBytes.count + values.count <= budget {
      start = Int32(truncatingIfNeeded: valueBytes.count)
      valueBytes.append(contentsOf: values)
      end = Int32(truncatingIfNeeded: valueBytes.count)
    }
    entries.append(
      Entry(
        content: content, keyStart: keyStart, keyEnd: Int32(truncatingIfNeeded: keyBytes.count),
        valuesStart: start, valuesEnd: end))
  }
}
