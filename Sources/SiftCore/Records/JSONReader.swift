/// Reads a JSON document of records in chunks (Docs/Formats.md, JSON): a top-level array of
/// objects; or an object holding exactly one array of objects at any depth (`{"records": […]}`,
/// `{"data": {"items": […]}}`; its other members are checked and ignored); or, when the object
/// holds no array of objects at all, the object itself as one record. Several arrays of objects
/// are an error naming their paths. Each object is a record; its top-level keys are the
/// fields, in first-seen order.
///
/// The whole document is checked strictly (RFC 8259), nesting is capped at 512 levels, and an
/// empty (or whitespace-only) input holds no records. Malformed JSON stops reading: a JSON
/// document cannot be resynchronised, so `skipBad` does not apply.
public final class JSONReader: RecordReader {
  public var fieldNames: [String] { builder.fieldNames }
  public let encoding = FieldEncoding.json
  public let shortRows = 0
  public let skipped = 0
  public var onSkip: ((InputError) -> Void)?

  /// Where in the document the next byte is.
  private enum Phase {
    case document
    /// Inside the top-level object, looking for the array of records among its members.
    case walk
    case firstRecord, record, afterRecord, trailing, done
  }

  /// An object being walked, outside the array of records: its path and what comes next in it.
  private struct OpenObject {
    enum Next { case firstMember, member, afterMember }
    var path: String
    var next: Next
  }

  private var input: ChunkedInput
  private let name: String
  private let builder = JSONRecordBuilder()
  private var phase = Phase.document
  /// The objects open around the current position, outermost first; empty for a top-level array.
  private var objects: [OpenObject] = []
  /// The path of the array of records once found (`.data.items`), and of any further ones.
  private var recordArray: String?
  private var furtherArrays: [String] = []
  /// Where the first further array was seen, for the error that lists them all.
  private var furtherArrayAt: InputError?
  /// True once the top-level object is known not to be a record itself: an array of objects, or
  /// an empty array that may be an empty one, was found in it (with only empty arrays it holds no
  /// records). Until then its bytes are held, so that it
  /// can be read as one record when it ends.
  private var decided = true
  /// Where the held top-level object starts in the buffer, and where scanning resumes in the
  /// next buffer (which then starts at the held object).
  private var held = 0
  private var resumeAt = 0
  /// Line counting up to the current buffer's scanned bytes.
  private var cursor = LineCursor()
  /// A part of a file that ends just after a `,` between two records, not at the document's
  /// end (Docs/Performance.md, JSON arrays in parts): reaching its end where a record would
  /// start ends it cleanly.
  private var endsBetweenRecords = false
  /// Where the records stood when the rest was handed over to be read in parts: the first
  /// part starts there, the later ones where a record starts.
  private var phaseAtHandOver = Phase.record

  /// A reader of the JSON document in `source`.
  public convenience init(source: ByteSource, options: ReaderOptions) {
    self.init(source: source, options: options, prefix: [])
  }

  init(
    source: ByteSource, options: ReaderOptions, prefix: [UInt8],
    chunkSize: Int = ChunkedInput.defaultChunkSize
  ) {
    input = ChunkedInput(source: source, chunkSize: chunkSize, prefix: prefix)
    name = options.name
  }

  /// A reader of one part of a file inside the array of records of `parent`, which handed its
  /// rest over: it starts in `phase` on `line` at `column`, and (`endsBetweenRecords`) ends
  /// just after a `,` between records, or with the document.
  private init(
    part source: ByteSource, of parent: JSONReader, phase: Phase, line: Int, column: Int,
    endsBetweenRecords: Bool, chunkSize: Int
  ) {
    input = ChunkedInput(source: source, chunkSize: chunkSize, atStart: false)
    name = parent.name
    self.phase = phase
    objects = parent.objects
    recordArray = parent.recordArray
    cursor.line = line
    cursor.lineStart = 1 - column
    self.endsBetweenRecords = endsBetweenRecords
  }

  private var failure = DeferredFailure()

