#if canImport(Glibc)
  import Glibc
#endif

/// `path` as an absolute path: from `here` where it is relative (`getcwd` where `here` is only
/// `.`), a leading `./` dropped; symbolic links are left as they are (a `latest.csv` that points
/// at each day's export stays one input: Docs/Reports.md, The state).
func absolutePath(_ path: String, from here: String) -> String {
  if path.hasPrefix("/") { return path }
  var directory = here
  if directory == "." || directory.isEmpty {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    guard getcwd(&buffer, buffer.count) != nil else { return path }
    directory = String(cString: buffer)
  }
  let relative = path.hasPrefix("./") ? String(path.dropFirst(2)) : path
  return (directory.hasSuffix("/") ? directory : directory + "/") + relative
}
