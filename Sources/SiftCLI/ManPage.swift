/// `sift --man`: the manual page in roff (`man -l <(sift --man)`), generated from
/// `OptionTable` and the query-language summary that `--help` shows too.
enum ManPage {
  static let text: String = {
    var roff = [
      ".TH SIFT 1 \"\" \"sift \(siftVersion)\" \"User Commands\"",
      ".SH NAME",
      "sift \\- " + escape(siftTagline),
      ".SH SYNOPSIS",
      ".nf",
    ]
    roff += usageLines.map { escape($0.command) }
    roff += [".fi", ".SH DESCRIPTION"]
    for note in usageNotes { roff += [escape(note), ".br"] }
    roff += [
      ".PP",
      "Records go to standard output; the feedback bar, warnings and errors go to standard",
      "error, except in a table on a terminal, where the bar stands above the table.",
      "A table taller than the terminal goes through a pager (\\fB\\-\\-pager\\fR).",
      ".SH OPTIONS",
    ]
    for option in OptionTable.visible {
      roff += [".TP", "\\fB" + escape(option.synopsis.trimmingLeadingSpaces) + "\\fR"]
      roff.append(escape(option.help))
    }
    roff.append(".SH QUERY LANGUAGE")
    for section in querySummary {
      roff.append(".SS " + escape(section.title))
      if section.examples.allSatisfy({ $0.meaning.isEmpty }) {
        roff += [".nf"] + section.examples.map { "\\fB" + escape($0.text) + "\\fR" } + [".fi"]
        continue
      }
      for example in section.examples {
        roff += [".TP", "\\fB" + escape(example.text) + "\\fR", escape(example.meaning)]
      }
    }
    roff += [".SH ENVIRONMENT"]
    for (name, meaning) in environment {
      roff += [".TP", "\\fB" + name + "\\fR", escape(meaning)]
    }
    roff += [
      ".SH FILES",
      "The views file: \\fB\\-\\-config\\fR FILE, else \\fB$SIFT_CONFIG\\fR, else",
      "\\fI./sift.json\\fR, else \\fI$XDG_CONFIG_HOME/sift/config.json\\fR",
      "(\\fI~/.config/sift/config.json\\fR).",
      ".SH EXAMPLES",
      ".nf",
    ]
    roff += commandExamples.map(escape)
    roff += [".fi", ".SH EXIT STATUS", escape(exitStatusLine)]
    return roff.joined(separator: "\n") + "\n"
  }()

  /// The variables sift reads, for ENVIRONMENT.
  static let environment = [
    ("SIFT_NOW", "the reference time for relative dates, as --now"),
    ("SIFT_CONFIG", "the views file, as --config"),
    ("SIFT_PAGER, PAGER", "the pager for a tall table; else less -FRSX"),
    ("COLUMNS, LINES", "the terminal's width and height, instead of asking the terminal"),
    ("NO_COLOR", "set and not empty: no colour with --color auto"),
    ("LANG, LC_ALL, LC_CTYPE", "a UTF-8 locale allows Unicode in the feedback bar"),
  ]

  /// Text as roff prints it literally: backslashes and hyphens escaped, and a line that would
  /// start with `.` or `'` (a request) guarded by `\&`.
  static func escape(_ text: String) -> String {
    var out = text.replacing("\\", with: "\\e").replacing("-", with: "\\-")
    if out.hasPrefix(".") || out.hasPrefix("'") { out = "\\&" + out }
    return out
  }
}

extension String {
  fileprivate var trimmingLeadingSpaces: String { String(drop { $0 == " " }) }
}
