import SiftCore
import Testing

@testable import SiftScreen

/// A small GRN list and a views file over it, and a stand-in for the session: it answers the
/// screen's run requests the way the session does, from these rows (equality filters, sort,
/// group and limit are enough for the screens tested).
enum Fixture {
  static let viewsJSON = """
    {
      "views": {
        "grn": {
          "title": "GRN List",
          "source": "grn.csv",
          "sort": "-date",
          "sortOptions": ["date", "grn_no"],
          "fastFilters": ["status", "customer", "urgent", "date", "qty", "status:pending"],
          "labels": { "grn_no": "GRN No" },
          "badge": "status:pending"
        },
        "dispatch": { "title": "Dispatch List", "source": "dispatch.csv", "badge": "status:planned" },
        "invoices": { "title": "Invoice List", "source": "invoices.json" },
        "orders": { "title": "Order List", "source": "orders.ndjson", "badge": "status:new" },
        "returns": { "title": "Returns", "source": "returns.csv" },
        "stock": { "title": "Stock Levels By Warehouse And Bin", "source": "stock.csv" }
      }
    }
    """

  static var views: [View] {
    try! ViewsFile.parse(Array(viewsJSON.utf8), path: "sift.json").views
  }

  static let fields: [(name: String, type: ColumnType)] = [
    ("grn_no", .text), ("date", .date), ("status", .text), ("customer", .text), ("qty", .number),
    ("urgent", .boolean), ("item", .text),
  ]

  static let rows: [[String]] = [
    ["GRN-0001", "2024-06-03", "received", "Acme", "12", "no", "Bolt M8x40"],
    ["GRN-0002", "2024-06-04", "pending", "Globex", "5", "yes", "Carton 400x300x300"],
    ["GRN-0003", "2024-06-05", "received", "Initech", "1,200", "no", "Cable tie 200mm"],
    ["GRN-0004", "2024-06-05", "cancelled", "Acme", "3", "no", "Bubble wrap 750mm x 100m"],
    ["GRN-0005", "2024-06-06", "received", "Umbrella", "48", "yes", "Blue roll 2-ply"],
    ["GRN-0006", "2024-06-07", "pending", "Acme", "7", "no", "Bin liners 90L"],
    ["GRN-0007", "2024-06-08", "received", "東京商事", "20", "no", "梱包テープ 48mm"],
    ["GRN-0008", "2024-06-08", "received", "Globex", "9", "no", "Party box 🎉 large"],
  ]

  /// Every view of the views file, or the FILEs alone.
  static func setup(
    views: Bool = true, active: Int = 0, query: String = "", files: [String] = [],
    ascii: Bool = false
  ) -> ScreenSetup {
    let screens =
      views
      ? Self.views.map { ScreenView(view: $0, sourceName: $0.source.map { String($0.split(separator: "/").last!) } ?? "") }
      : [ScreenView(view: nil, sourceName: "grn.csv")]
    return ScreenSetup(
      views: screens, active: active, query: query, files: files, ascii: ascii, today: "2024-06-08")
  }

  static let now: WallTime = WallTime(Calendar.days(year: 2024, month: 6, day: 8)) * Calendar.microsPerDay

