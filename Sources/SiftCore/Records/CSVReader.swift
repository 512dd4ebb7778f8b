#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads CSV (RFC 4180) and TSV in chunks: each row becomes a record whose fields are byte spans;
/// quoted CSV fields keep their quotes (`FieldValue` decodes them).
///
/// Leniencies, documented in Docs/Formats.md: a quote inside an unquoted field is a literal byte;
/// blank lines are skipped; short rows are padded with empty fields and counted; header names are
/// kept as written for output, duplicates and empty names included, and made unique for queries.
public final class CSVReader: RecordReader {
  public private(set) var fieldNames: [String] = []
  public private(set) var headerBytes: [[UInt8]]?
  public let encoding: FieldEncoding
  public private(set) var shortRows = 0
  public private(set) var skipped = 0
  public var onSkip: ((InputError) -> Void)?
  public var textStyle: TextConventions {
    TextConventions(
      byteOrderMark: input.droppedByteOrderMark, lineEnd: firstLineEnd, delimiter: delimiter)
  }
  /// The bytes that ended the first row (the header, or the first record without one).
  private var firstLineEnd: [UInt8] = [.lineFeed]

  private var input: ChunkedInput
  public var wentIdle: Bool { input.wentIdle }
  private let name: String
  private let delimiter: UInt8
  private let quoting: Bool
  private let hasHeader: Bool
  /// Fields per record; `nil` until the header (or the first row without one) is read.
  private var width: Int?
  /// The line on which the next unread byte starts.
  private var line = 1
  private var finished = false
  private let spans = PointerStore<Int32>(capacity: 1 << 16)
  /// The run counts records only (`readWithoutFields`): most rows are counted a chunk at a time
  /// (`CSVBlockCounter`), the others have their fields found, for the same checks, into room the
  /// next row reuses; the batches have no fields.
  private var withoutFields = false
  /// The run writes every row unchanged as CSV with this reader's delimiter (`readAsWritten`):
  /// a chunk whose rows are all as that writer writes them is handed over without fields.
  private var asWritten = false
  /// The chunk being read was read as written (`scanRowsAsWritten`).
  private var batchAsWritten = false
  private let extents = PointerStore<Int32>()
  private let lines = PointerStore<Int32>()

  /// A reader of `format` `.csv` (delimiter from `options`, `,` by default) or `.tsv` (tab, no
  /// quoting unless `options.quoting`).
  public convenience init(source: ByteSource, options: ReaderOptions, format: InputFormat = .csv) {
    self.init(source: source, options: options, format: format, prefix: [])
  }

  /// `wordScan: false` reads every row with the byte-at-a-time scanner alone (the reference
  /// the word scanner is tested against).
  init(
    source: ByteSource, options: ReaderOptions, format: InputFormat, prefix: [UInt8],
    chunkSize: Int = ChunkedInput.defaultChunkSize, wordScan: Bool = true,
    blockCount: Bool = true
  ) {
    input = ChunkedInput(source: source, chunkSize: chunkSize, prefix: prefix)
    self.options = options
    self.format = format
    name = options.name
    let tabs = format == .tsv
    delimiter = tabs ? .tab : (options.delimiter ?? .comma)
    quoting = options.quoting ?? !tabs
    encoding = quoting ? .csv : .plain
    wordScanner = wordScan ? CSVWordScanner(delimiter: delimiter, quoting: quoting) : nil
    blockCounter =
      wordScan && blockCount ? CSVBlockCounter(delimiter: delimiter, quoting: quoting) : nil
    hasHeader = !options.noHeader
    skipBadRows = options.skipBad
  }

  private let skipBadRows: Bool
  /// Reads most rows eight bytes at a time; `nil`: every row byte by byte.
  private let wordScanner: CSVWordScanner?
  /// Counts most rows of a chunk sixteen bytes at a time when the run reads without fields;
  /// `nil`: a row at a time (the reference it is tested against).
  private let blockCounter: CSVBlockCounter?
  public var decimalMark: DecimalMark { options.decimalMark ?? .point }
  private var failure = DeferredFailure()
  private let options: ReaderOptions
  private let format: InputFormat

  /// A reader of one part of a file whose header `parent` has read: every row is a record.
  private convenience init(
    part source: ByteSource, of parent: CSVReader, line: Int, chunkSize: Int
  ) {
    self.init(source: source, options: parent.options, format: parent.format, prefix: [])
    input = ChunkedInput(source: source, chunkSize: chunkSize, atStart: false)
    fieldNames = parent.fieldNames
    headerBytes = parent.headerBytes
    width = parent.width
    withoutFields = parent.withoutFields
    asWritten = parent.asWritten
    self.line = line
  }

