import SiftCore

/// The filter sheet (Docs/Interactive.md, Filter sheet): sort, group and one section per filter
/// field, over a query text that it rewrites when applied.
struct FilterSheet: Sendable {
  /// Where the sheet opens.
  enum Place: Hashable, Sendable {
    case sort
    case field(String)
  }

  /// A sort choice: a field and its direction, or `nil` for the input order.
  typealias SortChoice = (field: String, descending: Bool)?

  /// The relative-date presets of a date section (Docs/QueryLanguage.md, Relative dates).
  static let datePresets = [
    (value: "today", label: "Today"), (value: "this-week", label: "This week"),
    (value: "this-month", label: "This month"), (value: "last-7d", label: "Last 7 days"),
  ]

  /// Up to this many values show as cells; more make a searchable list.
  static let cellLimit = 8

  /// A section of fields' values.
  struct Values: Sendable {
    var values: [ValueCount]?
    var complete = true
    var selected: [String]
    var search = TextField()
    var request: Int?
    /// Why the values could not be counted.
    var problem: String?

    /// Whether the values show as a searchable list rather than cells.
    var searchable: Bool { (values?.count ?? 0) > FilterSheet.cellLimit || !complete }

    /// Whether nearly every record has its own value (an ID: more than 1,000 values, or more
    /// than 8 with nine in ten of them held by one record each): such a field is offered as a
    /// search line only, not as a list, and not as a group (Docs/Interactive.md, Filter sheet).
    var nearlyDistinct: Bool {
      guard let values, values.count > FilterSheet.cellLimit else { return false }
      let single = values.count { $0.count == 1 }
      return !complete || single * 10 >= values.count * 9
    }

    /// The values shown under the search: those matching it, the selected ones left out (they
    /// stand in the `Selected` group); all values when there are few; none of a nearly
    /// distinct field's until a search is typed.
    var listed: [ValueCount] {
      guard let values else { return [] }
      guard searchable else { return values }
      if nearlyDistinct && search.text.isEmpty { return [] }
      let typed = search.text.lowercased()
      return values.filter {
        !selected.contains($0.value) && (typed.isEmpty || $0.value.lowercased().contains(typed))
      }
    }

    func count(of value: String) -> Int? { values?.first { $0.value == value }?.count }

    mutating func toggle(_ value: String) {
      if let at = selected.firstIndex(of: value) {
        selected.remove(at: at)
      } else {
        selected.append(value)
      }
    }
  }

  /// What a section filters and how.
  enum Kind: Sendable {
    case sort(options: [SortChoice], chosen: Int)
    case group(options: [String?], chosen: Int)
    case values(Values)
    /// A yes/no field: on filters `field:on`; off leaves the field unfiltered.
    case toggle(on: Bool)
    /// A date field: a preset (index into `datePresets`) or a from/to range.
    case dates(preset: Int?, from: TextField, to: TextField)
    /// A number field: a min/max range.
    case numbers(min: TextField, max: TextField)
  }

  struct Section: Sendable {
    /// The field filtered (empty for sort and group).
    var field: String
    var title: String
    var kind: Kind
    /// Changed since the sheet opened: only touched sections rewrite the query.
    var touched = false
  }

  /// One line of the sheet the cursor can stand on, or a heading.
  enum Row: Hashable, Sendable {
    case heading(Int)
    case option(Int, Int)
    case search(Int)
    case selectedHeading(Int)
    case value(Int, String)
    case note(Int)
    case toggle(Int)
    case preset(Int, Int)
    case from(Int)
    case to(Int)

    var section: Int {
      switch self {
      case .heading(let s), .option(let s, _), .search(let s), .selectedHeading(let s),
        .value(let s, _), .note(let s), .toggle(let s), .preset(let s, _), .from(let s), .to(let s):
        return s
      }
    }

    var selectable: Bool {
      switch self {
      case .heading, .selectedHeading, .note: false
      default: true
      }
    }

    /// Whether the row is a text input.
    var isInput: Bool {
      switch self {
      case .search, .from, .to: true
      default: false
      }
    }
  }

