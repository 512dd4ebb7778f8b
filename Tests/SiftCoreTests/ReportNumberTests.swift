import Testing

@testable import SiftCore

/// Numbers and nested values as an HTML report shows them (Docs/Reports.md, The table).
@Suite struct ReportNumberTests {
  @Test(arguments: [
    ("74116.61", 2, UInt8(ascii: "."), "74,116.61"),
    ("386.3", 2, UInt8(ascii: "."), "386.30"),
    ("3743", 2, UInt8(ascii: "."), "3,743.00"),
    ("1500", 0, UInt8(ascii: "."), "1,500"),
    ("999", 0, UInt8(ascii: "."), "999"),
    ("-1234567.5", 1, UInt8(ascii: "."), "-1,234,567.5"),
    ("+1000", 0, UInt8(ascii: "."), "+1,000"),
    ("74116,6", 2, UInt8(ascii: ","), "74.116,60"),
    ("1e5", 2, UInt8(ascii: "."), "1e5"),
    ("n/a", 2, UInt8(ascii: "."), "n/a"),
    ("12.", 2, UInt8(ascii: "."), "12."),
    ("", 2, UInt8(ascii: "."), ""),
  ])
  func groupedAndPadded(text: String, decimals: Int, mark: UInt8, shown: String) {
    var out: [UInt8] = []
    Array(text.utf8).withUnsafeBufferPointer {
      ReportNumber.append($0, decimals: decimals, mark: mark, to: &out)
    }
    #expect(String(decoding: out, as: UTF8.self) == shown)
  }

  @Test(arguments: [
    (#"{"name":"Acme","id":"C023"}"#, "name: Acme; id: C023"),
    (#"[]"#, ""),
    (#"["export","eu"]"#, "export, eu"),
    (#"[{"sku":"A1","qty":2},{"sku":"B\"2","n":null}]"#, #"(sku: A1; qty: 2), (sku: B"2; n: )"#),
    (#"{"a":{"b":[1,true]}}"#, "a: (b: (1, true))"),
  ])
  func nestedValuesReadAsText(json: String, shown: String) {
    var out: [UInt8] = []
    Array(json.utf8).withUnsafeBufferPointer {
      ReadableNested.append(FieldValue(raw: $0, encoding: .json), to: &out)
    }
    #expect(String(decoding: out, as: UTF8.self) == shown)
  }
}
