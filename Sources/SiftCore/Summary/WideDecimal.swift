/// A decimal number of any size held exactly, `±magnitude / 10^scale`: what a sum or mean keeps
/// once `ExactDecimal`'s 128 bits cannot hold it, and how a number with an exponent
/// (`1.234560e+07`, `5E-3`) or more than 18 digits is summed (Docs/Aggregates.md, Exact sums).
/// Its sums are exact, so they never depend on the order of the additions, and so on `-j`.
struct WideDecimal: Equatable {
  var negative: Bool
  /// The magnitude in base 10^9, least significant limb first, with no zero limb at the most
  /// significant end (empty for zero).
  var limbs: [UInt32]
  /// Digits after the decimal point.
  var scale: Int

  static let base: UInt64 = 1_000_000_000
  /// The most decimals an exact sum keeps (Docs/Aggregates.md, Exact sums): a number that
  /// needs more once its exponent is applied (`1e-401`) is left out and counted.
  static let maxScale = 400

  /// What a record value reads as, for a sum.
  enum Reading: Equatable {
    /// The number, exactly.
    case value(WideDecimal)
    /// A number beyond the range of a `Double` (`1e400`): infinite, as filters read it
    /// (Docs/Aggregates.md, Overflow).
    case infinite(Double)
    /// A number with more than `maxScale` decimals once its exponent is applied.
    case tooFine
  }

  init(negative: Bool, limbs: [UInt32], scale: Int) {
    self.negative = negative
    self.limbs = limbs
    self.scale = scale
    trim()
  }

  init(_ exact: ExactDecimal) {
    var magnitude = exact.units.magnitude
    var limbs: [UInt32] = []
    while magnitude > 0 {
      let (q, r) = magnitude.quotientAndRemainder(dividingBy: UInt128(Self.base))
      limbs.append(UInt32(truncatingIfNeeded: r))
      magnitude = q
    }
    self.init(negative: exact.units < 0, limbs: limbs, scale: exact.scale)
  }

  /// Reads a record value as a number, as filters read one (Docs/QueryLanguage.md, Values and
  /// types): `-1,234.50`, `1.234560e+07`, `5E-3`, under a decimal comma `1.234,5e3`; `nil` when
  /// the bytes are not a number. Its decimals are its fraction's digits less its exponent
  /// (`5E-3` has 3, `1.234560e+07` none).
  static func read(_ bytes: UnsafeBufferPointer<UInt8>, mark: DecimalMark = .point) -> Reading? {
    guard let double = NumberParser.parse(bytes, mark: mark) else { return nil }
    guard double.isFinite else { return .infinite(double) }
    guard let (start, end, negative) = NumberParser.signedDigits(bytes) else { return nil }
    var digits: [UInt8] = []
    guard
      let (fraction, exponent) = scan(bytes, from: start, to: end, mark: mark, digit: { d in
        if !digits.isEmpty || d != 0 { digits.append(d) }
        return true
      })
    else { return nil }
    let decimals = fraction - exponent
    if digits.isEmpty { return decimals > maxScale ? .tooFine : .value(zero(scale: max(decimals, 0))) }
    guard decimals <= maxScale else { return .tooFine }
    // A finite number has at most 309 digits before its point, so the zeros are bounded.
    if decimals < 0 { digits += repeatElement(0, count: -decimals) }
    return .value(WideDecimal(negative: negative, digits: digits, scale: max(decimals, 0)))
  }

  /// Walks the digits of bytes NumberParser read as a number (digits, grouped or not, an
  /// optional fraction, an optional exponent) from `start` to `end`: calls `digit` with each
  /// digit's value, most significant first, and gives how many were in the fraction and the
  /// exponent; `nil` when `digit` returns false, which stops the walk.
  @inline(__always)
  static func scan(
    _ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int, mark: DecimalMark,
    digit: (UInt8) -> Bool
  ) -> (fraction: Int, exponent: Int)? {
    var fraction = 0
    var inFraction = false
    var i = start
    while i < end {
      let b = bytes[i]
      if b.isDigit {
        guard digit(b &- .digitZero) else { return nil }
        if inFraction { fraction += 1 }
      } else if b == mark.fractionByte {
        inFraction = true
      } else if b == .lowerE || b == .upperE {
        return (fraction, exponent(bytes[(i + 1)..<end]))
      }
      i += 1
    }
    return (fraction, 0)
  }

