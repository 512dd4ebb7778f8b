import Foundation
import Testing

/// Docs/Formats.md, Output: what passes through sift unfiltered comes out as it went in.
@Suite struct RoundTripTests {
  func bytes(_ path: String) throws -> [UInt8] {
    Array(try Data(contentsOf: URL(fileURLWithPath: path)))
  }

  @Test func csvToCSVIsByteIdentical() throws {
    let input = try bytes("SampleData/grn.csv")
    let result = sift(["", "SampleData/grn.csv", "-o", "csv"])
    #expect(result.status == .matched)
    #expect(result.stdout == input)
  }

  @Test func csvThroughStandardInputIsByteIdentical() throws {
    let input = try bytes("SampleData/grn.csv")
    #expect(sift([""], stdin: input).stdout == input)
  }

  @Test func jsonToJSONKeepsEveryValue() throws {
    let input = try bytes("SampleData/invoices.json")
    let result = sift(["", "SampleData/invoices.json", "-o", "json"])
    #expect(result.status == .matched)
    let original = try JSONSerialization.jsonObject(with: Data(input)) as? [String: Any]
    let records = original?["invoices"] as? [Any]
    let written = try JSONSerialization.jsonObject(with: Data(result.stdout)) as? [Any]
    #expect(records != nil)
    #expect(NSArray(array: records ?? []).isEqual(to: written ?? []))
  }

  @Test func ndjsonToNDJSONKeepsEveryLineText() throws {
    let input = String(decoding: try bytes("SampleData/orders.ndjson"), as: UTF8.self)
    let lines = input.split(separator: "\n").filter { !$0.isEmpty }.map(String.init)
    let result = sift(["", "SampleData/orders.ndjson"])
    #expect(result.text.split(separator: "\n").map(String.init) == lines)
  }

  @Test func csvToJSONToCSVIsIdentical() throws {
    let input = try bytes("SampleData/grn.csv")
    let json = sift(["", "SampleData/grn.csv", "-o", "json"])
    #expect(json.status == .matched)
    let back = sift(["", "-o", "csv"], stdin: json.stdout)
    #expect(back.status == .matched)
    #expect(back.stdout == input)
  }

  @Test func tsvToTSVIsByteIdentical() throws {
    let input = Array("sku\tqty\titem\nA-1\t5\tBolt \"M8\"\nA-2\t\tNut, hex\n".utf8)
    #expect(sift(["", "-f", "tsv"], stdin: input).stdout == input)
  }

  @Test func csvWithByteOrderMarkAndCRLFKeepsBoth() throws {
    // dispatch.csv begins with a BOM, ends its lines with CRLF and its last line without one:
    // everything comes back, and the last line gains its CRLF.
    let input = try bytes("SampleData/dispatch.csv")
    #expect(Array(input.prefix(3)) == [0xEF, 0xBB, 0xBF])
    #expect(input.last != 0x0A)
    let result = sift(["", "SampleData/dispatch.csv", "-o", "csv"])
    #expect(result.status == .matched)
    #expect(result.stdout == input + [0x0D, 0x0A])
  }

  @Test func crlfFileWithQuotedNewlinesIsByteIdentical() throws {
    let input = Array("id,note\r\n1,\"two\nlines\"\r\n2,\"crlf\r\ninside\"\r\n3,plain\r\n".utf8)
    let result = sift(["", "-o", "csv"], stdin: input)
    #expect(result.status == .matched)
    #expect(result.stdout == input)
  }

  @Test func duplicateHeadersAreByteIdentical() throws {
    let input = Array("a,a,,b,\n1,2,3,4,5\n6,7,8,9,10\n".utf8)
    #expect(sift(["", "-o", "csv"], stdin: input).stdout == input)
  }

  @Test func noHeaderOutputHasNoInventedHeader() throws {
    let input = Array("1,2\n3,4\n".utf8)
    #expect(sift(["", "--no-header", "-o", "csv"], stdin: input).stdout == input)
    #expect(sift(["", "--no-header", "-f", "tsv"], stdin: Array("1\t2\n".utf8)).stdout
      == Array("1\t2\n".utf8))
  }

  @Test func threeFilesOfDifferentFieldsKeepEveryValueInTheUnion() throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("sift-union-\(getpid())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    // Each file is small, so with 1,000-record sampling the later ones were once cut to the
    // first file's fields; the second file here is long enough to fill the sample alone.
    let files: [(name: String, header: [String], rows: [[String]])] = [
      ("a.csv", ["id", "status"], (1...5).map { ["a\($0)", "open"] }),
      ("b.csv", ["id", "carrier", "status"], (1...1_500).map { ["b\($0)", "UPS \($0)", "shut"] }),
      ("c.csv", ["weight", "id"], (1...3).map { ["\($0).5", "c\($0)"] }),
    ]
    var paths: [String] = []
    for file in files {
      let text = ([file.header] + file.rows).map { $0.joined(separator: ",") + "\n" }.joined()
      let url = folder.appendingPathComponent(file.name)
      try Data(text.utf8).write(to: url)
      paths.append(url.path)
    }
    let csv = sift([""] + paths + ["-o", "csv", "-q"])
    #expect(csv.status == .matched)
    let lines = csv.text.split(separator: "\n").map(String.init)
    #expect(lines.first == "id,status,carrier,weight")
    // Read the union back and compare every value of every input, in order.
    let back = sift(["", "-o", "json", "-q"], stdin: csv.stdout)
    let records = try JSONSerialization.jsonObject(with: Data(back.stdout)) as? [[String: Any]]
    let expected = files.flatMap { file in
      file.rows.map { row in Dictionary(uniqueKeysWithValues: zip(file.header, row)) }
    }
    #expect(records?.count == expected.count)
    for (record, want) in zip(records ?? [], expected) {
      for key in ["id", "status", "carrier", "weight"] {
        let got = record[key].map { "\($0)" } ?? ""
        #expect(got == (want[key] ?? ""), "\(key) of \(want["id"] ?? "?")")
      }
    }
  }
}

