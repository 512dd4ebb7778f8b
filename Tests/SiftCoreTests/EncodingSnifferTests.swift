import Testing
@testable import SiftCore

/// Docs/Formats.md, Encodings and TSV: each input's encoding and a TSV's quoting are decided once
/// from its sample.
@Suite struct EncodingSnifferTests {
  @Test(arguments: [
    // (sample, complete, encoding, first invalid byte)
    ([0x61, 0x2C, 0x62, 0x0A] as [UInt8], true, TextEncoding.utf8, Int?.none),
    (Array("Müller;Köln\n".utf8), true, .utf8, nil),
    ([0x4D, 0xFC, 0x6C, 0x6C], true, .windows1252, 1),  // "Müll" in windows-1252
    ([0x80, 0x0A], true, .windows1252, 0),  // € alone
    ([0x58, 0x81, 0x59], true, .utf8, 1),  // 0x81: undefined in windows-1252, read as it is
    ([0xFF, 0xFE, 0x61, 0x00], true, .utf16LittleEndian, nil),
    ([0xFE, 0xFF, 0x00, 0x61], true, .utf16BigEndian, nil),
    ([0x0A, 0x0A, 0xFE, 0xFF, 0x2C, 0x31], true, .windows1252, 2),  // a mark counts at byte 0 only
    ([0x61, 0xC3], false, .utf8, nil),  // ü cut by the sample's end
    ([0x61, 0xC3], true, .windows1252, 1),  // the same at the input's end is not UTF-8
    ([0xEF, 0xBB, 0xBF, 0x61], true, .utf8, nil),
  ])
  func decidesFromTheSample(
    sample: [UInt8], complete: Bool, encoding: TextEncoding, invalid: Int?
  ) {
    let decision = EncodingSniffer.decide(sample, complete: complete)
    #expect(decision.encoding == encoding)
    #expect(decision.firstInvalidUTF8 == invalid)
  }

  /// Differential: the validator agrees with the standard library's UTF-8 decoder on random
  /// bytes leaning to the ranges where UTF-8's rules are (overlong forms, surrogates, past
  /// U+10FFFF), between runs of ASCII that the validator passes eight bytes at a time; what it
  /// finds invalid comes after bytes the decoder reads as well-formed.
  @Test func validatesUTF8AsTheStandardLibraryDoes() {
    var generator = SystemRandomNumberGenerator()
    let interesting: [UInt8] = [
      0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xED, 0xEF,
      0xF0, 0xF4, 0xF5, 0xFF,
    ]
    for _ in 0..<20_000 {
      var bytes: [UInt8] = []
      for _ in 0..<Int.random(in: 0...4, using: &generator) {
        bytes += (0..<Int.random(in: 0...17, using: &generator)).map { _ in
          UInt8.random(in: 0x20...0x7E, using: &generator)
        }
        bytes += (0..<Int.random(in: 0...6, using: &generator)).map { _ in
          Bool.random(using: &generator)
            ? interesting.randomElement(using: &generator) ?? 0
            : UInt8.random(in: 0...255, using: &generator)
        }
      }
      let valid = String(validating: bytes, as: UTF8.self) != nil
      let invalid = EncodingSniffer.firstInvalidUTF8(bytes, complete: true)
      #expect((invalid == nil) == valid, "\(bytes)")
      if let invalid {
        #expect(String(validating: bytes[..<invalid], as: UTF8.self) != nil, "\(bytes)")
      }
    }
  }

  @Test(arguments: [
    // (TSV sample, complete, quotes fields)
    ("a\tb\n1\t2\n", true, false),
    ("a\tb\n\"x\ny\"\t2\n", true, true),
    ("a\tb\n\"say \"\"hi\"\"\"\t2\r\n", true, true),
    ("a\tb\n\"Big\" bolt\t2\n", true, false),  // the quotes are text
    ("a\tb\n\"x\"\t\"y\" z\n", true, false),  // one field that is not well-formed decides
    ("a\tb\n\"x\ny", false, true),  // cut by the sample's end
    ("a\tb\n\"x\ny", true, false),  // never closed
    ("\u{FEFF}\"a\"\tb\n1\t2\n", true, true),
    ("a\tb\n1\t2\"\n", true, false),  // a quote inside a field is text
  ])
  func sniffsTSVQuoting(text: String, complete: Bool, quotes: Bool) {
    #expect(FormatSniffer.quotesFields(Array(text.utf8), complete: complete) == quotes)
  }

