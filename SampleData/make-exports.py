#!/usr/bin/env python3
"""Makes the two exports of SampleData from grn.csv, as other programs write them:

  wareneingang.csv  a German ERP export: ';' between fields, decimal commas with '.' for
                    thousands, day-first dates (25.11.2026), windows-1252, CRLF line ends
  grn.xlsx          an Excel workbook written by openpyxl: a title row above the table, real
                    dates and numbers, a second sheet 'Lager' (warehouses)

Run from the repository root: python3 SampleData/make-exports.py (needs openpyxl). The output
of the CSV is the same on every run (a workbook holds the time it was zipped).
"""
import csv
import datetime

STATUS = {"received": "eingegangen", "pending": "offen", "cancelled": "storniert",
          "quality-hold": "Qualitätssperre", "returned": "retourniert"}

rows = list(csv.DictReader(open("SampleData/grn.csv", encoding="utf-8", newline="")))[:400]


def german_number(text, places):
    try:
        value = float(text.replace(",", ""))
    except ValueError:
        return text  # NA, TBC and the like stay as they are
    whole, _, frac = f"{value:.{places}f}".partition(".")
    sign = "-" if whole.startswith("-") else ""
    digits = whole.lstrip("-")
    groups = []
    while len(digits) > 3:
        groups.insert(0, digits[-3:])
        digits = digits[:-3]
    groups.insert(0, digits)
    return sign + ".".join(groups) + ("," + frac if frac else "")


def german_date(text):
    try:
        return datetime.date.fromisoformat(text).strftime("%d.%m.%Y")
    except ValueError:
        return text


with open("SampleData/wareneingang.csv", "w", encoding="cp1252", errors="replace", newline="") as f:
    out = csv.writer(f, delimiter=";", lineterminator="\r\n")
    out.writerow(["Belegnr", "Datum", "Status", "Kunde", "Lager", "Artikel", "Bezeichnung",
                  "Menge", "Einzelpreis", "Betrag"])
    for r in rows:
        out.writerow([r["grn_no"], german_date(r["date"]), STATUS.get(r["status"], r["status"]),
                      r["customer"], r["warehouse"], r["sku"], r["item"],
                      german_number(r["qty"], 0), german_number(r["unit_price"], 2),
                      german_number(r["amount"], 2)])

import openpyxl
from openpyxl.styles import Font

book = openpyxl.Workbook()
sheet = book.active
sheet.title = "GRN"
sheet.append(["Goods received notes, export of 12 June 2024"])
sheet["A1"].font = Font(bold=True, size=14)
sheet.append([])
sheet.append(["GRN No", "Date", "Status", "Customer", "Warehouse", "SKU", "Item", "Qty",
              "Unit price", "Amount", "Updated"])
for r in rows:
    def number(text):
        try:
            value = float(text.replace(",", ""))
        except ValueError:
            return text or None
        return int(value) if value.is_integer() and "." not in text else value
    date = datetime.date.fromisoformat(r["date"])
    try:
        updated = datetime.datetime.fromisoformat(r["updated"])
    except ValueError:
        updated = r["updated"] or None
    sheet.append([r["grn_no"], date, r["status"], r["customer"], r["warehouse"], r["sku"],
                  r["item"], number(r["qty"]), number(r["unit_price"]), number(r["amount"]),
                  updated])
for row in sheet.iter_rows(min_row=4, min_col=2, max_col=2):
    row[0].number_format = "DD.MM.YYYY"
for row in sheet.iter_rows(min_row=4, min_col=9, max_col=10):
    for cell in row:
        cell.number_format = "#,##0.00"
warehouses = book.create_sheet("Lager")
warehouses.append(["Warehouse", "City"])
for code, city in [("WH-01", "Bremen"), ("WH-02", "Leeds"), ("WH-03", "Lyon"), ("WH-04", "Gdańsk"),
                   ("WH-05", "Rotterdam"), ("WH-06", "Porto"), ("WH-07", "Malmö"), ("WH-08", "Cork")]:
    warehouses.append([code, city])
# A fixed creation time, so the bytes do not change from run to run.
book.properties.created = book.properties.modified = datetime.datetime(2024, 6, 12, 6, 0)
book.save("SampleData/grn.xlsx")
