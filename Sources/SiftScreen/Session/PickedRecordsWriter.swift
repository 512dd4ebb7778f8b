import SiftCore

/// Hands on to `writer` only the records at the places `picked` (from 0, in the order the run
/// writes them): an export of the marked records (Docs/Interactive.md, Marking and export). A
/// group heading goes on before the group's first picked record; a group with none is left out.
public final class PickedRecordsWriter: RecordWriter {
  private let writer: any RecordWriter
  private let picked: Set<Int>
  private var place = 0
  private var heading: GroupHeading?
  /// The records handed on.
  public private(set) var written = 0

  public init(_ writer: any RecordWriter, picked: [Int]) {
    self.writer = writer
    self.picked = Set(picked)
  }

  public func begin(columns: [String]) throws(OutputError) {
    try writer.begin(columns: columns)
  }

  public func begin(columns: [String], headers: [[UInt8]]) throws(OutputError) {
    try writer.begin(columns: columns, headers: headers)
  }

  public func beginGroup(_ heading: GroupHeading) throws(OutputError) {
    self.heading = heading
  }

  public func write(_ row: RowView, columns: [OutputColumn], verbatim: Bool) throws(OutputError) {
    defer { place += 1 }
    guard picked.contains(place) else { return }
    if let heading {
      try writer.beginGroup(heading)
      self.heading = nil
    }
    try writer.write(row, columns: columns, verbatim: verbatim)
    written += 1
  }

  public func end() throws(OutputError) { try writer.end() }

  /// The list counts a summary's `Total` row as a record, so the places are the list's.
  public var writesTotals: Bool { true }
}
