import SiftCore

/// What `--attach` attaches to the e-mail report: the same rows as a workbook or as CSV
/// (Docs/Reports.md, The e-mail report).
enum AttachFormat: String, Sendable, CaseIterable {
  case xlsx, csv

  var contentType: String {
    switch self {
    case .xlsx: return "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    case .csv: return "text/csv; charset=utf-8"
    }
  }

  var outputFormat: OutputFormat {
    switch self {
    case .xlsx: return .xlsx
    case .csv: return .csv
    }
  }
}

/// The parts of `-o eml` besides the HTML report (Docs/Reports.md, The e-mail report): the
/// plain-text table and the attachment, each written by its own writer in the same run.
final class MailParts {
  let text = MemorySink()
  let attachment: (format: AttachFormat, fileName: String, sink: MemorySink)?

  init(attach: AttachFormat?, baseName: String) {
    attachment = attach.map { ($0, baseName + "." + $0.rawValue, MemorySink()) }
  }

  /// The message around `html`, the report: the subject is the title and what the bar counts
  /// (what changed first, with `--changes`); the plain-text part the title, the bar as a
  /// sentence, the table and the footer's line.
  func message(_ report: HTMLReport, html: [UInt8], bar: FeedbackBar, table: [UInt8]?)
    -> [UInt8]
  {
    let counts = bar.changes?.parts ?? bar.counts()
    var plain = Array((report.title + "\n" + bar.sentence() + "\n\n").utf8)
    plain += table ?? text.bytes
    plain += Array(("\n" + report.footerText + "\n").utf8)
    let attached = attachment.map {
      MailMessage.Attachment(
        fileName: $0.fileName, contentType: $0.format.contentType, bytes: $0.sink.bytes)
    }
    return MailMessage(
      subject: report.title + ": " + counts.joined(separator: " · "), html: html, text: plain,
      attachment: attached
    ).bytes()
  }
}
