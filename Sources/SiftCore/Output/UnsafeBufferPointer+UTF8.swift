extension UnsafeBufferPointer where Element == UInt8 {
  /// The Unicode scalar that starts at byte `i`, and how many bytes it takes. Ill-formed UTF-8
  /// gives `nil` and the length of its maximal ill-formed subpart (the run one U+FFFD replaces).
  func scalar(at i: Int) -> (value: Unicode.Scalar?, length: Int) {
    let lead = self[i]
    if lead < 0x80 { return (Unicode.Scalar(lead), 1) }
    var bytes = UnsafeBufferPointer(rebasing: self[i...]).makeIterator()
    var parser = Unicode.UTF8.ForwardParser()
    switch parser.parseScalar(from: &bytes) {
    case .valid(let encoded): return (Unicode.UTF8.decode(encoded), encoded.count)
    case .error(let length): return (nil, Swift.max(length, 1))
    case .emptyInput: return (nil, 1)
    }
  }
}

/// The UTF-8 bytes of U+FFFD, the replacement for ill-formed input.
let replacementCharacterBytes: StaticString = "\u{FFFD}"
