import Testing

@testable import SiftCore

/// The feedback bar of Docs/FeedbackBar.md with a view's fast filters: layout, colour, overflow, summaries.
@Suite struct FeedbackBarTests {
  static let sort = Chip(
    kind: .sort, field: "date", label: "Sort", text: "Date ↓",
    sentence: "Sorted by date, descending",
    active: true)
  static let status = Chip(
    kind: .filter, field: "status", label: "Status", text: "received",
    sentence: "status is received", active: true)
  static let customer = Chip(
    kind: .filter, field: "customer", label: "Customer", text: "", sentence: "customer",
    active: false)
  static let items = Chip(
    kind: .filter, field: "item", label: "Items", text: "", sentence: "items", active: false)

  func bar(_ chips: [Chip], matched: Int = 874, total: Int = 1500) -> FeedbackBar {
    var summary = RunSummary()
    summary.total = total
    summary.matched = matched
    summary.shown = matched
    var bar = FeedbackBar(chips: chips, summary: summary, limited: false, grouped: false)
    if chips.contains(where: { $0.kind == .sort }) { bar.sortKeys = [("date", true)] }
    return bar
  }

  @Test func activeChipsInBracketsThenInactiveInParentheses() {
    #expect(
      bar([Self.sort, Self.status, Self.customer, Self.items]).render(.init())
        == "[Sort: Date ↓] [Status: received] (Customer) (Items) · 1 filter · 874 of 1,500 records")
  }

  /// The interactive screen draws the same fitted layout as the one-shot bar, chip by chip.
  @Test func theFittedLayoutNamesTheChipsKept() {
    let layout = bar([Self.sort, Self.status, Self.customer, Self.items]).fitted(.init(width: 70))
    #expect(layout.pieces == [.chip(index: 0, text: "[Sort: Date ↓]"), .chip(index: 1, text: "[Status: received]")])
    #expect(layout.counts == "1 filter · 874 of 1,500 records")
    #expect(layout.separator == " · ")
    let narrow = bar([Self.sort, Self.status]).fitted(.init(width: 30))
    #expect(narrow.pieces == [.chip(index: 0, text: "[Sort: Date ↓]"), .more(1)])
  }

  @Test func onlyInactiveFastFiltersKeepTheTotalCount() {
    #expect(
      bar([Self.customer, Self.items], matched: 1500).render(.init())
        == "(Customer) (Items) · 1,500 records")
    #expect(bar([], matched: 1500).render(.init()) == "1,500 records")
  }

  @Test func colouredChipsUse256ColourCodes() {
    #expect(
      bar([Self.status, Self.customer]).render(.init(color: .palette256))
        == "\u{1B}[38;5;231;48;5;208m[Status: received]\u{1B}[0m"
        + " \u{1B}[38;5;236;48;5;255m(Customer)\u{1B}[0m · 1 filter · 874 of 1,500 records")
  }

  @Test func colouredChipsUse24BitColourWhenTheTerminalSaysSo() {
    #expect(
      bar([Self.status, Self.customer]).render(.init(color: .trueColor))
        == "\u{1B}[38;2;255;255;255;48;2;246;144;0m[Status: received]\u{1B}[0m"
        + " \u{1B}[38;2;29;45;62;48;2;242;242;247m(Customer)\u{1B}[0m · 1 filter · 874 of 1,500 records"
    )
  }

  @Test func asciiStyleReplacesArrowsDotsAndEllipses() {
    var range = Self.status
    range.text = "1…5"
    #expect(
      bar([Self.sort, range, Self.customer]).render(.init(ascii: true))
        == "[Sort: Date v] [Status: 1...5] (Customer) | 1 filter | 874 of 1,500 records")
  }

  @Test(arguments: [
    (86, "[Sort: Date ↓] [Status: received] (Customer) (Items) · 1 filter · 874 of 1,500 records"),
    // 1. inactive fast filters go first, from the right
    (84, "[Sort: Date ↓] [Status: received] (Customer) · 1 filter · 874 of 1,500 records"),
    (75, "[Sort: Date ↓] [Status: received] · 1 filter · 874 of 1,500 records"),
    // 3. then long captions are cut with `…`, not below 12 columns
    (66, "[Sort: Date ↓] [Status: receiv…] · 1 filter · 874 of 1,500 records"),
    (63, "[Sort: Date ↓] [Status: rec…] · 1 filter · 874 of 1,500 records"),
    // 4. only then active chips make way for `+N more`, captions whole again
    (62, "[Sort: Date ↓] +1 more · 1 filter · 874 of 1,500 records"),
    (10, "[Sort: Date ↓] +1 more · 1 filter · 874 of 1,500 records"),
  ])
  func narrowTerminalsKeepTheSortChipAndTheCounts(width: Int, expected: String) {
    #expect(
      bar([Self.sort, Self.status, Self.customer, Self.items]).render(.init(width: width))
        == expected)
  }

  @Test func theGroupChipGoesAfterTheInactiveFiltersAndBeforeAnyCut() {
    let group = Chip(
      kind: .group, field: "customer", label: "Group", text: "Customer", sentence: "",
      active: true)
    let chips = [Self.sort, group, Self.status, Self.customer]
    #expect(
      bar(chips).render(.init(width: 85))
        == "[Sort: Date ↓] [Group: Customer] [Status: received] · 1 filter · 874 of 1,500 records")
    #expect(
      bar(chips).render(.init(width: 84))
        == "[Sort: Date ↓] [Status: received] · 1 filter · 874 of 1,500 records")
  }

  @Test func overflowWithoutASortChipKeepsWhatFitsFromTheLeft() {
    let chips = [Self.status, Self.customer, Self.items]
    #expect(
      bar(chips).render(.init(width: 60)) == "[Status: received] · 1 filter · 874 of 1,500 records")
    #expect(bar(chips).render(.init(width: 48)) == "[Status: rec…] · 1 filter · 874 of 1,500 records")
    #expect(bar(chips).render(.init(width: 47)) == "+1 more · 1 filter · 874 of 1,500 records")
  }

  @Test func sentenceListsActiveFiltersThenAvailableOnes() {
    #expect(
      bar([Self.sort, Self.status, Self.customer, Self.items]).sentence()
        == "Sorted by date, descending. 1 filter: status is received. Available filters: Customer, Items. 874 of 1,500 records."
    )
  }

  @Test func jsonMarksEachChipActiveOrNot() {
    #expect(
      bar([Self.sort, Self.status, Self.customer]).json()
        == #"{"sort":[{"field":"date","descending":true}],"group":null,"filters":[{"field":"status","label":"Status","text":"received","active":true},{"field":"customer","label":"Customer","text":"","active":false}],"filterCount":1,"matched":874,"total":1500,"shown":874}"#
    )
  }
}
