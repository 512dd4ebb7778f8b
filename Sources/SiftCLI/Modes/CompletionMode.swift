import SiftCore

/// `--complete-views` and `--complete-fields`: the words the completion scripts offer
/// (Docs/CommandLine.md, Completions), one a line. Errors go to standard error, which the
/// scripts silence.
struct CompletionWords {
  let options: Options
  let frontend: Frontend
  var console: Console { frontend.console }

  /// The names of the views, without `@`.
  func views() -> ExitStatus {
    let file: ViewsFile
    do throws(Problem) { file = try frontend.viewsFile(options) } catch {
      return frontend.report(error)
    }
    return console.output(file.views.map { $0.name + "\n" }.joined()) ?? .matched
  }

  /// The field names of the FILEs (or `@VIEW`'s file) as a query writes them: `status`,
  /// `"GRN No"`. Only the sample is read.
  func fields() -> ExitStatus {
    guard !options.files.isEmpty else { return .error }
    let schema: Schema
    do throws(Problem) {
      schema = try frontend.open(options)
        .dataset(parallel: ParallelOptions(workers: 1)).schema
    } catch {
      return frontend.report(error)
    }
    let names = schema.allNames.map { FieldName($0, span: Span(0, 0)).canonicalText }
    return console.output(names.map { $0 + "\n" }.joined()) ?? .matched
  }
}