  /// The first batch (or the error in its place), read ahead by `readHeader`.
  private var readAhead: RecordBatch?
  private var readAheadError: InputError?

  public func readWithoutFields() { withoutFields = true }

  public func readAsWritten(delimiter: UInt8) {
    asWritten = encoding == .csv && delimiter == self.delimiter
  }

  public func readHeader() {
    guard width == nil, !finished, readAhead == nil, readAheadError == nil else { return }
    do throws(InputError) { readAhead = try nextBatch() } catch { readAheadError = error }
  }

  public func nextBatch() throws(InputError) -> RecordBatch? {
    if let error = readAheadError {
      readAheadError = nil
      throw error
    }
    if let batch = readAhead {
      readAhead = nil
      return batch
    }
    try failure.throwIfHeld()
    while !finished {
      let (buffer, done) = try input.scanNextChunk(failure: &failure, records: { extents.count }) {
        b, isLast throws(InputError) in try scanRows(b, isLast: isLast)
      }
      finished = done
      if extents.count > 0, let width {
        return RecordBatch(
          bytes: buffer, encoding: encoding, width: withoutFields || batchAsWritten ? 0 : width,
          spans: spans.handOff(),
          extents: extents.handOff(), lines: lines.handOff(), decimalMark: decimalMark,
          asWritten: batchAsWritten)
      }
    }
    return nil
  }

  /// Scans the whole rows of `b` into the stores; returns the offset after the last one.
  private func scanRows(_ b: UnsafeBufferPointer<UInt8>, isLast: Bool) throws(InputError) -> Int {
    batchAsWritten = false
    if asWritten, let width, let next = scanRowsAsWritten(b, width: width, isLast: isLast) {
      batchAsWritten = true
      return next
    }
    let n = b.count
    var p = 0
    /// Where the block count last stopped: the row there is read by the exact scanners.
    var countedTo = -1
    while p < n {
      if withoutFields, p != countedTo, let width, let blockCounter {
        let counted = blockCounter.countRows(
          b, from: p, line: line, width: width, extents: extents, lines: lines)
        shortRows += counted.shortRows
        line = counted.line
        p = counted.next
        countedTo = p
        continue
      }
      let c = b[p]
      if c == .lineFeed || c == .carriageReturn {
        guard let next = blankLineEnd(b, at: p, isLast: isLast) else { break }
        p = next
        continue
      }
      guard let width else {
        guard let next = try readFirstRow(b, from: p, isLast: isLast) else { break }
        p = next
        continue
      }
      spans.reserve(2 * width)
      let out = spans.base + spans.count
      let row =
        (withoutFields ? countRow(b, from: p, limit: width) : nil)
        ?? wordScanner?.scanRow(b, from: p, limit: width, into: out)
        ?? scanRow(b, from: p, limit: width, into: out, isLast: isLast)
      switch row.outcome {
      case .incomplete:
        return p
      case .unterminatedQuote, .textAfterQuote:
        let error = rowError(row, in: b, from: p)
        guard skipBadRows else { throw error }
        if row.outcome == .unterminatedQuote {
          report(error)
          finished = true
          return n
        }
        // Text after a closing quote: the row still ends at the next line end outside quotes.
        guard let skip = Self.malformedRowEnd(b, from: p, isLast: isLast) else { return p }
        report(error)
        line += skip.lineEnds
        p = skip.next
      case .complete:
        if row.fields > width {
          let error = LineCursor(offset: p, line: line, lineStart: p).error(
            at: row.extraField, in: b, name: name,
            "row has \(row.fields) fields, the header has \(width)")
          guard skipBadRows else { throw error }
          report(error)
        } else {
          // Without fields the spans found stay where the next row's go (Docs/Performance.md,
          // Counting without fields); a short row is still counted.
          if row.fields < width {
            if !withoutFields {
              let out = spans.base + spans.count
              for f in row.fields..<width {
                out[2 * f] = Int32(row.end)
                out[2 * f + 1] = Int32(row.end)
              }
            }
            shortRows += 1
          }
          if !withoutFields { spans.count += 2 * width }
          keepRecord(from: p, to: row.end)
        }
        line += row.lineEnds
        p = row.next
      }
    }
    return p
  }

