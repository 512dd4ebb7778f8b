/// The e-mail report (Docs/Reports.md, The e-mail report): one MIME message for `sendmail -t`,
/// its HTML report with a plain-text part for mail readers without HTML, and optionally the same
/// rows attached as a file. Every part is base64, so no line is too long for mail whatever the
/// records hold; the boundary is made from the content, so the same run makes the same message.
public struct MailMessage: Sendable {
  /// A file attached to the message.
  public struct Attachment: Sendable {
    public var fileName: String
    public var contentType: String
    public var bytes: [UInt8]

    public init(fileName: String, contentType: String, bytes: [UInt8]) {
      self.fileName = fileName
      self.contentType = contentType
      self.bytes = bytes
    }
  }

  public var subject: String
  public var html: [UInt8]
  public var text: [UInt8]
  public var attachment: Attachment?

  public init(subject: String, html: [UInt8], text: [UInt8], attachment: Attachment? = nil) {
    self.subject = subject
    self.html = html
    self.text = text
    self.attachment = attachment
  }

  /// The message: its headers (no `To:`: the caller's, or the line put before it), then the
  /// parts. Lines end in CRLF, as MIME says.
  public func bytes() -> [UInt8] {
    var seed = ChangeCoding.hash(html, into: ChangeCoding.fnvOffset)
    seed = ChangeCoding.hash(text, into: seed)
    let hex = String(seed, radix: 16)
    let boundary = "sift-" + String(repeating: "0", count: 16 - hex.count) + hex
    var out: [UInt8] = []
    func line(_ text: String) {
      out.append(contentsOf: text.utf8)
      out.append(contentsOf: [.carriageReturn, .lineFeed])
    }
    line("Subject: " + Self.headerText(subject))
    line("MIME-Version: 1.0")
    let alternative = attachment == nil ? boundary : boundary + "-a"
    if attachment != nil {
      line("Content-Type: multipart/mixed; boundary=\"\(boundary)\"")
      line("")
      line("--" + boundary)
    }
    line("Content-Type: multipart/alternative; boundary=\"\(alternative)\"")
    line("")
    // The plain text first: a mail reader shows the last part it can.
    for (type, body) in [("text/plain", text), ("text/html", html)] {
      line("--" + alternative)
      line("Content-Type: \(type); charset=utf-8")
      line("Content-Transfer-Encoding: base64")
      line("")
      out.append(contentsOf: Base64.encode(body, lineLength: 76))
    }
    line("--" + alternative + "--")
    if let attachment {
      line("--" + boundary)
      line("Content-Type: \(attachment.contentType); name=\"\(attachment.fileName)\"")
      line("Content-Disposition: attachment; filename=\"\(attachment.fileName)\"")
      line("Content-Transfer-Encoding: base64")
      line("")
      out.append(contentsOf: Base64.encode(attachment.bytes, lineLength: 76))
      line("--" + boundary + "--")
    }
    return out
  }

  /// A header's text: as it is when it is printable ASCII, else an RFC 2047 encoded word.
  static func headerText(_ text: String) -> String {
    let flat = text.map { $0 == "\n" || $0 == "\r" ? " " : String($0) }.joined()
    if flat.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return flat }
    let encoded = String(decoding: Base64.encode(Array(flat.utf8)), as: UTF8.self)
    return "=?UTF-8?B?" + encoded + "?="
  }
}
