/// The byte order mark, line end and delimiter of a delimited text input, kept on CSV/TSV
/// output (Docs/Formats.md, Output).
public struct TextConventions: Sendable, Equatable {
  /// The input began with a UTF-8 byte order mark.
  public var byteOrderMark: Bool
  /// The bytes that ended the input's first line: LF, CRLF or a lone CR.
  public var lineEnd: [UInt8]
  /// The field delimiter a CSV input was read with (given, sniffed or `,`).
  public var delimiter: UInt8

  public init(byteOrderMark: Bool, lineEnd: [UInt8], delimiter: UInt8 = UInt8(ascii: ",")) {
    self.byteOrderMark = byteOrderMark
    self.lineEnd = lineEnd
    self.delimiter = delimiter
  }

  /// No byte order mark, LF line ends, `,`: what sift writes unless the input says otherwise.
  public static let plain = TextConventions(byteOrderMark: false, lineEnd: [.lineFeed])
}
