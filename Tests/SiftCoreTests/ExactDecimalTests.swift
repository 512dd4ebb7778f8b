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
    (["1234567890123456789"], "1.2345678901234568e+18"),
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
  func sumsAreExactForDecimalsAndFallBackOtherwise(values: [String], sum: String) {
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

  @Test func noNumbersIsNoValueNotZero() {
    #expect(total([]) == nil)
    #expect(total(["TBD"]) == nil)
  }
}
