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
}
