#!/usr/bin/env python3
"""Makes the workbook and archive fixtures of Docs/Formats.md "Workbooks" and "Compressed input".

Run from this folder: python3 make-workbooks.py  (openpyxl 3.1, XlsxWriter 3.3; LibreOffice's
soffice for libreoffice.xlsx). The bad inputs are written byte by byte with zipfile from the
good parts, so each holds exactly one defect.
"""
import bz2, datetime as dt, lzma, os, shutil, subprocess, tempfile, zipfile

import openpyxl
import xlsxwriter
from openpyxl.utils.datetime import CALENDAR_MAC_1904

# openpyxl: several sheets (one hidden), a title row above a table, sparse cells, error cells.
wb = openpyxl.Workbook()
ws = wb.active
ws.title = "GRN"
ws.append(["Beleg", "SKU", "Menge", "Preis", "Datum", "Zeit", "Geliefert", "Notiz"])
ws.append(["00123", "A-1", 3, 0.1, dt.date(2026, 11, 25), dt.datetime(2026, 11, 25, 14, 3, 0), True, "Müller, Köln"])
ws.append(["00124", "B-2", 1200000, -2.5, dt.datetime(2026, 1, 2, 0, 0, 0), dt.datetime(2026, 1, 2, 23, 59, 59), False, 'says "hi"\nsecond line'])
ws.append(["00125", None, 0.00001, 12345678.125, None, None, None, None])
ws["H4"] = "#N/A"  # openpyxl writes it as an error cell (t="e")
ws["C5"] = 7  # a sparse row: only C5 and F5
ws["F5"] = dt.time(6, 30)
hidden = wb.create_sheet("Archiv")
hidden.sheet_state = "hidden"
hidden.append(["a", "b"])
hidden.append([1, 2])
report = wb.create_sheet("Bericht")
report["A1"] = "Wareneingang November 2026"
report.append([])
report.append(["Lager", "Menge"])
report.append(["Nord", 5])
report.append(["Süd", 7])
report.merge_cells("A1:B1")
wb.save("openpyxl.xlsx")

# openpyxl, 1904 date system.
wb = openpyxl.Workbook()
wb.epoch = CALENDAR_MAC_1904
ws = wb.active
ws.title = "Mac"
ws.append(["Tag", "Wert"])
ws.append([dt.date(2026, 11, 25), 1])
ws.append([dt.date(1904, 1, 2), 2])  # serial 1 (openpyxl reads serial 0 as a time)
wb.save("date1904.xlsx")

# XlsxWriter: shared strings with rich text, formulas with cached values, custom formats.
wb = xlsxwriter.Workbook("xlsxwriter.xlsx")
ws = wb.add_worksheet("Versand")
bold = wb.add_format({"bold": True})
red = wb.add_format({"font_color": "red"})
de_date = wb.add_format({"num_format": "dd.mm.yyyy"})
stamp = wb.add_format({"num_format": "yyyy-mm-dd hh:mm"})
clock = wb.add_format({"num_format": "hh:mm:ss"})
quoted = wb.add_format({"num_format": '0.00" days"'})
ws.write_row(0, 0, ["Sendung", "Kunde", "Menge", "Preis", "Summe", "Datum", "Zeit", "Stempel", "Dauer", "Eil", "Quote"], bold)
ws.write_string(1, 0, "0042")
ws.write_rich_string(1, 1, "Müller ", red, "GmbH")
ws.write_number(1, 2, 5)
ws.write_number(1, 3, 7.5)
ws.write_formula(1, 4, "=C2*D2", None, 37.5)
ws.write_datetime(1, 5, dt.datetime(2026, 11, 25), de_date)
ws.write_datetime(1, 6, dt.datetime(1899, 12, 31, 8, 15, 30), clock)
ws.write_datetime(1, 7, dt.datetime(2026, 11, 25, 14, 3), stamp)
ws.write_number(1, 8, 1.5, quoted)
ws.write_boolean(1, 9, True)
ws.write_formula(1, 10, "=1/0", None, "#DIV/0!")
ws.write_string(2, 0, "0043")
ws.write_string(2, 1, "_x0041_ literal")
ws.write_number(2, 2, 1e-7)
ws.write_number(2, 3, 123456789012)
ws.write_formula(2, 4, '="n/a"', None, "n/a")
ws.write_datetime(2, 5, dt.datetime(1900, 3, 1), de_date)
ws.write_boolean(2, 9, False)
ws2 = wb.add_worksheet("Leer")
wb.close()

# XlsxWriter constant_memory mode: inline strings.
wb = xlsxwriter.Workbook("inline.xlsx", {"constant_memory": True})
ws = wb.add_worksheet()
ws.write_row(0, 0, ["id", "name", "qty"])
ws.write_row(1, 0, ["007", "Ölkanne", 2])
ws.write_row(2, 0, ["008", "Tape, brown", 10])
wb.close()

# LibreOffice: a CSV opened and saved as a workbook by soffice.
if shutil.which("soffice"):
    with tempfile.TemporaryDirectory() as tmp:
        source = os.path.join(tmp, "libreoffice.csv")
        with open(source, "w") as f:
            f.write("Artikel,Menge,Preis,Datum\nSchraube,100,0.25,2026-11-25\nMutter,50,1.5,2026-12-01\n")
        subprocess.run(["soffice", "--headless", "--convert-to", "xlsx", "--outdir", tmp, source],
                       check=True, capture_output=True)
        shutil.copy(os.path.join(tmp, "libreoffice.xlsx"), "libreoffice.xlsx")

