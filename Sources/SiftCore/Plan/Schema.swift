/// The fields of the whole input (all files united) and what the sample showed of them.
public struct Schema: Sendable {
  /// Top-level field names in first-seen order.
  public var names: [String]
  /// Dotted sub-paths seen inside nested JSON values, per top-level field index
  /// (`["name", "id"]` for `customer`), in first-seen order.
  public var nestedPaths: [Int: [String]]
  /// Header bytes as the input wrote them, per top-level field index, where they differ from
  /// the name (a duplicate CSV header `a` is the field `a_2`; Docs/Formats.md).
  public var headers: [Int: [UInt8]] = [:]

  public init(names: [String], nestedPaths: [Int: [String]] = [:]) {
    self.names = names
    self.nestedPaths = nestedPaths
  }

  /// The header of top-level field `index` as the input wrote it.
  public func header(_ index: Int) -> [UInt8] {
    headers[index] ?? Array(names[index].utf8)
  }

  /// Every name a query can use: top-level names, then `field.path` for nested ones.
  public var allNames: [String] {
    var out: [String] = []
    for (i, name) in names.enumerated() {
      out.append(name)
      for p in nestedPaths[i] ?? [] { out.append(name + "." + p) }
    }
    return out
  }
}

/// A field the query names, resolved against the schema.
public struct ResolvedField: Hashable, Sendable {
  /// Index of the top-level field in `Schema.names`.
  public var index: Int
  /// Keys to follow inside a nested JSON value; empty for a top-level field.
  public var path: [String]
  /// The name as the input spells it (`customer.name`), for headers and chips.
  public var name: String

  public init(index: Int, path: [String], name: String) {
    self.index = index
    self.path = path
    self.name = name
  }
}
