/// A number a query literal spells (Docs/QueryLanguage.md, How numbers compare): held exactly,
/// at any length, and as the nearest double for the fast compare.
public struct NumberLiteral: Sendable, CustomStringConvertible {
  /// The nearest double, as `NumberParser` reads the literal.
  public let value: Double
  let exact: ExactNumber
  /// Whether the double orders it exactly against any other number that fits one.
  let fitsDouble: Bool

  init(value: Double, exact: ExactNumber) {
    self.value = value
    self.exact = exact
    fitsDouble = exact.digits.count <= NumberReading.doubleDigits
      && exact.pointAt >= -290 && exact.pointAt <= 290
  }

  /// The number written exactly (`1234567890123456789`, `12.5`), as `--explain` shows it.
  public var description: String { exact.text }

  /// Where a record value stands against this number: -1 below, 0 equal, 1 above. `reading` is
  /// what `NumberParser.read` made of `bytes` with `mark`. Different doubles decide (a correctly
  /// rounded double never reverses an order); equal ones decide only where both numbers fit a
  /// double, and the digits decide otherwise.
  @inline(__always)
  func order(of reading: NumberReading, _ bytes: UnsafeBufferPointer<UInt8>, mark: DecimalMark) -> Int {
    if reading.value < value { return -1 }
    if reading.value > value { return 1 }
    if reading.fitsDouble && fitsDouble { return 0 }
    return ExactNumber.compare(ExactNumber(accepted: bytes, mark: mark), exact)
  }

  /// Three-way numeric order of two literals.
  static func compare(_ a: NumberLiteral, _ b: NumberLiteral) -> Int {
    ExactNumber.compare(a.exact, b.exact)
  }
}