  /// An exponent's value (`+07`, `-3`), held within ±1,000,000.
  private static func exponent(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> Int {
    var e = 0
    var negative = false
    for b in bytes {
      if b == .minus { negative = true } else if b.isDigit, e < 1_000_000 {
        e = e * 10 + Int(b &- .digitZero)
      }
    }
    return negative ? -e : e
  }

  /// The number in 128 bits, when its magnitude is below 10^36 and its scale at most 36, so
  /// that `ExactDecimal`'s quick sums can take it; `nil` otherwise.
  var exact: ExactDecimal? {
    guard limbs.count <= 4, scale <= 36 else { return nil }
    var units: Int128 = 0
    for limb in limbs.reversed() { units = units * Int128(Self.base) + Int128(limb) }
    return ExactDecimal(units: negative ? -units : units, scale: scale)
  }

  static func zero(scale: Int) -> WideDecimal {
    WideDecimal(negative: false, limbs: [], scale: scale)
  }

  /// From decimal digits (values 0 to 9, most significant first).
  private init(negative: Bool, digits: [UInt8], scale: Int) {
    var limbs: [UInt32] = []
    limbs.reserveCapacity(digits.count / 9 + 1)
    var end = digits.count
    while end > 0 {
      let start = max(0, end - 9)
      var limb: UInt32 = 0
      for d in digits[start..<end] { limb = limb * 10 + UInt32(d) }
      limbs.append(limb)
      end = start
    }
    self.init(negative: negative, limbs: limbs, scale: scale)
  }

  private mutating func trim() {
    while limbs.last == 0 { limbs.removeLast() }
    if limbs.isEmpty { negative = false }
  }

  var isZero: Bool { limbs.isEmpty }

  /// `self` written with `scale` decimals (at least its own).
  func rescaled(to scale: Int) -> WideDecimal {
    let shift = scale - self.scale
    guard shift > 0, !isZero else { return WideDecimal(negative: negative, limbs: limbs, scale: scale) }
    var limbs = Array(repeating: UInt32(0), count: shift / 9) + self.limbs
    var factor: UInt64 = 1
    for _ in 0..<(shift % 9) { factor *= 10 }
    var carry: UInt64 = 0
    for k in limbs.indices {
      let v = UInt64(limbs[k]) * factor + carry
      limbs[k] = UInt32(v % Self.base)
      carry = v / Self.base
    }
    if carry > 0 { limbs.append(UInt32(carry)) }
    return WideDecimal(negative: negative, limbs: limbs, scale: scale)
  }

  /// The exact sum, with the larger scale.
  func adding(_ other: WideDecimal) -> WideDecimal {
    let scale = Swift.max(self.scale, other.scale)
    let a = rescaled(to: scale)
    let b = other.rescaled(to: scale)
    if a.negative == b.negative {
      return WideDecimal(negative: a.negative, limbs: Self.add(a.limbs, b.limbs), scale: scale)
    }
    if Self.compare(a.limbs, b.limbs) >= 0 {
      return WideDecimal(negative: a.negative, limbs: Self.subtract(a.limbs, b.limbs), scale: scale)
    }
    return WideDecimal(negative: b.negative, limbs: Self.subtract(b.limbs, a.limbs), scale: scale)
  }

  /// `self / divisor` with `extra` more decimals, rounded half to even.
  func divided(by divisor: Int, extra: Int) -> WideDecimal {
    let scaled = rescaled(to: scale + extra)
    let d = UInt128(divisor)
    var quotient = Array(repeating: UInt32(0), count: scaled.limbs.count)
    var remainder: UInt128 = 0
    for k in scaled.limbs.indices.reversed() {
      let v = remainder * UInt128(Self.base) + UInt128(scaled.limbs[k])
      quotient[k] = UInt32(truncatingIfNeeded: v / d)
      remainder = v % d
    }
    let twice = remainder * 2
    if twice > d || (twice == d && (quotient.first ?? 0) % 2 != 0) {
      quotient = Self.add(quotient, [1])
    }
    return WideDecimal(negative: negative, limbs: quotient, scale: scale + extra)
  }

  /// Whether the number lies beyond the range of a `Double` (±1.8 × 10^308): a sum that does is
  /// written as infinite (Docs/Aggregates.md, Overflow).
  var isBeyondDouble: Bool {
    var digits: [UInt8] = []
    appendDigits(to: &digits)
    let integerDigits = digits.count - scale
    let maximum = Self.greatestFiniteDigits
    guard integerDigits >= maximum.count else { return false }
    if integerDigits > maximum.count { return true }
    for (a, b) in zip(digits[..<integerDigits], maximum) where a != b { return a > b }
    return digits[integerDigits...].contains { $0 != .digitZero }
  }

  /// `Double.greatestFiniteMagnitude` written as a whole number.
  static let greatestFiniteDigits = Array(
    ("17976931348623157081452742373170435679807056752584499659891747680315726078002853876058955"
      + "86327668781715404589535143824642343213268894641827684675467035375169860499105765512820762"
      + "45490090389328944075868508455133942304583236903222948165808559332123348274797826204144723"
      + "168738177180919299881250404026184124858368").utf8)

  /// The magnitude's digits, at least `scale + 1` of them (`0.05` is `005`).
  private func appendDigits(to out: inout [UInt8]) {
    let first = out.count
    if let top = limbs.last { out += String(top).utf8 }
    for limb in limbs.dropLast().reversed() {
      let text = String(limb).utf8
      out += repeatElement(UInt8.digitZero, count: 9 - text.count)
      out += text
    }
    let missing = scale + 1 - (out.count - first)
    if missing > 0 { out.insert(contentsOf: repeatElement(UInt8.digitZero, count: missing), at: first) }
  }

  /// Appends the number written plainly with exactly `scale` decimals: `0.30`, `-12`.
  func append(to out: inout [UInt8]) {
    if negative { out.append(.minus) }
    appendDigits(to: &out)
    if scale > 0 { out.insert(.dot, at: out.count - scale) }
  }

  // MARK: Magnitudes, base 10^9, least significant first

  private static func add(_ a: [UInt32], _ b: [UInt32]) -> [UInt32] {
    var out: [UInt32] = []
    out.reserveCapacity(max(a.count, b.count) + 1)
    var carry: UInt64 = 0
    for k in 0..<max(a.count, b.count) {
      let v = UInt64(k < a.count ? a[k] : 0) + UInt64(k < b.count ? b[k] : 0) + carry
      out.append(UInt32(v % base))
      carry = v / base
    }
    if carry > 0 { out.append(UInt32(carry)) }
    return out
  }

  /// `a - b`, where `a >= b`.
  private static func subtract(_ a: [UInt32], _ b: [UInt32]) -> [UInt32] {
    var out: [UInt32] = []
    out.reserveCapacity(a.count)
    var borrow: Int64 = 0
    for k in a.indices {
      var v = Int64(a[k]) - Int64(k < b.count ? b[k] : 0) - borrow
      borrow = v < 0 ? 1 : 0
      if v < 0 { v += Int64(base) }
      out.append(UInt32(v))
    }
    return out
  }

  private static func compare(_ a: [UInt32], _ b: [UInt32]) -> Int {
    if a.count != b.count { return a.count < b.count ? -1 : 1 }
    for k in a.indices.reversed() where a[k] != b[k] { return a[k] < b[k] ? -1 : 1 }
    return 0
  }
}
