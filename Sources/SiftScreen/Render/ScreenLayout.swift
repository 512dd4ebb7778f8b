/// Which rows of the screen hold what (Docs/Interactive.md, The screen), top to bottom: the
/// navigation bar, the query line, the caret line of a query error, the feedback bar, the
/// table's header and rule, the list, the position line, and the tab bar with two or more views.
struct ScreenLayout {
  let hasErrorLine: Bool
  let hasTabs: Bool

  init(_ model: ScreenModel) {
    hasErrorLine = model.page.error != nil
    hasTabs = model.setup.views.count >= 2
  }

  /// Rows that are not list rows.
  var fixedRows: Int { 6 + (hasErrorLine ? 1 : 0) + (hasTabs ? 1 : 0) }
}