/// Without `fields:`, a CSV row that needs no rewriting is copied whole (Docs/Performance.md,
/// Techniques); with `fields:` naming the same columns, every field is written one by one. The
/// two must agree byte for byte on every kind of row.
@Suite struct WholeRowCopyTests {
  static let inputs: [(name: String, text: String, fields: String)] = [
    ("plain rows", "a,b,c\n1,2,3\nx,,z\n", "a,b,c"),
    ("quotes needed and not", "a,b,c\n\"1\",\"x,y\",\"say \"\"hi\"\"\"\n4,\"5\",6\n", "a,b,c"),
    ("a quote inside an unquoted field", "a,b\nab\"c,d\n", "a,b"),
    ("short rows padded", "a,b,c\n1,2\n3\n4,5,6\n", "a,b,c"),
    ("a short last row without a line end", "a,b,c\n1,2,3\n4,5", "a,b,c"),
    ("CRLF and a quoted line break", "a,b\r\n1,\"two\r\nlines\"\r\n3,4\r\n", "a,b"),
    ("semicolons, sniffed", "a;b;c\n1;2,5;3\n\"x;y\";z;\n", "a,b,c"),
    ("spaces kept", "a,b\n  1 , 2  \n", "a,b"),
    ("one column with an empty value", "a\nx\n\"\"\ny\n", "a"),
    ("duplicate header names", "a,a,b\n1,2,3\n", "a,a_2,b"),
  ]

  @Test(arguments: inputs.indices)
  func copyingAWholeRowGivesWhatFieldByFieldWritingGives(index: Int) {
    let (name, text, fields) = Self.inputs[index]
    let whole = sift(["", "-f", "csv", "-o", "csv", "-q"], stdin: Array(text.utf8))
    let byField = sift(["fields:" + fields, "-f", "csv", "-o", "csv", "-q"], stdin: Array(text.utf8))
    #expect(whole.status == .matched, "\(name)")
    #expect(whole.text == byField.text, "\(name)")
  }

  @Test func inputsWithDifferentDelimitersAreEachWrittenRight() throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("sift-whole-row-\(UInt32.random(in: 0...UInt32.max))")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let first = folder.appendingPathComponent("first.csv")
    let second = folder.appendingPathComponent("second.csv")
    try Data("a;b\n1;2,5\n".utf8).write(to: first)
    try Data("a,b\n3,4;5\n".utf8).write(to: second)
    let result = sift(["", first.path, second.path, "-o", "csv", "-q"])
    #expect(result.text == "a;b\n1;2,5\n3;\"4;5\"\n")
  }
}

/// Inputs the fuzzer found (issue 27, item 5) whose round trip broke.
@Suite struct FuzzRoundTripTests {
  /// A UTF-16 byte order mark counts only at byte 0 (Docs/Formats.md, Encodings): after blank
  /// lines (LF, 19 CRs), `FE FF` is data. sift's CSV output of it, whose first bytes it is, must
  /// read back as the same record (the first field is quoted), and write the same bytes again.
  @Test(arguments: [
    [0xFE, 0xFF, 0xFF, 0x2C, 0xFF, 0x3A, 0x31, 0x22, 0x7A, 0x32, 0x6C, 0x21, 0x79, 0x29, 0x0A],
    [0xFF, 0xFE, 0x41, 0x2C, 0x42, 0x0A, 0x31, 0x2C, 0x32, 0x0A],
    [0xEF, 0xBB, 0xBF, 0x41, 0x2C, 0x42, 0x0A, 0x31, 0x2C, 0x32, 0x0A],
  ] as [[UInt8]])
  func byteOrderMarkAfterBlankLinesIsDataAndRoundTrips(data: [UInt8]) {
    let input: [UInt8] = [0x0A] + Array(repeating: 0x0D, count: 19) + data
    let once = sift(["", "-o", "csv", "-q"], stdin: input)
    #expect(once.status == .matched || once.status == .noMatch, "\(once.stderr)")
    let twice = sift(["", "-o", "csv", "-q"], stdin: once.stdout)
    #expect(twice.stderr == "")
    #expect(twice.stdout == once.stdout)
    let json = sift(["", "-o", "ndjson", "-q"], stdin: input)
    #expect(sift(["", "-o", "ndjson", "-q"], stdin: once.stdout).stdout == json.stdout)
  }
}
