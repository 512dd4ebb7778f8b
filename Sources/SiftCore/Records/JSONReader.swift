/// Reads a JSON document of records in chunks: a top-level array of objects, or an object holding
/// exactly one array of objects (`{"records": […]}`; its other members are checked and ignored).
/// Each object is a record; its top-level keys are the fields, in first-seen order.
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
    case document, wrapperFirstMember, wrapperMember, wrapperAfterMember
    case firstRecord, record, afterRecord, trailing, done
  }

  private static let noArray = "expected an object holding an array of records"

  private var input: ChunkedInput
  private let name: String
  private let builder = JSONRecordBuilder()
  private var phase = Phase.document
  /// Containers open around each record: the array, and the wrapper object if any.
  private var arrayDepth = 1
  private var foundArray = false
  /// Line counting up to the current buffer's scanned bytes.
  private var cursor = LineCursor()

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

  /// Scans whole records and structure from `b`; returns the offset after the last whole token.
  private func scan(_ b: UnsafeBufferPointer<UInt8>, isLast: Bool) throws(InputError) -> Int {
    let scanner = JSONScanner(b, isLast: isLast)
    var p = 0
    do throws(JSONScanFailure) {
      while true {
        switch phase {
        case .done:
          return p
        case .trailing:
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
            phase = .wrapperFirstMember
            arrayDepth = 2
          } else {
            throw .malformed(
              offset: p, message: "expected an array of objects, or an object holding one")
          }
          p += 1
        case .wrapperFirstMember, .wrapperMember:
          let token = try scanner.nextToken(from: p)
          if phase == .wrapperFirstMember && b[token] == .closeBrace {
            throw .malformed(offset: token, message: Self.noArray)
          }
          let value = try scanner.scanMemberName(at: token).value
          if b[value] == .openBracket {
            guard !foundArray else {
              throw .malformed(
                offset: value,
                message: "the object holds a second array; expected exactly one array of records")
            }
            foundArray = true
            phase = .firstRecord
            p = value + 1
          } else {
            p = try scanner.scanValue(at: value, depth: 1)
            phase = .wrapperAfterMember
          }
        case .wrapperAfterMember:
          let token = try scanner.nextToken(from: p)
          if b[token] == .comma {
            phase = .wrapperMember
          } else if b[token] == .closeBrace {
            guard foundArray else {
              throw .malformed(offset: token, message: Self.noArray)
            }
            phase = .trailing
          } else {
            throw .malformed(offset: token, message: "expected ',' or '}' after an object member")
          }
          p = token + 1
        case .firstRecord, .record:
          let token = try scanner.nextToken(from: p)
          if phase == .firstRecord && b[token] == .closeBracket {
            p = token + 1
            phase = arrayDepth == 2 ? .wrapperAfterMember : .trailing
            continue
          }
          guard b[token] == .openBrace else {
            // A malformed element is reported as such; a well-formed one is not a record.
            _ = try scanner.scanValue(at: token, depth: arrayDepth)
            throw .malformed(
              offset: token, message: "expected an object: each element of the array is a record")
          }
          cursor.advance(to: token, in: b)
          p = try builder.addRecord(scanner, at: token, depth: arrayDepth, line: cursor.line)
          phase = .afterRecord
        case .afterRecord:
          let token = try scanner.nextToken(from: p)
          if b[token] == .comma {
            phase = .record
          } else if b[token] == .closeBracket {
            phase = arrayDepth == 2 ? .wrapperAfterMember : .trailing
          } else {
            throw .malformed(offset: token, message: "expected ',' or ']' after an array element")
          }
          p = token + 1
        }
      }
    } catch .truncated {
      return p
    } catch {
      throw cursor.error(failure: error, in: b, name: name)
    }
  }
}
