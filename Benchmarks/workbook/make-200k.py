"""A 200,000-row, 8-column workbook for Docs/Performance.md "Workbooks", written by XlsxWriter in
constant_memory mode (inline strings). Usage: python3 make-200k.py OUT.xlsx"""
import sys
import datetime as dt, xlsxwriter
wb = xlsxwriter.Workbook(sys.argv[1] if len(sys.argv) > 1 else "bench-200k.xlsx", {"constant_memory": True})
ws = wb.add_worksheet("GRN")
date = wb.add_format({"num_format": "yyyy-mm-dd"})
ws.write_row(0, 0, ["grn", "sku", "site", "qty", "price", "received", "status", "note"])
sites = ["Köln", "Berlin", "Hamburg", "München"]
for i in range(1, 200_001):
    ws.write_string(i, 0, "GRN-%06d" % i)
    ws.write_string(i, 1, "SKU-%05d" % (i * 7 % 50000))
    ws.write_string(i, 2, sites[i % 4])
    ws.write_number(i, 3, i % 97)
    ws.write_number(i, 4, (i % 1000) / 8)
    ws.write_datetime(i, 5, dt.datetime(2026, 1, 1) + dt.timedelta(days=i % 300), date)
    ws.write_string(i, 6, "ok" if i % 5 else "short")
    ws.write_string(i, 7, "pallet %d, bay %d" % (i % 40, i % 12))
wb.close()
