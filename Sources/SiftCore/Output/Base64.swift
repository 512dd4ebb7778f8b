/// Base64 (RFC 4648), for e-mail parts (Docs/Reports.md, The e-mail report) and the terminal's
/// clipboard.
public enum Base64 {
  private static let alphabet = Array(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

  /// `bytes` in base64; with `lineLength`, a CRLF after every that many characters and at the
  /// end (MIME's 76).
  public static func encode(_ bytes: [UInt8], lineLength: Int? = nil) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity((bytes.count + 2) / 3 * 4 + (bytes.count / 38) + 2)
    var index = 0
    var column = 0
    while index < bytes.count {
      let count = min(3, bytes.count - index)
      var chunk: UInt32 = 0
      for offset in 0..<3 {
        chunk = chunk << 8 | UInt32(offset < count ? bytes[index + offset] : 0)
      }
      for position in 0..<4 {
        let sextet = Int(chunk >> UInt32(18 - 6 * position) & 0x3F)
        out.append(position <= count ? alphabet[sextet] : UInt8(ascii: "="))
      }
      index += 3
      column += 4
      if let lineLength, column >= lineLength {
        out.append(contentsOf: [.carriageReturn, .lineFeed])
        column = 0
      }
    }
    if lineLength != nil && column > 0 { out.append(contentsOf: [.carriageReturn, .lineFeed]) }
    return out
  }
}
