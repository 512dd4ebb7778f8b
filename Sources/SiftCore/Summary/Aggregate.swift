/// The running value of one `min:`, `max:`, `distinct:` or percentile column over one group's
/// records (Docs/Aggregates.md): `min` and `max` keep one value; `distinct` and the percentiles
/// keep the group's values. (A sum or mean keeps a `NumberTotal`.) States of the same column
/// merge, so parts of a file can be summarized on several threads.
///
/// A state holds only what differs per group (what the column computes is the column's, given
/// to each call).
enum AggregateState {
  case extreme(SummaryValue?)
  case distinct(Set<[UInt8]>)
  case percentile([SummaryNumber])

  init(_ function: AggregateFunction) {
    switch function {
    case .sum, .avg: preconditionFailure("a sum or mean keeps a NumberTotal")
    case .min, .max: self = .extreme(nil)
    case .distinct: self = .distinct([])
    case .median, .percentile: self = .percentile([])
    }
  }

  /// Adds one value (its decoded bytes; empty for an empty, missing or null value) to a state of
  /// `column`. Returns false when a non-empty value is left out for not being of the kind the
  /// column needs. Numbers are read with the input's decimal `mark`.
  mutating func add(
    _ bytes: UnsafeBufferPointer<UInt8>, _ column: AggregateColumn, mark: DecimalMark
  ) -> Bool {
    guard !bytes.isEmpty else { return true }
    switch self {
    case .extreme(let best):
      guard let value = column.extremeValue(bytes, mark: mark) else { return false }
      if column.isBetter(value, than: best) { self = .extreme(value) }
    case .distinct(var values):
      self = .distinct([])
      values.insert(Array(bytes))
      self = .distinct(values)
    case .percentile(var values):
      guard let n = SummaryNumber(bytes, mark: mark) else { return false }
      self = .percentile([])
      values.append(n)
      self = .percentile(values)
    }
    return true
  }

  /// Adds the values of a later part's state of the same column.
  mutating func merge(_ other: AggregateState, _ column: AggregateColumn) {
    switch (self, other) {
    case (.extreme(let best), .extreme(let value?)):
      if column.isBetter(value, than: best) { self = .extreme(value) }
    case (.extreme, .extreme): break
    case (.distinct(var a), .distinct(let b)):
      a.formUnion(b)
      self = .distinct(a)
    case (.percentile(var a), .percentile(let b)):
      a += b
      self = .percentile(a)
    default: preconditionFailure("merging states of different columns")
    }
  }

  /// Appends the column's value as JSON text: a number, a string, or `null` when no value
  /// counted.
  func appendResult(_ column: AggregateColumn, to out: inout [UInt8]) {
    switch self {
    case .extreme(let best):
      if let best {
        best.bytes.withUnsafeBufferPointer {
          JSONText.appendTextValue($0, keepingIllFormed: true, to: &out)
        }
      } else {
        out += SummaryTable.null
      }
    case .distinct(let values): out += String(values.count).utf8
    case .percentile(let values):
      guard !values.isEmpty, let p = column.function.percentile else {
        out += SummaryTable.null
        return
      }
      // Nearest rank: the ⌈p/100 · n⌉-th smallest (stable, so equal numbers keep input order).
      let numbers = values.map(\.value)
      let sorted = numbers.indices.sorted {
        numbers[$0] != numbers[$1] ? numbers[$0] < numbers[$1] : $0 < $1
      }
      let rank = max(1, (p * values.count + 99) / 100)
      values[sorted[rank - 1]].append(to: &out)
    }
  }
}

/// What an aggregate column computes, the same for every group: its function and its field's
/// type.
struct AggregateColumn {
  let function: AggregateFunction
  let fieldType: ColumnType
  /// How the field reads its dates.
  let convention: DateConvention

  /// A value `min:`/`max:` can keep: a number field compares only numbers and a date field only
  /// dates; a text field compares every value. `nil` for a value left out. A number read with
  /// a decimal comma is kept in sift's canonical form (`1234.50`; Docs/Formats.md, Decimal
  /// commas), as every summary writes numbers.
  func extremeValue(_ bytes: UnsafeBufferPointer<UInt8>, mark: DecimalMark) -> SummaryValue? {
    let key = SortValue(decoded: bytes, mark: mark, convention)
    switch (fieldType, key) {
    case (.number, .number), (.number, .longNumber), (.date, .date), (.dateTime, .date): break
    case (.number, _), (.date, _), (.dateTime, _): return nil
    default: break
    }
    if mark == .comma, key.isNumber, let n = SummaryNumber(bytes, mark: mark) {
      var canonical: [UInt8] = []
      n.append(to: &canonical)
      return SummaryValue(key: key, bytes: canonical)
    }
    return SummaryValue(key: key, bytes: Array(bytes))
  }

