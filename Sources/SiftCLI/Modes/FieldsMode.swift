import SiftCore

extension Frontend {
  /// `sift --fields [FILE...|@VIEW]`: each field's name, inferred type, non-empty count and three
  /// sample values (Docs/Formats.md, Input).
  func fields(_ job: Job) -> ExitStatus {
    let options = job.options
    let profile: (fields: [FieldProfile], total: Int)
    var sheets: [(input: String, sheets: [(name: String, hidden: Bool, read: Bool)])] = []
    do throws(Problem) {
      let inputs = try open(options)
      sheets = inputs.sheets
      let dataset = inputs.dataset(parallel: parallel(options), allKeys: true)
      profile = try run(text: "", view: nil) { () throws(SiftError) in try dataset.profile() }
    } catch {
      return report(error)
    }
    let ellipsis = console.unicode(asciiRequested: options.ascii) ? "…" : "..."
    let header = ["field", "type", "non-empty", "samples"]
    let ascii = !console.unicode(asciiRequested: options.ascii)
    let rows = profile.fields.map { f in
      [visible(f.name, ascii: ascii), f.type.rawValue, groupedDigits(f.nonEmpty),
       f.samples.map { truncate(visible($0, ascii: ascii), toWidth: 24, ellipsis: ellipsis) }
         .joined(separator: ", ")]
    }
    let widths = (0..<3).map { c in ([header] + rows).map { displayWidth(of: $0[c]) }.max() ?? 0 }
    var out = ""
    for row in [header] + rows {
      var line = ""
      for c in 0..<3 {
        let pad = String(repeating: " ", count: widths[c] - displayWidth(of: row[c]))
        line += c == 2 ? pad + row[c] : row[c] + pad
        line += "  "
      }
      line += row[3]
      while line.hasSuffix(" ") { line.removeLast() }
      out += line + "\n"
    }
    // A workbook's sheets, the one read marked (Docs/Formats.md, Workbooks).
    for (input, list) in sheets {
      out += "\nsheets of \(input):\n"
      for (number, sheet) in list.enumerated() {
        out += "  \(number + 1)  \(sheet.name)"
        out += sheet.hidden ? "  (hidden)" : ""
        out += sheet.read ? "  (read)" : ""
        out += "\n"
      }
      out += "(--sheet NAME, NUMBER or '*' chooses)\n"
    }
    if let status = console.output(out) { return status }
    if !options.quiet {
      console.error("\(profile.fields.count) \(profile.fields.count == 1 ? "field" : "fields") · \(groupedDigits(profile.total)) \(profile.total == 1 ? "record" : "records")\n")
    }
    return .matched
  }

  /// Line breaks and tabs shown as spaces so each field stays on one line; other controls
  /// (escape sequences from the file) shown visibly, as a table shows them (Docs/Formats.md,
  /// Terminal output).
  private func visible(_ s: String, ascii: Bool) -> String {
    let spaced = String(s.map { $0 == "\n" || $0 == "\r" || $0 == "\t" || $0 == "\r\n" ? " " : $0 })
    return VisibleText.of(spaced, ascii: ascii)
  }
}