  /// The row at `p` counted without its fields (`readWithoutFields`), eight or sixteen bytes at
  /// a time, quoted fields included; `nil` when a scanner that records fields must read it.
  @inline(__always)
  private func countRow(_ b: UnsafeBufferPointer<UInt8>, from p: Int, limit: Int) -> RowScan? {
    guard let wordScanner else { return nil }
    return wordScanner.countRow(b, from: p, limit: limit)
      ?? wordScanner.countQuotedRow(b, from: p, limit: limit)?.row
  }

  /// Keeps the record whose text is `start..<end`, on the current line.
  @inline(__always)
  private func keepRecord(from start: Int, to end: Int) {
    extents.append(Int32(truncatingIfNeeded: start))
    extents.append(Int32(truncatingIfNeeded: end))
    lines.append(Int32(truncatingIfNeeded: line))
  }

  /// Skips the blank line whose line end is at `p`: where the next row may start, or `nil`
  /// when a CR ends `b` and more input follows (it may be a CRLF).
  @inline(__always)
  private func blankLineEnd(_ b: UnsafeBufferPointer<UInt8>, at p: Int, isLast: Bool) -> Int? {
    let n = b.count
    let c = b[p]
    if c == .carriageReturn && p + 1 >= n && !isLast { return nil }
    line += 1
    return p + ((c == .carriageReturn && p + 1 < n && b[p + 1] == .lineFeed) ? 2 : 1)
  }

  /// Reads the whole rows of `b` keeping only their text and line (`readAsWritten`,
  /// Docs/Performance.md, Pass-through without fields) while each row is exactly what the CSV
  /// writer writes for its fields: `width` fields, each quoted just when its value needs it, not
  /// starting with the bytes of a byte order mark. Returns the offset after the last whole row,
  /// or `nil`, the stores and line as they were, at the first row that is not so (a needless or
  /// a literal quote, a short or long row, a malformed one): `b` is then read with fields, its
  /// errors and padded rows as ever.
  private func scanRowsAsWritten(
    _ b: UnsafeBufferPointer<UInt8>, width: Int, isLast: Bool
  ) -> Int? {
    guard let base = b.baseAddress else { return 0 }
    let (extentsBefore, linesBefore, lineBefore) = (extents.count, lines.count, line)
    spans.reserve(2 * width)
    // Each row's fields, when a quote makes them needed, go where the next row's go.
    let scratch = spans.base + spans.count
    let n = b.count
    var p = 0
    while p < n {
      let c = b[p]
      if c == .lineFeed || c == .carriageReturn {
        guard let next = blankLineEnd(b, at: p, isLast: isLast) else { break }
        p = next
        continue
      }
      var verbatim =
        c < 0xEF || !CSVRowText.startsWithByteOrderMark(UnsafeBufferPointer(rebasing: b[p...]))
      var row: RowScan
      if let counted = wordScanner?.countRow(b, from: p, limit: width) {
        row = counted
      } else if let counted = wordScanner?.countQuotedRow(b, from: p, limit: width) {
        row = counted.row
        verbatim = verbatim && counted.asWritten
      } else {
        row =
          wordScanner?.scanRow(b, from: p, limit: width, into: scratch)
          ?? scanRow(b, from: p, limit: width, into: scratch, isLast: isLast)
        if row.outcome == .incomplete { break }
        verbatim =
          verbatim && row.outcome == .complete && row.fields == width
          && (memchr(base + p, Int32(UInt8.quote), row.end - p) == nil
            || CSVRowText.fieldsAreQuotedAsWritten(
              base: base, spans: scratch, width: width, delimiter: delimiter))
      }
      guard verbatim, row.fields == width else {
        extents.count = extentsBefore
        lines.count = linesBefore
        line = lineBefore
        return nil
      }
      keepRecord(from: p, to: row.end)
      line += row.lineEnds
      p = row.next
    }
    return p
  }