  /// Whether `v` is strictly smaller (`min:`) or larger (`max:`) than the value kept: of equal
  /// values the first one read stays.
  func isBetter(_ v: SummaryValue, than kept: SummaryValue?) -> Bool {
    guard let kept else { return true }
    let c = SortValue.compare(v.key, kept.key, descending: false)
    return function == .max ? c > 0 : c < 0
  }
}

/// A number of a record value for percentiles: exact when it is a plain decimal, else binary
/// floating point. (Sums and means add `NumberTotal`s, exact for every number.)
struct SummaryNumber {
  var exact: ExactDecimal?
  private var inexact: Double

  init?(_ bytes: UnsafeBufferPointer<UInt8>, mark: DecimalMark = .point) {
    exact = ExactDecimal(bytes, mark: mark)
    inexact = 0
    if exact == nil {
      // A number beyond the range of a `Double` (`1e400`) is infinite, and still a number, as
      // filters, `sort:` and `max:` read it (Docs/Aggregates.md, Overflow).
      guard let v = NumberParser.parse(bytes, mark: mark) else { return nil }
      inexact = v
    }
  }

  var value: Double { exact?.double ?? inexact }

  /// Appends the number as a summary writes it: the decimal as read (`12.50`), else the
  /// shortest form.
  func append(to out: inout [UInt8]) {
    if let exact { exact.append(to: &out) } else { SummaryNumber.append(inexact, to: &out) }
  }

  /// Appends a binary floating-point result as JSON: a number in the shortest form, or, when it
  /// overflowed, the string `"inf"`, `"-inf"` or `"nan"` (Docs/Aggregates.md, Overflow): JSON
  /// has no such number and a bare `inf` is not JSON.
  static func append(_ v: Double, to out: inout [UInt8]) {
    if v.isFinite {
      out += v.shortestText.utf8
    } else {
      out += "\"\(v.isNaN ? "nan" : v < 0 ? "-inf" : "inf")\"".utf8
    }
  }
}

/// The running value of a `sum:` or `avg:` column over one group's records, and how many
/// numbers it adds: always exact (Docs/Aggregates.md, Exact sums), in 128 bits while they hold
/// it, then as a `WideDecimal`; infinite once a number beyond the range of a `Double` (`1e400`)
/// is added. Exact sums do not depend on the order of the additions, so the result is the same
/// for any `-j`. The exact units are kept as two words, not a 16-byte-aligned `Int128`: 32 bytes
/// a state, so a million groups with two sums keep 64 MB (Docs/Aggregates.md, Memory).
struct NumberTotal {
  private var sum: Running = .exact(low: 0, high: 0, scale: 0)
  private(set) var count = 0

  private enum Running {
    /// The sum in 128 bits, `low` and `high` its units' two words.
    case exact(low: UInt64, high: Int64, scale: Int32)
    /// The sum once 128 bits cannot hold it, or a number it adds.
    case wide(WideSum)
    /// `inf`, `-inf` or `nan`: a number beyond the range of a `Double` was added.
    case infinite(Double)
  }

  /// A wide sum, boxed so that a state stays 32 bytes; never changed once made.
  private final class WideSum {
    let value: WideDecimal
    init(_ value: WideDecimal) { self.value = value }
  }

  /// The exact sum, while it fits in 128 bits.
  var exact: ExactDecimal? {
    guard case .exact(let low, let high, let scale) = sum else { return nil }
    return ExactDecimal(units: Int128(high) << 64 | Int128(low), scale: Int(scale))
  }

  private static func running(_ e: ExactDecimal) -> Running {
    guard let scale = Int32(exactly: e.scale) else { return .wide(WideSum(WideDecimal(e))) }
    return .exact(
      low: UInt64(truncatingIfNeeded: e.units), high: Int64(truncatingIfNeeded: e.units >> 64),
      scale: scale)
  }

  /// Adds a record value's number (its decoded bytes); false, adding nothing, when they are not
  /// a number under the input's decimal `mark`, or need more than `WideDecimal.maxScale`
  /// decimals.
  mutating func add(_ bytes: UnsafeBufferPointer<UInt8>, mark: DecimalMark = .point) -> Bool {
    if addPlainDecimal(bytes, mark: mark) { return true }
    if let e = ExactDecimal(bytes, mark: mark) ?? ExactDecimal(exponentForm: bytes, mark: mark) {
      count += 1
      add(.exact(e))
      return true
    }
    switch WideDecimal.read(bytes, mark: mark) {
    case nil, .tooFine?: return false
    case .value(let w)?: add(w.exact.map(Addend.exact) ?? .wide(w))
    case .infinite(let v)?: add(.infinite(v))
    }
    count += 1
    return true
  }