  /// The query text the sheet rewrites.
  var base: QueryText
  var sections: [Section]
  var cursor: Row
  /// The first line shown (the renderer keeps the cursor in view).
  var top = 0
  let labels: Labels
  /// The sort choice that means the view's default (`sort:` is then left out of the query).
  let defaultSort: Int

  /// The sheet over `base` for the fields of `result`: sort options (`sortOptions`, else every
  /// field), the group choice, and a section per field of `filterFields`.
  init(
    base: QueryText, result: ListResult, view: View?, filterFields: [String], place: Place?
  ) {
    self.base = base
    let names = result.fields.map(\.name)
    func resolved(_ name: String) -> String {
      names.first { $0 == name } ?? names.first { FieldResolver.normalize($0) == FieldResolver.normalize(name) }
        ?? name
    }
    var labelTexts: [String: String] = [:]
    for (field, label) in view?.labels ?? [:] { labelTexts[resolved(field)] = label }
    labels = Labels(labelTexts)
    let fieldTypes = Dictionary(result.fields.map { ($0.name, $0.type) }, uniquingKeysWith: { a, _ in a })

    // Sort: the view's options (else every field), each both ways; the input order when the
    // view has no default sort.
    let sortFields = (view?.sortOptions.isEmpty ?? true) ? names : view!.sortOptions.map(resolved)
    var options: [SortChoice] = []
    let viewDefault = view?.sort?.keys.first.map { (field: resolved($0.field.name), descending: $0.descending) }
    if viewDefault == nil { options.append(nil) }
    for field in sortFields {
      options.append((field, true))
      options.append((field, false))
    }
    if let viewDefault, !options.contains(where: { Self.same($0, viewDefault) }) {
      options.insert(viewDefault, at: 0)
    }
    func index(of choice: SortChoice) -> Int {
      options.firstIndex { Self.same($0, choice) } ?? 0
    }
    defaultSort = index(of: viewDefault)
    let inEffect: SortChoice = result.sort.first.map { (resolved($0.field), $0.descending) } ?? viewDefault
    var sections = [
      Section(field: "", title: "Sort", kind: .sort(options: options, chosen: index(of: inEffect)))
    ]
    let groups: [String?] = [nil] + names
    let group = result.group.map(resolved)
    sections.append(
      Section(
        field: "", title: "Group",
        kind: .group(options: groups, chosen: groups.firstIndex { $0 == group } ?? 0)))
    // A nested field (`customer.name` in JSON records) has its section when its first name is
    // a field of the input; its values are text.
    func isField(_ field: String) -> Bool {
      names.contains(field)
        || field.split(separator: ".", maxSplits: 1).count == 2
          && names.contains(resolved(String(field.split(separator: ".", maxSplits: 1)[0])))
    }
    for field in filterFields.map(resolved) where isField(field) {
      let kind = Self.kind(of: field, type: fieldTypes[field] ?? .text, in: base)
      sections.append(Section(field: field, title: labels.label(field), kind: kind))
    }
    self.sections = sections
    cursor = .option(0, index(of: inEffect))
    switch place {
    case .sort?, nil: break
    case .field(let field)?:
      if let at = sections.firstIndex(where: { $0.field == field }) {
        cursor = rows.first { $0.section == at && $0.selectable } ?? .note(at)
      }
    }
  }

  private static func same(_ a: SortChoice, _ b: SortChoice) -> Bool {
    a?.field == b?.field && a?.descending == b?.descending
  }

  /// A field's section as the query sets it now.
  private static func kind(of field: String, type: ColumnType, in base: QueryText) -> Kind {
    let terms = base.filters(on: field).filter { !$0.negated }.compactMap { filter -> [Value]? in
      if case .field(_, let values, _) = filter.term { return values }
      return nil
    }
    let values = terms.flatMap { $0 }
    func equals() -> [String] {
      values.compactMap { if case .equals(let l) = $0 { return l.text } else { return nil } }
    }
    func bounds() -> (String, String) {
      var low = "", high = ""
      for value in values {
        switch value {
        case .range(let a, let b, _):
          low = a?.text ?? low
          high = b?.text ?? high
        case .compare(.greaterOrEqual, let l), .compare(.greater, let l): low = l.text
        case .compare(.lessOrEqual, let l), .compare(.less, let l): high = l.text
        default: break
        }
      }
      return (low, high)
    }
    switch type {
    case .boolean:
      let on = ["on", "yes", "true", "1", "y"]
      return .toggle(on: equals().contains { on.contains($0.lowercased()) })
    case .date, .dateTime:
      let preset = equals().compactMap { word in
        datePresets.firstIndex { $0.value == word.lowercased() }
      }.first
      let (from, to) = bounds()
      return .dates(preset: preset, from: TextField(from), to: TextField(to))
    case .number:
      let (low, high) = bounds()
      return .numbers(min: TextField(low), max: TextField(high))
    case .text, .empty:
      return .values(Values(selected: equals()))
    }
  }

