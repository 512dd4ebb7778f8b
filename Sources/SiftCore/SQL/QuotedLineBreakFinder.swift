/// Finds the first CSV value that holds a line break inside its quotes (Docs/Engines.md,
/// Spark): Spark splits a CSV file into parts read in parallel only without `multiLine`, and a
/// file with such a value needs `multiLine` (one part) to be read as sift reads it.
///
/// A quote opens a quoted value only at the start of a field, as sift's reader reads one
/// (Docs/Formats.md, CSV); inside, `""` is a quote. Bytes are fed in chunks of any size.
public struct QuotedLineBreakFinder {
  private enum State {
    case fieldStart, unquoted, quoted, quoteInQuoted
  }
  private let delimiter: UInt8
  private var state = State.fieldStart
  private var line = 1
  /// The line (1-based) where the first quoted line break begins, once found.
  public private(set) var found: Int?

  public init(delimiter: UInt8) {
    self.delimiter = delimiter
  }

  /// Reads `bytes`, the next of the file; stops at the first quoted line break.
  public mutating func feed(_ bytes: UnsafeBufferPointer<UInt8>) {
    guard found == nil else { return }
    for b in bytes {
      switch state {
      case .quoted:
        if b == .quote {
          state = .quoteInQuoted
        } else if b == .lineFeed || b == .carriageReturn {
          found = line
          return
        }
      case .fieldStart, .unquoted, .quoteInQuoted:
        if b == .lineFeed {
          line += 1
          state = .fieldStart
        } else if b == .carriageReturn || b == delimiter {
          state = .fieldStart
        } else if b == .quote && (state == .fieldStart || state == .quoteInQuoted) {
          state = .quoted
        } else {
          state = .unquoted
        }
      }
    }
  }
}

