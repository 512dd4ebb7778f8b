import SiftCore

/// OSC 52, the terminal's clipboard (Docs/Interactive.md, The record's page): `ESC ] 52 ; c ;`,
/// the text in base64, then BEL. Terminals that do not support it ignore it.
enum ClipboardSequence {
  static func bytes(_ text: String) -> [UInt8] {
    Array("\u{1B}]52;c;".utf8) + base64(Array(text.utf8)) + [0x07]
  }

  static func base64(_ bytes: [UInt8]) -> [UInt8] { Base64.encode(bytes) }
}
