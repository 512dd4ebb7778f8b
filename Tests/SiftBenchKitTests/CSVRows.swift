/// Splits RFC 4180 text into rows of fields (quotes removed, doubled quotes undone), so the
/// tests can read what the generator wrote the way a CSV reader would.
func csvRows(_ text: String, lineEnd: String = "\n") -> [[String]] {
  var rows: [[String]] = []
  var row: [String] = []
  var field = ""
  var quoted = false
  var rest = Substring(text)
  while let c = rest.first {
    if quoted {
      if c == "\"" {
        if rest.dropFirst().first == "\"" {
          field.append("\"")
          rest = rest.dropFirst(2)
          continue
        }
        quoted = false
      } else {
        field.append(c)
      }
      rest = rest.dropFirst()
    } else if c == "\"" {
      quoted = true
      rest = rest.dropFirst()
    } else if c == "," {
      row.append(field)
      field = ""
      rest = rest.dropFirst()
    } else if rest.hasPrefix(lineEnd) {
      row.append(field)
      rows.append(row)
      (row, field) = ([], "")
      rest = rest.dropFirst(lineEnd.count)
    } else {
      field.append(c)
      rest = rest.dropFirst()
    }
  }
  if !row.isEmpty || !field.isEmpty { rows.append(row + [field]) }
  return rows
}