  public func nextBatch() throws(InputError) -> RecordBatch? {
    try failure.throwIfHeld()
    while phase != .done {
      let (buffer, done) = try input.scanNextChunk(failure: &failure, records: { builder.count }) {
        b, isLast throws(InputError) in
        let consumed = try scan(b, isLast: isLast)
        cursor.advance(to: consumed, in: b)
        cursor.rebase(droppingFirst: consumed)
        return consumed
      }
      if done { phase = .done }
      if builder.count > 0 { return builder.takeBatch(bytes: buffer) }
    }
    return nil
  }

  /// Scans whole records and structure from `b`; returns the offset after the last whole token
  /// (or, while the top-level object may still be one record, the offset where it starts).
  private func scan(_ b: UnsafeBufferPointer<UInt8>, isLast: Bool) throws(InputError) -> Int {
    let scanner = JSONScanner(b, isLast: isLast)
    var p = resumeAt
    resumeAt = 0
    do throws(JSONScanFailure) {
      reading: while true {
        switch phase {
        case .done:
          return p
        case .trailing:
          if furtherArrayAt != nil { break reading }
          p = scanner.skipWhitespace(from: p)
          if p < b.count {
            throw .malformed(offset: p, message: "unexpected text after the JSON value")
          }
          return p
        case .document:
          let start = scanner.skipWhitespace(from: p)
          if start == b.count && isLast {
            phase = .done
            return start
          }
          p = try scanner.nextToken(from: p)
          if b[p] == .openBracket {
            phase = .firstRecord
          } else if b[p] == .openBrace {
            // Held from here until it is known whether this object is a record itself.
            held = p
            objects = [OpenObject(path: "", next: .firstMember)]
            decided = false
            phase = .walk
          } else {
            throw .malformed(
              offset: p, message: "expected an array of objects, or an object")
          }
          p += 1
        case .walk:
          p = try walk(scanner, from: p)
        case .firstRecord, .record:
          if endsBetweenRecords && isLast && phase == .record && p == b.count {
            phase = .done
            return p
          }
          let token = try scanner.nextToken(from: p)
          if phase == .firstRecord && b[token] == .closeBracket {
            p = token + 1
            phase = objects.isEmpty ? .trailing : .walk
            continue
          }
          guard b[token] == .openBrace else {
            // A malformed element is reported as such; a well-formed one is not a record.
            _ = try scanner.scanValue(at: token, depth: objects.count + 1)
            throw .malformed(
              offset: token, message: "expected an object: each element of the array is a record")
          }
          cursor.advance(to: token, in: b)
          p = try builder.addRecord(scanner, at: token, depth: objects.count + 1, line: cursor.line)
          phase = .afterRecord
        case .afterRecord:
          let token = try scanner.nextToken(from: p)
          if b[token] == .comma {
            phase = .record
          } else if b[token] == .closeBracket {
            phase = objects.isEmpty ? .trailing : .walk
          } else {
            throw .malformed(offset: token, message: "expected ',' or ']' after an array element")
          }
          p = token + 1
        }
      }
    } catch .truncated {
      if decided { return p }
      resumeAt = p - held
      defer { held = 0 }
      return held
    } catch {
      throw cursor.error(failure: error, in: b, name: name)
    }
    throw severalArrays(furtherArrayAt!)
  }

