import Testing
@testable import SiftCore

@Suite struct FieldValueTests {
  func decode(_ text: String, _ encoding: FieldEncoding) -> (ValueForm, String, Bool) {
    let bytes = Array(text.utf8)
    return bytes.withUnsafeBufferPointer { b in
      let v = FieldValue(raw: b, encoding: encoding)
      return (v.form, String(decoding: v.decodedBytes(), as: UTF8.self), v.isNullLike)
    }
  }

  @Test(arguments: [
    ("abc", FieldEncoding.csv, ValueForm.plain, "abc", false),
    ("\"a,\"\"b\"\"\"", .csv, .csvQuoted, "a,\"b\"", false),
    ("\"\"", .csv, .csvQuoted, "", true),
    ("NA", .csv, .plain, "NA", true),
    ("N/A", .plain, .plain, "N/A", true),
    ("None", .csv, .plain, "None", true),
    ("-", .csv, .plain, "-", true),
    ("\"x\"", .plain, .plain, "\"x\"", false),
    ("\"a\\n\\u00fc\\ud83d\\ude00\"", .json, .jsonString, "a\nü😀", false),
    ("null", .json, .jsonNull, "null", true),
    ("12.5", .json, .jsonNumber, "12.5", false),
    ("{\"a\":1}", .json, .jsonNested, "{\"a\":1}", false),
  ])
  func decodes(text: String, encoding: FieldEncoding, form: ValueForm, value: String, null: Bool) {
    let (f, v, n) = decode(text, encoding)
    #expect(f == form)
    #expect(v == value)
    #expect(n == null)
  }

  /// A JSON string is used as written only without a backslash, wherever in a word it falls
  /// (the check goes eight bytes at a time, the last word overlapping).
  @Test(arguments: 0...20)
  func aJSONStringWithABackslashAnywhereIsDecoded(length: Int) {
    func verbatim(_ text: String) -> Bool {
      Array(text.utf8).withUnsafeBufferPointer { FieldValue(raw: $0, encoding: .json).isVerbatim }
    }
    #expect(verbatim("\"" + String(repeating: "a", count: length) + "\""))
    for at in 0..<length {
      let before = String(repeating: "a", count: at)
      let after = String(repeating: "b", count: length - at)
      let text = "\"" + before + "\\\\" + after + "\""
      #expect(!verbatim(text))
      #expect(decode(text, .json).1 == before + "\\" + after)
    }
  }
}
