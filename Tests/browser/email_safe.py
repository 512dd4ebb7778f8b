#!/usr/bin/env python3
"""Checks that HTML reports are what Docs/Reports.md promises an e-mail client: no script, no
style sheet, no external resource (no src or href attribute, no url() in a style), no event
handler attribute, no class or id (every style inline), balanced tags, the light colour scheme
declared, and every style that sets a text colour setting a background colour too. Python's
standard library only. Prints each problem; exits 1 when there is one."""
import sys
from html.parser import HTMLParser

VOID = {"meta", "br"}
FORBIDDEN_TAGS = {"script", "style", "link", "iframe", "object", "embed", "img", "form", "input", "base", "svg"}


class Checker(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.problems = []
        self.open = []
        self.light = False

    def handle_starttag(self, tag, attrs):
        where = f"line {self.getpos()[0]}: <{tag}>"
        if tag in FORBIDDEN_TAGS:
            self.problems.append(f"{where} is not allowed")
        for name, value in attrs:
            value = value or ""
            if name.startswith("on") or name in ("src", "href", "class", "id", "background"):
                self.problems.append(f"{where} has a {name} attribute")
            if name == "style":
                if "url(" in value.replace(" ", "").lower():
                    self.problems.append(f"{where} loads a resource in its style")
                declarations = [d.split(":", 1)[0].strip() for d in value.split(";") if ":" in d]
                if "color" in declarations and "background-color" not in declarations:
                    self.problems.append(f"{where} sets a text colour without a background")
        if tag == "meta" and ("name", "color-scheme") in attrs and ("content", "light") in attrs:
            self.light = True
        if tag not in VOID:
            self.open.append(tag)

    def handle_endtag(self, tag):
        if not self.open or self.open[-1] != tag:
            self.problems.append(f"line {self.getpos()[0]}: </{tag}> does not close <{self.open[-1] if self.open else ''}>")
            return
        self.open.pop()


def main():
    failed = False
    for path in sys.argv[1:]:
        checker = Checker()
        with open(path, encoding="utf-8", errors="replace") as f:
            checker.feed(f.read())
        checker.close()
        problems = checker.problems
        if checker.open:
            problems.append(f"unclosed: {' '.join(checker.open)}")
        if not checker.light:
            problems.append('no <meta name="color-scheme" content="light">')
        for problem in problems:
            print(f"{path}: {problem}")
        failed = failed or bool(problems)
    print(f"e-mail safety: {len(sys.argv) - 1} documents checked, {'problems found' if failed else 'no problem'}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
