/// What kind of value a field holds, from its encoding and first byte.
public enum ValueForm: Sendable, Equatable {
  /// The field is not in the record (a JSON object without the key).
  case missing
  /// The raw bytes are the value (unquoted CSV, TSV).
  case plain
  /// A quoted CSV field: raw bytes include the quotes; `""` inside stands for `"`.
  case csvQuoted
  /// A JSON string: raw bytes include the quotes and escapes.
  case jsonString
  /// A JSON number: raw bytes are its text.
  case jsonNumber
  /// `true` or `false`.
  case jsonBool
  /// `null`.
  case jsonNull
  /// An object or array: raw bytes are its text.
  case jsonNested
}

/// One field of one record: its raw bytes and how to read them. Valid only while its batch is.
public struct FieldValue {
  /// The field's bytes as written in the input (quotes and escapes included).
  public let raw: UnsafeBufferPointer<UInt8>
  public let form: ValueForm

  public init(missingWith encoding: FieldEncoding) {
    raw = UnsafeBufferPointer(start: nil, count: 0)
    form = .missing
  }

  public init(raw: UnsafeBufferPointer<UInt8>, form: ValueForm) {
    self.raw = raw
    self.form = form
  }

  public init(raw: UnsafeBufferPointer<UInt8>, encoding: FieldEncoding) {
    self.raw = raw
    // `count` and a subscript, not `first`: every value read is made here, and a debug build
    // calls `first` through the generic Collection.
    let first: UInt8? = raw.count > 0 ? raw[0] : nil
    switch encoding {
    case .plain:
      form = .plain
    case .csv:
      form = first == UInt8(ascii: "\"") ? .csvQuoted : .plain
    case .json:
      switch first {
      case UInt8(ascii: "\""): form = .jsonString
      case UInt8(ascii: "{"), UInt8(ascii: "["): form = .jsonNested
      case UInt8(ascii: "t"), UInt8(ascii: "f"): form = .jsonBool
      case UInt8(ascii: "n"): form = .jsonNull
      case nil: form = .missing
      default: form = .jsonNumber
      }
    }
  }
}
