/// A decimal number held exactly as `units / 10^scale` (Docs/Aggregates.md, Exact sums): what
/// sums and means add up, so that `0.10 + 0.20` is `0.30`. Numbers with more than 18 significant
/// digits or an exponent are not read as one; the caller falls back to `Double`.
struct ExactDecimal: Equatable {
  var units: Int128
  /// Digits after the decimal point.
  var scale: Int

  static let maxDigits = 18

  /// Reads a number as record values write it (`-1,234.50`, ` 7 `; under a decimal comma
  /// `-1.234,50`); `nil` when the bytes are not a plain decimal of at most 18 significant digits.
  init?(_ bytes: UnsafeBufferPointer<UInt8>, mark: DecimalMark = .point) {
    guard let (start, end, negative) = NumberParser.signedDigits(bytes) else { return nil }
    let groupingByte = mark.groupingByte
    let fractionByte = mark.fractionByte
    var i = start
    var units: Int64 = 0
    var significant = 0
    var digits = 0
    var scale = 0
    var groupRun = 0
    var sawComma = false
    var firstGroup = 0
    var sawDot = false
    while i < end {
      let b = bytes[i]
      if b.isDigit {
        units = units &* 10 &+ Int64(b &- .digitZero)
        if units != 0 { significant += 1 }
        guard significant <= Self.maxDigits else { return nil }
        digits += 1
        if sawDot { scale += 1 } else { groupRun += 1 }
      } else if b == groupingByte && !sawDot && digits > 0 {
        if sawComma { guard groupRun == 3 else { return nil } } else { firstGroup = groupRun }
        guard firstGroup >= 1 && firstGroup <= 3 else { return nil }
        sawComma = true
        groupRun = 0
      } else if b == fractionByte && !sawDot && digits > 0 {
        if sawComma { guard groupRun == 3 else { return nil } }
        sawDot = true
      } else {
        return nil
      }
      i += 1
    }
    guard digits > 0, !(sawDot && scale == 0) else { return nil }
    if sawComma && !sawDot { guard groupRun == 3 else { return nil } }
    let signed = negative ? -units : units
    self.units = Int128(truncatingIfNeeded: signed)
    self.scale = scale
  }

  /// Reads a number with an exponent (`1.234560e+07`, `-5E-3`, `1,234.5e2`) whose digits fit
  /// in 18 and whose value fits in 36 digits once its exponent is applied, without the
  /// allocations of `WideDecimal.read`, which reads every other number; `nil` for those and for
  /// bytes that are not a number. Its scale is its fraction's digits less its exponent, at
  /// least 0 (Docs/Aggregates.md, Exact sums and means).
  init?(exponentForm bytes: UnsafeBufferPointer<UInt8>, mark: DecimalMark = .point) {
    guard let v = NumberParser.parse(bytes, mark: mark), v.isFinite,
      let (start, end, negative) = NumberParser.signedDigits(bytes)
    else { return nil }
    var units: Int64 = 0
    var significant = 0
    guard
      let (fraction, exponent) = WideDecimal.scan(bytes, from: start, to: end, mark: mark, digit: { d in
        units = units &* 10 &+ Int64(d)
        if units != 0 { significant += 1 }
        return significant <= Self.maxDigits
      })
    else { return nil }
    let decimals = fraction - exponent
    guard decimals >= -Self.maxDigits, decimals <= 36 else { return nil }
    let signed = Int128(negative ? -units : units)
    self.units = decimals < 0 ? signed * Self.power(-decimals) : signed
    self.scale = max(decimals, 0)
  }

  /// The units and scale of the commonest form of a value, `-12.50` (digits, at most one point
  /// with digits on both sides, at most 18 digits, an optional minus), read in one short loop;
  /// `nil` for every other form, which `init?(_:)` reads.
  @inline(__always)
  static func plainUnits(
    _ bytes: UnsafeBufferPointer<UInt8>, mark: DecimalMark = .point
  ) -> (units: Int64, scale: Int)? {
    let fractionByte = mark.fractionByte
    var i = 0
    let negative = bytes.first == .minus
    if negative { i = 1 }
    let start = i
    var units: Int64 = 0
    var point = -1
    while i < bytes.count {
      let b = bytes[i]
      if b &- .digitZero < 10 {
        units = units &* 10 &+ Int64(b &- .digitZero)
      } else if b == fractionByte && point < 0 && i > start {
        point = i
      } else {
        return nil
      }
      i += 1
    }
    let digits = bytes.count - start - (point < 0 ? 0 : 1)
    guard digits > 0, digits <= maxDigits, point != bytes.count - 1 else { return nil }
    return (negative ? -units : units, point < 0 ? 0 : bytes.count - 1 - point)
  }

