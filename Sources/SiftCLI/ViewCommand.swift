import SiftCore

/// `sift @VIEW [QUERY] [FILE...]` (Docs/Views.md, Running a view): the view's preset query AND the given query over
/// the view's source (or the FILEs), sorted by the view's default unless the query sorts, with
/// the view's fast filters in the bar and its title above a table.
struct ViewCommand {
  let options: Options
  /// The given QUERY, parsed.
  let query: Query
  let context: ProcessContext
  /// "Now" for relative dates, resolved once with the job.
  let now: WallTime
  var console: Console { Console(context: context) }

  func run() -> ExitStatus {
    let file: ViewsFile
    let view: View
    do throws(Problem) {
      file = try ViewsFileLookup(options: options, context: context).load()
      view = try ViewsFileLookup.view(named: options.view ?? "", in: file)
    } catch {
      return console.report(error)
    }
    let composed = view.compose(
      given: query, text: options.query, reset: options.reset, counting: options.count)
    if options.explain {
      return console.output(composed.query.canonicalForm + "\n") ?? .matched
    }
    var run = options
    run.files = options.files(of: view)
    let viewContext = ViewContext(
      file: file.path, view: view, composed: composed, sourceName: sourceNames(run.files))
    return QueryCommand(
      options: run, query: composed.query, view: viewContext, context: context, now: now
    ).run()
  }
}

/// The subtitle of a title line or report: the names of the files read, `nil` for none
/// (standard input has no name).
func sourceNames(_ files: [String]) -> String? {
  let names = files.filter { $0 != "-" }.map { String($0.split(separator: "/").last ?? "") }
  return names.isEmpty ? nil : names.joined(separator: ", ")
}