  // MARK: Rows

  /// Every line of the sheet's body, in order.
  var rows: [Row] {
    var rows: [Row] = []
    for (index, section) in sections.enumerated() {
      rows.append(.heading(index))
      switch section.kind {
      case .sort(let options, _):
        rows += options.indices.map { .option(index, $0) }
      case .group(let options, _):
        rows += options.indices.map { .option(index, $0) }
      case .values(let values):
        guard values.values != nil else {
          rows.append(.note(index))
          continue
        }
        if values.searchable {
          rows.append(.search(index))
          if !values.selected.isEmpty {
            rows.append(.selectedHeading(index))
            rows += values.selected.map { .value(index, $0) }
          }
        }
        rows += values.listed.map { .value(index, $0.value) }
      case .toggle:
        rows.append(.toggle(index))
      case .dates:
        rows += Self.datePresets.indices.map { .preset(index, $0) }
        rows += [.from(index), .to(index)]
      case .numbers:
        rows += [.from(index), .to(index)]
      }
    }
    return rows
  }

  /// The sort field chosen now (the Group section disables it).
  var chosenSortField: String? {
    guard case .sort(let options, let chosen) = sections[0].kind else { return nil }
    return options[chosen]?.field
  }

  /// Whether the group option `option` can be taken: not the sort field (seed rule).
  func groupOptionEnabled(_ option: String?) -> Bool {
    option == nil || option != chosenSortField
  }

  // MARK: Keys

  /// What a key did to the sheet.
  enum Outcome: Sendable {
    case stay
    case cancel
    case apply(QueryText)
  }

  mutating func handle(_ key: Key, height: Int) -> Outcome {
    defer { keepCursorInView(height: height) }
    switch key {
    case .escape: return .cancel
    case .enter: return .apply(applied)
    case .up: moveCursor(-1)
    case .down: moveCursor(1)
    case .pageUp: moveCursor(-max(1, height - 1))
    case .pageDown: moveCursor(max(1, height - 1))
    case .tab: moveSection(1)
    case .backTab: moveSection(-1)
    case .text(" ") where !cursor.isInput: toggle(cursor)
    case .text("r") where !cursor.isInput && !inSearchableSection: reset()
    case .text where !cursor.isInput && inSearchableSection:
      cursor = .search(cursor.section)
      edit(key)
    default:
      if cursor.isInput { edit(key) }
    }
    return .stay
  }

  private var inSearchableSection: Bool {
    if case .values(let values) = sections[cursor.section].kind { return values.searchable }
    return false
  }

  /// Moves the cursor `step` selectable rows down (up when negative), stopping at the ends.
  private mutating func moveCursor(_ step: Int) {
    let all = rows
    guard var index = all.firstIndex(of: cursor) else { return }
    var remaining = abs(step)
    while remaining > 0 {
      index += step > 0 ? 1 : -1
      guard all.indices.contains(index) else { break }
      if all[index].selectable {
        cursor = all[index]
        remaining -= 1
      }
    }
  }

  private mutating func moveSection(_ step: Int) {
    let target = (cursor.section + step + sections.count) % sections.count
    if let row = rows.first(where: { $0.section == target && $0.selectable }) { cursor = row }
  }

