/// The rows of a part's matches written on its worker as `--changes` writes a new record read as
/// written (`new`, the record's text, an empty `was`, one `,` apart:
/// `ChangeRow.startNew(asWritten:delimiter:)`), for a run whose every record is new unless its
/// key repeats, a first run: the merge then only looks each key up and hands the rows on as they
/// are (Docs/Performance.md, "A first run's rows written in the parts").
final class RowsWrittenAhead {
  /// The rows, one after another, as the format writes them.
  let bytes = PartBytes()
  private let output: OutputBuffer
  private let writer: RowTextCopying
  /// Where each match's row ends in `bytes`, in the part's order.
  private(set) var ends: [Int] = []
  /// `false` once a batch came with its fields (not read as written) or a row could not be
  /// written: the rows are then not used, and the merge writes each record's row itself.
  private(set) var complete = true

  /// `nil` when `format` has no writer for a part, or it does not copy rows as written with
  /// `RecordDigests.delimiter`.
  init?(format: PartWritable) {
    output = OutputBuffer(sink: bytes)
    guard let writer = format.partWriter(into: output) as? RowTextCopying,
      writer.copiedDelimiter == RecordDigests.delimiter
    else { return nil }
    self.writer = writer
  }

  /// Writes the rows of the matches `rows` of `batch`.
  func add(_ batch: RecordBatch, rows: [Int32]) {
    guard complete, !rows.isEmpty else { return }
    guard batch.asWritten else {
      complete = false
      return
    }
    let (prefix, suffix) = (ChangeRow.newBefore, ChangeRow.newAfter)
    batch.withRows { cursor in
      prefix.withUnsafeBufferPointer { p in
        suffix.withUnsafeBufferPointer { s in
          do throws(OutputError) {
            try writer.write(rows: rows[...], of: cursor, between: p, and: s, ends: &ends)
          } catch {
            complete = false
          }
        }
      }
    }
  }

  /// The part is read to its end: what is buffered goes into `bytes`.
  func close() {
    do throws(OutputError) { try output.flush() } catch { complete = false }
  }

  /// Hands the rows of matches `records` (in the part's order) to `format`'s output.
  func write(records: Range<Int>, to format: PartWritable) throws(OutputError) {
    guard !records.isEmpty else { return }
    let start = records.lowerBound == 0 ? 0 : ends[records.lowerBound - 1]
    try bytes.append(start..<ends[records.upperBound - 1], to: format)
  }
}
