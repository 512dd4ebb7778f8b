import Foundation
import Testing

/// python3 on PATH, for the differential tests against python's `decimal`.
let python3Path: String? = {
  for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
    let path = "\(folder)/python3"
    if FileManager.default.isExecutableFile(atPath: path) { return path }
  }
  return nil
}()

/// Runs a python3 script in a new temporary folder named after `prefix`, and returns the folder
/// with what the script wrote (the caller removes it); the script must succeed.
func runPython3(_ script: String, in prefix: String) throws -> URL {
  let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
    "\(prefix)-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
  let p = Process()
  p.executableURL = URL(fileURLWithPath: try #require(python3Path))
  p.arguments = ["-c", script]
  p.currentDirectoryURL = dir
  try p.run()
  p.waitUntilExit()
  try #require(p.terminationStatus == 0)
  return dir
}

/// Docs/Formats.md, Decimal commas: sums and means of a generated decimal-comma file (grouped
/// thousands, negatives, 0 to 3 decimals) against python3's `decimal`, an independent exact
/// computation; and the count of a comparison against python's own reading of the values.
@Suite(.enabled(if: python3Path != nil, "python3 is not installed"))
struct DecimalCommaDifferentialTests {
  /// Writes `beleg.csv` (`;`, decimal commas) and `expected.txt` (`Lager;count;sum;avg` per
  /// group, then `over;N`: the records whose Betrag is over 1000).
  static let script = """
    import random
    from decimal import Decimal, ROUND_HALF_EVEN
    random.seed(22)
    def german(d, places):
        sign = '-' if d < 0 else ''
        text = f'{abs(d):.{places}f}'
        whole, _, frac = text.partition('.')
        if random.random() < 0.5:
            groups = []
            while len(whole) > 3:
                groups.insert(0, whole[-3:]); whole = whole[:-3]
            whole = '.'.join([whole] + groups)
        return sign + whole + (',' + frac if frac else '')
    rows, totals, over = [], {}, 0
    for i in range(20000):
        lager = random.choice(['Nord', 'Ost', 'Süd', 'West'])
        places = random.choice([0, 1, 2, 2, 3])
        d = Decimal(random.randint(-500000, 5000000)) / Decimal(10) ** places
        rows.append(f'B-{i};{lager};{german(d, places)}')
        t = totals.setdefault(lager, [0, Decimal(0), 0])
        t[0] += 1; t[1] += d; t[2] = max(t[2], places)
        over += d > 1000
    with open('beleg.csv', 'w', encoding='utf-8') as f:
        f.write('Beleg;Lager;Betrag\\n' + '\\n'.join(rows) + '\\n')
    with open('expected.txt', 'w', encoding='utf-8') as f:
        for lager in sorted(totals):
            n, s, places = totals[lager]
            q = Decimal(1).scaleb(-places)
            mean = (s / n).quantize(Decimal(1).scaleb(-(places + 2)), rounding=ROUND_HALF_EVEN)
            f.write(f'{lager};{n};{s.quantize(q)};{mean}\\n')
        f.write(f'over;{over}\\n')
    """

  @Test func sumsMeansAndComparisonsMatchPythonsDecimal() throws {
    let dir = try runPython3(Self.script, in: "sift-decimal-comma")
    defer { try? FileManager.default.removeItem(at: dir) }
    let expected = try String(contentsOf: dir.appendingPathComponent("expected.txt"), encoding: .utf8)
      .split(separator: "\n").map(String.init)
    let file = dir.appendingPathComponent("beleg.csv").path

    let summary = sift(["-q", "group:Lager sum:Betrag avg:Betrag", file])
    #expect(summary.status == .matched, "\(summary.stderr)")
    let lines = summary.text.split(separator: "\n").map(String.init)
    #expect(lines.first == "Lager;count;Betrag_sum;Betrag_avg")
    // Each group's line; the Total row after them is not python's.
    #expect(Array(lines.dropFirst().prefix(expected.count - 1)) == Array(expected.dropLast()))

    let over = sift(["-q", "-c", "Betrag:>1000", file])
    #expect(over.text == expected.last.map { String($0.dropFirst("over;".count)) + "\n" })

    let note = sift(["sum:Betrag", file])
    #expect(note.stderr.contains("with ',' as the decimal mark"))
  }
}
