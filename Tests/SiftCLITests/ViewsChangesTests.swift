// `sift @VIEW --changes` by the view's own key, and `--views --changes` over the views' baselines
// (Docs/Reports.md, Changes in the views): each test runs sift in-process against its own state
// directory and views file.

import Foundation
import Testing

@Suite struct ViewsChangesTests {
  /// A views file of two views with a key on the bench's input and one without a key.
  static func viewsFile(_ bench: ChangesBench) throws -> String {
    let path = bench.folder.appendingPathComponent("sift.json").path
    let text = """
      { "title": "Ops", "views": {
        "holds": { "title": "Holds", "source": "holds.csv", "query": "status:hold", "key": "grn_no" },
        "all": { "title": "All GRNs", "source": "holds.csv", "key": "grn_no" },
        "nokey": { "title": "No key", "source": "holds.csv" } } }
      """
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    return path
  }

  static func sift(_ bench: ChangesBench, _ arguments: [String], now: String) -> SiftResult {
    SiftCLITests.sift(
      arguments,
      environment: ["LANG": "C.UTF-8", "TZ": "UTC", "SIFT_STATE_DIR": bench.state, "SIFT_NOW": now])
  }

  @Test func theViewsShowOnlyWhatChangedSinceEachViewsOwnRun() throws {
    let bench = try ChangesBench()
    let config = try Self.viewsFile(bench)
    try bench.write([("G1", "hold", 4), ("G2", "hold", 3), ("G3", "ok", 1)])
    for view in ["@holds", "@all"] {
      let first = Self.sift(bench, ["--config", config, view, "--changes", "-q", "-o", "csv"], now: "2026-11-24T06:00")
      #expect(first.status == .matched)
      #expect(first.text.split(separator: "\n").first == "change,grn_no,status,qty,was")
    }
    // Nothing changed: no view is shown, exit 1.
    let none = Self.sift(bench, ["--config", config, "--views", "--changes"], now: "2026-11-25T06:00")
    #expect(none.status == .noMatch)
    #expect(none.text == "")
    #expect(none.stderr == "note: --views --changes: no view changed since its last --changes run\n")

    try bench.write([("G1", "hold", 5), ("G3", "ok", 1), ("G4", "hold", 9)])
    let tabs = Self.sift(bench, ["--config", config, "--views", "--changes", "--ascii"], now: "2026-11-25T06:00")
    #expect(tabs.status == .matched)
    #expect(tabs.text.split(separator: "\n").first == " Holds (+1, ~1, -1) | All GRNs (+1, ~1, -1)")

    let digest = Self.sift(bench, ["--config", config, "--views", "--changes", "-o", "html"], now: "2026-11-25T06:00")
    #expect(digest.status == .matched)
    #expect(digest.text.contains(">+1 · ~1 · −1</span>"))
    #expect(digest.text.contains("<title>Ops — sift.json</title>"))
    #expect(digest.text.contains("1 new · 1 changed · 1 gone since 2026-11-24 06:00"))
    #expect(digest.text.contains(">4</del> 5</td>"))
    #expect(!digest.text.contains("No key"))

    // Only looking: `@holds --changes` still compares with Monday's run.
    let holds = Self.sift(bench, ["--config", config, "@holds", "--changes", "-q", "-o", "csv"], now: "2026-11-25T06:00")
    #expect(holds.text == "change,grn_no,status,qty,was\nchanged,G1,hold,5,qty=4\nnew,G4,hold,9,\ngone,G2,hold,3,\n")
  }
}
