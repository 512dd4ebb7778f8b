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