# Bad inputs, each built from minimal parts with one defect.
CONTENT = b'<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>'
WORKBOOK = (b'<?xml version="1.0"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"'
            b' xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">'
            b'<sheets><sheet name="GRN" sheetId="1" r:id="rId1"/></sheets></workbook>')
RELS = (b'<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
        b'<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/>'
        b'<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/>'
        b'<Relationship Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/>'
        b'</Relationships>')
STRINGS = b'<?xml version="1.0"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><si><t>SKU</t></si><si><t>Menge</t></si><si><t>A-1</t></si></sst>'
STYLES = (b'<?xml version="1.0"?><styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
          b'<cellXfs count="2"><xf numFmtId="0"/><xf numFmtId="14"/></cellXfs></styleSheet>')

def sheet(rows, head=b'<?xml version="1.0"?>', dimension=b''):
    return (head + b'<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
            + dimension + b'<sheetData>' + rows + b'</sheetData></worksheet>')

GOOD_ROWS = (b'<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c></row>'
             b'<row r="2"><c r="A2" t="s"><v>2</v></c><c r="B2"><v>4</v></c></row>')

def book(name, sheet_xml, method=zipfile.ZIP_DEFLATED, leave_out=()):
    with zipfile.ZipFile(name, "w", method) as z:
        for part, data in [("[Content_Types].xml", CONTENT), ("xl/workbook.xml", WORKBOOK),
                           ("xl/_rels/workbook.xml.rels", RELS), ("xl/sharedStrings.xml", STRINGS),
                           ("xl/styles.xml", STYLES), ("xl/worksheets/sheet1.xml", sheet_xml)]:
            if part not in leave_out:
                z.writestr(part, data)

book("minimal.xlsx", sheet(GOOD_ROWS))
book("missing-part.xlsx", sheet(GOOD_ROWS), leave_out=("xl/worksheets/sheet1.xml",))
book("bad-shared-string.xlsx", sheet(GOOD_ROWS + b'<row r="3"><c r="A3" t="s"><v>57</v></c><c r="B3"><v>5</v></c></row>'))
book("bad-date-serial.xlsx", sheet(GOOD_ROWS + b'<row r="3"><c r="A3" t="s"><v>2</v></c><c r="B3" s="1"><v>3000000</v></c></row>'))
book("dtd.xlsx", sheet(GOOD_ROWS, head=b'<?xml version="1.0"?><!DOCTYPE worksheet [<!ENTITY lol "lol">]>'))
book("declared-huge.xlsx", sheet(b'', dimension=b'<dimension ref="A1:XFD1048576"/>'))
book("outside-table.xlsx", sheet(GOOD_ROWS + b'<row r="3"><c r="A3" t="s"><v>2</v></c><c r="D3"><v>9</v></c></row>'))
# A part of 20 MB of spaces inside the sheet: about 20 KB compressed, over 200 times that.
book("bomb.xlsx", sheet(GOOD_ROWS + b' ' * 20_000_000))
# Stored (not compressed) so one byte of a value can be changed with the CRC-32 left as it was.
book("bad-crc.xlsx", sheet(GOOD_ROWS), method=zipfile.ZIP_STORED)
data = bytearray(open("bad-crc.xlsx", "rb").read())
at = data.index(b'<c r="B2"><v>4</v>')
data[at + len(b'<c r="B2"><v>')] = ord("5")
open("bad-crc.xlsx", "wb").write(bytes(data))
whole = open("minimal.xlsx", "rb").read()
open("truncated.xlsx", "wb").write(whole[: len(whole) // 2])
open("not-a-workbook.xlsx", "w").write("a,b\n1,2\n")

# Archives (Docs/Formats.md, Compressed input).
CSV = b"sku,qty\nA-1,3\nB-2,5\n"
with zipfile.ZipFile("one-csv.zip", "w", zipfile.ZIP_DEFLATED) as z:
    z.writestr("stock.csv", CSV)
with zipfile.ZipFile("two-files.zip", "w", zipfile.ZIP_DEFLATED) as z:
    z.writestr("stock.csv", CSV)
    z.writestr("orders.ndjson", b'{"a":1}\n')
open("stock.csv.xz", "wb").write(lzma.compress(CSV))
open("stock.csv.bz2", "wb").write(bz2.compress(CSV))
# zstd's frame magic and an empty raw block: enough for sift to name it.
open("stock.csv.zst", "wb").write(bytes([0x28, 0xB5, 0x2F, 0xFD, 0x00, 0x00, 0x01, 0x00, 0x00]))

# A one-column table: its first row is the header, not a title.
wb = openpyxl.Workbook()
ws = wb.active
for v in ["SKU", "A-1", "B-2", "C-3"]:
    ws.append([v])
wb.save("one-column.xlsx")

# A gzipped CSV alone in a ZIP.
import gzip
with zipfile.ZipFile("gzip-in-zip.zip", "w") as z:
    z.writestr("stock.csv.gz", gzip.compress(CSV, mtime=0))