  /// What the session answers to `request`.
  static func answer(_ request: RunRequest, setup: ScreenSetup) -> RunOutcome {
    let view = setup.views[request.view].view
    guard request.view == 0 || view == nil else {
      return .sourceError(id: request.id, message: "sift: \(setup.views[request.view].sourceName): No such file or directory")
    }
    // Spans are bytes; the screen counts characters of the typed query.
    let text = Array(request.query.utf8)
    func characters(_ span: Span) -> Range<Int> {
      func offset(_ byte: Int) -> Int { String(decoding: text[..<min(max(byte, 0), text.count)], as: UTF8.self).count }
      return offset(span.start)..<offset(span.end)
    }
    let given: Query
    do throws(QueryError) { given = try Parser.parse(request.query) } catch {
      return .queryError(id: request.id, message: error.message, span: characters(error.span))
    }
    let composed =
      view?.compose(given: given, text: request.query, reset: false)
      ?? ComposedQuery([(key: "", text: request.query, query: given)])
    let schema = Schema(names: fields.map(\.name))
    let plan: Plan
    do throws(PlanError) {
      plan = try Plan(query: composed.query, schema: schema, now: now) { field in
        fields.first { $0.name == field.name }?.type ?? .text
      }
    } catch {
      let span = error.span.flatMap(composed.locate).flatMap { $0.part.key == "" ? characters($0.span) : nil }
      return .queryError(id: request.id, message: error.message, span: span)
    }
    var matching = rows.filter { matches($0, plan.query.topLevelFilters, plan: plan) }
    switch request.purpose {
    case .badge:
      let badge = view?.badge?.parsed.topLevelFilters ?? []
      return .badge(id: request.id, count: rows.filter { matches($0, badge, plan: plan) }.count)
    case .values(let field):
      let column = fields.firstIndex { $0.name == field }!
      var counts: [String: Int] = [:]
      for row in matching { counts[row[column], default: 0] += 1 }
      let values = counts.map { ValueCount(value: $0.key, count: $0.value) }
        .sorted { ($0.count, $1.value) > ($1.count, $0.value) }
      return .values(id: request.id, field: field, values, complete: true)
    case .list, .export:
      break
    }
    let sort = plan.sort.map { (field: $0.field.name, descending: $0.descending) }
    let group = plan.group.first?.name
    let keys = (group.map { [(field: $0, descending: false)] } ?? []) + sort
    for key in keys.reversed() {
      let column = fields.firstIndex { $0.name == key.field }!
      matching.sort { a, b in
        let (x, y) = (a[column], b[column])
        return key.descending ? x > y : x < y
      }
    }
    let matched = matching.count
    if let limit = plan.query.limit { matching = Array(matching.prefix(limit)) }
    var groups: [(row: Int, heading: GroupHeading)] = []
    if let group {
      let column = fields.firstIndex { $0.name == group }!
      for (index, row) in matching.enumerated() where index == 0 || matching[index - 1][column] != row[column] {
        let count = matching[index...].prefix { $0[column] == row[column] }.count
        groups.append((index, GroupHeading.counted([row[column]], count)))
      }
    }
    var summary = RunSummary()
    summary.total = rows.count
    summary.matched = matched
    summary.shown = matching.count
    summary.groups = groups.count
    let labels = Labels(view?.labels ?? [:])
    let chipsMaker = FilterChips(plan: plan, labels: labels, ascii: setup.ascii)
    var chips: [Chip] = []
    let defaultSort = view?.sort?.keys.map { (field: $0.field.name, descending: $0.descending) } ?? []
    if let chip = chipsMaker.sortChip(defaultSort: defaultSort) { chips.append(chip) }
    if let chip = chipsMaker.groupChip() { chips.append(chip) }
    chips += chipsMaker.aggregateChips() + chipsMaker.filterChips()
    // A nested field fast filter has no chip over these flat rows.
    if let view { chips += (try? chipsMaker.inactiveChips(for: view.fastFilters)) ?? [] }
    let result = ListResult(
      columns: fields.map(\.name), numeric: fields.map { $0.type == .number }, rows: matching,
      groups: groups, summary: summary, chips: chips, limited: plan.query.limit != nil,
      fields: fields, sort: sort, group: group, inputError: nil)
    if case .export(let order) = request.purpose {
      // The file is not written: the export says how many records it would hold.
      return .exported(id: request.id, path: order.path, records: order.records?.count ?? matching.count)
    }
    return .list(id: request.id, result)
  }

