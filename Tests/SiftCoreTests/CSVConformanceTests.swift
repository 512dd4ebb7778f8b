import Testing
@testable import SiftCore

/// csv-spectrum (maxogden/csv-spectrum): every file reads as exactly its expected records.
@Suite
struct CSVConformanceTests {
  static let cases = ConformanceFiles.names(in: "csv-spectrum/csvs").map { String($0.dropLast(4)) }

  /// Records as field name → decoded value pairs, in order.
  func pairs(_ reader: any RecordReader) throws -> [[String: String]] {
    let result = try readAll(reader)
    return result.records.map { values in
      Dictionary(uniqueKeysWithValues: zip(result.fields, values.map { $0 ?? "<missing>" }))
    }
  }

  @Test func suiteIsThere() {
    #expect(Self.cases.count == 11)
  }

  @Test(arguments: cases)
  func readsAsExpected(name: String) throws {
    let csv = try ConformanceFiles.bytes("csv-spectrum/csvs/\(name).csv")
    if name.hasSuffix("_crlf") { #expect(csv.contains(UInt8(ascii: "\r"))) }
    let expected = try ConformanceFiles.bytes("csv-spectrum/json/\(name).json")
    let options = ReaderOptions(name: name)
    let got = try pairs(CSVReader(source: ByteSource(bytes: csv, name: name), options: options))
    let want = try pairs(
      JSONReader(source: ByteSource(bytes: expected, name: name), options: options))
    #expect(!want.isEmpty)
    #expect(got == want)
  }
}
