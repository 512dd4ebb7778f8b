/// DuckDB's `sum:` and `avg:` as sift's own run writes them, byte for byte (Docs/Engines.md,
/// Exact sums in DuckDB): every number, with an exponent or 40 digits long, is made an integer
/// count of 10^-38 (`BIGNUM`, which adds exactly at any size), the sum is cut to the most
/// decimals of its numbers, and the mean is the sum divided by the count in long division,
/// 18 digits a step in `HUGEINT`, rounded half to even, as Docs/Aggregates.md says. A number
/// with more than 38 decimals once its exponent is applied stops the statement with an error
/// naming it (`error()`), never a different total; a number beyond the range of a `Double`
/// (`1e400`) and a sum beyond it are infinite, as in sift.
enum DuckDBExactSum {
  /// The decimals every number is held with.
  static let scale = 38

  /// The names the expressions give their lambdas' parameters: no field may have one
  /// (DuckDB would read the field where the lambda's value is meant).
  static let lambdaNames: Set<String> = [
    "sift_parts", "sift_agg", "sift_digits", "sift_chunk", "sift_acc", "sift_next", "sift_div",
    "sift_quot", "sift_pad", "sift_key", "sift_decimals",
  ]

  /// The derived column of a field's number, from its text in sift's canonical form (`1234.50`,
  /// `-5E-3`): a struct of its decimals `d` (its fraction's digits less its exponent) and its
  /// units `u`, its value times 10^38 as a `BIGNUM` (NULL for what is not a number, and for a
  /// number of more than 400 digits before its point, which is infinite as a `Double`).
  static func parts(ofCanonical t: String) -> String {
    let pattern = "'^([+-]?)([0-9]*)(?:[.]([0-9]*))?(?:[eE]([+-]?[0-9]+))?$'"
    let exponent = "CAST(greatest(-1000000, least(1000000, coalesce(TRY_CAST(sift_parts.e AS DOUBLE), 0))) AS INTEGER)"
    let digits = "ltrim(sift_parts.i || sift_parts.f, '0')"
    // The decimals are computed once, as the inner lambda's `sift_decimals`.
    let units = "CASE WHEN \(digits) = '' THEN CAST(0 AS BIGNUM) "
      + "WHEN sift_decimals < -400 THEN NULL "
      + "ELSE TRY_CAST(CASE WHEN sift_parts.s = '-' THEN '-' ELSE '' END || \(digits) "
      + "|| repeat('0', \(scale) - sift_decimals) AS BIGNUM) END"
    return "list_transform([regexp_extract(\(t), \(pattern), ['s', 'i', 'f', 'e'])], "
      + "lambda sift_parts: list_transform([length(sift_parts.f) - \(exponent)], "
      + "lambda sift_decimals: {'d': sift_decimals, 'u': \(units)})[1])[1]"
  }

  /// A total as the aggregates it is made from: over a group's rows (`overRows`), or over
  /// partial groups, each part's values merged by its `merge` aggregate (`sum`, `max`,
  /// `bool_or`) where a statement groups the column as read first and folds empty values into
  /// one group after (Docs/Engines.md, Readable statements: `partial`).
  struct Total {
    /// Each aggregate over a group's rows, named by what it holds (`units`, `count`), and the
    /// aggregate that merges its values.
    let parts: [(what: String, aggregate: String, merge: String)]
    /// The total (a struct `written` reads) from each part's value, in `parts`' order.
    let made: @Sendable ([String]) -> String

    /// The total over a group's rows.
    var overRows: String { made(parts.map(\.aggregate)) }
  }

  /// The total of a group's numbers (`written` makes it their sum or mean): `v` the value's
  /// text, `n` its number (a `DOUBLE`, NULL when it is not one), `x` its `parts`.
  static func total(value v: String, number n: String, parts x: String) -> Total {
    let finite = "\(n) IS NOT NULL AND NOT isinf(\(n))"
    let refusal = "error('sift: DuckDB cannot sum ' || \(v) || ' exactly: it has more than "
      + "\(scale) decimals')"
    let kept = "CASE WHEN \(finite) THEN CASE WHEN \(x).d > \(scale) THEN \(refusal) ELSE \(x).u END END"
    return Total(
      parts: [
        ("units", "sum(\(kept))", "sum"),
        ("decimals", "max(CASE WHEN \(finite) THEN greatest(\(x).d, 0) END)", "max"),
        ("count", "count(\(n))", "sum"), ("has_inf", "bool_or(\(n) = 'inf'::DOUBLE)", "bool_or"),
        ("has_minus_inf", "bool_or(\(n) = '-inf'::DOUBLE)", "bool_or"),
      ],
      made: { p in
        "{'u': CAST(\(p[0]) AS VARCHAR), 's': coalesce(\(p[1]), 0), 'c': \(p[2]), "
          + "'p': coalesce(\(p[3]), FALSE), 'm': coalesce(\(p[4]), FALSE)}"
      })
  }

