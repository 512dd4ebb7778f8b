import Foundation  // JSONSerialization: the sample JSON must parse with an independent reader.
import SiftCore
import Testing

@testable import SiftBenchKit

@Suite struct SampleDataTests {
  static let files = Dictionary(
    uniqueKeysWithValues: SampleData.files().map { ($0.name, $0.bytes) })

  func text(_ name: String) throws -> String {
    String(decoding: try #require(Self.files[name]), as: UTF8.self)
  }

  func json(_ text: some StringProtocol) throws -> Any {
    try JSONSerialization.jsonObject(with: Data(text.utf8))
  }

  /// The bytes of a committed file under SampleData/.
  func committed(_ name: String) throws -> [UInt8] {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    let source = try ByteSource(path: root.appendingPathComponent("SampleData/\(name)").path)
    var bytes: [UInt8] = []
    while try source.read(into: &bytes, maxCount: 1 << 16) > 0 {}
    return bytes
  }

  @Test func theCommittedFilesAreExactlyWhatTheGeneratorMakes() throws {
    #expect(
      SampleData.files().map(\.name) == [
        "grn.csv", "dispatch.csv", "invoices.json", "orders.ndjson",
      ])
    for file in SampleData.files() {
      #expect(
        try committed(file.name) == file.bytes, "regenerate: swift run sift-bench sample SampleData"
      )
      #expect(Self.files[file.name] == file.bytes, "\(file.name) is the same on every run")
    }
  }

  @Test func grnHasTheMessOfARealExport() throws {
    let text = try text("grn.csv")
    #expect(!text.utf8.contains(UInt8(ascii: "\r")))
    let rows = csvRows(text)
    let header = "grn_no,date,status,customer,warehouse,sku,item,qty,unit_price,amount,"
    #expect(rows.first?.joined(separator: ",") == header + "empty_stock,updated")
    let records = rows.dropFirst()
    #expect(records.count == 1500)
    #expect(records.allSatisfy { $0.count == 12 })
    #expect(records.filter { $0[3].isEmpty }.count == 6)
    #expect(records.filter { $0[7] == "n/a" && $0[9].isEmpty }.count == 4)
    #expect(records.filter { $0[7] == "NA" && $0[9].isEmpty }.count == 3)
    #expect(records.filter { $0[6].contains("\n") }.count == 2)
    #expect(records.filter { $0[8].contains(",") }.count == 5)
    #expect(text.contains(#","1,"#))
    let acmeReceived = records.filter { $0[3] == "Acme" && $0[2] == "received" }
    #expect(Set(acmeReceived.map { $0[1] }).count >= 10)
    #expect(records.filter { $0[1] == "2024-06-12" }.count >= 1)
    #expect(records.filter { $0[11].hasPrefix("2024-06-12T") }.count >= 12)
    #expect(records.filter { $0[11] >= "2024-06-10" && $0[11] < "2024-06-12" }.count >= 20)
    #expect(
      records.allSatisfy { $0[11] < "2024-06-12T10:00" && String($0[11].prefix(10)) >= $0[1] })
  }

  @Test func dispatchIsAWindowsExport() throws {
    let bytes = try #require(Self.files["dispatch.csv"])
    #expect(bytes.starts(with: [0xEF, 0xBB, 0xBF]))
    #expect(bytes.last != UInt8(ascii: "\n"))
    let lineFeeds = bytes.indices.filter { bytes[$0] == UInt8(ascii: "\n") }
    #expect(lineFeeds.allSatisfy { bytes[$0 - 1] == UInt8(ascii: "\r") })
    let rows = csvRows(String(try text("dispatch.csv").dropFirst()), lineEnd: "\r\n")
    #expect(
      rows.first == [
        "dispatch_no", "date", "status", "customer", "carrier", "destination", "grn_no",
        "packages", "weight_kg", "shipped_at",
      ])
    let records = rows.dropFirst()
    #expect(records.count == 800)
    #expect(records.allSatisfy { $0.count == 10 })
    #expect(
      Set(records.map { $0[2] })
        == ["planned", "picking", "packed", "shipped", "delivered", "cancelled"])
    for r in records {
      #expect(r[9].isEmpty == !["shipped", "delivered"].contains(r[2]), "shipped_at of \(r[0])")
      #expect(r[9].isEmpty || (r[9].count == 16 && r[9] >= r[1] && r[9] < "2024-06-12 10:00"))
    }
    #expect(records.contains { $0[5] == "Malmö, SE" })
    #expect(records.contains { $0[6].isEmpty } && records.contains { $0[8].isEmpty })
  }

  @Test func invoicesAreOnePrettyPrintedArrayInAnObject() throws {
    let text = try text("invoices.json")
    #expect(text.hasPrefix("{\n  \"invoices\": [\n    {\n      \"invoice_no\": \"INV-2023-0001\","))
    let top = try #require(try json(text) as? [String: Any])
    #expect(Array(top.keys) == ["invoices"])
    let invoices = try #require(top["invoices"] as? [[String: Any]])
    #expect(invoices.count == 600)
    #expect(
      Set(invoices.compactMap { $0["status"] as? String }) == ["paid", "open", "overdue", "void"])
    for invoice in invoices {
      let date = try #require(invoice["date"] as? String)
      let year = try #require(Int(date.prefix(4)))
      let start = date >= "\(year)-04-01" ? year : year - 1
      #expect(invoice["financial_year"] as? String == "\(start)/\(String(start + 1).suffix(2))")
      let customer = try #require(invoice["customer"] as? [String: Any])
      #expect(
        customer["name"] is String && customer["id"] is String && customer["country"] is String)
      #expect((invoice["paid_on"] is NSNull) == (invoice["status"] as? String != "paid"))
      #expect((invoice["due"] is NSNull) == (invoice["status"] as? String == "void"))
      #expect(invoice["tags"] is [String])
    }
    #expect(text.contains("\"tags\": []") && text.contains("\"tags\": [\n        \""))
    #expect(text.contains(#""name": "The \"Best\" Supplies""#))
  }

  @Test func ordersClusterAroundTheSampleToday() throws {
    let lines = try text("orders.ndjson").split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.last == "")
    #expect(lines.dropLast().filter(\.isEmpty).count == 2)
    let orders = try lines.filter { !$0.isEmpty }.map {
      try #require(try json($0) as? [String: Any])
    }
    #expect(orders.count == 1000)
    let updated = orders.compactMap { $0["updated"] as? String }
    #expect(updated.count == 1000)
    #expect(updated.filter { $0.hasPrefix("2024-06-12T") }.count >= 50)
    #expect(updated.filter { $0 >= "2024-06-10" && $0 < "2024-06-12" }.count >= 100)
    #expect(updated.filter { $0.hasPrefix("2024-06-0") }.count >= 200)
    #expect(updated.filter { $0 < "2024-06" }.count >= 300)
    #expect(updated.filter { $0.hasSuffix("+02:00") }.count >= 20)
    #expect(updated.allSatisfy { $0.hasSuffix("Z") || $0.hasSuffix("+02:00") })
    #expect(
      Set(orders.compactMap { $0["status"] as? String })
        == ["new", "allocated", "picked", "shipped", "cancelled"])
    #expect(orders.contains { $0["note"] != nil } && orders.contains { $0["note"] == nil })
  }
}
