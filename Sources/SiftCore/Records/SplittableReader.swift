/// The unread rest of a regular file, handed over by its reader to be read in parts.
struct FileRest {
  let fd: Int32
  /// The name used in messages.
  let name: String
  /// The bytes not read yet; the first one starts a record.
  let range: Range<Int>
  /// The line on which `range` starts.
  let line: Int
}

extension ChunkedInput {
  /// The part of a regular file this input has not handed out yet, when it is at least
  /// `minimum` bytes; `line` is the line it starts on.
  func rest(minimum: Int, name: String, line: Int) -> FileRest? {
    guard let file = source.filePosition else { return nil }
    let start = file.offset - carriedCount
    guard file.size - start >= minimum else { return nil }
    return FileRest(fd: file.fd, name: name, range: start..<file.size, line: line)
  }
}

/// Where a part of a file may start: the line starts a reader stops at.
enum PartBoundary {
  /// After a LF, or after a CR not followed by a LF (CSV, TSV).
  case afterLineEnd
  /// After a LF (NDJSON: a CR is whitespace inside a line).
  case afterLineFeed
}

/// A reader whose input, once its header and sample are read, can be split into parts read on
/// separate threads (Engine+Parallel.swift).
protocol SplittableReader: RecordReader {
  /// The rest of the input when it is a regular file of at least `minimum` more bytes and
  /// reading is strict (no `--skip-bad`); the reader is then finished. Otherwise `nil`, and
  /// nothing changes.
  func handOverRest(minimum: Int) -> FileRest?
  /// A reader of the records in `range` of `rest` (`range` starting at a line start), counting
  /// lines from `line`, with this reader's header and options.
  func partReader(_ range: Range<Int>, of rest: FileRest, line: Int) -> any PartReader
  var boundaryRule: PartBoundary { get }
}

/// A reader of one part of a file.
protocol PartReader: RecordReader {
  /// The line on which the next unread byte starts.
  var nextLine: Int { get }
}

extension CSVReader: PartReader {}
extension NDJSONReader: PartReader {}
