import SiftCore
import Testing

@testable import SiftScreen

@Suite struct PainterTests {
  private let esc = "\u{1B}"

  private func frame(_ lines: [[StyledSpan]], cursor: Frame.Position? = nil) -> Frame {
    Frame(lines: lines.map { StyledLine($0) }, cursor: cursor)
  }

  private func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

  @Test func theFirstFrameClearsTheScreenAndDrawsEveryLine() {
    var painter = Painter(color: .none)
    let bytes = painter.paint(frame([[StyledSpan("Goods receipts")], [StyledSpan("1 record")]]))
    #expect(
      text(bytes)
        == "\(esc)[0m\(esc)[H\(esc)[2J\(esc)[?25l\(esc)[1;1H\(esc)[2KGoods receipts"
        + "\(esc)[2;1H\(esc)[2K1 record")
  }

  @Test func onlyChangedLinesAreDrawnAndTheCursorPlaced() {
    var painter = Painter(color: .none)
    _ = painter.paint(frame([[StyledSpan("title")], [StyledSpan("> sta")], [StyledSpan("9 records")]]))
    let bytes = painter.paint(
      frame([[StyledSpan("title")], [StyledSpan("> stat")], [StyledSpan("9 records")]], cursor: Frame.Position(row: 1, column: 6)))
    #expect(text(bytes) == "\(esc)[?25l\(esc)[2;1H\(esc)[2K> stat\(esc)[2;7H\(esc)[?25h")
  }

  @Test func anUnchangedFrameWritesNothing() {
    var painter = Painter(color: .trueColor)
    let same = frame([[StyledSpan("a", .chipActive)]], cursor: Frame.Position(row: 0, column: 1))
    _ = painter.paint(same)
    #expect(painter.paint(same).isEmpty)
  }

  @Test func aMovedCursorAloneMovesIt() {
    var painter = Painter(color: .none)
    _ = painter.paint(frame([[StyledSpan("> abc")]], cursor: Frame.Position(row: 0, column: 5)))
    #expect(text(painter.paint(frame([[StyledSpan("> abc")]], cursor: Frame.Position(row: 0, column: 3)))) == "\(esc)[1;4H\(esc)[?25h")
    #expect(text(painter.paint(frame([[StyledSpan("> abc")]]))) == "\(esc)[?25l")
  }

  @Test func afterAResizeEveryLineIsDrawnAgain() {
    var painter = Painter(color: .none)
    let lines = frame([[StyledSpan("a")], [StyledSpan("b")]])
    _ = painter.paint(lines)
    painter.invalidate()
    #expect(text(painter.paint(lines)).contains("\(esc)[2J"))
  }

  @Test func chipsInTrueColourAreWhiteOnOrangeAndDarkOnGrey() {
    var painter = Painter(color: .trueColor)
    let bytes = painter.paint(
      frame([[StyledSpan("[Status: received]", .chipActive), StyledSpan(" "), StyledSpan("(Open)", .chipInactive)]]))
    #expect(
      text(bytes).hasSuffix(
        "\(esc)[38;2;255;255;255;48;2;246;144;0m[Status: received]\(esc)[0m "
          + "\(esc)[38;2;29;45;62;48;2;242;242;247m(Open)\(esc)[0m"))
  }

  @Test func withoutTrueColourTheNearestPaletteColoursAreUsed() {
    let painter = Painter(color: .palette256)
    #expect(painter.sgr(.chipActive) == "38;5;231;48;5;208")
    #expect(painter.sgr(.tabActive) == "1;38;5;208")
    #expect(painter.sgr(.badge) == "1;38;5;231;48;5;161")
  }

  /// NO_COLOR: no colour at all; the active chip, the active tab and the focus in reverse video.
  @Test(arguments: [
    (SiftScreen.TextStyle.chipActive, "7"), (.chipInactive, ""), (.tabActive, "1;7"), (.focused, "7"),
    (.badge, "1"), (.error, ""), (.header, "1;4"), (.dim, "2"), (.plain, ""),
  ])
  func withoutColourOnlyAttributes(style: SiftScreen.TextStyle, parameters: String) {
    #expect(Painter(color: .none).sgr(style) == parameters)
  }
}
