import SiftCore

extension Frontend {
  /// `--help`, `--version`, `--man`, `--completion SHELL`: the text as it is.
  func text(_ text: String) -> ExitStatus {
    console.output(text) ?? .matched
  }
}
