import Testing

@testable import SiftScreen

@Suite struct KeyDecoderTests {
  /// One read's bytes and the keys a user pressed to send them.
  @Test(arguments: [
    ("a", [Key.text("a")]),
    ("/ab", [.text("/"), .text("a"), .text("b")]),
    ("\u{1B}[200~/status:x\r\n\u{1B}[201~q", [.text("/status:x  "), .text("q")]),
    ("é", [.text("é")]),
    ("漢字", [.text("漢"), .text("字")]),
    ("\u{1B}[A\u{1B}[B\u{1B}[C\u{1B}[D", [.up, .down, .right, .left]),
    ("\u{1B}OA\u{1B}OD", [.up, .left]),
    ("\u{1B}[H\u{1B}[F\u{1B}OH\u{1B}OF", [.home, .end, .home, .end]),
    ("\u{1B}[1~\u{1B}[4~\u{1B}[7~\u{1B}[8~", [.home, .end, .home, .end]),
    ("\u{1B}[5~\u{1B}[6~\u{1B}[3~", [.pageUp, .pageDown, .delete]),
    ("\u{1B}[1;5C", [.right]),
    ("\u{1B}[Z", [.backTab]),
    ("\u{1B}", [.escape]),
    ("\u{1B}\u{1B}[A", [.escape, .up]),
    ("\u{17}\u{15}\u{03}", [.control("w"), .control("u"), .control("c")]),
    ("\u{7F}\u{08}", [.backspace, .backspace]),
    ("\r\n", [.enter, .enter]),
    ("\t", [.tab]),
    ("a\u{1B}[Ac", [.text("a"), .up, .text("c")]),
    ("\u{1B}[15~x", [.text("x")]),
  ] as [(String, [Key])])
  func decodesOneRead(bytes: String, keys: [Key]) {
    var decoder = KeyDecoder()
    #expect(decoder.decode(Array(bytes.utf8)) == keys)
    #expect(!decoder.isWaiting)
  }

  @Test func aSequenceSplitAcrossReadsIsOneKey() {
    var decoder = KeyDecoder()
    #expect(decoder.decode(Array("x\u{1B}[".utf8)) == [.text("x")])
    #expect(decoder.isWaiting)
    #expect(decoder.decode(Array("6~".utf8)) == [.pageDown])
    #expect(!decoder.isWaiting)
  }

  @Test func aCharacterSplitAcrossReadsIsOneKey() {
    var decoder = KeyDecoder()
    let bytes = Array("ü".utf8)
    #expect(decoder.decode(bytes.prefix(1)) == [])
    #expect(decoder.decode(bytes.dropFirst()) == [.text("ü")])
  }

  @Test func aPasteSplitAcrossReadsIsOneKey() {
    var decoder = KeyDecoder()
    #expect(decoder.decode(Array("\u{1B}[200~sta".utf8)) == [])
    #expect(decoder.decode(Array("tus\u{1B}[201~".utf8)) == [.text("status")])
  }

  @Test func escapeThenBracketWithNothingMoreIsEscapeAndText() {
    var decoder = KeyDecoder()
    #expect(decoder.decode(Array("\u{1B}[".utf8)) == [])
    #expect(decoder.flush() == [.escape, .text("[")])
    #expect(!decoder.isWaiting)
  }
}
