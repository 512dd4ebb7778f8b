import SiftCore

extension ScreenModel {
  /// Tab on the query line (Docs/Interactive.md, Completion): completes the word before the
  /// cursor; `nil` when there is none or nothing goes beyond it, and Tab moves the focus. A
  /// value is completed once the field's values are counted under the query without the
  /// word's term.
  mutating func complete() -> [ScreenEffect]? {
    guard let completion = QueryCompletion(page.query.characters, cursor: page.query.cursor) else {
      return nil
    }
    let result = page.table?.result
    let fields = result?.fields.map(\.name) ?? []
    switch completion.kind {
    case .name, .field:
      let before = page.query
      let names = QueryCompletion.names(fields: fields, kind: completion.kind)
      let outcome = completion.complete(&page.query, from: names)
      guard outcome != .none else { return nil }
      return took(outcome, before: before)
    case .value(let field):
      let folded = FieldResolver.normalize(field)
      guard let result,
        let column = result.columns.firstIndex(where: { FieldResolver.normalize($0) == folded }),
        completion.word.isEmpty || !completion.isWhole(among: result.rows.map { $0[column] })
      else { return nil }
      // The query without the term being typed, so its own partial value does not narrow the
      // values offered.
      var term = completion.start
      while term > 0, !page.query.characters[term - 1].isWhitespace { term -= 1 }
      let others = String(page.query.characters[..<term] + page.query.characters[page.query.cursor...])
      let id = takeID()
      completionRequest = (id, page.query, completion)
      let purpose = RunRequest.Purpose.values(field: result.columns[column])
      return [.run(RunRequest(id: id, view: active, purpose: purpose, query: others, afterPause: false))]
    }
  }

  /// The counted values for a value's completion, taken when the query line has not changed
  /// since Tab; an error in the query leaves the word as it is.
  mutating func receiveCompletion(_ outcome: RunOutcome) -> [ScreenEffect] {
    guard let request = completionRequest else { return [] }
    if case .progress = outcome { return [] }
    completionRequest = nil
    guard case .values(_, _, let values, _) = outcome, page.query == request.line else { return [] }
    let before = page.query
    let taken = request.completion.complete(&page.query, from: values.map { QueryText.valueText($0.value) })
    if taken == .none {
      notice = Notice(text: "No value of this field starts with “\(request.completion.word)”")
    }
    return took(taken, before: before)
  }

  /// After a completion: a change runs the query after a pause, as typing does; candidates not
  /// taken are listed on the bottom line.
  private mutating func took(_ outcome: QueryCompletion.Outcome, before: TextField) -> [ScreenEffect] {
    if case .listed(let candidates) = outcome { notice = Notice(text: candidates.joined(separator: "  ")) }
    guard page.query != before else { return [] }
    page.drilledFrom = nil
    return [listRun(afterPause: true)]
  }
}
