"""Spark half of Benchmarks/engines.sh: every query of the lists below through `sift --sql spark`
in one local Spark session, compared with sift's own CSV answer (Docs/Engines.md, Checked).

    python spark-check.py SIFT ROOT
"""
import csv, io, subprocess, sys

from pyspark.sql import SparkSession

SIFT, ROOT = sys.argv[1], sys.argv[2]
GRN, TERMS = ROOT + "/SampleData/grn.csv", ROOT + "/Tests/SiftCLITests/Fixtures/sql-terms.csv"
NOW = ["--now", "2024-06-12T10:00"]
QUERIES = [(q, GRN) for q in [
    "status:received", "status:received,pending", "-status:cancelled", "customer:acme*",
    "customer:*&*", 'customer:""', "has:customer", "qty:>100", "qty:<=3", "qty:0", "qty:10..20",
    "qty:400..*", "amount:<1", "date:2024-03", "date:2023", "date:>2024-05", "date:<2023-02-01",
    "date:2024-01-01..2024-01-31", "updated:2024-06-12", "updated:this-week", "date:last-7d",
    "empty_stock:on", "empty_stock:off", "item:/bolt\\s+m1\\d/i", "item:/Nut/", "bolt", '"hex nut"',
    "warehouse:WH-01 OR warehouse:WH-02", "(status:pending OR qty:0) warehouse:wh-03",
    "NOT (status:received OR status:pending)", "müller", "customer:東京商事", "sort:date", "sort:-qty",
    "sort:-customer,date", "group:customer", "group:status sort:-qty", "group:warehouse sort:date limit:30",
    "fields:-updated,-sku sort:qty", "customer:>m sort:customer", "customer:a..c", "qty:n/a",
    "date:last-month", "updated:>=2024-06-01T12:00", "item:*_*", "qty:7,8,9",
    "group:customer sum:amount sort:-amount_sum limit:5", "group:status min:date max:date",
    "group:warehouse min:customer distinct:customer", "group:status p50:qty p90:amount p99:qty",
]] + [(q, TERMS) for q in [
    "name:bolt*", "name:*%", "qty:1200", "qty:-3..10", "date:2024-02", "at:<2024-01-31T23:59:59.6",
    "ok:off", 'note:""', "name:/^b.*m\\d+$/i", '"hi"', "sort:at", "sort:-date,name", "group:note sort:-qty",
]]

spark = (SparkSession.builder.master("local[2]").config("spark.ui.enabled", "false")
         .config("spark.sql.ansi.enabled", "false").getOrCreate())
spark.sparkContext.setLogLevel("ERROR")
bad = 0
for query, file in QUERIES:
    statement = subprocess.run([SIFT, "--sql", "spark", *NOW, "--", query, file],
                               capture_output=True, text=True, check=True).stdout
    own = subprocess.run([SIFT, "-q", "-o", "csv", *NOW, "--", query, file],
                         capture_output=True, text=True).stdout
    parts = [s for s in statement.split(";\n") if s.strip()]
    for setup in parts[:-1]:
        spark.sql(setup)
    frame = spark.sql(parts[-1])
    got = [frame.columns] + [["" if v is None else str(v) for v in row] for row in frame.collect()]
    if got != list(csv.reader(io.StringIO(own))):
        bad += 1
        print(f"differs: {query}")
print(f"spark: {len(QUERIES) - bad} of {len(QUERIES)} queries agree")
sys.exit(1 if bad else 0)
