import Testing

@testable import SiftCore

/// No query text may crash, hang or overflow the stack: random bytes and random token soups
/// give a query or a `QueryError`, and every query that parses survives the canonical round trip.
@Suite struct ParserFuzzTests {
  /// SplitMix64: a small seeded generator, so a failure reproduces.
  struct Generator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
  }

  static let syntaxBytes = Array(
    " \t():,.*\"'\\/-<>=ORANDNOTsortgrouplimitfieldshas0123456789ai".utf8)

  static let tokens = [
    "(", ")", "-", "NOT", "OR", "AND", "or", "status:", "qty:>", "qty:>=", "10..", "..", "*", "\"",
    "'", "/", "/a b/i", "//", ",", "sort:", "sort:-date", "sort: date desc", "group:date",
    "group:customer", "limit:5", "limit:-1", "fields:a,b", "has:", "has:x", "acme", "\"x y\"",
    "Müller", "📦", "=", ">", "\\", ":", "today", "last-3d", "10", "\"\"", "a*", "x:", "\"a\":",
    "( ", " )", "customer:\"Acme\"", "date:last-week..today", "on",
  ]

  /// Parses `text`; when it parses, checks the canonical form reads back the same.
  func check(_ text: String) {
    let query: Query
    do {
      query = try Parser.parse(text)
    } catch {
      #expect(error.offset >= 0 && error.offset <= text.utf8.count, "\(text)")
      _ = error.rendered(against: text)
      return
    }
    expectCanonicalFormReadsBack(query, from: text)
  }

  @Test func randomBytes() {
    var generator = Generator(state: 1)
    for _ in 0..<5_000 {
      let count = Int.random(in: 0...40, using: &generator)
      let bytes = (0..<count).map { _ in
        Bool.random(using: &generator)
          ? Self.syntaxBytes.randomElement(using: &generator) ?? 0
          : UInt8.random(in: 0...255, using: &generator)
      }
      check(String(decoding: bytes, as: UTF8.self))
    }
  }

  @Test func randomTokenSoups() {
    var generator = Generator(state: 2)
    for _ in 0..<10_000 {
      let count = Int.random(in: 1...12, using: &generator)
      var text = ""
      for _ in 0..<count {
        text += Self.tokens.randomElement(using: &generator) ?? ""
        if Int.random(in: 0..<3, using: &generator) > 0 { text += " " }
      }
      check(text)
    }
  }

  @Test func hugeInputsEndQuickly() {
    check(String(repeating: "(", count: 200_000))
    check(String(repeating: "-", count: 200_000) + "x")
    check(String(repeating: "NOT ", count: 50_000) + "x")
    check(String(repeating: "a OR ", count: 20_000) + "b")
    check(String(repeating: "q:\"", count: 20_000))
    check("x:/" + String(repeating: "\\", count: 100_001))
  }
}
