import SiftCore

extension ScreenModel {
  /// `e` in the list (Docs/Interactive.md, Marking and export): asks on the bottom line for the
  /// file to write the marked records into, or every record of the result when none is marked,
  /// offering `VIEW-DATE.csv` (the extension of `-o` when it names a file format).
  mutating func openExport() {
    guard let table = page.table, !table.result.rows.isEmpty, page.sourceError == nil else {
      notice = Notice(text: "No records to export", isError: true)
      return
    }
    let records = page.marks.exported
    let shown = setup.views[active]
    let name = ExportOrder.defaultName(
      source: shown.view?.name ?? shown.sourceName, today: setup.today, format: setup.copyFormat)
    prompt = .export(TextField(name), records: records, count: records?.count ?? table.rowCount, message: nil)
  }

  /// The keys of the bottom line's question: editing keys edit its text, Enter answers it, Esc
  /// cancels it.
  mutating func handlePrompt(_ key: Key, _ asked: BottomPrompt) -> [ScreenEffect] {
    switch asked {
    case .export(var field, let records, let count, _):
      switch key {
      case .escape:
        prompt = nil
      case .enter:
        let path = field.text.trimmingSpaces
        guard let format = ExportOrder.format(ofPath: path) else {
          let names = ExportOrder.extensions.map { "." + $0.name }.joined(separator: " ")
          prompt = .export(field, records: records, count: count, message: "end the name in \(names)")
          return []
        }
        prompt = nil
        return export(ExportOrder(path: path, format: format, records: records, replace: false), count: count)
      default:
        _ = field.edit(key)
        prompt = .export(field, records: records, count: count, message: nil)
      }
    case .replace(var order, let count):
      switch key {
      case .text("y"), .text("Y"):
        prompt = nil
        order.replace = true
        return export(order, count: count)
      case .text("n"), .text("N"), .escape:
        prompt = .export(TextField(order.path), records: order.records, count: count, message: nil)
      default:
        break
      }
    case .find(var field):
      switch key {
      case .escape:
        prompt = nil
      case .enter:
        prompt = nil
        findText = field.text
        focus = .list
        findAgain(forward: true, fromHighlighted: true)
      default:
        _ = field.edit(key)
        prompt = .find(field)
      }
    }
    return []
  }

  /// Asks the session to write `order`: the query of the records on screen, run again into the
  /// file off the key loop.
  private mutating func export(_ order: ExportOrder, count: Int) -> [ScreenEffect] {
    guard let table = page.table else { return [] }
    let id = takeID()
    exportRequest = (id, order, count)
    notice = Notice(text: "Exporting \(recordCount(count)) to \(order.path)\(ellipsis)")
    let request = RunRequest(
      id: id, view: active, purpose: .export(order), query: table.query, afterPause: false)
    return [.run(request)]
  }

  /// An export's outcome: the bar says what was written; an existing file asks before it is
  /// replaced.
  mutating func receiveExport(_ outcome: RunOutcome) {
    guard let request = exportRequest else { return }
    switch outcome {
    case .progress:
      return
    case .exported(_, let path, let records):
      notice = Notice(text: "Exported \(recordCount(records)) to \(path)")
    case .exportRefused(_, _, let exists, let message):
      if exists {
        notice = nil
        prompt = .replace(request.order, count: request.count)
      } else {
        notice = Notice(text: message, isError: true)
      }
    case .queryError(_, let message, _), .sourceError(_, let message):
      notice = Notice(text: message, isError: true)
    case .list, .values, .badge:
      break
    }
    exportRequest = nil
  }

  /// `874 records`, `1 record`.
  func recordCount(_ count: Int) -> String {
    "\(groupedDigits(count)) \(count == 1 ? "record" : "records")"
  }
}
