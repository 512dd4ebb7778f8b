/// The command line that runs sift with `arguments` again, for the footer of a report
/// (Docs/Reports.md): each word as a POSIX shell reads it back, in single quotes where it holds
/// anything but letters, digits and `@%+=:,./_-`.
func commandLineText(_ arguments: [String]) -> String {
  (["sift"] + arguments.map(shellWord)).joined(separator: " ")
}

private func shellWord(_ word: String) -> String {
  let plain = !word.isEmpty && word.unicodeScalars.allSatisfy { scalar in
    scalar.isASCII
      && (("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
        || ("0"..."9").contains(scalar) || "@%+=:,./_-".unicodeScalars.contains(scalar))
  }
  return plain ? word : "'" + word.replacing("'", with: "'\\''") + "'"
}
