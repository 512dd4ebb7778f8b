# What sql-typed-bench.sh (DuckDB) and spark-bench.sh (Spark) share (Docs/Engines.md): sourced
# from the package root with ROWS and WORK set, it makes the release binaries (SIFT and
# SIFT_BENCH name others) and the generated GRN records as CSV and as Parquet written by DuckDB
# ($csv, $parquet), and names the jobs timed (JOBS); `hand_written`, with P the dialect's
# relation of the Parquet file, makes the hand-written SQL each job is compared with (HAND).
SIFT=${SIFT:-.build/release/sift}
SIFT_BENCH=${SIFT_BENCH:-.build/release/sift-bench}
[ -x "$SIFT" ] || swift build -c release --product sift >/dev/null
[ -x "$SIFT_BENCH" ] || swift build -c release --product sift-bench >/dev/null

mkdir -p "$WORK"
csv=$WORK/grn-$ROWS.csv
parquet=$WORK/grn-$ROWS.parquet
[ -s "$csv" ] || "$SIFT_BENCH" gen --rows "$ROWS" --format csv --out "$csv"
[ -s "$parquet" ] || duckdb -c "COPY (SELECT * FROM read_csv('$csv')) TO '$parquet' (FORMAT parquet)"

JOBS=(
  "customer:acme"
  "qty:100..500"
  "date:2024-05"
  "sort:-amount limit:100"
  "group:customer sum:amount avg:amount"
)
hand_written() {
  HAND=(
    "SELECT * FROM $P WHERE lower(customer) = 'acme'"
    "SELECT * FROM $P WHERE qty BETWEEN 100 AND 500"
    "SELECT * FROM $P WHERE date >= DATE '2024-05-01' AND date < DATE '2024-06-01'"
    "SELECT * FROM $P ORDER BY amount DESC NULLS LAST LIMIT 100"
    "SELECT customer, count(*), sum(amount), avg(amount) FROM $P GROUP BY customer ORDER BY customer"
  )
}
