import SiftCore

/// One record as text for the clipboard (Docs/Interactive.md, The record's page): the header
/// and the record's values as the list shows them, in the output format of `-o` (CSV when none
/// is given, or for `-o table` and `-o xlsx`: a clipboard holds text).
enum RecordCopy {
  static func text(columns: [String], cells: [String], numeric: [Bool], format: OutputFormat) -> String {
    let values = columns.indices.map { $0 < cells.count ? cells[$0] : "" }
    func isNumber(_ column: Int) -> Bool {
      column < numeric.count && numeric[column] && !values[column].isEmpty
        && values[column].allSatisfy { $0.isNumber || $0 == "." || $0 == "-" }
    }
    switch format {
    case .csv, .table, .xlsx:
      return [columns, values].map { $0.map(csvField).joined(separator: ",") }.joined(separator: "\n") + "\n"
    case .tsv:
      return [columns, values].map { $0.joined(separator: "\t") }.joined(separator: "\n") + "\n"
    case .json, .ndjson:
      let members = columns.indices.map { column in
        jsonString(columns[column]) + ":" + (isNumber(column) ? values[column] : jsonString(values[column]))
      }
      return "{" + members.joined(separator: ",") + "}\n"
    case .markdown:
      func line(_ cells: [String]) -> String {
        "| " + cells.map { $0.replacing("|", with: "\\|") }.joined(separator: " | ") + " |"
      }
      return [line(columns), line(columns.map { _ in "---" }), line(values)].joined(separator: "\n") + "\n"
    case .html:
      func row(_ cells: [String], _ tag: String) -> String {
        "<tr>" + cells.map { "<\(tag)>\(htmlEscaped($0))</\(tag)>" }.joined() + "</tr>"
      }
      return "<table>\n" + row(columns, "th") + "\n" + row(values, "td") + "\n</table>\n"
    }
  }

  private static func csvField(_ text: String) -> String {
    guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
    return "\"" + text.replacing("\"", with: "\"\"") + "\""
  }

  private static func jsonString(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\t": out += "\\t"
      case "\r": out += "\\r"
      default:
        if scalar.value < 0x20 {
          let hex = String(scalar.value, radix: 16)
          out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        } else {
          out.unicodeScalars.append(scalar)
        }
      }
    }
    return out + "\""
  }

  private static func htmlEscaped(_ text: String) -> String {
    text.replacing("&", with: "&amp;").replacing("<", with: "&lt;").replacing(">", with: "&gt;")
  }
}
