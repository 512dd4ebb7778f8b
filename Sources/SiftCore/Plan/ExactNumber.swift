/// A number held exactly at any length (Docs/QueryLanguage.md, How numbers compare): its sign,
/// its significant digits without leading or trailing zeros (none for zero) and where the point
/// falls among them, `0.d₁d₂…dₙ × 10^pointAt`. Filters, `sort:` and `group:` order numbers by it
/// where two binary doubles could not tell them apart (`1234567890123456789` and `…790`).
/// Unlike `ExactDecimal` (an Int128 of at most 18 digits, which sums add) it has no bound on its
/// length and does no arithmetic: it only orders and writes a number.
struct ExactNumber: Sendable, Equatable {
  let negative: Bool
  /// The significant digits, each 0...9, first and last not zero.
  let digits: [UInt8]
  /// How many places the point stands after the first digit (negative: zeros before it).
  let pointAt: Int

  private static let exponentLimit = 1_000_000_000

  /// Reads bytes that `NumberParser` accepted with `mark`: spaces, a sign, digits with the mark's
  /// grouping, a fraction after the mark's fraction byte, an exponent.
  init(accepted bytes: UnsafeBufferPointer<UInt8>, mark: DecimalMark) {
    guard let (start, end, negative) = NumberParser.signedDigits(bytes) else {
      self.init(negative: false, digits: [], pointAt: 0)
      return
    }
    let fractionByte = mark.fractionByte
    var digits: [UInt8] = []
    var integerDigits = 0  // digits before the point, leading zeros included
    var leadingZeros = 0  // zeros before the first significant digit
    var inFraction = false
    var exponent = 0
    var i = start
    while i < end {
      let b = bytes[i]
      if b.isDigit {
        if !inFraction { integerDigits += 1 }
        if digits.isEmpty && b == .digitZero {
          leadingZeros += 1
        } else {
          digits.append(b &- .digitZero)
        }
      } else if b == fractionByte {
        inFraction = true
      } else if b == .lowerE || b == .upperE {
        exponent = Self.exponent(bytes, from: i + 1, to: end)
        break
      }
      i += 1
    }
    while digits.last == 0 { digits.removeLast() }
    if digits.isEmpty {
      self.init(negative: false, digits: [], pointAt: 0)
    } else {
      self.init(negative: negative, digits: digits, pointAt: integerDigits - leadingZeros + exponent)
    }
  }

  /// The number a `Double` holds, written in its shortest form: exactly the decimal it was read
  /// from when that had at most 15 significant digits (`NumberReading.fitsDouble`).
  init(_ value: Double) {
    var text = value.isFinite ? "\(value)" : "0"
    self = text.withUTF8 { ExactNumber(accepted: $0, mark: .point) }
  }

  init(negative: Bool, digits: [UInt8], pointAt: Int) {
    self.negative = negative
    self.digits = digits
    self.pointAt = pointAt
  }

  /// An exponent's value after `e`, its size capped far beyond any double's.
  private static func exponent(_ bytes: UnsafeBufferPointer<UInt8>, from: Int, to end: Int) -> Int {
    var i = from
    var negative = false
    if i < end && (bytes[i] == .minus || bytes[i] == .plus) {
      negative = bytes[i] == .minus
      i += 1
    }
    var e = 0
    while i < end, bytes[i].isDigit {
      if e < exponentLimit { e = e * 10 + Int(bytes[i] &- .digitZero) }
      i += 1
    }
    return negative ? -e : e
  }

  /// -1, 0 or 1.
  private var sign: Int { digits.isEmpty ? 0 : (negative ? -1 : 1) }

  /// Three-way numeric order: -1 when `a < b`, 0 when equal, 1 when `a > b`.
  static func compare(_ a: ExactNumber, _ b: ExactNumber) -> Int {
    let (sa, sb) = (a.sign, b.sign)
    if sa != sb { return sa < sb ? -1 : 1 }
    if sa == 0 { return 0 }
    var magnitude = 0
    if a.pointAt != b.pointAt {
      magnitude = a.pointAt < b.pointAt ? -1 : 1
    } else {
      let n = min(a.digits.count, b.digits.count)
      var i = 0
      while i < n, a.digits[i] == b.digits[i] { i += 1 }
      if i < n {
        magnitude = a.digits[i] < b.digits[i] ? -1 : 1
      } else if a.digits.count != b.digits.count {
        magnitude = a.digits.count < b.digits.count ? -1 : 1
      }
    }
    return sa < 0 ? -magnitude : magnitude
  }

  /// Written plainly and exactly, without an exponent (`1234567890123456789`, `-0.05`, `12.5`);
  /// beyond 40 places either side of the point as `d.ddd` with an exponent (`1.5e400`).
  var text: String {
    guard let first = digits.first else { return "0" }
    var out: [UInt8] = negative ? [.minus] : []
    let ascii = digits.map { $0 &+ .digitZero }
    if pointAt > 40 || pointAt < -40 {
      out.append(first &+ .digitZero)
      if ascii.count > 1 {
        out.append(.dot)
        out += ascii.dropFirst()
      }
      out += "e\(pointAt - 1)".utf8
    } else if pointAt <= 0 {
      out += [.digitZero, .dot] + Array(repeating: .digitZero, count: -pointAt) + ascii
    } else if pointAt >= ascii.count {
      out += ascii + Array(repeating: .digitZero, count: pointAt - ascii.count)
    } else {
      out += ascii[..<pointAt]
      out.append(.dot)
      out += ascii[pointAt...]
    }
    return String(decoding: out, as: UTF8.self)
  }
}
