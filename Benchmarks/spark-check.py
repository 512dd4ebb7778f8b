"""Spark half of Benchmarks/engines.sh (Docs/Engines.md, Checked): every query of the lists below,
compared with sift's own answer, either as the statement of `sift --sql spark` in one local Spark
session (its records against sift's CSV), or with `--engine` as `sift --engine spark` itself
(its standard output and bar against sift's, byte for byte; `spark-sql` from $SIFT_SPARK_SQL).

    python spark-check.py SIFT ROOT [--engine]
"""
import csv, io, subprocess, sys, time

SIFT, ROOT = sys.argv[1], sys.argv[2]
ENGINE = "--engine" in sys.argv[3:]
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
    "group:status,warehouse", "group:status,warehouse sort:-qty limit:2/group",
    "group:customer,status sum:amount sort:-amount_sum limit:5",
    "group:status,empty_stock sum:qty sort:-qty_sum limit:1/group",
]] + [(q, TERMS) for q in [
    "name:bolt*", "name:*%", "qty:1200", "qty:-3..10", "date:2024-02", "at:<2024-01-31T23:59:59.6",
    "ok:off", 'note:""', "name:/^b.*m\\d+$/i", '"hi"', "sort:at", "sort:-date,name", "group:note sort:-qty",
]]



def sift(*arguments):
    return subprocess.run([SIFT, *arguments], capture_output=True, text=True)


def through_engine():
    """Each query through `sift --engine spark`: one spark-sql run per query (about 25 s each)."""
    bad = 0
    for n, (query, file) in enumerate(QUERIES, 1):
        start = time.time()
        # A table shows the group headers; CSV every value as written.
        output = "table" if "group:" in query else "csv"
        engine = sift("--engine", "spark", "-o", output, *NOW, "--", query, file)
        own = sift("-o", output, *NOW, "--", query, file)
        if (engine.stdout, engine.stderr, engine.returncode) != (own.stdout, own.stderr, own.returncode):
            bad += 1
            print(f"differs: {query} -o {output}\n  engine: {engine.stderr.strip()}\n  sift:   {own.stderr.strip()}",
                  flush=True)
        print(f"{n}/{len(QUERIES)} {time.time() - start:.1f} s {query}", file=sys.stderr, flush=True)
    return bad


def through_session():
    """Each query's statement in one local Spark session."""
    from pyspark.sql import SparkSession
    spark = (SparkSession.builder.master("local[2]").config("spark.ui.enabled", "false")
             .config("spark.sql.ansi.enabled", "false").getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    bad = 0
    for query, file in QUERIES:
        statement = subprocess.run([SIFT, "--sql", "spark", *NOW, "--", query, file],
                                   capture_output=True, text=True, check=True).stdout
        own = sift("-q", "-o", "csv", *NOW, "--", query, file).stdout
        parts = [s for s in statement.split(";\n") if s.strip()]
        for setup in parts[:-1]:
            spark.sql(setup)
        frame = spark.sql(parts[-1])
        got = [frame.columns] + [["" if v is None else str(v) for v in row] for row in frame.collect()]
        if got != list(csv.reader(io.StringIO(own))):
            bad += 1
            print(f"differs: {query}")
    return bad


bad = through_engine() if ENGINE else through_session()
print(f"spark{' --engine' if ENGINE else ''}: {len(QUERIES) - bad} of {len(QUERIES)} queries agree")
sys.exit(1 if bad else 0)
