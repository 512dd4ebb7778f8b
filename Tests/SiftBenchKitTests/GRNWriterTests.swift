import SiftCore
import Testing

@testable import SiftBenchKit

@Suite struct GRNWriterTests {
  func generated(_ rows: Int, _ format: RecordFormat, seed: UInt64 = 1) throws -> String {
    let sink = MemorySink()
    try GRNWriter.write(rows: rows, format: format, seed: seed, to: sink)
    return sink.text
  }

  /// Money text (`1234.50`) as cents.
  func cents(_ text: String) -> Int? {
    let parts = text.split(separator: ".")
    guard parts.count == 2, let units = Int(parts[0]), let hundredths = Int(parts[1]) else {
      return nil
    }
    return units * 100 + hundredths
  }

  @Test(arguments: RecordFormat.allCases)
  func theSameSeedGivesTheSameBytesAndAnotherSeedOthers(format: RecordFormat) throws {
    let first = try generated(2000, format, seed: 42)
    #expect(try generated(2000, format, seed: 42) == first)
    #expect(try generated(2000, format, seed: 43) != first)
  }

  @Test func csvHasTheHeaderAndTwelveConsistentFieldsPerRecord() throws {
    let rows = csvRows(try generated(3000, .csv))
    #expect(
      rows.first
        == [
          "grn_no", "date", "status", "customer", "warehouse", "sku", "item", "qty", "unit_price",
          "amount", "empty_stock", "updated",
        ])
    let records = rows.dropFirst()
    #expect(records.count == 3000)
    for (n, r) in records.enumerated() {
      try #require(r.count == 12, "row \(n + 1): \(r)")
      #expect(
        r[0] == "GRN-" + String(repeating: "0", count: 6 - String(n + 1).count) + String(n + 1))
      #expect(r[1] >= "2023-01-01" && r[1] <= "2024-06-12")
      #expect(["received", "pending", "quality-hold", "cancelled"].contains(r[2]))
      #expect(r[4].hasPrefix("WH-0") && r[4].count == 5)
      #expect(r[5].hasPrefix("SKU-") && r[5].count == 9)
      let qty = try #require(Int(r[7]))
      #expect((0...500).contains(qty))
      #expect(cents(r[9]) == qty * (cents(r[8]) ?? -1), "amount = qty × unit_price in \(r)")
      #expect(r[10] == "yes" || r[10] == "no")
      #expect(r[11].count == 19 && String(r[11].prefix(10)) >= r[1] && r[11] < "2024-06-12T10:00")
    }
    #expect(records.last?[1] == "2024-06-12")
  }

  @Test func statusesCustomersAndQuantitiesFollowTheirWeights() throws {
    let records = csvRows(try generated(20_000, .csv, seed: 9)).dropFirst()
    func share(_ isIt: ([String]) -> Bool) -> Double {
      Double(records.filter(isIt).count) / Double(records.count)
    }
    #expect(abs(share { $0[2] == "received" } - 0.60) < 0.02)
    #expect(abs(share { $0[2] == "pending" } - 0.20) < 0.02)
    #expect(abs(share { $0[2] == "quality-hold" } - 0.10) < 0.015)
    #expect(abs(share { $0[3] == "Acme" } - 0.05) < 0.01)
    #expect(abs(share { $0[7] == "0" } - 0.05) < 0.01)
    #expect(share { $0[10] == "yes" } < 0.15)
    let customers = Set(records.map { $0[3] })
    #expect(customers.count == 40)
    let awkward = ["Acme Corp", "Smith, Jones & Co", "The \"Best\" Supplies", "東京商事"]
    #expect(customers.isSuperset(of: awkward))
  }

  @Test func csvQuotesCommasAndDoublesQuotes() throws {
    let text = try generated(3000, .csv)
    #expect(text.contains(",\"Smith, Jones & Co\","))
    #expect(text.contains(",\"The \"\"Best\"\" Supplies\","))
    #expect(text.contains(",Müller GmbH,"))
  }

  @Test func ndjsonHoldsTheSameRecordsAsCSV() throws {
    let csv = csvRows(try generated(500, .csv, seed: 5))
    let lines = try generated(500, .ndjson, seed: 5).split(separator: "\n")
    #expect(lines.count == 500)
    for (line, r) in zip(lines, csv.dropFirst()) {
      func string(_ s: String) -> String {
        String(decoding: EncodedText.jsonString(s), as: UTF8.self)
      }
      let expected =
        "{\"grn_no\":\(string(r[0])),\"date\":\(string(r[1])),\"status\":\(string(r[2])),"
        + "\"customer\":\(string(r[3])),\"warehouse\":\(string(r[4])),\"sku\":\(string(r[5])),"
        + "\"item\":\(string(r[6])),\"qty\":\(r[7]),\"unit_price\":\(r[8]),\"amount\":\(r[9]),"
        + "\"empty_stock\":\(r[10] == "yes"),\"updated\":\(string(r[11]))}"
      #expect(String(line) == expected)
    }
  }

  @Test func outputReachesTheSinkInOneMebibyteBlocks() throws {
    final class SizeRecorder: ByteSink {
      var sizes: [Int] = []
      func write(_ bytes: UnsafeBufferPointer<UInt8>) throws(OutputError) {
        sizes.append(bytes.count)
      }
    }
    let sink = SizeRecorder()
    try GRNWriter.write(rows: 25_000, format: .csv, seed: 1, to: sink)
    #expect(sink.sizes.count == 3)
    #expect(sink.sizes.dropLast().allSatisfy { $0 == 1 << 20 })
    #expect(try sink.sizes.reduce(0, +) == generated(25_000, .csv).utf8.count)
  }

  @Test func aClosedReaderStopsTheWriting() {
    final class ClosedPipe: ByteSink {
      func write(_ bytes: UnsafeBufferPointer<UInt8>) throws(OutputError) { throw .closed }
    }
    #expect(throws: OutputError.closed) {
      try GRNWriter.write(rows: 20_000, format: .ndjson, seed: 1, to: ClosedPipe())
    }
  }
}
