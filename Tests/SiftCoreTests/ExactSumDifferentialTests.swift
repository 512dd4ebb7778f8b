import Foundation
import Testing

@testable import SiftCore

private let python3 = ["/usr/bin/python3", "/usr/local/bin/python3"].first {
  FileManager.default.isExecutableFile(atPath: $0)
}

/// Sums and means of numbers with exponents and of long numbers are exact (Docs/Aggregates.md,
/// Exact sums and means): the same as Python's `decimal`, and the same however the values are
/// cut into parts and merged, as `-j` cuts a file.
@Suite struct ExactSumDifferentialTests {
  /// Random numbers in every form a sum meets: plain, long, with an exponent (`1.234560e+07`,
  /// `5E-3`), negative; a fixed seed per case.
  static func values(seed: UInt64, count: Int) -> [String] {
    var random = ParserFuzzTests.Generator(state: seed)
    func digits(_ n: Int) -> String {
      String((0..<n).map { _ in Character(String(Int.random(in: 0...9, using: &random))) })
    }
    return (0..<count).map { _ in
      let sign = Bool.random(using: &random) ? "-" : ""
      let whole = "\(Int.random(in: 1...9, using: &random))" + digits(Int.random(in: 0...29, using: &random))
      let fraction = digits(Int.random(in: 0...20, using: &random))
      let mantissa = fraction.isEmpty ? whole : whole + "." + fraction
      switch Int.random(in: 0...3, using: &random) {
      case 0: return sign + mantissa
      case 1: return sign + String(whole.prefix(18))
      default:
        let e = Bool.random(using: &random) ? "e" : "E"
        let exponent = Int.random(in: -40...40, using: &random)
        let written = exponent >= 0 && Bool.random(using: &random) ? "+\(exponent)" : "\(exponent)"
        return sign + String(whole.prefix(1)) + "." + String(whole.dropFirst()) + fraction + e + written
      }
    }
  }

  /// The sum and mean as sift writes them, of `values` added in parts cut at `cuts` and merged
  /// in order, as the parts of a file are.
  static func sumAndMean(_ values: [String], cuts: [Int] = []) -> (String?, String?) {
    var parts: [NumberTotal] = []
    var start = 0
    for end in cuts + [values.count] {
      var part = NumberTotal()
      for v in values[start..<end] {
        var text = v
        _ = text.withUTF8 { part.add($0) }
      }
      parts.append(part)
      start = end
    }
    var total = NumberTotal()
    for part in parts { total.merge(part) }
    return (total.result(mean: false), total.result(mean: true))
  }

  @Test(arguments: [1, 2, 3, 4, 5])
  func theSameForAnyCutIntoParts(seed: UInt64) {
    let values = Self.values(seed: seed, count: 300)
    let whole = Self.sumAndMean(values)
    #expect(whole.0 != nil)
    for cuts in [[150], [1, 2, 299], [100, 200], [37, 38, 250]] {
      let parted = Self.sumAndMean(values, cuts: cuts)
      #expect(parted.0 == whole.0)
      #expect(parted.1 == whole.1)
    }
  }

  /// Python's `decimal` sums the same numbers: the sum with the most decimals of its numbers
  /// (an exponent's digits counted), the mean with two more, rounded half to even.
  static let pythonSumAndMean = """
    import sys
    from decimal import Decimal, getcontext
    getcontext().prec = 2000
    for line in sys.stdin:
        values = [Decimal(v) for v in line.split()]
        scale = max(max(0, -v.as_tuple().exponent) for v in values)
        units = sum(int(v.scaleb(scale)) for v in values)
        q, r = divmod(abs(units) * 100, len(values))
        if 2 * r > len(values) or (2 * r == len(values) and q % 2 == 1):
            q += 1
        def text(u, s):
            digits = str(abs(u)).rjust(s + 1, '0')
            body = digits[:len(digits) - s] + ('.' + digits[len(digits) - s:] if s else '')
            return ('-' if u < 0 else '') + body
        print(text(units, scale), text(q if units >= 0 else -q, scale + 2))
    """

  @Test(.enabled(if: python3 != nil, "needs python3 (its decimal module sums the numbers)"))
  func sumsAndMeansAgreeWithPythonDecimal() throws {
    let cases = (1...40).map { Self.values(seed: 1000 + UInt64($0), count: 1 + $0 % 13) }
    let input = cases.map { $0.joined(separator: " ") }.joined(separator: "\n") + "\n"
    let process = Process()
    process.executableURL = URL(fileURLWithPath: try #require(python3))
    process.arguments = ["-c", Self.pythonSumAndMean]
    let stdin = Pipe(), stdout = Pipe()
    process.standardInput = stdin
    process.standardOutput = stdout
    try process.run()
    stdin.fileHandleForWriting.write(Data(input.utf8))
    try stdin.fileHandleForWriting.close()
    let output = String(decoding: stdout.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    let lines = output.split(separator: "\n")
    try #require(lines.count == cases.count)
    for (values, line) in zip(cases, lines) {
      let expected = line.split(separator: " ").map(String.init)
      let (sum, mean) = Self.sumAndMean(values)
      #expect([sum, mean] == expected.map(Optional.some), "\(values)")
    }
  }
}
