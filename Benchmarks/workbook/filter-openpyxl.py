"""openpyxl read_only mode doing the xlsx job of Benchmarks/compare.sh (Docs/Performance.md,
Workbooks): the first sheet's records whose `status` is received or pending (any case) and whose
`qty` is a number over 100, written as CSV with the header, as
`sift -o csv 'status:received,pending qty:>100' BOOK.xlsx` does.
Usage: python3 filter-openpyxl.py BOOK.xlsx > out.csv"""
import csv, sys, openpyxl

wb = openpyxl.load_workbook(sys.argv[1], read_only=True)
rows = wb.worksheets[0].iter_rows(values_only=True)
header = next(rows)
status, qty = header.index("status"), header.index("qty")
w = csv.writer(sys.stdout, lineterminator="\n")
w.writerow(header)
for row in rows:
    s, q = row[status], row[qty]
    if isinstance(s, str) and s.lower() in ("received", "pending") \
            and isinstance(q, (int, float)) and not isinstance(q, bool) and q > 100:
        w.writerow(row)
