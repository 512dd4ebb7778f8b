/// Reads numbers from bytes (Docs/QueryLanguage.md, Filter terms): optional sign, digits, optional fraction and exponent;
/// in record values also thousands separators (`1,234.50`); under a decimal comma
/// (Docs/Formats.md, Decimal commas) the marks swap (`1.234,50`).
public enum NumberParser {
  private static let exactPowers: [Double] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
  ]

  /// The number the bytes spell, or `nil`. Leading and trailing ASCII spaces are ignored.
  /// With `grouping`, commas between groups of three integer digits are accepted (`1,234.50`);
  /// with `mark` `.comma` the fraction starts at a comma and points group (`1.234,50`).
  @inline(__always)
  public static func parse(
    _ bytes: UnsafeBufferPointer<UInt8>, grouping: Bool = true, mark: DecimalMark = .point
  ) -> Double? {
    read(bytes, grouping: grouping, mark: mark)?.value
  }

  /// The number the bytes spell as `parse` reads it, and whether the double tells it apart
  /// from every other number (Docs/QueryLanguage.md, How numbers compare).
  @inline(__always)
  public static func read(
    _ bytes: UnsafeBufferPointer<UInt8>, grouping: Bool = true, mark: DecimalMark = .point
  ) -> NumberReading? {
    guard let (start, end, negative) = signedDigits(bytes) else { return nil }
    let groupingByte = mark.groupingByte
    let fractionByte = mark.fractionByte
    var i = start
    var mantissa: UInt64 = 0
    var significant = 0  // digits accumulated into the mantissa
    var dropped = 0  // integer digits that did not fit
    var digits = 0
    var groupRun = 0  // digits since the last comma, -1 before any comma
    var sawComma = false
    var firstGroup = 0
    while i < end {
      let b = bytes[i]
      if b.isDigit {
        if significant < 19 {
          mantissa = mantissa &* 10 &+ UInt64(b &- .digitZero)
          if mantissa != 0 { significant += 1 }
        } else {
          dropped += 1
        }
        digits += 1
        groupRun += 1
        i += 1
      } else if b == groupingByte && grouping && digits > 0 {
        if sawComma { guard groupRun == 3 else { return nil } } else { firstGroup = groupRun }
        guard firstGroup >= 1 && firstGroup <= 3 else { return nil }
        sawComma = true
        groupRun = 0
        i += 1
      } else {
        break
      }
    }
    if sawComma { guard groupRun == 3 else { return nil } }
    var exponent = dropped
    var fractionDigits = 0
    if i < end && bytes[i] == fractionByte {
      i += 1
      while i < end, bytes[i].isDigit {
        if significant < 19 {
          mantissa = mantissa &* 10 &+ UInt64(bytes[i] &- .digitZero)
          if mantissa != 0 { significant += 1 }
          exponent -= 1
        }
        fractionDigits += 1
        i += 1
      }
      guard fractionDigits > 0 else { return nil }
    }
    guard digits > 0 else { return nil }
    if i < end && (bytes[i] == .lowerE || bytes[i] == .upperE) {
      i += 1
      var expNegative = false
      if i < end && (bytes[i] == .minus || bytes[i] == .plus) {
        expNegative = bytes[i] == .minus
        i += 1
      }
      var e = 0
      var expDigits = 0
      while i < end, bytes[i].isDigit {
        if e < 100_000 { e = e * 10 + Int(bytes[i] &- .digitZero) }
        expDigits += 1
        i += 1
      }
      guard expDigits > 0 else { return nil }
      exponent += expNegative ? -e : e
    }
    guard i == end else { return nil }
    let value: Double
    if mantissa < (1 << 53) && exponent >= -22 && exponent <= 22 {
      // Exact operands: one correctly rounded operation (Clinger's fast path).
      value = exponent < 0
        ? Double(mantissa) / exactPowers[-exponent] : Double(mantissa) * exactPowers[exponent]
    } else {
      guard let slow = slowParse(bytes, mantissa: mantissa, exponent: exponent) else { return nil }
      value = slow
    }
    return NumberReading(
      value: negative ? -value : value,
      fitsDouble: significant <= NumberReading.doubleDigits && exponent >= -300 && exponent <= 290)
  }

  /// Where a number's text starts after its sign, where it ends, and whether it is negative:
  /// leading and trailing ASCII spaces left out; `nil` when nothing but spaces is there.
  @inline(__always)
  static func signedDigits(_ bytes: UnsafeBufferPointer<UInt8>) -> (start: Int, end: Int, negative: Bool)? {
    var i = 0
    var end = bytes.count
    while i < end, bytes[i] == .space { i += 1 }
    while end > i, bytes[end - 1] == .space { end -= 1 }
    guard i < end else { return nil }
    var negative = false
    if bytes[i] == .minus || bytes[i] == .plus {
      negative = bytes[i] == .minus
      i += 1
    }
    return (i, end, negative)
  }

  /// The number in a `String` (a query literal), without thousands separators.
  public static func parse(_ text: String) -> Double? {
    var t = text
    return t.withUTF8 { parse($0, grouping: false) }
  }

  /// The number a query literal spells (Docs/QueryLanguage.md, Numbers in a file's style):
  /// first as the inputs write numbers (`mark`), then the other way. Under `.point` a literal
  /// is canonical (`1000.5`, no grouping) or else decimal-comma (`1.000,5`, `12,5`); under
  /// `.comma` it is decimal-comma first (`1.000` is 1000), else canonical (`1000.5`).
  public static func parseLiteral(_ text: String, mark: DecimalMark) -> Double? {
    literal(text, mark: mark)?.value
  }

  /// The number a query literal spells, read as `parseLiteral` reads it, held exactly too.
  public static func literal(_ text: String, mark: DecimalMark) -> NumberLiteral? {
    var t = text
    return t.withUTF8 { b in
      let canonical = read(b, grouping: false).map { ($0, DecimalMark.point) }
      let comma = { read(b, mark: .comma).map { ($0, DecimalMark.comma) } }
      let found = mark == .point ? canonical ?? comma() : comma() ?? canonical
      guard let (reading, used) = found else { return nil }
      return NumberLiteral(value: reading.value, exact: ExactNumber(accepted: b, mark: used))
    }
  }

  private static func slowParse(
    _ bytes: UnsafeBufferPointer<UInt8>, mantissa: UInt64, exponent: Int
  ) -> Double? {
    // The stdlib's correctly rounded parser, on the digits without separators.
    Double("\(mantissa)e\(exponent)")
  }
}

extension Double {
  /// The shortest text that reads back as the same number; whole numbers without `.0`.
  var shortestText: String {
    if self == rounded(), abs(self) < 1e15 { return String(Int64(self)) }
    return "\(self)"
  }
}