  mutating func keepCursorInView(height: Int) {
    // A row that went away (a value searched out), or a section's note while its values were
    // counted: the section's first row the cursor can stand on.
    let all = rows
    if !all.contains(cursor) || !cursor.selectable {
      let section = all.first { $0.section == cursor.section && $0.selectable }
      cursor = section ?? (all.contains(cursor) ? cursor : all.first { $0.selectable } ?? cursor)
    }
    guard let line = all.firstIndex(of: cursor) else { return }
    var first = line
    if line > 0, case .heading = all[line - 1] { first = line - 1 }
    // On a search line, the values it finds (up to a few) come into view with it.
    var last = line
    if case .search = cursor {
      while last + 1 < all.count, last - line < 5, all[last + 1].section == cursor.section { last += 1 }
    }
    if first < top { top = first }
    if last >= top + height { top = min(first, last - height + 1) }
    if line >= top + height { top = line - height + 1 }
  }

  /// Space on a row: choose an option, select a value, flip a switch, pick a preset.
  private mutating func toggle(_ row: Row) {
    let index = row.section
    var section = sections[index]
    switch (row, section.kind) {
    case (.option(_, let option), .sort(let options, _)):
      section.kind = .sort(options: options, chosen: option)
      if let field = options[option]?.field, case .group(let groups, let chosen) = sections[1].kind,
        groups[chosen] == field
      {
        sections[1].kind = .group(options: groups, chosen: 0)
        sections[1].touched = true
      }
    case (.option(_, let option), .group(let options, _)):
      guard groupOptionEnabled(options[option]) else { return }
      section.kind = .group(options: options, chosen: option)
    case (.value(_, let value), .values(var values)):
      values.toggle(value)
      section.kind = .values(values)
    case (.toggle, .toggle(let on)):
      section.kind = .toggle(on: !on)
    case (.preset(_, let preset), .dates(let chosen, _, _)):
      section.kind = .dates(preset: chosen == preset ? nil : preset, from: TextField(), to: TextField())
    default:
      return
    }
    section.touched = true
    sections[index] = section
  }

  /// Edits the input at the cursor.
  private mutating func edit(_ key: Key) {
    let index = cursor.section
    var section = sections[index]
    var changed = false
    switch (cursor, section.kind) {
    case (.search, .values(var values)):
      changed = values.search.edit(key).changed
      section.kind = .values(values)
    case (.from, .dates(_, var from, let to)):
      changed = from.edit(key).changed
      section.kind = .dates(preset: nil, from: from, to: to)
    case (.to, .dates(_, let from, var to)):
      changed = to.edit(key).changed
      section.kind = .dates(preset: nil, from: from, to: to)
    case (.from, .numbers(var low, let high)):
      changed = low.edit(key).changed
      section.kind = .numbers(min: low, max: high)
    case (.to, .numbers(let low, var high)):
      changed = high.edit(key).changed
      section.kind = .numbers(min: low, max: high)
    default:
      return
    }
    if changed, cursor != .search(index) { section.touched = true }
    sections[index] = section
  }

  /// Reset (Docs/Views.md, Reset): the view's default sort, no group, no filters in any section.
  mutating func reset() {
    for index in sections.indices {
      switch sections[index].kind {
      case .sort(let options, _): sections[index].kind = .sort(options: options, chosen: defaultSort)
      case .group(let options, _): sections[index].kind = .group(options: options, chosen: 0)
      case .values(var values):
        values.selected = []
        values.search = TextField()
        sections[index].kind = .values(values)
      case .toggle: sections[index].kind = .toggle(on: false)
      case .dates: sections[index].kind = .dates(preset: nil, from: TextField(), to: TextField())
      case .numbers: sections[index].kind = .numbers(min: TextField(), max: TextField())
      }
      sections[index].touched = true
    }
  }

  // MARK: Values

  /// The values runs the sheet needs: one per values section, each under the sheet's query as
  /// it stands (the sections' choices written in) without that field's own filters, numbered
  /// from `firstID` on; `afterPause` while choices are being made, so counts follow them.
  mutating func valueRequests(view: Int, firstID: Int, afterPause: Bool = false) -> [RunRequest] {
    let query = applied
    var requests: [RunRequest] = []
    for index in sections.indices {
      guard case .values(var values) = sections[index].kind else { continue }
      let id = firstID + requests.count
      values.request = id
      sections[index].kind = .values(values)
      let field = sections[index].field
      requests.append(
        RunRequest(
          id: id, view: view, purpose: .values(field: field),
          query: query.removingFilters(on: field).text, afterPause: afterPause))
    }
    return requests
  }