  /// Adds the commonest value, a plain decimal (`12.50`, `ExactDecimal.plainUnits`) no wider in
  /// scale than the sum, read and added in one step; false, adding nothing, for any other value
  /// (no null token is a plain decimal, so a caller may try this before looking for one).
  @inline(__always)
  mutating func addPlainDecimal(
    _ bytes: UnsafeBufferPointer<UInt8>, mark: DecimalMark = .point
  ) -> Bool {
    guard case .exact(let low, let high, let sumScale) = sum,
      let (units, scale) = ExactDecimal.plainUnits(bytes, mark: mark),
      scale <= Int(sumScale),
      Int(sumScale) - scale <= ExactDecimal.maxDigits
    else { return false }
    // At most 18 digits times at most 10^18: no overflow before the addition.
    let value = scale == Int(sumScale)
      ? Int128(units) : Int128(units) &* ExactDecimal.power(Int(sumScale) - scale)
    let (total, overflow) = (Int128(high) << 64 | Int128(low)).addingReportingOverflow(value)
    guard !overflow else { return false }
    sum = .exact(
      low: UInt64(truncatingIfNeeded: total), high: Int64(truncatingIfNeeded: total >> 64),
      scale: sumScale)
    count += 1
    return true
  }

  /// One number, or another state's sum, to add.
  private enum Addend {
    case exact(ExactDecimal)
    case wide(WideDecimal)
    case infinite(Double)
  }

  private var addend: Addend {
    switch sum {
    case .exact: return .exact(exact ?? ExactDecimal(units: 0, scale: 0))
    case .wide(let box): return .wide(box.value)
    case .infinite(let v): return .infinite(v)
    }
  }

  private mutating func add(_ other: Addend) {
    switch (sum, other) {
    case (.infinite(let a), .infinite(let b)): sum = .infinite(a + b)
    case (.infinite, _): break
    case (_, .infinite(let b)): sum = .infinite(b)
    case (.exact, .exact(let e)):
      if var s = exact, s.add(e) {
        sum = Self.running(s)
      } else {
        sum = .wide(WideSum(wideValue.adding(WideDecimal(e))))
      }
    case (_, .exact(let e)): sum = .wide(WideSum(wideValue.adding(WideDecimal(e))))
    case (_, .wide(let w)): sum = .wide(WideSum(wideValue.adding(w)))
    }
  }

  /// The sum as a `WideDecimal` (zero when infinite, where it is not asked for).
  private var wideValue: WideDecimal {
    switch sum {
    case .exact: return WideDecimal(exact ?? ExactDecimal(units: 0, scale: 0))
    case .wide(let box): return box.value
    case .infinite: return .zero(scale: 0)
    }
  }

  mutating func merge(_ other: NumberTotal) {
    count += other.count
    add(other.addend)
  }

  /// The sum (with the most decimals of its numbers) or the mean (with two more, half to
  /// even); `nil` when no number was added.
  func result(mean: Bool) -> String? {
    guard count > 0 else { return nil }
    var out: [UInt8] = []
    appendResult(mean: mean, to: &out)
    return String(decoding: out, as: UTF8.self)
  }

  /// Appends the sum or mean as JSON: a number, the string `"inf"`, `"-inf"` or `"nan"` when it
  /// is beyond the range of a `Double` (Docs/Aggregates.md, Overflow), or `null` when no number
  /// was added.
  func appendResult(mean: Bool, to out: inout [UInt8]) {
    guard count > 0 else {
      out += SummaryTable.null
      return
    }
    switch sum {
    case .infinite(let v): return SummaryNumber.append(v, to: &out)
    case .exact:
      guard let exact else { break }
      if !mean { return exact.append(to: &out) }
      if let m = exact.divided(by: count, extra: 2) { return m.append(to: &out) }
    case .wide: break
    }
    let value = wideValue
    if value.isBeyondDouble {
      return SummaryNumber.append(value.negative ? -.infinity : .infinity, to: &out)
    }
    (mean ? value.divided(by: count, extra: 2) : value).append(to: &out)
  }
}

/// A value kept by a summary, with its order.
struct SummaryValue {
  var key: SortValue
  var bytes: [UInt8]
}