  /// The total of an integer or decimal column (Docs/Engines.md, Typed columns): DuckDB's
  /// own exact sum (`HUGEINT`, `DECIMAL(38, scale)`), written with the column's `scale`.
  static func total(column c: String, scale: Int) -> Total {
    let zeros = String(repeating: "0", count: self.scale - scale)
    return Total(
      parts: [("sum", "sum(\(c))", "sum"), ("count", "count(\(c))", "sum")],
      made: { p in
        let units = "CAST(replace(CAST(\(p[0]) AS VARCHAR), '.', '') || '\(zeros)' AS BIGNUM)"
        return "{'u': CAST(\(units) AS VARCHAR), 's': \(scale), 'c': \(p[1]), "
          + "'p': FALSE, 'm': FALSE}"
      })
  }

  /// The total of a double column (Docs/Engines.md, Typed columns), exactly as sift sums
  /// the text DuckDB writes for each value. A value below 4 × 10^9 whose millionths `m` give it
  /// back (`m / 10^6 = value`) is that text's number, since no other number of six decimals is
  /// that close to it: summed as the integer `m` in `HUGEINT`, its decimals from `m`'s trailing
  /// zeros (DuckDB writes `100.0` for a whole number). Every other finite value goes the way of
  /// a text column's (`parts`), which a `CASE` keeps to those values; `nan` and infinities are
  /// not numbers to sift.
  static func total(double c: String) -> Total {
    // DuckDB's cast of a double to an integer rounds to the nearest, ties to even, so no
    // `round` per row (Docs/Engines.md, Measured); a value whose millionths do not give it back
    // goes the text's way, which sums the same number.
    let millionths = "TRY_CAST(\(c) * 1e6 AS BIGINT)"
    let fast = "(abs(\(c)) < 4e9 AND \(millionths) / 1e6 = \(c))"
    let slow = "(isfinite(\(c)) AND NOT \(fast))"
    let text = "CAST(\(c) AS VARCHAR)"
    let x = parts(ofCanonical: text)
    let refusal = "error('sift: DuckDB cannot sum ' || \(text) || ' exactly: it has more than "
      + "\(scale) decimals')"
    let kept = "CASE WHEN \(x).d > \(scale) THEN \(refusal) ELSE \(x).u END"
    let decimals = "CASE WHEN \(millionths) % 100000 = 0 THEN 1 WHEN \(millionths) % 10000 = 0 THEN 2 "
      + "WHEN \(millionths) % 1000 = 0 THEN 3 WHEN \(millionths) % 100 = 0 THEN 4 "
      + "WHEN \(millionths) % 10 = 0 THEN 5 ELSE 6 END"
    let zeros = String(repeating: "0", count: scale - 6)
    return Total(
      parts: [
        ("millionths", "sum(\(millionths)) FILTER (WHERE \(fast))", "sum"),
        ("other_units", "sum(CASE WHEN \(slow) THEN \(kept) END)", "sum"),
        ("millionths_decimals", "max(\(decimals)) FILTER (WHERE \(fast))", "max"),
        ("other_decimals", "max(CASE WHEN \(slow) THEN greatest(\(x).d, 0) END)", "max"),
        ("count", "count(*) FILTER (WHERE isfinite(\(c)))", "sum"),
      ],
      made: { p in
        let total = "(CAST(coalesce(CAST(\(p[0]) AS VARCHAR), '0') || '\(zeros)' AS BIGNUM) + "
          + "coalesce(\(p[1]), CAST(0 AS BIGNUM)))"
        return "{'u': CAST(\(total) AS VARCHAR), "
          + "'s': greatest(coalesce(\(p[2]), 0), coalesce(\(p[3]), 0)), "
          + "'c': \(p[4]), 'p': FALSE, 'm': FALSE}"
      })
  }

