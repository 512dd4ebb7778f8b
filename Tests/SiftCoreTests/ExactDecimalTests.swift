import Testing

@testable import SiftCore

/// Exact sums and means (Docs/Aggregates.md, Exact sums and means).
@Suite struct ExactDecimalTests {
  func total(_ values: [String], mean: Bool = false) -> String? {
    var t = NumberTotal()
    for v in values {
      var bytes = v
      _ = bytes.withUTF8 { t.add($0) }
    }
    return t.result(mean: mean)
  }

  @Test(arguments: [
    (["0.10", "0.20"], "0.30"),
    (["1", "2", "2.5"], "5.5"),
    (["-1.5", "1.25"], "-0.25"),
    (["1,234.50", "0.5"], "1235.00"),
    ([" 7 ", "+3"], "10"),
    (["999999999999999999", "999999999999999999"], "1999999999999999998"),
    (["1e3", "1"], "1001"),
    (["0.1", "0.2", "1e0"], "1.3"),
    (["1234567890123456789"], "1234567890123456789"),
    // Exponents and long numbers are exact too (Docs/Aggregates.md, Exact sums and means).
    (["1.234560e+07", "0.5"], "12345600.5"),
    (["5E-3", "1"], "1.005"),
    (["1e30", "1", "1e35"], "100001000000000000000000000000000001"),
    (["0.000000000001", "0.000000000002"], "0.000000000003"),
    (["-2.5e1", "1,234.5e2"], "123425"),
    (["0e-5", "1"], "1.00000"),
    (["170141183460469231731687303715884105727", "1"], "170141183460469231731687303715884105728"),
    (["99999999999999999999999999999999999999", "1", "-1"], "99999999999999999999999999999999999999"),
    (["1e-401", "2"], "2"),
    (["1e400", "1"], "\"inf\""),
    (["1e400", "-1e400"], "\"nan\""),
    (["1e308", "1e308", "-1e308"], "1" + String(repeating: "0", count: 308)),
    (["1e308", "1e308"], "\"inf\""),
    // The one-step reading of `12.50` against the general one: wider, narrower and equal scales
    // in every order, signs, leading zeros, and forms only the general one reads.
    (["1.5", "2", "0.25"], "3.75"),
    (["0.25", "2", "1.5"], "3.75"),
    (["-0.5", "007.50", "-0"], "7.00"),
    (["0.000000000000000001", "1"], "1.000000000000000001"),
    (["1", "-1,000.5", "+2.25"], "-997.25"),
    (["999999999999999999", "-999999999999999999", "0.1"], "0.1"),
    (["1.", "2"], "2"),
    (["-", "2"], "2"),
  ])
  func sumsAreExactForEveryNumber(values: [String], sum: String) {
    #expect(total(values) == sum)
  }

  @Test(arguments: [
    (["1", "2", "2.5"], "1.833"),
    (["0.10", "0.20"], "0.1500"),
    (["1", "2"], "1.50"),
    (["0.125", "0.125", "0.125", "0.125"], "0.12500"),
    (["1", "0"], "0.50"),
    (["-1", "-2"], "-1.50"),
    (["0.01", "0.02", "0.02", "0.02"], "0.0175"),
    (["1e30", "1", "1e35"], "33333666666666666666666666666666667.00"),
    (["5E-3", "1e-2"], "0.00750"),
    (["1e308", "1e308"], "\"inf\""),
  ])
  func meansHaveTwoMoreDecimals(values: [String], mean: String) {
    #expect(total(values, mean: true) == mean)
  }

  @Test func halfToEvenRounding() {
    // 1/8 = 0.125 → two extra decimals of scale 0 → 0.12 (half to even), 3/8 → 0.38.
    #expect(ExactDecimal(units: 1, scale: 0).divided(by: 8, extra: 2)?.text == "0.12")
    #expect(ExactDecimal(units: 3, scale: 0).divided(by: 8, extra: 2)?.text == "0.38")
    #expect(ExactDecimal(units: -1, scale: 0).divided(by: 8, extra: 2)?.text == "-0.12")
  }

  @Test(arguments: ["", "abc", "1.", ".5x", "1,23", "12,3456", "1e5", "1234567890123456789", "--1", "1.2.3"])
  func notAPlainDecimal(text: String) {
    var t = text
    #expect(t.withUTF8 { ExactDecimal($0) } == nil)
  }

  /// Docs/Aggregates.md, Memory: 32 bytes per `sum`/`avg` state and group, wide sums boxed.
  @Test func aSumStateKeeps32Bytes() {
    #expect(MemoryLayout<NumberTotal>.stride == 32)
  }

  @Test func noNumbersIsNoValueNotZero() {
    #expect(total([]) == nil)
    #expect(total(["TBD"]) == nil)
  }
}
