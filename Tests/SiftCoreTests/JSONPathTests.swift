import Testing
@testable import SiftCore

@Suite struct JSONPathTests {
  /// The decoded values at a dotted path inside a JSON text.
  func values(_ path: String, in json: String) -> [String] {
    let bytes = Array(json.utf8)
    return bytes.withUnsafeBufferPointer { b in
      var out: [FieldValue] = []
      JSONPath.values(
        at: path.split(separator: ".").map(String.init)[...],
        in: FieldValue(raw: b, encoding: .json), into: &out)
      return out.map(\.string)
    }
  }

  func paths(_ json: String) -> [String] {
    Array(json.utf8).withUnsafeBufferPointer { b in
      JSONPath.nestedPaths(of: FieldValue(raw: b, encoding: .json))
    }
  }

  @Test(arguments: [
    ("name", "{\"name\": \"Acme\", \"id\": 7}", ["Acme"]),
    ("address.city", "{\"address\": {\"city\": \"Oslo\", \"zip\": \"0150\"}}", ["Oslo"]),
    ("a", "{\"a\": 1, \"a\": 2}", ["2"]),
    ("k\"ey", "{\"k\\\"ey\": true}", ["true"]),
    ("missing", "{\"a\": 1}", []),
    ("a.b", "{\"a\": 5}", []),
    ("tags", "{\"tags\": [\"red\", \"blue\"]}", ["red", "blue"]),
    (
      "items.sku", "{\"items\": [{\"sku\": \"A1\"}, {\"qty\": 2}, {\"sku\": \"B2\"}]}",
      ["A1", "B2"]
    ),
    ("sku", "[{\"sku\": \"A1\"}, [{\"sku\": \"C3\"}]]", ["A1", "C3"]),
    ("x", "{\"x\": {\"y\": [1, 2]}}", ["{\"y\": [1, 2]}"]),
  ])
  func followsPathsThroughObjectsAndArrays(path: String, json: String, expected: [String]) {
    #expect(values(path, in: json) == expected)
  }

  @Test func listsNestedPathsInFirstSeenOrder() {
    #expect(
      paths(
        "{\"name\": \"Acme\", \"address\": {\"city\": \"Oslo\", \"geo\": {\"lat\": 1}}, "
          + "\"id\": 3}")
        == ["name", "address.city", "address.geo.lat", "id"])
    #expect(
      paths(
        "{\"items\": [{\"sku\": \"A\"}, {\"sku\": \"B\", \"qty\": 2}], "
          + "\"tags\": [\"x\"], \"e\": {}}")
        == ["items.sku", "items.qty", "tags", "e"])
    #expect(paths("\"text\"") == [])
  }

  @Test func malformedTextYieldsNothing() {
    #expect(values("a", in: "{\"a\": [1, ") == [])
    #expect(paths("{\"a\": tru") == [])
  }
}
