import SiftCore

/// One view's state on the screen (Docs/Interactive.md, Tabs): each view keeps its own query
/// text, result, highlighted row and focused chip.
struct Page: Sendable {
  var query: TextField
  /// The newest list request and the query it was sent with; older answers are stale.
  var listRequest: (id: Int, query: String)?
  /// The last good result.
  var table: ListTable?
  /// The newest query error: it shows under the query line and keeps `table`.
  var error: (message: String, span: Range<Int>?)?
  /// The view's source cannot be read: the message shows in place of the list.
  var sourceError: String?
  /// How far the running list request has come.
  var progress: RunCount?
  var badgeRequest: Int?
  var badge: ViewTabs.Tab.Badge = .none
  /// The highlighted row (an index into the rows kept), and the first line of the list on screen.
  var row = 0
  /// The place in the result the highlight moves to once the window asked for there arrives
  /// (Docs/Interactive.md, List).
  var pendingPlace: Int?
  var top = 0
  /// The highlight rests on the heading of the highlighted row's group (the row is its first).
  var onHeading = false
  /// The query a drill-down from a group heading replaced: Backspace or Esc in the list brings
  /// it back (Docs/Interactive.md, Drilling down).
  var drilledFrom: String?
  /// The first column scrolled to beside the frozen first column (Docs/Interactive.md, List).
  var firstColumn = 1
  /// The marked records (Docs/Interactive.md, Marking and export); a new query clears them.
  var marks = RecordMarks()
  /// The focused chip: an index into the bar's chips.
  var chip = 0

  init(query: String) { self.query = TextField(query) }

  /// The highlighted row's place in the result (from 0), past the rows before the window kept.
  var place: Int { (table?.result.firstRow ?? 0) + row }

  /// Whether a list run is under way or done.
  var hasList: Bool { listRequest != nil }
}
