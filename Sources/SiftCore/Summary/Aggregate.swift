/// The running value of one aggregate column over one group's records (Docs/Aggregates.md):
/// `count`, `sum`, `avg`, `min` and `max` keep one value; `distinct` and the percentiles keep
/// the group's values. States of the same column merge, so parts of a file can be summarized
/// on several threads.
enum AggregateState {
  case total(NumberTotal, mean: Bool)
  case extreme(Extreme)
  case distinct(Set<[UInt8]>)
  case percentile([SummaryNumber], Int)

  init(_ function: AggregateFunction, fieldType: ColumnType) {
    switch function {
    case .sum: self = .total(NumberTotal(), mean: false)
    case .avg: self = .total(NumberTotal(), mean: true)
    case .min, .max: self = .extreme(Extreme(largest: function == .max, fieldType: fieldType))
    case .distinct: self = .distinct([])
    case .p50, .p90, .p95, .p99: self = .percentile([], function.percentile!)
    }
  }

  /// Adds one value (its decoded bytes; empty for an empty, missing or null value). Returns
  /// false when a non-empty value is left out for not being of the kind the column needs.
  mutating func add(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    guard !bytes.isEmpty else { return true }
    switch self {
    case .total(var t, let mean):
      guard let n = SummaryNumber(bytes) else { return false }
      t.add(n)
      self = .total(t, mean: mean)
    case .extreme(var e):
      guard e.add(bytes) else { return false }
      self = .extreme(e)
    case .distinct(var values):
      self = .distinct([])
      values.insert(Array(bytes))
      self = .distinct(values)
    case .percentile(var values, let p):
      guard let n = SummaryNumber(bytes) else { return false }
      self = .percentile([], p)
      values.append(n)
      self = .percentile(values, p)
    }
    return true
  }

  /// Adds the values of a later part's state of the same column.
  mutating func merge(_ other: AggregateState) {
    switch (self, other) {
    case (.total(var t, let mean), .total(let u, _)):
      t.merge(u)
      self = .total(t, mean: mean)
    case (.extreme(var e), .extreme(let f)):
      e.merge(f)
      self = .extreme(e)
    case (.distinct(var a), .distinct(let b)):
      a.formUnion(b)
      self = .distinct(a)
    case (.percentile(var a, let p), .percentile(let b, _)):
      a += b
      self = .percentile(a, p)
    default: preconditionFailure("merging states of different columns")
    }
  }

  /// Appends the column's value as JSON text: a number, a string, or `null` when no value
  /// counted.
  func appendResult(to out: inout [UInt8]) {
    switch self {
    case .total(let t, let mean): t.appendResult(mean: mean, to: &out)
    case .extreme(let e):
      if let best = e.best {
        best.bytes.withUnsafeBufferPointer { JSONText.appendTextValue($0, to: &out) }
      } else {
        out += SummaryTable.null
      }
    case .distinct(let values): out += String(values.count).utf8
    case .percentile(let values, let p):
      guard !values.isEmpty else {
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

/// A number of a record value for sums, means and percentiles: exact when it is a plain decimal,
/// else binary floating point.
struct SummaryNumber {
  var exact: ExactDecimal?
  private var inexact: Double

  init?(_ bytes: UnsafeBufferPointer<UInt8>) {
    exact = ExactDecimal(bytes)
    inexact = 0
    if exact == nil {
      guard let v = NumberParser.parse(bytes), v.isFinite else { return nil }
      inexact = v
    }
  }

  var value: Double { exact?.double ?? inexact }

  /// Appends the number as a summary writes it: the decimal as read (`12.50`), else the
  /// shortest form.
  func append(to out: inout [UInt8]) {
    if let exact { exact.append(to: &out) } else { out += inexact.shortestText.utf8 }
  }
}

/// A running sum: exact while every number is a decimal and nothing overflows, then binary
/// floating point from the exact sum so far.
struct NumberTotal {
  var exact: ExactDecimal? = ExactDecimal(units: 0, scale: 0)
  /// The sum once it is no longer exact.
  var inexact = 0.0
  var count = 0

  mutating func add(_ n: SummaryNumber) {
    count += 1
    if exact != nil {
      if let e = n.exact, exact!.add(e) { return }
      inexact = exact!.double
      exact = nil
    }
    inexact += n.value
  }

  mutating func merge(_ other: NumberTotal) {
    count += other.count
    if exact != nil, let e = other.exact, exact!.add(e) { return }
    inexact = (exact?.double ?? inexact) + (other.exact?.double ?? other.inexact)
    exact = nil
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
      out += (exact.double / Double(count)).shortestText.utf8
      return
    }
    out += (mean ? inexact / Double(count) : inexact).shortestText.utf8
  }
}

/// The smallest or largest value as `sort:` orders it. A number field compares only numbers and
/// a date field only dates; a text field compares every value.
struct Extreme {
  let largest: Bool
  let fieldType: ColumnType
  var best: SummaryValue?

  init(largest: Bool, fieldType: ColumnType) {
    self.largest = largest
    self.fieldType = fieldType
  }

  mutating func add(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    let key = SortValue(decoded: bytes)
    switch (fieldType, key) {
    case (.number, .number), (.date, .date), (.dateTime, .date): break
    case (.number, _), (.date, _), (.dateTime, _): return false
    default: break
    }
    consider(SummaryValue(key: key, bytes: Array(bytes)))
    return true
  }

  mutating func merge(_ other: Extreme) {
    if let b = other.best { consider(b) }
  }

  /// Keeps `v` when it is strictly better: of equal values the first one read stays.
  private mutating func consider(_ v: SummaryValue) {
    guard let current = best else {
      best = v
      return
    }
    let c = SortValue.compare(v.key, current.key, descending: false)
    if largest ? c > 0 : c < 0 { best = v }
  }
}

/// A value kept by a summary, with its order.
struct SummaryValue {
  var key: SortValue
  var bytes: [UInt8]
}