  /// Reads the header (or, without one, sizes the records by the first row, which stays a
  /// record). Returns where reading goes on, or `nil` when the row is not complete yet.
  private func readFirstRow(
    _ b: UnsafeBufferPointer<UInt8>, from p: Int, isLast: Bool
  ) throws(InputError) -> Int? {
    var capacity = 64
    while true {
      let scratch = UnsafeMutablePointer<Int32>.allocate(capacity: 2 * capacity)
      defer { scratch.deallocate() }
      let row = scanRow(b, from: p, limit: capacity, into: scratch, isLast: isLast)
      switch row.outcome {
      case .incomplete: return nil
      case .unterminatedQuote, .textAfterQuote: throw rowError(row, in: b, from: p)
      case .complete:
        guard row.fields <= capacity else {
          capacity = row.fields
          continue
        }
        width = row.fields
        if row.fields > 0 {
          let lastEnd = Int(scratch[2 * row.fields - 1])
          if let cr = b[lastEnd..<row.next].firstIndex(where: {
            $0 == .carriageReturn || $0 == .lineFeed
          }) {
            let crlf = b[cr] == .carriageReturn && cr + 1 < row.next && b[cr + 1] == .lineFeed
            firstLineEnd = crlf ? [.carriageReturn, .lineFeed] : [b[cr]]
          }
        }
        if hasHeader {
          let bytes = (0..<row.fields).map { f in
            let raw = UnsafeBufferPointer(
              rebasing: b[Int(scratch[2 * f])..<Int(scratch[2 * f + 1])])
            return FieldValue(raw: raw, encoding: encoding).decodedBytes()
          }
          fieldNames = HeaderNames.unique(bytes.map { String(decoding: $0, as: UTF8.self) })
          if zip(fieldNames, bytes).contains(where: { !$0.utf8.elementsEqual($1) }) {
            headerBytes = bytes
          }
          line += row.lineEnds
          return row.next
        }
        fieldNames = (1...row.fields).map(String.init)
        return p  // the row is read again as the first record
      }
    }
  }

  private func rowError(
    _ row: RowScan, in b: UnsafeBufferPointer<UInt8>, from p: Int
  ) -> InputError {
    let message =
      row.outcome == .unterminatedQuote
      ? "unterminated quoted field" : "expected a delimiter or a line end after a closing quote"
    return LineCursor(offset: p, line: line, lineStart: p).error(
      at: row.errorAt, in: b, name: name, message)
  }

  private func report(_ error: InputError) {
    skipped += 1
    onSkip?(error)
  }

  /// What scanning one row found.
  struct RowScan {
    enum Outcome { case complete, incomplete, unterminatedQuote, textAfterQuote }
    var outcome: Outcome
    /// Where the next row may start (after the line end).
    var next = 0
    /// The end of the row's text (before the line end).
    var end = 0
    /// Fields in the row, also those past the limit.
    var fields = 0
    /// Where the first field past the limit starts.
    var extraField = 0
    /// Line ends in the row, its own included.
    var lineEnds = 0
    /// Where an unterminated quote opens, or the text after a closing quote.
    var errorAt = 0
  }

  /// Where a malformed row starting at `start` ends, by quote parity: every quote opens or
  /// closes quoted text, and the first LF or CR outside quoted text ends the row. `nil` when the
  /// row goes on past `b` and more input follows (Docs/Formats.md, `--skip-bad`).
  static func malformedRowEnd(
    _ b: UnsafeBufferPointer<UInt8>, from start: Int, isLast: Bool
  ) -> (next: Int, lineEnds: Int)? {
    let n = b.count
    var quoted = false
    var lineEnds = 0
    var p = start
    while p < n {
      let c = b[p]
      if c == .quote {
        quoted.toggle()
      } else if c == .lineFeed || c == .carriageReturn {
        if c == .carriageReturn && p + 1 >= n && !isLast { return nil }
        let width = (c == .carriageReturn && p + 1 < n && b[p + 1] == .lineFeed) ? 2 : 1
        if !quoted { return (p + width, lineEnds + 1) }
        lineEnds += 1
        p += width
        continue
      }
      p += 1
    }
    return isLast ? (n, lineEnds) : nil
  }

  private static let ones: UInt64 = 0x0101_0101_0101_0101

  /// The high bit of every zero byte of `v` (a byte equal to a pattern byte is a zero byte of
  /// their XOR). The lowest flag is exact; a flag above a zero byte may be false when a borrow
  /// runs into the byte above (`0x01` after `0x00`), so callers check flagged bytes past the
  /// first.
  @inline(__always)
  private static func zeroBytes(_ v: UInt64) -> UInt64 {
    (v &- ones) & ~v & 0x8080_8080_8080_8080
  }