  /// Whether `row` passes the equality filters among `filters` (other filters pass every row).
  static func matches(_ row: [String], _ filters: [Expr], plan: Plan) -> Bool {
    filters.allSatisfy { filter in
      var negated = false
      var expr = filter
      if case .not(let inner, _) = expr {
        negated = true
        expr = inner
      }
      guard case .term(.field(let name, let values, _)) = expr,
        let column = fields.firstIndex(where: { FieldResolver.normalize($0.name) == FieldResolver.normalize(name.name) })
      else { return true }
      let equals = values.compactMap { value -> String? in
        if case .equals(let literal) = value { return literal.text.lowercased() }
        return nil
      }
      guard equals.count == values.count, fields[column].type != .date else { return true }
      let hit: Bool
      if fields[column].type == .boolean {
        let on = Set(["on", "yes", "true", "1", "y"])
        hit = equals.contains { on.contains($0) == on.contains(row[column].lowercased()) }
      } else {
        hit = equals.contains(row[column].lowercased())
      }
      return hit != negated
    }
  }
}

/// The screen with the fixture's session behind it: keys go in, runs are answered on `answer()`.
struct Driver {
  var model: ScreenModel
  /// The effects of the keys since the last `answer()`.
  var effects: [ScreenEffect] = []
  var size: ScreenSize

  init(_ setup: ScreenSetup, size: ScreenSize = ScreenSize(columns: 100, rows: 16)) {
    model = ScreenModel(setup: setup)
    self.size = size
    model.resize(to: size)
    effects = model.start()
    answer()
  }

  /// Presses `keys` in order.
  mutating func press(_ keys: Key...) {
    for key in keys { effects += model.handle(key) }
  }

  /// Types `text`, one key per character.
  mutating func type(_ text: String) {
    for character in text { effects += model.handle(.text(String(character))) }
  }

  /// The runs asked for since the last answer.
  var runs: [RunRequest] {
    effects.compactMap { if case .run(let request) = $0 { return request } else { return nil } }
  }

  /// Answers every run asked for (the newest of each view and purpose, as the session cancels
  /// stale ones).
  mutating func answer() {
    while !runs.isEmpty {
      let pending = runs
      effects = []
      var newest: [String: RunRequest] = [:]
      for request in pending { newest["\(request.view) \(request.purpose)"] = request }
      for request in pending where newest["\(request.view) \(request.purpose)"]?.id == request.id {
        effects += model.receive(Fixture.answer(request, setup: model.setup))
      }
    }
  }

  func screen(columns: Int? = nil, rows: Int? = nil) -> Frame {
    model.render(ScreenSize(columns: columns ?? size.columns, rows: rows ?? size.rows))
  }

  /// The screen's text, trailing spaces removed.
  func text(columns: Int? = nil, rows: Int? = nil) -> String {
    screen(columns: columns, rows: rows).lines.map { $0.text.trimmingTrailingSpaces }.joined(separator: "\n")
  }
}

extension String {
  var trimmingTrailingSpaces: String {
    String(reversed().drop { $0 == " " }.reversed())
  }
}

extension Driver {
  /// The open filter sheet.
  var sheet: FilterSheet? {
    if case .sheet(let sheet) = model.overlay { return sheet }
    return nil
  }

  /// Presses ↓ (or ↑) until the sheet's cursor stands on a row `where` accepts.
  mutating func moveSheetCursor(to wanted: (FilterSheet.Row) -> Bool) {
    for key in [Key.down, .up] {
      for _ in 0..<60 {
        guard let sheet, !wanted(sheet.cursor) else { return }
        press(key)
      }
      for _ in 0..<60 { press(.up) }
    }
  }

  /// Moves to the value `value` of the section on `field` (a cell or a listed value).
  mutating func moveSheetCursor(toValue value: String, of field: String) {
    let section = sheet!.sections.firstIndex { $0.field == field }!
    moveSheetCursor { $0 == .value(section, value) }
  }

  func sheetSection(_ field: String) -> Int { sheet!.sections.firstIndex { $0.field == field }! }

  /// Answers the open sheet's run for the values of `field` with `values`, all of them, as the
  /// session would.
  mutating func answerSheetValues(_ values: [ValueCount], of field: String) throws {
    var sheet = try #require(self.sheet)
    let section = sheetSection(field)
    guard case .values(let list) = sheet.sections[section].kind, let request = list.request else {
      Issue.record("the sheet's \(field) section asks for no values")
      return
    }
    sheet.receive(id: request, field: field, values: values, complete: true)
    model.overlay = .sheet(sheet)
  }
}
