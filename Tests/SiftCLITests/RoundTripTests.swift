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
}