  /// Where the unquoted field starting at `start` ends: the first delimiter, LF or CR, or the
  /// end of `b`. Eight bytes at a time (see `zeroBytes`).
  @inline(__always)
  static func unquotedFieldEnd(
    _ b: UnsafeBufferPointer<UInt8>, from start: Int, delimiter: UInt8
  ) -> Int {
    let n = b.count
    var p = start
    if let base = b.baseAddress {
      let raw = UnsafeRawPointer(base)
      let delimiters = ones &* UInt64(delimiter)
      let lineFeeds = ones &* UInt64(UInt8.lineFeed)
      let returns = ones &* UInt64(UInt8.carriageReturn)
      while p &+ 8 <= n {
        let w = raw.loadUnaligned(fromByteOffset: p, as: UInt64.self)
        let found = zeroBytes(w ^ delimiters) | zeroBytes(w ^ lineFeeds) | zeroBytes(w ^ returns)
        if found != 0 { return p &+ found.trailingZeroBitCount >> 3 }
        p &+= 8
      }
    }
    while p < n {
      let c = b[p]
      if c == delimiter || c == .lineFeed || c == .carriageReturn { break }
      p += 1
    }
    return p
  }

  /// Scans one row starting at `start`, writing up to `limit` span pairs to `out`.
  @inline(__always)
  private func scanRow(
    _ b: UnsafeBufferPointer<UInt8>, from start: Int, limit: Int,
    into out: UnsafeMutablePointer<Int32>, isLast: Bool
  ) -> RowScan {
    let n = b.count
    let delimiter = self.delimiter
    var p = start
    var fields = 0
    var lineEnds = 0
    var extraField = -1
    while true {
      let fieldStart = p
      if quoting && p < n && b[p] == .quote {
        p += 1
        while true {
          guard p < n else {
            return RowScan(
              outcome: isLast ? .unterminatedQuote : .incomplete, errorAt: fieldStart)
          }
          let c = b[p]
          if c == .quote {
            if p + 1 < n && b[p + 1] == .quote {
              p += 2
              continue
            }
            if p + 1 >= n && !isLast { return RowScan(outcome: .incomplete) }
            p += 1
            break
          }
          if c == .lineFeed {
            lineEnds += 1
          } else if c == .carriageReturn {
            if p + 1 >= n && !isLast { return RowScan(outcome: .incomplete) }
            if p + 1 >= n || b[p + 1] != .lineFeed { lineEnds += 1 }
          }
          p += 1
        }
        if p < n {
          let c = b[p]
          if c != delimiter && c != .lineFeed && c != .carriageReturn {
            return RowScan(outcome: .textAfterQuote, errorAt: p)
          }
        }
      } else {
        p = Self.unquotedFieldEnd(b, from: p, delimiter: delimiter)
      }
      if fields < limit {
        out[2 * fields] = Int32(truncatingIfNeeded: fieldStart)
        out[2 * fields + 1] = Int32(truncatingIfNeeded: p)
      } else if extraField < 0 {
        extraField = fieldStart
      }
      fields += 1
      guard p < n else {
        guard isLast else { return RowScan(outcome: .incomplete) }
        return RowScan(
          outcome: .complete, next: n, end: n, fields: fields, extraField: extraField,
          lineEnds: lineEnds)
      }
      let c = b[p]
      if c == delimiter {
        p += 1
        continue
      }
      let end = p
      if c == .carriageReturn {
        if p + 1 >= n && !isLast { return RowScan(outcome: .incomplete) }
        p += (p + 1 < n && b[p + 1] == .lineFeed) ? 2 : 1
      } else {
        p += 1
      }
      return RowScan(
        outcome: .complete, next: p, end: end, fields: fields, extraField: extraField,
        lineEnds: lineEnds + 1)
    }
  }
}

extension CSVReader: SplittableReader {
  func restSplit(minimum: Int) -> RestSplit {
    guard !finished, width != nil, readAheadError == nil else { return .oneThread(.sampleReadAll) }
    guard !skipBadRows else { return .oneThread(.skipBad) }
    return input.rest(minimum: minimum, name: name, line: line, streams: true)
  }

  func handOverRest() -> RecordBatch? {
    finished = true
    defer { readAhead = nil }
    return readAhead
  }

  func partReader(
    _ range: Range<Int>, of rest: FileRest, line: Int, column: Int
  ) -> any PartReader {
    CSVReader(
      part: ByteSource(fileDescriptor: rest.fd, name: rest.name, range: range), of: self,
      line: line, chunkSize: ChunkedInput.chunkSize(for: range))
  }

  var boundaryRule: PartBoundary { .afterLineEnd }
  var nextLine: Int { line }
}

extension CSVReader: StreamSplittableReader {
  func streamPartReader(_ source: ByteSource, line: Int, chunkSize: Int) -> any PartReader {
    CSVReader(part: source, of: self, line: line, chunkSize: chunkSize)
  }

  var quoteByte: UInt8? { quoting ? .quote : nil }
}
