/// The unread rest of a regular file, handed over by its reader to be read in parts.
struct FileRest {
  let fd: Int32
  /// The name used in messages.
  let name: String
  /// The bytes not read yet; the first one starts a record.
  let range: Range<Int>
  /// The line on which `range` starts, and the byte column (1 but for a JSON array's records,
  /// which may share a line).
  let line: Int
  var column = 1
}

/// The unread rest of a stream (a pipe, standard input from a pipe): cut into parts as its
/// bytes arrive (`StreamCutter`; Docs/Architecture.md, Standard input in parts).
struct StreamRest {
  let source: ByteSource
  /// The name used in messages.
  let name: String
  /// Bytes the reader had read and not consumed: the rest's first bytes, starting a record.
  let carried: [UInt8]
  /// The line on which the rest starts.
  let line: Int
}

/// Whether the unread rest of an input can be read in parts on worker threads, or why it is
/// read on one thread (Docs/Performance.md, Every core for one file).
enum RestSplit {
  case parts(FileRest)
  case stream(StreamRest)
  case oneThread(OneThreadReason)
}

/// Why an input is read on the calling thread alone.
enum OneThreadReason: Equatable {
  /// One thread was asked for (`-j 1`, or a machine with one core).
  case oneWorker
  /// The reader's format is read in order.
  case notSplittable
  /// The sample stopped outside a JSON document's array of records (before it, or after it).
  case outsideRecords
  /// The sample already read the whole input.
  case sampleReadAll
  /// `--skip-bad` reads in order.
  case skipBad
  /// Standard input that is not a file (a pipe, or bytes in memory).
  case standardInput
  /// Decompressed or transcoded bytes come in order.
  case converted
  /// A pipe or a device: its bytes come in order.
  case notAFile
  /// Less than `minimum` bytes are left after the sample.
  case small(minimum: Int)
}

extension ChunkedInput {
  /// The part of a regular file this input has not handed out yet, when it is at least
  /// `minimum` bytes; `line` and `column` are where it starts.
  /// With `streams`, the rest of a pipe is cut into parts as it arrives.
  func rest(
    minimum: Int, name: String, line: Int, column: Int = 1, streams: Bool = false
  ) -> RestSplit {
    guard let file = source.filePosition else {
      if source.isConverted { return .oneThread(.converted) }
      if streams, source.streams, let carried = unconsumedBytes {
        return .stream(StreamRest(source: source, name: name, carried: carried, line: line))
      }
      return .oneThread(name == "stdin" ? .standardInput : .notAFile)
    }
    let start = file.offset - carriedCount
    guard file.size - start >= minimum else { return .oneThread(.small(minimum: minimum)) }
    return .parts(
      FileRest(fd: file.fd, name: name, range: start..<file.size, line: line, column: column))
  }
}

/// Where a part of a file may start: the line starts a reader stops at.
enum PartBoundary {
  /// After a LF, or after a CR not followed by a LF (CSV, TSV).
  case afterLineEnd
  /// After a LF (NDJSON: a CR is whitespace inside a line).
  case afterLineFeed
  /// After the `,` between two records of a JSON array (`JSONArrayProbe`).
  case afterCommaBetweenRecords
}

/// A reader whose input, once its header and sample are read, can be split into parts read on
/// separate threads (Engine+Parallel.swift).
protocol SplittableReader: RecordReader {
  /// The rest of the input when it is a regular file of at least `minimum` more bytes and
  /// reading is strict (no `--skip-bad`), else why not; nothing changes. A batch the reader
  /// read ahead does not count: the rest is what follows it.
  func restSplit(minimum: Int) -> RestSplit
  /// Gives the rest up to be read in parts: the reader is finished. Returns the batch it read
  /// ahead, if any, which comes before the rest.
  func handOverRest() -> RecordBatch?
  /// A reader of the records in `range` of `rest` (`range` starting where `boundaryRule` lets
  /// a part start), counting lines and columns from `line` and `column`, with this reader's
  /// header and options.
  func partReader(_ range: Range<Int>, of rest: FileRest, line: Int, column: Int)
    -> any PartReader
  var boundaryRule: PartBoundary { get }
}

/// A splittable reader whose parts can also be cut from a stream as it arrives: a line-based
/// format, whose record boundaries `StreamCutter` finds from the rest's start.
protocol StreamSplittableReader: SplittableReader {
  /// A reader of the records in `source` (bytes of the rest from a record start), counting
  /// lines from `line`, with this reader's header and options.
  func streamPartReader(_ source: ByteSource, line: Int, chunkSize: Int) -> any PartReader
  /// The byte that opens and closes quoted text in which a line end is not a record's end, if
  /// the format has one.
  var quoteByte: UInt8? { get }
}

/// A reader of one part of a file.
protocol PartReader: RecordReader {
  /// The line on which the next unread byte starts.
  var nextLine: Int { get }
  /// The byte column of the next unread byte on its line.
  var nextColumn: Int { get }
}

extension PartReader {
  /// Parts of line-based formats end at a line start.
  var nextColumn: Int { 1 }
}

extension CSVReader: PartReader {}
extension NDJSONReader: PartReader {}
