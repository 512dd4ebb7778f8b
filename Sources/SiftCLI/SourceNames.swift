import SiftCore

/// The subtitle of a title line or report: the names of the files read, `nil` for none
/// (standard input has no name).
func sourceNames(_ files: [String]) -> String? {
  let names = files.filter { $0 != "-" }.map { String($0.split(separator: "/").last ?? "") }
  return names.isEmpty ? nil : names.joined(separator: ", ")
}