  /// Reads one step of the top-level object's structure at `p`: a member, a `,` or a `}`.
  /// Objects are walked into; an array of objects becomes the array of records; any other value
  /// is checked and skipped. Returns where the next step starts.
  private func walk(_ scanner: JSONScanner, from p: Int) throws(JSONScanFailure) -> Int {
    let b = scanner.b
    let token = try scanner.nextToken(from: p)
    let current = objects.count - 1
    switch objects[current].next {
    case .afterMember:
      if b[token] == .comma {
        objects[current].next = .member
        return token + 1
      }
      guard b[token] == .closeBrace else {
        throw .malformed(offset: token, message: "expected ',' or '}' after an object member")
      }
      objects.removeLast()
      if objects.isEmpty {
        if !decided {
          // No array of objects anywhere: the object is the one record.
          decided = true
          _ = try builder.addRecord(scanner, at: held, depth: 0, line: cursor.line)
        }
        phase = .trailing
      }
      return token + 1
    case .firstMember, .member:
      if objects[current].next == .firstMember && b[token] == .closeBrace {
        objects[current].next = .afterMember
        return try walk(scanner, from: token)
      }
      let (nameEnd, value) = try scanner.scanMemberName(at: token)
      let path = objects[current].path + Self.pathStep(b, key: token..<nameEnd)
      let depth = objects.count
      if b[value] == .openBrace {
        guard depth < JSONScanner.maxDepth else { throw scanner.tooDeep(value) }
        objects[current].next = .afterMember
        objects.append(OpenObject(path: path, next: .firstMember))
        return value + 1
      }
      var furtherArray = false
      if b[value] == .openBracket {
        let first = try scanner.nextToken(from: value + 1)
        // An array of objects, or an empty array (maybe an empty array of records): the object
        // is not one record.
        if b[first] == .openBrace || b[first] == .closeBracket { decided = true }
        if b[first] == .openBrace {
          if recordArray == nil {
            objects[current].next = .afterMember
            recordArray = path
            phase = .firstRecord
            return value + 1
          }
          furtherArray = true
        }
      }
      // Nothing is changed before the value is scanned whole: a value cut by the buffer's end
      // is scanned again from its member name.
      let end = try scanner.scanValue(at: value, depth: depth)
      if furtherArray {
        if furtherArrayAt == nil {
          furtherArrayAt = cursor.error(at: value, in: b, name: name, "")
        }
        furtherArrays.append(path)
      }
      objects[current].next = .afterMember
      return end
    }
  }

  /// The error for a document holding several arrays of records, at the second one.
  private func severalArrays(_ at: InputError) -> InputError {
    var error = at
    let paths = ([recordArray ?? ""] + furtherArrays).joined(separator: ", ")
    error.message = "the document holds \(furtherArrays.count + 1) arrays of records (\(paths));"
      + " expected exactly one: choose one with a tool such as jq"
    return error
  }

  /// The path step for a member key (`.items`, or `."unit price"` when the key is not a plain
  /// name), as jq writes paths.
  private static func pathStep(_ b: UnsafeBufferPointer<UInt8>, key: Range<Int>) -> String {
    let text = b[(key.lowerBound + 1)..<(key.upperBound - 1)]
    let plain = !text.isEmpty && text.allSatisfy {
      $0 == UInt8(ascii: "_") || $0.isDigit || ($0 | 0x20 >= UInt8(ascii: "a") && $0 | 0x20 <= UInt8(ascii: "z"))
    } && !text.first!.isDigit
    let name = String(decoding: b[key], as: UTF8.self)
    return plain ? "." + name.dropFirst().dropLast() : "." + name
  }
}

extension JSONReader: SplittableReader {
  func restSplit(minimum: Int) -> RestSplit {
    switch phase {
    case .firstRecord, .record, .afterRecord:
      return input.rest(minimum: minimum, name: name, line: cursor.line, column: nextColumn)
    case .done: return .oneThread(.sampleReadAll)
    case .document, .walk, .trailing: return .oneThread(.outsideRecords)
    }
  }

  func handOverRest() -> RecordBatch? {
    phaseAtHandOver = phase
    phase = .done
    return nil
  }

  func partReader(_ range: Range<Int>, of rest: FileRest, line: Int, column: Int)
    -> any PartReader
  {
    JSONReader(
      part: ByteSource(fileDescriptor: rest.fd, name: rest.name, range: range), of: self,
      phase: range.lowerBound == rest.range.lowerBound ? phaseAtHandOver : .record, line: line,
      column: column, endsBetweenRecords: range.upperBound < rest.range.upperBound,
      chunkSize: ChunkedInput.chunkSize(for: range))
  }

  var boundaryRule: PartBoundary { .afterCommaBetweenRecords }
  var nextLine: Int { cursor.line }
  var nextColumn: Int { cursor.column(of: cursor.offset) }
}

extension JSONReader: PartReader {}
