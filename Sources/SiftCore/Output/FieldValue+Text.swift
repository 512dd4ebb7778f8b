extension FieldValue {
  /// Calls `body` with the value's text as a CSV, Markdown or table cell shows it: strings
  /// decoded, numbers and booleans as written, nested JSON minified, `null` and missing empty.
  /// The raw bytes are passed straight through when they are the text; otherwise the text is
  /// made in `scratch`.
  public func withText<R>(scratch: inout [UInt8], _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
    switch form {
    case .missing, .jsonNull:
      return body(UnsafeBufferPointer(start: nil, count: 0))
    case .plain, .jsonNumber, .jsonBool:
      return body(raw)
    case .csvQuoted, .jsonString:
      // Only a doubled quote (CSV) or a backslash escape (JSON) needs decoding.
      let escape: UInt8 = form == .csvQuoted ? .quote : .backslash
      let inside = content
      if !inside.contains(escape) { return body(inside) }
      scratch = decodedBytes()
    case .jsonNested:
      scratch.removeAll(keepingCapacity: true)
      JSONText.appendMinified(raw, to: &scratch)
    }
    return scratch.withUnsafeBufferPointer(body)
  }
}
