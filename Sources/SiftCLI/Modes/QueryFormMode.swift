import SiftCore

extension Frontend {
  /// `--explain` without a FILE or view: the query's canonical form; without a FILE the field
  /// types are unknown, so a word that is not a relative date is only a note
  /// (Docs/QueryLanguage.md, Explain).
  func queryForm(_ job: Job) -> ExitStatus {
    for word in job.query.unknownRelativeDateWords {
      console.note("note: '\(word)' is not a relative date (\(Plan.relativeDateWords));"
        + " against a date field it is an error: give a FILE to check the query against it\n")
    }
    return console.output(job.query.canonicalForm + "\n") ?? .matched
  }

  /// `--explain @VIEW`: the view's query composed with the given one, in canonical form
  /// (Docs/Views.md, Running a view).
  func composedForm(_ job: Job) -> ExitStatus {
    console.output(job.query.canonicalForm + "\n") ?? .matched
  }
}