  init(units: Int128, scale: Int) {
    self.units = units
    self.scale = scale
  }

  private static let doublePowers: [Double] = (0...36).map { p in
    var v = 1.0
    for _ in 0..<p { v *= 10 }
    return v
  }

  static func power(_ n: Int) -> Int128 {
    n < powers.count ? powers[n] : powers[powers.count - 1] * power(n - powers.count + 1)
  }

  private static let powers: [Int128] = {
    var out: [Int128] = [1]
    for _ in 0..<38 { out.append(out[out.count - 1] &* 10) }
    return out
  }()

  /// `self` written with `scale` decimals (which must be at least its own).
  func rescaled(to scale: Int) -> Int128? {
    if scale == self.scale { return units }
    guard scale - self.scale < 38 else { return nil }
    let (v, overflow) = units.multipliedReportingOverflow(by: Self.power(scale - self.scale))
    return overflow ? nil : v
  }

  /// The sum, with the larger scale; `nil` on overflow.
  func adding(_ other: ExactDecimal) -> ExactDecimal? {
    let scale = Swift.max(self.scale, other.scale)
    guard let a = rescaled(to: scale), let b = other.rescaled(to: scale) else { return nil }
    let (sum, overflow) = a.addingReportingOverflow(b)
    return overflow ? nil : ExactDecimal(units: sum, scale: scale)
  }

  /// Adds `other` in place; false (and `self` unchanged) on overflow.
  mutating func add(_ other: ExactDecimal) -> Bool {
    guard let sum = adding(other) else { return false }
    units = sum.units
    scale = sum.scale
    return true
  }

  /// `self / divisor` with `extra` more decimals, rounded half to even; `nil` on overflow.
  func divided(by divisor: Int, extra: Int) -> ExactDecimal? {
    guard divisor > 0, let scaled = rescaled(to: scale + extra) else { return nil }
    let d = Int128(divisor)
    var (q, r) = scaled.quotientAndRemainder(dividingBy: d)
    if r < 0 { r = -r }
    // Round half to even, on magnitudes.
    let twice = r * 2
    if twice > d || (twice == d && q % 2 != 0) { q += scaled < 0 ? -1 : 1 }
    return ExactDecimal(units: q, scale: scale + extra)
  }

  var double: Double {
    if let small = Int64(exactly: units) { return Double(small) / Self.doublePowers[min(scale, 36)] }
    let high = Double(Int64(truncatingIfNeeded: units >> 64))
    let low = Double(UInt64(truncatingIfNeeded: units))
    return (high * 18_446_744_073_709_551_616 + low) / Self.doublePowers[min(scale, 36)]
  }

  /// Written plainly with exactly `scale` decimals: `0.30`, `-12`, `1234.5`.
  var text: String {
    var out: [UInt8] = []
    append(to: &out)
    return String(decoding: out, as: UTF8.self)
  }

  /// Appends `text` to `out`.
  func append(to out: inout [UInt8]) {
    var digits: [UInt8] = []  // least significant first
    if let small = Int64(exactly: units) {
      var magnitude = small.magnitude
      repeat {
        digits.append(UInt8(truncatingIfNeeded: magnitude % 10) &+ .digitZero)
        magnitude /= 10
      } while magnitude > 0
    } else {
      var magnitude = units.magnitude
      repeat {
        let (q, r) = magnitude.quotientAndRemainder(dividingBy: 10)
        digits.append(UInt8(truncatingIfNeeded: r) &+ .digitZero)
        magnitude = q
      } while magnitude > 0
    }
    while digits.count <= scale { digits.append(.digitZero) }
    if units < 0 { out.append(.minus) }
    for (i, d) in digits.enumerated().reversed() {
      out.append(d)
      if i == scale && scale > 0 { out.append(.dot) }
    }
  }
}
