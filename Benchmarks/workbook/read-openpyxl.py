"""openpyxl read_only mode reading the first sheet to CSV: the yardstick of Docs/Performance.md
"Workbooks". Usage: python3 read-openpyxl.py BOOK.xlsx > out.csv"""
import csv, sys, openpyxl
wb = openpyxl.load_workbook(sys.argv[1], read_only=True)
w = csv.writer(sys.stdout)
for row in wb.worksheets[0].iter_rows(values_only=True):
    w.writerow(row)
