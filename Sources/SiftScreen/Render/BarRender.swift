import SiftCore

extension ScreenModel {
  /// The feedback bar (Docs/FeedbackBar.md). Without the focus it is the one-shot bar's layout
  /// at this width; with the focus every chip is whole and the chips scroll sideways to keep the
  /// focused one on screen, the sort chip pinned left and the counts right.
  func feedbackBar(_ width: Int) -> StyledLine {
    var line = LineBuilder(width: width, ascii: setup.ascii)
    guard let result = page.table?.result else { return line.line }
    let bar = FeedbackBar(
      chips: result.chips, summary: result.summary, limited: result.limited,
      grouped: result.group != nil)
    func chip(_ index: Int, _ text: String) {
      let style: TextStyle =
        focus == .bar && index == page.chip
        ? .focused : (result.chips[index].active ? .chipActive : .chipInactive)
      line.append(text, style)
    }
    guard focus == .bar else {
      let layout = bar.fitted(FeedbackBar.Style(ascii: setup.ascii, width: width))
      for (position, piece) in layout.pieces.enumerated() {
        if position > 0 { line.append(" ") }
        switch piece {
        case .chip(let index, let text): chip(index, text)
        case .more(let count): line.append("+\(count) more")
        }
      }
      if !layout.pieces.isEmpty { line.append(layout.separator) }
      line.append(layout.counts, .dim)
      return line.line
    }
    let whole = bar.fitted(FeedbackBar.Style(ascii: setup.ascii))
    let texts = whole.pieces.compactMap { piece -> (index: Int, text: String)? in
      if case .chip(let index, let text) = piece { return (index, text) }
      return nil
    }
    let counts = whole.separator + whole.counts
    let room = max(0, width - displayWidth(of: counts))
    let pinned = result.chips.first?.kind == .sort ? 1 : 0
    let (left, right) = setup.ascii ? ("<", ">") : ("‹", "›")
    func widthOf(_ range: Range<Int>) -> Int {
      let chips = range.reduce(0) { $0 + displayWidth(of: texts[$1].text) + 1 }
      let pins = (0..<pinned).reduce(0) { $0 + displayWidth(of: texts[$1].text) + 1 }
      return pins + chips + (range.lowerBound > pinned ? 2 : 0) + (range.upperBound < texts.count ? 2 : 0)
    }
    let focused = min(page.chip, texts.count - 1)
    var window = focused < pinned ? pinned..<pinned : focused..<focused + 1
    while window.upperBound < texts.count, widthOf(window.lowerBound..<window.upperBound + 1) <= room {
      window = window.lowerBound..<window.upperBound + 1
    }
    while window.lowerBound > pinned, widthOf(window.lowerBound - 1..<window.upperBound) <= room {
      window = window.lowerBound - 1..<window.upperBound
    }
    var first = true
    for index in Array(0..<pinned) + Array(window) {
      if !first { line.append(" ") }
      if index == window.lowerBound, window.lowerBound > pinned {
        line.append(left + " ", .dim)
      }
      chip(texts[index].index, texts[index].text)
      first = false
    }
    if window.upperBound < texts.count { line.append(" " + right, .dim) }
    line.append(counts, .dim)
    return line.line
  }
}
