/// A question on the screen's bottom line (Docs/Interactive.md, Marking and export, and Find):
/// it has the keys until Enter or Esc.
enum BottomPrompt: Hashable, Sendable {
  /// The file to export into, `count` records (the marked ones by their place in the result,
  /// or all of them); `message` says why the name typed was refused.
  case export(TextField, records: [Int]?, count: Int, message: String?)
  /// The file exists: `y` replaces it, `n` or Esc goes back to the name.
  case replace(ExportOrder, count: Int)
  /// The text to find in the list.
  case find(TextField)
}

/// A line the screen shows on its bottom line until the next key: what an action did, or why
/// it could not.
struct Notice: Hashable, Sendable {
  var text: String
  var isError = false
}
