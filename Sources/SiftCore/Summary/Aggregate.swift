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

/// A number of a record value for sums, means and percentiles: exact when it is a plain decimal,
/// else binary floating point.
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

/// The running value of a `sum:` or `avg:` column over one group's records: the sum, exact
/// while every number is a decimal and nothing overflows, then binary floating point from the
/// exact sum so far, and how many numbers it adds. The exact units are kept as two words, of
/// which a sum no longer exact keeps its `Double` in the low one: 32 bytes a state, so a million
/// groups with two sums keep 64 MB (Docs/Aggregates.md, Memory).
struct NumberTotal {
  private var low: UInt64 = 0
  private var high: Int64 = 0
  private(set) var count = 0
  private var scale: Int32 = 0
  private var isExact = true

  /// The exact sum, while it is one.
  var exact: ExactDecimal? {
    get {
      isExact ? ExactDecimal(units: Int128(high) << 64 | Int128(low), scale: Int(scale)) : nil
    }
    set {
      if let newValue {
        low = UInt64(truncatingIfNeeded: newValue.units)
        high = Int64(truncatingIfNeeded: newValue.units >> 64)
        scale = Int32(newValue.scale)
      }
      isExact = newValue != nil
    }
  }

  /// The sum once it is no longer exact.
  private var inexact: Double {
    get { Double(bitPattern: low) }
    set { low = newValue.bitPattern }
  }

  /// Adds a record value's number (its decoded bytes); false, adding nothing, when they are not
  /// a number under the input's decimal `mark`.
  mutating func add(_ bytes: UnsafeBufferPointer<UInt8>, mark: DecimalMark = .point) -> Bool {
    if addPlainDecimal(bytes, mark: mark) { return true }
    guard let n = SummaryNumber(bytes, mark: mark) else { return false }
    add(n)
    return true
  }

  /// Adds the commonest value, a plain decimal (`12.50`, `ExactDecimal.plainUnits`) no wider in
  /// scale than the sum, read and added in one step; false, adding nothing, for any other value
  /// (no null token is a plain decimal, so a caller may try this before looking for one).
  @inline(__always)
  mutating func addPlainDecimal(
    _ bytes: UnsafeBufferPointer<UInt8>, mark: DecimalMark = .point
  ) -> Bool {
    guard isExact, let (units, scale) = ExactDecimal.plainUnits(bytes, mark: mark),
      scale <= Int(self.scale),
      Int(self.scale) - scale <= ExactDecimal.maxDigits
    else { return false }
    // At most 18 digits times at most 10^18: no overflow before the addition.
    let value = scale == Int(self.scale)
      ? Int128(units) : Int128(units) &* ExactDecimal.power(Int(self.scale) - scale)
    let (sum, overflow) = (Int128(high) << 64 | Int128(low)).addingReportingOverflow(value)
    guard !overflow else { return false }
    low = UInt64(truncatingIfNeeded: sum)
    high = Int64(truncatingIfNeeded: sum >> 64)
    count += 1
    return true
  }

  private mutating func add(_ n: SummaryNumber) {
    count += 1
    if var sum = exact {
      if let e = n.exact, sum.add(e) {
        exact = sum
        return
      }
      exact = nil
      inexact = sum.double
    }
    inexact += n.value
  }

  mutating func merge(_ other: NumberTotal) {
    count += other.count
    if var sum = exact, let e = other.exact, sum.add(e) {
      exact = sum
      return
    }
    let mine = exact?.double ?? inexact
    exact = nil
    inexact = mine + (other.exact?.double ?? other.inexact)
  }

  /// The sum (with the most decimals of its numbers) or the mean (with two more, half to
  /// even); `nil` when no number was added.
  func result(mean: Bool) -> String? {
    guard count > 0 else { return nil }
    var out: [UInt8] = []
    appendResult(mean: mean, to: &out)
    return String(decoding: out, as: UTF8.self)
  }

  /// Appends the sum or mean as JSON: a number, or `null` when no number was added.
  func appendResult(mean: Bool, to out: inout [UInt8]) {
    guard count > 0 else {
      out += SummaryTable.null
      return
    }
    if let exact {
      if !mean { return exact.append(to: &out) }
      if let m = exact.divided(by: count, extra: 2) { return m.append(to: &out) }
      return SummaryNumber.append(exact.double / Double(count), to: &out)
    }
    SummaryNumber.append(mean ? inexact / Double(count) : inexact, to: &out)
  }
}

/// A value kept by a summary, with its order.
struct SummaryValue {
  var key: SortValue
  var bytes: [UInt8]
}