  /// The text of a sum or mean from its `total` (a column or an expression): its units of
  /// 10^-38 (`u`), its decimals (`s`), its count (`c`), whether it has a positive or negative
  /// infinity (`p`, `m`). A sum beyond a double's range is infinite.
  static func written(_ total: String, mean: Bool) -> String {
    let negative = "sift_agg.u LIKE '-%'"
    let bound = "CAST('\(String(decoding: WideDecimal.greatestFiniteDigits, as: UTF8.self))"
      + "\(String(repeating: "0", count: scale))' AS BIGNUM)"
    return "list_transform([\(total)], lambda sift_agg: CASE WHEN sift_agg.c = 0 THEN NULL "
      + "WHEN sift_agg.p AND sift_agg.m THEN 'nan' WHEN sift_agg.p THEN 'inf' "
      + "WHEN sift_agg.m THEN '-inf' WHEN CAST(ltrim(sift_agg.u, '-') AS BIGNUM) > \(bound) "
      + "THEN CASE WHEN \(negative) THEN '-inf' ELSE 'inf' END "
      + "ELSE \(mean ? meanText : sumText) END)[1]"
  }

  /// `sift_agg.u` (units of 10^-38) written with `sift_agg.s` decimals.
  private static let sumText: String = {
    let magnitude = "ltrim(sift_agg.u, '-')"
    return "list_transform([repeat('0', greatest(0, \(scale + 1) - length(\(magnitude)))) || "
      + "\(magnitude)], lambda sift_pad: CASE WHEN sift_agg.u LIKE '-%' THEN '-' ELSE '' END || "
      + "left(sift_pad, length(sift_pad) - \(scale)) || CASE WHEN sift_agg.s > 0 THEN '.' || "
      + "substr(sift_pad, length(sift_pad) - \(scale - 1), sift_agg.s) ELSE '' END)[1]"
  }()

  /// `sift_agg.u / sift_agg.c` with `sift_agg.s + 2` decimals, rounded half to even: the sum's
  /// digits at its own scale and two more, divided 18 digits a step.
  private static let meanText: String = {
    let magnitude = "ltrim(sift_agg.u, '-')"
    let digits = "left(\(magnitude), greatest(0, length(\(magnitude)) - \(scale) + sift_agg.s)) || '00'"
    let step = "(sift_acc.r * 1000000000000000000 + CAST(sift_next.k AS HUGEINT))"
    let division = "list_reduce(list_transform(regexp_extract_all(repeat('0', (18 - "
      + "length(sift_digits) % 18) % 18) || sift_digits, '.{18}'), lambda sift_chunk: "
      + "{'q': '', 'r': CAST(0 AS HUGEINT), 'k': sift_chunk}), lambda sift_acc, sift_next: "
      + "{'q': sift_acc.q || lpad(CAST(\(step) // sift_agg.c AS VARCHAR), 18, '0'), "
      + "'r': \(step) % sift_agg.c, 'k': ''}, {'q': '', 'r': CAST(0 AS HUGEINT), 'k': ''})"
    let roundUp = "CASE WHEN 2 * sift_div.r > sift_agg.c OR (2 * sift_div.r = sift_agg.c AND "
      + "right(sift_div.q, 1) IN ('1', '3', '5', '7', '9')) THEN 1 ELSE 0 END"
    let rounded = "CAST(CAST(sift_div.q AS BIGNUM) + CAST(\(roundUp) AS BIGNUM) AS VARCHAR)"
    let written = "list_transform([repeat('0', greatest(0, sift_agg.s + 3 - length(sift_quot))) "
      + "|| sift_quot], lambda sift_pad: CASE WHEN sift_agg.u LIKE '-%' AND sift_quot <> '0' "
      + "THEN '-' ELSE '' END || left(sift_pad, length(sift_pad) - sift_agg.s - 2) || '.' || "
      + "right(sift_pad, sift_agg.s + 2))[1]"
    return "list_transform([list_transform([\(digits)], lambda sift_digits: \(division))[1]], "
      + "lambda sift_div: list_transform([\(rounded)], lambda sift_quot: \(written))[1])[1]"
  }()
}
