"""A CSV file as a one-sheet workbook, for the xlsx job of Benchmarks/compare.sh (Docs/Performance.md,
Workbooks). Written by XlsxWriter in constant_memory mode (inline strings, rows streamed): plain
numbers (`12`, `3795.12`, grouped `1,234.50` without its commas) as numbers, `YYYY-MM-DD` as
date-styled numbers, `YYYY-MM-DDTHH:MM:SS` as date-time-styled numbers, empty cells left out,
everything else as text. Usage: python3 csv-to-xlsx.py IN.csv OUT.xlsx"""
import csv, re, sys
import datetime as dt, xlsxwriter

number = re.compile(r'^-?(\d+|\d{1,3}(,\d{3})+)(\.\d+)?$')
date = re.compile(r'^\d{4}-\d\d-\d\d$')
stamp = re.compile(r'^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$')
wb = xlsxwriter.Workbook(sys.argv[2], {"constant_memory": True})
ws = wb.add_worksheet("GRN")
date_style = wb.add_format({"num_format": "yyyy-mm-dd"})
stamp_style = wb.add_format({"num_format": "yyyy-mm-dd hh:mm:ss"})
with open(sys.argv[1], newline="", encoding="utf-8") as f:
    for r, row in enumerate(csv.reader(f)):
        for c, v in enumerate(row):
            if v == "":
                continue
            if r == 0:
                ws.write_string(r, c, v)
            elif number.match(v):
                ws.write_number(r, c, float(v.replace(",", "")))
            elif date.match(v):
                ws.write_datetime(r, c, dt.datetime.strptime(v, "%Y-%m-%d"), date_style)
            elif stamp.match(v):
                ws.write_datetime(r, c, dt.datetime.strptime(v, "%Y-%m-%dT%H:%M:%S"), stamp_style)
            else:
                ws.write_string(r, c, v)
wb.close()
