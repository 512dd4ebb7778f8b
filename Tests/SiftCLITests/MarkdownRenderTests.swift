import Foundation
import Testing

/// Markdown output turned into HTML by a real GFM renderer (`cmark-gfm`, skipped with the reason
/// where it is not installed) shows every value as the value's text, never as markup
/// (Docs/Formats.md, Markdown); only a bare URL becomes a link to itself.
@Suite struct MarkdownRenderTests {
  static let values = [
    "<b>x</b>", "<script>alert(1)</script>", "<img src=x onerror=alert(1)>", "a|b", "`code`",
    "*em* and **strong**", "_u_ and __v__", "grn_no", "[link](http://example.com)", "![i](x.png)",
    "[ref][1]", "[1,2]", "~~gone~~", "Tom & Jerry", "&amp; stays", "C:\\temp\\new", "\\*",
    "# not a heading", "line one\nline two", "<http://example.com>", "snake_case_name",
  ]

  @Test(.enabled(if: executable("cmark-gfm") != nil, "needs cmark-gfm (apt-get install -y cmark-gfm)"))
  func everyValueRendersAsItsText() throws {
    let cmark = try #require(executable("cmark-gfm"))
    let csv = "v\n" + Self.values.map { "\"" + $0.replacing("\"", with: "\"\"") + "\"" }
      .joined(separator: "\n") + "\n"
    let markdown = sift(["-q", "", "-f", "csv", "-o", "markdown"], stdin: Array(csv.utf8))
    #expect(markdown.status == .matched)
    let html = try runProcess(
      cmark, ["--unsafe", "-e", "table", "-e", "strikethrough", "-e", "autolink"],
      input: markdown.stdout)
    #expect(html.status == 0)
    let cells = html.stdout.matches(of: /<td>(.*?)<\/td>/).map { String($0.1) }
    #expect(cells.count == Self.values.count)
    for (cell, value) in zip(cells, Self.values) {
      // GFM links a bare URL (the autolink extension); the link's text is still the value's.
      let unlinked = cell.replacing(/<a href="([^"]*)">([^<]*)<\/a>/) { link in
        link.1 == link.2 ? String(link.2) : String(link.0)
      }
      let lines = unlinked.replacing("<br>", with: "\n")
      #expect(!lines.contains("<"), "markup in the cell of \(value): \(cell)")
      let text = lines.replacing("&lt;", with: "<").replacing("&gt;", with: ">")
        .replacing("&quot;", with: "\"").replacing("&amp;", with: "&")
      #expect(text == value)
    }
  }
}
