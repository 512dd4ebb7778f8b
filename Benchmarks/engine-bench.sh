#!/usr/bin/env bash
# `sift --engine duckdb` against sift's own run (Docs/Engines.md, Measured): the same queries over
# 1,000,000 and 10,000,000 generated GRN records, as CSV for both and as Parquet for the engine.
#
#   Benchmarks/engine-bench.sh                 # both sizes, 3 runs each after a warm-up
#   SIZES=10000000 RUNS=1 WARMUP=0 Benchmarks/engine-bench.sh   # one run (minutes on 2 cores)
#
# Needs hyperfine and duckdb (pip install duckdb-cli: put the client itself, site-packages/duckdb_cli,
# first on PATH, since pip's `duckdb` is a Python script adding ~100 ms to every start;
# Docs/Engines.md, Measured; medians and CPU times in $WORK/*.json). Builds sift in release mode, generates the
# data with sift-bench (CSV) and DuckDB (Parquet, with the types DuckDB detects), checks that the
# engine writes the same CSV as sift for each job, then times them. Output goes to /dev/null.
set -euo pipefail

SIZES=${SIZES:-"1000000 10000000"}
RUNS=${RUNS:-3}
WARMUP=${WARMUP:-1}
WORK=${WORK:-/tmp/sift-engine-bench}
NOW=2024-06-12T10:00
JOBS=(
  "status:received qty:>100"
  "status:received qty:>400 sort:-date"
  "group:customer sum:amount"
)

cd "$(dirname "$0")/.."
mkdir -p "$WORK"
swift build -c release --product sift >/dev/null
swift build -c release --product sift-bench >/dev/null
SIFT=$(pwd)/.build/release/sift

for rows in $SIZES; do
  csv=$WORK/grn-$rows.csv
  parquet=$WORK/grn-$rows.parquet
  [ -s "$csv" ] || .build/release/sift-bench gen --rows "$rows" --format csv --out "$csv"
  [ -s "$parquet" ] || duckdb -c "COPY (SELECT * FROM read_csv('$csv')) TO '$parquet' (FORMAT parquet)"
  for job in "${JOBS[@]}"; do
    own=$("$SIFT" -q -o csv --now $NOW -- "$job" "$csv" | md5sum)
    engine=$("$SIFT" --engine duckdb -q -o csv --now $NOW -- "$job" "$csv" | md5sum)
    [ "$own" = "$engine" ] || { echo "engine-bench.sh: '$job' differs on $rows records" >&2; exit 1; }
    hyperfine --runs "$RUNS" --warmup "$WARMUP" --style basic --export-markdown "$WORK/$rows-${job//[^a-z0-9]/_}.md" --export-json "$WORK/$rows-${job//[^a-z0-9]/_}.json" \
      -n sift "'$SIFT' -q -o csv --now $NOW -- '$job' '$csv' > /dev/null" \
      -n "engine csv" "'$SIFT' --engine duckdb -q -o csv --now $NOW -- '$job' '$csv' > /dev/null" \
      -n "engine parquet" "'$SIFT' --engine duckdb -q -o csv --now $NOW -- '$job' '$parquet' > /dev/null"
  done
done
