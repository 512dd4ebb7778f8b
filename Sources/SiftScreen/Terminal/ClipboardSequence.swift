/// OSC 52, the terminal's clipboard (Docs/Interactive.md, The record's page): `ESC ] 52 ; c ;`,
/// the text in base64, then BEL. Terminals that do not support it ignore it.
enum ClipboardSequence {
  static func bytes(_ text: String) -> [UInt8] {
    Array("\u{1B}]52;c;".utf8) + base64(Array(text.utf8)) + [0x07]
  }

  static func base64(_ bytes: [UInt8]) -> [UInt8] {
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    var out: [UInt8] = []
    out.reserveCapacity((bytes.count + 2) / 3 * 4)
    var index = 0
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
    }
    return out
  }
}
