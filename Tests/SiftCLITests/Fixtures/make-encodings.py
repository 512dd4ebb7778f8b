#!/usr/bin/env python3
"""Writes the encoding and Excel-text fixtures (Docs/Formats.md, Encodings and TSV).

Run from this folder: python3 make-encodings.py. Excel's "Text (tab delimited)" writes the
ANSI code page (windows-1252 here) with CRLF rows, a tab between fields, and a cell holding a
line break (LF) or a quote in double quotes with "" for each quote; "Unicode text" writes the
same as UTF-16LE after the byte order mark FF FE.
"""

rows = [
    ["Kunde", "Ort", "Notiz", "Betrag"],
    ["Müller GmbH", "Köln", "Rampe 3\nab 14 Uhr", "1.200,50 €"],
    ["André Dupont", "Liège", 'sagt "dringend"', "80,00 €"],
]


def excel_text(rows):
    def cell(v):
        return '"' + v.replace('"', '""') + '"' if any(c in v for c in '"\t\n') else v
    return "".join("\t".join(cell(v) for v in r) + "\r\n" for r in rows)


# A ';' export from a German ERP in windows-1252, with bytes 0x80-0x9F (€ „ “ –).
with open("kunden-cp1252.csv", "wb") as f:
    f.write("Kunde;Ort;Betrag\r\nMüller GmbH;Köln;1.200,50 €\r\n„Bäckerei“ – Süd;Zürich;80,00 €\r\n"
            "André Dupont;Liège;12,00 €\r\n".encode("cp1252"))

# Excel "Text (tab delimited)": windows-1252, quoted cells.
with open("excel-text.txt", "wb") as f:
    f.write(excel_text(rows).encode("cp1252"))

# Excel "Unicode text": UTF-16LE with a byte order mark, quoted cells.
with open("excel-unicode-text.txt", "wb") as f:
    f.write(b"\xff\xfe" + excel_text(rows).encode("utf-16-le"))

# UTF-16BE with a byte order mark, a character outside the BMP (a surrogate pair).
with open("utf16be.csv", "wb") as f:
    f.write(b"\xfe\xff" + "Kunde,Ort\nMüller,Köln\nZoë 𝄞,Graz\n".encode("utf-16-be"))

# UTF-16LE whose second record holds a lone low surrogate (DC00): an error, not a guess.
with open("utf16le-lone-surrogate.csv", "wb") as f:
    f.write(b"\xff\xfe" + "Kunde,Ort\nMüller,Köln\n".encode("utf-16-le") + b"\x00\xdc"
            + ",Graz\n".encode("utf-16-le"))

# Blank lines, then a header starting with FE FF: a byte order mark counts only at byte 0. sift
# drops the blank lines, so its CSV output would start with FE FF: it quotes that field.
with open("blank-lines-then-fe-ff.csv", "wb") as f:
    f.write(b"\n\n\r\n\xfe\xff,Menge\n\xff\xfe,1\n")

# Neither UTF-8 nor windows-1252 (0x81 is undefined in windows-1252): read as it is.
with open("not-cp1252.csv", "wb") as f:
    f.write("Kunde,Ort\nMüller,Köln\n".encode("cp1252") + b"X\x81Y,Graz\n")

# Excel's tab-delimited quoting in plain ASCII (UTF-8), for --sql.
with open("excel-text-ascii.tsv", "wb") as f:
    f.write(excel_text([["Kunde", "Notiz"], ["Meier", "Rampe 3\nab 14 Uhr"],
                        ["Dupont", 'sagt "dringend"']]).encode("ascii"))

# The windows-1252 export gzipped (mtime 0, so the bytes do not change): sniffed after inflating.
import gzip
with open("kunden-cp1252.csv", "rb") as f, open("kunden-cp1252.csv.gz", "wb") as out:
    out.write(gzip.compress(f.read(), mtime=0))
