/// The input formats of Docs/Formats.md, Input.
public enum InputFormat: String, Sendable, CaseIterable {
  case csv, tsv, json, ndjson
}

/// How to read one input.
public struct ReaderOptions: Sendable {
  /// The name used in messages: the path, or `stdin`.
  public var name: String
  /// CSV delimiter byte (`,` by default; TSV is always a tab).
  public var delimiter: UInt8?
  /// CSV/TSV without a header row: fields are named `1`, `2`, …
  public var noHeader: Bool
  /// Skip malformed records (reported through `onSkip`) instead of failing (Docs/Formats.md, Errors).
  public var skipBad: Bool
  /// Whether `"` quotes CSV/TSV fields (`--quote`); `nil`: CSV quotes, and TSV quotes when its
  /// sample does (Docs/Formats.md, TSV).
  public var quoting: Bool?
  /// How numbers are written (Docs/Formats.md, Decimal commas); `nil` until `--decimal` or the
  /// sample decides it, and then `.point`.
  public var decimalMark: DecimalMark?
  /// The sheet of a workbook to read, by name or 1-based number; `nil` for the first visible one
  /// (Docs/Formats.md, Workbooks).
  public var sheet: String?
  /// Give each record of a workbook sheet a first field `sheet` holding the sheet's name
  /// (`--sheet '*'`, Docs/Formats.md, Workbooks).
  public var sheetColumn = false
  /// Where notes found while reading go (a workbook's error cells); notes found on opening are
  /// in `OpenedInput.notes`.
  public var onNote: NoteSink?

  public init(
    name: String, delimiter: UInt8? = nil, noHeader: Bool = false, skipBad: Bool = false,
    quoting: Bool? = nil, decimalMark: DecimalMark? = nil, sheet: String? = nil,
    onNote: NoteSink? = nil
  ) {
    self.name = name
    self.delimiter = delimiter
    self.noHeader = noHeader
    self.skipBad = skipBad
    self.quoting = quoting
    self.decimalMark = decimalMark
    self.sheet = sheet
    self.onNote = onNote
  }
}

/// Where a reader sends the notes it finds while reading (`note: …` lines for standard error);
/// called only from the thread that reads the input.
public final class NoteSink: @unchecked Sendable {
  private let say: (String) -> Void

  public init(_ say: @escaping (String) -> Void) { self.say = say }

  /// Sends one note.
  public func callAsFunction(_ note: String) { say(note) }
}

/// Malformed or unreadable input: `sift: NAME:LINE:COLUMN: message` (Docs/Formats.md, Errors).
public struct InputError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The path, or `stdin`.
  public var name: String
  /// 1-based line and column (column in bytes); 0 when the error has no position (unreadable file).
  public var line: Int
  public var column: Int
  public var message: String

  public init(name: String, line: Int, column: Int, message: String) {
    self.name = name
    self.line = line
    self.column = column
    self.message = message
  }

  /// `NAME:LINE:COLUMN: message`, or `NAME: message` without a position.
  public var description: String {
    line > 0 ? "\(name):\(line):\(column): \(message)" : "\(name): \(message)"
  }
}

/// A streaming reader of one input. Batches come in input order; the field list can grow while
/// reading JSON (a key first seen later is appended), never shrinks, and never reorders.
public protocol RecordReader: AnyObject {
  /// Field names so far, in first-seen order (CSV/TSV: the header; JSON: keys seen so far).
  var fieldNames: [String] { get }
  /// CSV/TSV: each header name's bytes as written, where `fieldNames` differ from them (a
  /// duplicate `a` is the field `a_2`, an empty name is its column number, bytes that are not
  /// UTF-8 are kept); `nil` when the names are the header (JSON, `--no-header`).
  var headerBytes: [[UInt8]]? { get }
  /// The encoding of every batch this reader makes.
  var encoding: FieldEncoding { get }
  /// Short CSV/TSV rows padded with empty fields so far (Docs/Formats.md, CSV).
  var shortRows: Int { get }
  /// Bad records skipped so far (with `skipBad`).
  var skipped: Int { get }
  /// Called for each record skipped with `skipBad`, with where and why.
  var onSkip: ((InputError) -> Void)? { get set }
  /// The next batch, or `nil` at the end of the input.
  func nextBatch() throws(InputError) -> RecordBatch?
  /// Learns the field names before this input's turn (CSV/TSV: reads its first batch ahead and
  /// keeps it, or the error, for `nextBatch`), so every input's header counts in the schema.
  func readHeader()
  /// Told that the run needs only how many records there are, none of their fields (`-c` with
  /// no term, Docs/Performance.md, Counting without fields): the batches read after this may
  /// hold each record's text and line but no fields (width 0), with the same records, line
  /// numbers, padded and skipped rows and errors as a full read. Readers that gain nothing by
  /// it read as before.
  func readWithoutFields()
  /// Told that the run writes every record unchanged as CSV with `delimiter` (no filter, every
  /// field in order, Docs/Performance.md, Pass-through without fields): a batch read after this
  /// may hold no fields (`RecordBatch.asWritten`) when each of its records is exactly what that
  /// writer writes for it, with the same records and line numbers as a full read; any other
  /// batch is read as before. Readers that gain nothing by it read as before.
  func readAsWritten(delimiter: UInt8)
  /// CSV/TSV: whether the input began with a byte order mark and how its first line ended, so
  /// CSV output can keep them (Docs/Formats.md, Output); `.plain` for other formats.
  var textStyle: TextConventions { get }
  /// How the input writes numbers (Docs/Formats.md, Decimal commas): the mark of every batch.
  var decimalMark: DecimalMark { get }
  /// True when the last batch ended where a pipe or terminal had no more bytes ready: its
  /// records go out now, not when more arrive (Docs/Formats.md, Streaming input). CSV, TSV and
  /// NDJSON readers say so; a JSON array, a workbook and converted input wait for more.
  var wentIdle: Bool { get }
}

extension RecordReader {
  public var headerBytes: [[UInt8]]? { nil }
  public var decimalMark: DecimalMark { .point }
  public var textStyle: TextConventions { .plain }
  public var wentIdle: Bool { false }
  public func readHeader() {}
  public func readWithoutFields() {}
  public func readAsWritten(delimiter: UInt8) {}
}

/// The field names of a CSV/TSV header.
public enum HeaderNames {
  /// Unique field names for `header` (Docs/Formats.md, CSV): an empty name is its column
  /// number, a repeated name gets `_2`, `_3`, … (the first keeps the plain name), skipping names
  /// already taken.
  public static func unique(_ header: [String]) -> [String] {
    var used = Set<String>()
    var out: [String] = []
    out.reserveCapacity(header.count)
    for (i, raw) in header.enumerated() {
      var name = raw.isEmpty ? String(i + 1) : raw
      if !used.insert(name).inserted {
        var k = 2
        while used.contains(name + "_" + String(k)) { k += 1 }
        name = name + "_" + String(k)
        used.insert(name)
      }
      out.append(name)
    }
    return out
  }
}

/// Reads an input again, from its start, and returns the names of all its fields: how the engine
/// learns JSON keys first seen after the sample (Docs/Formats.md, Several inputs).
public typealias KeyScan = () -> [String]

extension RecordReader {
  /// Reads to the end and returns the field names seen; an input error ends the scan early
  /// (the run reports it when it gets there).
  public func drainForFieldNames() -> [String] {
    do throws(InputError) {
      while try nextBatch() != nil {}
    } catch {}
    return fieldNames
  }
}
