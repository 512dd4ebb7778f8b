import Testing

@testable import SiftCore

/// The workbook XML scanner (Docs/Formats.md, Workbooks): tokens, references, refusals.
@Suite struct XMLScannerTests {
  /// The tokens of `xml` as `<name attr=value>`, `</name>`, `"text"`.
  static func tokens(_ xml: String) throws(InputError) -> [String] {
    let scanner = XMLScanner(
      source: ByteSource(bytes: Array(xml.utf8), name: "t.xlsx"), archive: "t.xlsx", part: "p.xml")
    var out: [String] = []
    while true {
      switch try scanner.next() {
      case .endOfInput: return out
      case .start:
        let v = try scanner.attribute("v")
        out.append(v.map { "<v=\($0)>" } ?? "<>")
      case .end: out.append("</>")
      case .text: out.append("\"" + String(decoding: scanner.text, as: UTF8.self) + "\"")
      }
    }
  }

  @Test(arguments: [
    ("<a>x</a>", ["<>", "\"x\"", "</>"]),
    ("<a/>", ["<>", "</>"]),
    ("<?xml version=\"1.0\"?><!-- c -> --><a/>", ["<>", "</>"]),
    ("<a v=\"1 &lt; 2 &amp;&#65;&#x42;\"/>", ["<v=1 < 2 &AB>", "</>"]),
    ("<a v='x>y'>t</a>", ["<v=x>y>", "\"t\"", "</>"]),
    ("<t>&quot;&apos;&gt;&#x20AC;</t>", ["<>", "\"\"'>€\"", "</>"]),
    ("<t><![CDATA[<b>&amp;]]></t>", ["<>", "\"<b>&amp;\"", "</>"]),
    ("<x:c x:v=\"3\"/>", ["<v=3>", "</>"]),
  ])
  func tokensAndReferences(xml: String, expected: [String]) throws {
    #expect(try Self.tokens(xml) == expected)
  }

  @Test(arguments: [
    ("<!DOCTYPE a [<!ENTITY x \"y\">]><a>&x;</a>", "declares a DTD"),
    ("<a>&x;</a>", "refers to the entity &x;"),
    ("<a v=\"1\"", "the part ends inside a tag"),
    ("<a>& b</a>", "'&' not starting a reference"),
  ])
  func refusals(xml: String, message: String) {
    #expect {
      _ = try Self.tokens(xml)
    } throws: { error in
      (error as? InputError)?.message.contains(message) == true
        && (error as? InputError)?.name == "t.xlsx"
    }
  }

  /// Tokens that straddle the scanner's 64 KiB buffer, and one larger than it, read whole.
  @Test func tokensAcrossBufferEdges() throws {
    for pad in [65_530, 65_533, 65_536, 65_540] {
      let big = String(repeating: "z", count: 70_000)
      let xml = "<r>" + String(repeating: " ", count: pad) + "<a v=\"&amp;1\">xy</a><b>\(big)</b></r>"
      let tokens = try Self.tokens(xml)
      #expect(tokens.contains("<v=&1>"))
      #expect(tokens.contains("\"xy\""))
      #expect(tokens.contains("\"" + big + "\""))
    }
  }
}