  /// Differential: UTF-16 made by the standard library (`String.utf16`), astral characters
  /// included, read in odd-sized pieces, comes out as the standard library's UTF-8.
  @Test(arguments: [false, true], [1, 3, 7, 64, 1 << 16])
  func transcodesUTF16AsTheStandardLibraryEncodesIt(bigEndian: Bool, readSize: Int) throws {
    let text = (0..<3_000).map { i in
      ["a", "ü", "€", "𝄞", "\n", "Zoë", "日本", "\u{10FFFF}", "\u{FFFD}", "\t"][i % 10]
    }.joined()
    var bytes: [UInt8] = bigEndian ? [0xFE, 0xFF] : [0xFF, 0xFE]
    for unit in text.utf16 {
      let (high, low) = (UInt8(unit >> 8), UInt8(unit & 0xFF))
      bytes += bigEndian ? [high, low] : [low, high]
    }
    let stage = UTF16Transcoder(
      inner: ByteSource(bytes: bytes, name: "u.txt"), bigEndian: bigEndian, readSize: readSize)
    let source = ByteSource(stage: stage, name: "u.txt")
    var out: [UInt8] = []
    while try source.read(into: &out, maxCount: 5) > 0 {}
    #expect(out == [0xEF, 0xBB, 0xBF] + Array(text.utf8))
  }

  @Test(arguments: [
    // (UTF-16LE bytes after the mark, error)
    ([0x61, 0x00, 0x0A, 0x00, 0x00, 0xDC] as [UInt8], "u.txt:2:1: a UTF-16 low surrogate (DC00) has no high one before it"),
    ([0xFC, 0x00, 0x00, 0xDC], "u.txt:1:3: a UTF-16 low surrogate (DC00) has no high one before it"),  // ü is 2 bytes
    ([0x61, 0x00, 0x3D, 0xD8, 0x62, 0x00], "u.txt:1:2: a UTF-16 high surrogate is not followed by a low one"),
    ([0x61, 0x00, 0x3D, 0xD8], "u.txt:1:2: the input ends after half a UTF-16 surrogate pair"),
    ([0x61, 0x00, 0x62], "u.txt:1:2: the input ends inside a UTF-16 code unit (an odd byte)"),
  ])
  func malformedUTF16IsAnErrorWithItsPlace(bytes: [UInt8], message: String) {
    let stage = UTF16Transcoder(
      inner: ByteSource(bytes: [0xFF, 0xFE] + bytes, name: "u.txt"), bigEndian: false)
    let source = ByteSource(stage: stage, name: "u.txt")
    var out: [UInt8] = []
    var failure: InputError?
    do {
      while try source.read(into: &out, maxCount: 64) > 0 {}
    } catch {
      failure = error
    }
    #expect(failure?.description == message)
  }

  /// The encoding and quoting decided when an input is opened are handed back, so opening it
  /// again decides nothing twice.
  @Test func openingHandsBackWhatItDecided() throws {
    let bytes: [UInt8] = Array("Kunde\tNotiz\r\n".utf8) + [0x4D, 0xFC] + Array("\t\"a\nb\"\r\n".utf8)
    let opened = try ReaderFactory.makeReader(
      source: ByteSource(bytes: bytes, name: "x.txt"), format: nil,
      options: ReaderOptions(name: "x.txt"), encoding: nil)
    #expect(opened.format == .tsv)
    #expect(opened.encoding == .windows1252)
    #expect(opened.options.quoting == true)
    #expect(opened.notes.count == 2)
    #expect(try readAll(opened.reader).records == [["Mü", "a\nb"]])
  }
}
