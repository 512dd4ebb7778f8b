import SiftCore

/// `sift --views -o xlsx` (Docs/Formats.md, Writing workbooks): the views digest as a workbook,
/// a sheet per view with a source, named after the view's title by Excel's rules. A view with a
/// badge has the records its badge counts (the view's query AND its badge), a view without one
/// the records of its query; both sorted by the view's default sort. A view that cannot be run
/// has a sheet saying why, the error is reported on standard error, the other views are still
/// written, and the exit status is 2.
struct ViewsWorkbook: ModeSteps {
  let job: Job
  let frontend: Frontend

  func write(_ file: ViewsFile) throws(Problem) -> ExitStatus {
    let views = file.views.filter { $0.source != nil }
    let buffer = OutputBuffer(sink: frontend.standardOutput)
    let book = XLSXWorkbook(output: buffer, sheetNames: views.map(\.displayTitle))
    let overview = ViewsOverview(job: job, frontend: frontend)
    var datasets: [String: Result<Dataset, Problem>] = [:]
    var broken = false
    do throws(OutputError) {
      for (index, view) in views.enumerated() {
        guard let source = view.source else { continue }
        let composed =
          view.badgeQuery(sorted: true) ?? view.compose(given: Query(), text: "", reset: false)
        var sheet: XLSXWriter?
        do throws(Problem) {
          let opened = datasets[source] ?? overview.openDataset(source)
          datasets[source] = opened
          let dataset = try opened.get()
          let run = BadgeRun(
            frontend: frontend, query: composed, now: now,
            viewContext: ViewContext(file: file.path, view: view, composed: composed, sourceName: nil))
          let plan = try run.plan(composed.query, on: dataset)
          let writer = book.sheet(index, columns: plan.outputReadings)
          sheet = writer
          _ = try run.run(plan, over: dataset, writer: writer)
        } catch {
          if case .output(let failure, _) = error { throw failure }
          _ = frontend.report(error)
          broken = true
          let first = error.text.split(separator: "\n").first ?? ""
          let reason = String(first.hasPrefix("sift: ") ? first.dropFirst(6) : first)
          if let sheet { try sheet.end() } else { try book.writeNote(sheet: index, reason) }
        }
      }
      try book.finish()
    } catch {
      throw .output(error, ifClosed: broken ? .error : .matched)
    }
    return broken ? .error : .matched
  }
}
