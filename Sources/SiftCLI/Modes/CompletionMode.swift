import SiftCore

/// `--complete-views` and `--complete-fields`: the words the completion scripts offer
/// (Docs/CommandLine.md, Completions), one a line. Errors go to standard error, which the
/// scripts silence.
extension Frontend {
  /// The names of the views, without `@`.
  func completeViews(_ job: Job) -> ExitStatus {
    let file: ViewsFile
    do throws(Problem) { file = try viewsFile(job.options) } catch {
      return report(error)
    }
    return console.output(file.views.map { $0.name + "\n" }.joined()) ?? .matched
  }

  /// The field names of the FILEs (or `@VIEW`'s file) as a query writes them: `status`,
  /// `"GRN No"`. Only the sample is read.
  func completeFields(_ job: Job) -> ExitStatus {
    guard !job.options.files.isEmpty else { return .error }
    let schema: Schema
    do throws(Problem) {
      schema = try open(job.options).dataset(parallel: ParallelOptions(workers: 1)).schema
    } catch {
      return report(error)
    }
    let names = schema.allNames.map { FieldName($0, span: Span(0, 0)).canonicalText }
    return console.output(names.map { $0 + "\n" }.joined()) ?? .matched
  }
}