  /// Takes the values of a request.
  mutating func receive(id: Int, field: String, values counted: [ValueCount], complete: Bool) {
    for index in sections.indices {
      guard case .values(var values) = sections[index].kind, values.request == id else { continue }
      values.values = counted
      values.complete = complete
      // The query matches values ignoring case: `customer:acme` selects the value `Acme`.
      var selected: [String] = []
      for value in values.selected {
        let spelled = counted.first { $0.value.lowercased() == value.lowercased() }?.value ?? value
        if !selected.contains(spelled) { selected.append(spelled) }
      }
      values.selected = selected
      sections[index].kind = .values(values)
      if values.nearlyDistinct { dropGroupOption(sections[index].field) }
    }
  }

  /// Takes a nearly distinct field out of the Group choices, unless it is the one chosen.
  private mutating func dropGroupOption(_ field: String) {
    guard case .group(var options, var chosen) = sections[1].kind,
      let at = options.firstIndex(of: field), at != chosen
    else { return }
    options.remove(at: at)
    if chosen > at { chosen -= 1 }
    sections[1].kind = .group(options: options, chosen: chosen)
    if case .option(1, let option) = cursor, option >= at, option > 0 { cursor = .option(1, option - 1) }
  }

  /// A values request failed: the section says why.
  mutating func fail(id: Int, message: String) {
    for index in sections.indices {
      guard case .values(var values) = sections[index].kind, values.request == id else { continue }
      values.problem = message
      sections[index].kind = .values(values)
    }
  }

  // MARK: Apply

  /// The query text with the touched sections written in: a field's top-level filters are
  /// replaced by the section's, `sort:` and `group:` replaced or removed. The old `group:` goes
  /// before the new `sort:` is written and the new `group:` after, so the text never sorts and
  /// groups by one field on the way.
  var applied: QueryText {
    var text = base
    if sections[1].touched { text = text.removingDirective(.group) }
    if sections[0].touched, case .sort(let options, let chosen) = sections[0].kind {
      if chosen != defaultSort, let choice = options[chosen] {
        text = text.setting(.sort, to: "sort:" + (choice.descending ? "-" : "") + QueryText.fieldText(choice.field))
      } else {
        text = text.removingDirective(.sort)
      }
    }
    if sections[1].touched, case .group(let options, let chosen) = sections[1].kind,
      let group = options[chosen]
    {
      text = text.appending("group:" + QueryText.fieldText(group))
    }
    for section in sections where section.touched {
      let field = QueryText.fieldText(section.field)
      switch section.kind {
      case .sort, .group:
        break
      case .values(let values):
        text = text.removingFilters(on: section.field)
        if !values.selected.isEmpty {
          text = text.appending(field + ":" + values.selected.map(QueryText.valueText).joined(separator: ","))
        }
      case .toggle(let on):
        text = text.removingFilters(on: section.field)
        if on { text = text.appending(field + ":on") }
      case .dates(let preset, let from, let to):
        text = text.removingFilters(on: section.field)
        if let preset {
          text = text.appending(field + ":" + Self.datePresets[preset].value)
        } else if let range = Self.range(from.text, to.text) {
          text = text.appending(field + ":" + range)
        }
      case .numbers(let low, let high):
        text = text.removingFilters(on: section.field)
        if let range = Self.range(low.text, high.text) { text = text.appending(field + ":" + range) }
      }
    }
    return text
  }

  /// `a..b`, `>=a` or `<=b` for the bounds given; `nil` with neither.
  private static func range(_ low: String, _ high: String) -> String? {
    let low = low.trimmingSpaces
    let high = high.trimmingSpaces
    switch (low.isEmpty, high.isEmpty) {
    case (false, false): return QueryText.valueText(low) + ".." + QueryText.valueText(high)
    case (false, true): return ">=" + QueryText.valueText(low)
    case (true, false): return "<=" + QueryText.valueText(high)
    case (true, true): return nil
    }
  }
}
