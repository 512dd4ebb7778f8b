import Foundation
import Testing

/// Issue 27 item 2 (Docs/QueryLanguage.md, How numbers compare): random queries over 18-digit
/// IDs (SSCC pallet codes, many a few units apart, some with leading zeros, a sign or decimals),
/// each run through sift and checked against python3's `decimal`, which compares the same
/// values exactly: which records match, in which order `sort:` puts them.
@Suite(.enabled(if: python3Path != nil, "python3 is not installed"))
struct LongIDDifferentialTests {
  /// Writes `ids.csv` (`id,n`) and `cases.tsv`: a query, a tab, the `n` of the records it keeps
  /// in order, comma-separated.
  static let script = """
    import random
    from decimal import Decimal
    random.seed(27)
    ids = []
    base = 123456789012345678
    for i in range(1500):
        kind = random.random()
        if kind < 0.55:
            v = str(base + random.randint(-300, 300))
        elif kind < 0.75:
            v = str(random.randint(10**17, 10**18 - 1))
        elif kind < 0.82:
            v = str(random.randint(0, 10**16)).zfill(18)
        elif kind < 0.9:
            v = '-' + str(base + random.randint(-300, 300))
        elif kind < 0.95:
            v = str(base + random.randint(-50, 50)) + '.' + str(random.randint(0, 99)).zfill(2)
        else:
            v = str(random.randint(10**18, 10**20))
        ids.append(v)
    rows = [(v, i) for i, v in enumerate(ids)]
    def pick():
        v = random.choice(ids).lstrip('0') or '0'
        if random.random() < 0.4 and '.' not in v:
            v = str(int(v) + random.randint(-3, 3))
        return v
    cases = []
    for _ in range(150):
        op = random.choice([':', ':>', ':>=', ':<', ':<=', 'range', 'list'])
        if op == 'range':
            a, b = sorted([Decimal(pick()), Decimal(pick())])
            q = f'id:{a}..{b}'
            keep = [n for v, n in rows if a <= Decimal(v) <= b]
        elif op == 'list':
            xs = [pick() for _ in range(3)]
            q = 'id:' + ','.join(xs)
            keep = [n for v, n in rows if any(Decimal(v) == Decimal(x) for x in xs)]
        else:
            x = pick()
            d = Decimal(x)
            test = {':': lambda y: y == d, ':>': lambda y: y > d, ':>=': lambda y: y >= d,
                    ':<': lambda y: y < d, ':<=': lambda y: y <= d}[op]
            q = f'id{op}{x}'
            keep = [n for v, n in rows if test(Decimal(v))]
        cases.append((q, keep))
    ordered = sorted(rows, key=lambda r: Decimal(r[0]))
    cases.append(('sort:id', [n for _, n in ordered]))
    ordered = sorted(rows, key=lambda r: Decimal(r[0]), reverse=True)
    cases.append(('sort:-id', [n for _, n in ordered]))
    with open('ids.csv', 'w') as f:
        f.write('id,n\\n' + ''.join(f'{v},{n}\\n' for v, n in rows))
    with open('cases.tsv', 'w') as f:
        f.write(''.join(q + '\\t' + ','.join(map(str, keep)) + '\\n' for q, keep in cases))
    """

  @Test func matchesAndOrderAgreeWithPythonsDecimal() throws {
    let dir = try runPython3(Self.script, in: "sift-long-ids")
    defer { try? FileManager.default.removeItem(at: dir) }
    let file = dir.appendingPathComponent("ids.csv").path
    let cases = try String(contentsOf: dir.appendingPathComponent("cases.tsv"), encoding: .utf8)
      .split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false) }
    try #require(cases.count == 152)
    var nonEmpty = 0
    for c in cases {
      let query = String(c[0])
      let expected = c[1].isEmpty ? [] : c[1].split(separator: ",").map(String.init)
      if !expected.isEmpty { nonEmpty += 1 }
      let result = sift(["-q", "-o", "csv", "fields:n " + query, file])
      let kept = result.text.split(separator: "\n").dropFirst().map(String.init)
      let firstDifference = (0..<min(kept.count, expected.count)).first { kept[$0] != expected[$0] } ?? min(kept.count, expected.count)
      #expect(
        kept == expected,
        "\(query): \(kept.count) records, python \(expected.count), first difference at \(firstDifference) \(result.stderr)")
    }
    // The queries are not all trivially empty.
    #expect(nonEmpty > 100)
    // A sort that spills its runs to temporary files keeps the long numbers exact.
    for c in cases.suffix(2) {
      let spilled = sift(["-q", "--memory", "1K", "-o", "csv", "fields:n " + c[0], file])
      let kept = spilled.text.split(separator: "\n").dropFirst().joined(separator: ",")
      #expect(kept == c[1], "\(c[0]) spilled: \(spilled.stderr)")
    }
  }
}
