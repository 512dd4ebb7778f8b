#!/usr/bin/env bash
# The statements `sift --sql spark` writes for a Parquet file against hand-written Spark SQL for
# the same job, in one spark-sql session on the same file (Docs/Engines.md, Spark reads files in
# parts; issue 26). 1,000,000 generated GRN records (`sift-bench gen`), written as Parquet by
# DuckDB with the types it detects. Each statement runs RUNS times after one warm-up, both
# wrapped as sift's client wraps a result (`to_csv(struct(*))`, every row printed to
# /dev/null); the times are spark-sql's own `Time taken`.
#
#   Benchmarks/spark-bench.sh                          # 1M records, 3 runs each
#   ROWS=100000 RUNS=1 Benchmarks/spark-bench.sh
#
# Needs spark-sql (pip install pyspark, and Java) and duckdb. SIFT and SIFT_BENCH name the
# binaries (default: release builds); SPARK_CONF_DIR Spark's configuration.
set -euo pipefail

ROWS=${ROWS:-1000000}
RUNS=${RUNS:-3}
WORK=${WORK:-/tmp/sift-spark-bench}
NOW=2024-06-12T10:00
cd "$(dirname "$0")/.."
source Benchmarks/typed-bench-setup.sh

P="parquet.\`$parquet\`"
hand_written
script=$WORK/bench.sql
labels=()
: > "$script"
for i in "${!JOBS[@]}"; do
  generated=$("$SIFT" -q --sql spark --now $NOW -- "${JOBS[$i]}" "$parquet")
  generated=${generated%;}
  for run in $(seq 0 "$RUNS"); do
    for kind in generated hand; do
      if [ $kind = generated ]; then query=$generated; else query=${HAND[$i]}; fi
      echo "SELECT to_csv(struct(*), map('quoteAll', 'true', 'escape', '\"')) FROM ($query) AS r;" >> "$script"
      labels+=("$i $kind $run")
    done
  done
done
spark-sql -S --conf spark.sql.ansi.enabled=false --conf spark.sql.catalogImplementation=in-memory \
  --conf spark.sql.warehouse.dir="$WORK/warehouse" -f "$script" > /dev/null 2> "$WORK/bench.err"
grep -o 'Time taken: [0-9.]* seconds' "$WORK/bench.err" | awk '{print $3}' > "$WORK/times.txt"
[ "$(wc -l < "$WORK/times.txt")" -eq "${#labels[@]}" ] || { echo "spark-sql failed: see $WORK/bench.err"; exit 1; }
echo "| query | generated | hand-written | ratio |"
echo "| --- | --- | --- | --- |"
paste -d' ' <(printf '%s\n' "${labels[@]}") "$WORK/times.txt" | awk -v runs="$RUNS" -v jobs="$(printf '%s|' "${JOBS[@]}")" '
  BEGIN { n = split(jobs, name, "|") }
  $3 > 0 { sum[$1, $2] += $4 }
  END {
    for (i = 0; i < n - 1; i++) {
      g = sum[i, "generated"] / runs; h = sum[i, "hand"] / runs
      printf "| `%s` | %.2f s | %.2f s | %.2fx |\n", name[i + 1], g, h, g / h
    }
  }'
