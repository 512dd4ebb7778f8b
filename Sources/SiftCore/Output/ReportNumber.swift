/// A number as a report shows it (Docs/Reports.md, The table): its whole part's digits grouped
/// by three, its decimals padded to its column's precision: `74116.6` in a column whose values
/// have two decimals is `74,116.60`. The separator is `,` where the decimal mark is `.`, and `.`
/// where it is `,` (`74.116,60`). A text that is not a plain decimal number (`1e5`, `n/a`) is
/// left as it is.
enum ReportNumber {
  /// Where the whole part ends and how many decimals follow, or `nil` when `text` is not a plain
  /// number: an optional sign, digits, and optionally the mark and digits.
  static func parts(_ text: UnsafeBufferPointer<UInt8>, mark: UInt8) -> (whole: Int, decimals: Int)? {
    var i = 0
    if i < text.count && (text[i] == .minus || text[i] == .plus) { i += 1 }
    let digitsStart = i
    while i < text.count && text[i].isDigit { i += 1 }
    guard i > digitsStart else { return nil }
    let whole = i
    guard i < text.count else { return (whole, 0) }
    guard text[i] == mark else { return nil }
    i += 1
    let fraction = i
    while i < text.count && text[i].isDigit { i += 1 }
    guard i == text.count, i > fraction else { return nil }
    return (whole, i - fraction)
  }

  /// Appends `text` grouped and padded to `decimals`, or as it is when it is not a plain number.
  static func append(
    _ text: UnsafeBufferPointer<UInt8>, decimals: Int, mark: UInt8, to out: inout [UInt8]
  ) {
    guard let (whole, own) = parts(text, mark: mark) else {
      out.append(contentsOf: text)
      return
    }
    let separator: UInt8 = mark == .comma ? .dot : .comma
    let signed = text[0] == .minus || text[0] == .plus
    if signed { out.append(text[0]) }
    let digits = whole - (signed ? 1 : 0)
    for (n, i) in ((signed ? 1 : 0)..<whole).enumerated() {
      if n > 0 && (digits - n) % 3 == 0 { out.append(separator) }
      out.append(text[i])
    }
    guard decimals > 0 || own > 0 else { return }
    out.append(mark)
    if own > 0 { out.append(contentsOf: UnsafeBufferPointer(rebasing: text[(whole + 1)...])) }
    if decimals > own { out.append(contentsOf: repeatElement(.digitZero, count: decimals - own)) }
  }
}
