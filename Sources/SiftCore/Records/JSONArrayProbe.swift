#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Finds where a part of a JSON array of records may start, from a guessed offset in the file:
/// just after a `,` between two records (Docs/Performance.md, JSON arrays in parts).
///
/// From an arbitrary offset it is not known whether a byte is inside a string, nor how deep it
/// is. The probe reads on from the offset three ways, once taking the first byte to be outside a
/// string, once inside one, and once just after a `\\` inside one, tracking the depth relative to the offset. A `}`, `,`, `{`
/// outside strings is a candidate; the records' own separators are the candidates at the
/// lowest depth (a record's nested arrays of objects lie deeper), and the reading whose strings
/// are the real ones finds far more candidates than the other. The probe settles once it has
/// read `settle` bytes past its lowest candidate. It can still be wrong (a record larger than
/// that with arrays of objects inside, strings full of `},{`): the part before a wrong start
/// then does not end cleanly, and the engine reads the rest of the file on one thread, as it
/// does for CSV, so records and errors never depend on the guess.
struct JSONArrayProbe {
  let fd: Int32
  /// Bytes read past the lowest candidate before it is taken.
  var settle = 64 << 10
  /// Bytes read with one `pread(2)`.
  var window = 64 << 10

  /// The first record start found at or after `offset` and before `limit`, or `limit` when
  /// none is found.
  func recordStart(atOrAfter offset: Int, before limit: Int) -> Int {
    var guesses = [
      Guess(inString: false), Guess(inString: true), Guess(inString: true, escaped: true),
    ]
    var seen: [UInt8] = []
    var position = offset
    while position < limit {
      let from = seen.count
      let wanted = min(window, limit - position)
      // Read into fresh memory: zeros appended first cost a generic call per byte in a debug build.
      let read = [UInt8](unsafeUninitializedCapacity: wanted) { b, count in
        count = max(0, pread(fd, b.baseAddress!, wanted, off_t(position)))
      }
      let got = read.count
      guard got > 0 else { break }
      seen += read
      for k in from..<seen.count {
        let c = seen[k]
        for g in guesses.indices { guesses[g].take(c, at: k) }
      }
      position += got
      if guesses.contains(where: { $0.settled(at: seen.count, after: settle) }) { break }
    }
    // The reading with the most candidates first; its candidate must read as a record.
    for guess in guesses.sorted(by: { $0.candidates > $1.candidates }) {
      if let start = guess.lowest?.start, Self.recordFollows(seen, at: start) {
        return offset + start
      }
    }
    return limit
  }

  /// Whether an object follows `start` in `bytes`, then a `,` or `]` (or the bytes end first).
  static func recordFollows(_ bytes: [UInt8], at start: Int) -> Bool {
    bytes.withUnsafeBufferPointer { b in
      let scanner = JSONScanner(b, isLast: false)
      do throws(JSONScanFailure) {
        let first = try scanner.nextToken(from: start)
        guard b[first] == .openBrace else { return false }
        let next = try scanner.nextToken(from: try scanner.scanValue(at: first, depth: 1))
        return b[next] == .comma || b[next] == .closeBracket
      } catch .truncated {
        return true
      } catch {
        return false
      }
    }
  }

  /// One reading of the bytes, under one assumption about the first byte.
  struct Guess {
    var inString: Bool
    private var escaped = false
    private var depth = 0
    /// The last byte outside strings that is not whitespace.
    private var last: UInt8 = 0
    /// Where the last token, a `,` after a `}`, was.
    private var commaAfterBrace: Int?
    /// The first candidate at the lowest depth seen, and how many there are at that depth.
    private(set) var lowest: (start: Int, depth: Int)?
    private(set) var candidates = 0

    /// `inString` and `escaped`: whether the first byte is taken to be inside a string, and
    /// to follow a `\\` there.
    init(inString: Bool, escaped: Bool = false) {
      self.inString = inString
      self.escaped = escaped
    }

    mutating func take(_ c: UInt8, at offset: Int) {
      if inString {
        if escaped {
          escaped = false
        } else if c == .backslash {
          escaped = true
        } else if c == .quote {
          inString = false
          last = .quote
        }
        return
      }
      guard !c.isJSONWhitespace else { return }
      if c == .openBrace, let comma = commaAfterBrace {
        if let lowest, lowest.depth <= depth {
          if lowest.depth == depth { candidates += 1 }
        } else {
          lowest = (comma + 1, depth)
          candidates = 1
        }
      }
      commaAfterBrace = c == .comma && last == .closeBrace ? offset : nil
      switch c {
      case .quote: inString = true
      case .openBrace, .openBracket: depth += 1
      case .closeBrace, .closeBracket: depth -= 1
      default: break
      }
      last = c
    }

    /// Whether the lowest candidate lies `settle` bytes or more before `position`.
    func settled(at position: Int, after settle: Int) -> Bool {
      guard let lowest else { return false }
      return position - lowest.start >= settle
    }
  }
}
