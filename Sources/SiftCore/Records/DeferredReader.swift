/// The reader of a regular file that holds no descriptor and no buffer until its turn
/// (Docs/Performance.md, Bounds): the file was sniffed when it was named, and the reader is
/// made again, with what was decided then, when its header is wanted, when its records are
/// read, and when the engine reads it in parts. After its last batch the reader is let go, and
/// what a run asks of it later (its names, its short rows and skipped records) is kept here.
public final class DeferredReader: RecordReader {
  /// Makes the file's reader from its start, deciding nothing twice.
  private let open: () throws(InputError) -> RecordReader
  private var inner: RecordReader?
  /// True once a batch of `inner` was handed out: from then on it is not let go before its end.
  private var started = false
  /// True after the last batch: the file is not opened again.
  private var done = false
  /// An error met opening the file to learn its header, raised by `nextBatch`.
  private var openFailure: InputError?
  private var header: (names: [String], bytes: [[UInt8]]?, style: TextConventions)?
  /// The run counts records only (`readWithoutFields`): said to each reader opened.
  private var withoutFields = false
  /// The run writes records unchanged as CSV with this delimiter (`readAsWritten`): said to
  /// each reader opened.
  private var asWrittenDelimiter: UInt8?
  private var finishedShortRows = 0
  private var finishedSkipped = 0
  /// True when the reader, let go, was one that is never read in parts (a JSON array).
  public private(set) var readsInOrder = false
  public let encoding: FieldEncoding
  public let decimalMark: DecimalMark
  public var onSkip: ((InputError) -> Void)? {
    didSet { inner?.onSkip = onSkip }
  }

  /// A reader of what `open` reads, whose batches are in `encoding` and write numbers with
  /// `decimalMark` (both known from the sniffed reader).
  public init(
    encoding: FieldEncoding, decimalMark: DecimalMark,
    open: @escaping () throws(InputError) -> RecordReader
  ) {
    self.encoding = encoding
    self.decimalMark = decimalMark
    self.open = open
  }

  public var fieldNames: [String] { inner?.fieldNames ?? learnedHeader.names }
  public var headerBytes: [[UInt8]]? { inner.map(\.headerBytes) ?? learnedHeader.bytes }
  public var textStyle: TextConventions { inner?.textStyle ?? learnedHeader.style }
  public var shortRows: Int { inner?.shortRows ?? finishedShortRows }
  public var skipped: Int { inner?.skipped ?? finishedSkipped }

  public func nextBatch() throws(InputError) -> RecordBatch? {
    guard !done else { return nil }
    if let openFailure {
      done = true
      throw openFailure
    }
    let reader = try opened()
    started = true
    guard let batch = try reader.nextBatch() else {
      finish()
      return nil
    }
    return batch
  }

  public func readHeader() { _ = learnedHeader }

  public func readWithoutFields() {
    withoutFields = true
    inner?.readWithoutFields()
  }

  public func readAsWritten(delimiter: UInt8) {
    asWrittenDelimiter = delimiter
    inner?.readAsWritten(delimiter: delimiter)
  }

  /// The file's reader, opened now with its header read if it is not open (for the engine to
  /// read it in parts); `nil` when it cannot be opened (`nextBatch` then says why) or after its end.
  public func openedForParts() -> RecordReader? {
    guard !done, openFailure == nil else { return nil }
    do throws(InputError) {
      if let inner { return inner }
      let reader = try opened()
      reader.readHeader()
      return reader
    } catch {
      openFailure = error
      return nil
    }
  }

  /// Lets go of a reader that has handed out no batch (after `--explain` asked how it will be read).
  public func letGoUnstarted() {
    if !started, let reader = inner {
      remember(reader)
      inner = nil
    }
  }

  /// Ends the file's turn: its reader is let go, what a run asks later is kept.
  public func finish() {
    if let reader = inner { remember(reader) }
    inner = nil
    done = true
  }

  private func opened() throws(InputError) -> RecordReader {
    if let inner { return inner }
    let reader = try open()
    reader.onSkip = onSkip
    if withoutFields { reader.readWithoutFields() }
    if let delimiter = asWrittenDelimiter { reader.readAsWritten(delimiter: delimiter) }
    inner = reader
    return reader
  }

  private func remember(_ reader: RecordReader) {
    header = (reader.fieldNames, reader.headerBytes, reader.textStyle)
    finishedShortRows = reader.shortRows
    finishedSkipped = reader.skipped
    readsInOrder = !(reader is SplittableReader)
  }

  /// The header, learned once by opening the file, reading its header and letting it go.
  private var learnedHeader: (names: [String], bytes: [[UInt8]]?, style: TextConventions) {
    if let header { return header }
    if let inner {
      inner.readHeader()
      return (inner.fieldNames, inner.headerBytes, inner.textStyle)
    }
    var learned: (names: [String], bytes: [[UInt8]]?, style: TextConventions) = ([], nil, .plain)
    if !done, openFailure == nil {
      do throws(InputError) {
        let reader = try open()
        reader.readHeader()
        learned = (reader.fieldNames, reader.headerBytes, reader.textStyle)
      } catch {
        openFailure = error
      }
    }
    header = learned
    return learned
  }
}
