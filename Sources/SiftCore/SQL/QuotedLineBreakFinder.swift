#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Finds the first CSV value that holds a line break inside its quotes (Docs/Engines.md,
/// Spark reads files in parts): Spark splits a CSV file into parts read in parallel only without
/// `multiLine`, and a file with such a value needs `multiLine` (one part) to be read as sift
/// reads it.
///
/// A quote opens a quoted value only at the start of a field, as sift's reader reads one
/// (Docs/Formats.md, CSV); inside, `""` is a quote. Bytes are fed in chunks of any size; outside
/// quotes the finder jumps from quote to quote (`memchr`), so a file with few quotes is read at
/// memory speed.
public struct QuotedLineBreakFinder {
  private enum State {
    /// Outside quotes, after the byte `previous` (a line feed at the file's start).
    case outside(previous: UInt8)
    case quoted
    /// Inside quotes, just after a quote: `"` again is a quote, anything else ends the value.
    case quoteInQuoted
  }
  private let delimiter: UInt8
  private var state = State.outside(previous: .lineFeed)
  private var line = 1
  /// The line (1-based) where the first quoted line break begins, once found.
  public private(set) var found: Int?

  public init(delimiter: UInt8) {
    self.delimiter = delimiter
  }

  /// Reads `bytes`, the next of the file; stops at the first quoted line break.
  public mutating func feed(_ bytes: UnsafeBufferPointer<UInt8>) {
    guard found == nil, let base = bytes.baseAddress else { return }
    let n = bytes.count
    var p = 0
    while p < n {
      switch state {
      case .quoted:
        let b = base[p]
        if b == .quote {
          state = .quoteInQuoted
        } else if b == .lineFeed || b == .carriageReturn {
          found = line
          return
        }
        p += 1
      case .quoteInQuoted:
        if base[p] == .quote {
          state = .quoted
          p += 1
        } else {
          state = .outside(previous: .quote)
        }
      case .outside(let previous):
        let quote = memchr(base + p, Int32(UInt8.quote), n - p)
          .map { UnsafePointer($0.assumingMemoryBound(to: UInt8.self)) - base } ?? n
        line += lineFeeds(base + p, count: quote - p)
        guard quote < n else {
          state = .outside(previous: base[n - 1])
          return
        }
        let before = quote > p ? base[quote - 1] : previous
        let opens = before == delimiter || before == .lineFeed || before == .carriageReturn
        state = opens ? .quoted : .outside(previous: .quote)
        p = quote + 1
      }
    }
  }

  /// The line feeds among `count` bytes.
  private func lineFeeds(_ start: UnsafePointer<UInt8>, count: Int) -> Int {
    var feeds = 0
    var p = start
    let end = start + count
    while p < end, let at = memchr(p, Int32(UInt8.lineFeed), end - p) {
      feeds += 1
      p = UnsafePointer(at.assumingMemoryBound(to: UInt8.self)) + 1
    }
    return feeds
  }
}
