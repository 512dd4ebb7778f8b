#!/usr/bin/env bash
# The statements `sift --sql duckdb` writes for a Parquet file against hand-written typed SQL, in
# the same run on the same file (Docs/Engines.md, Typed columns; issue 26's bar: each within
# 1.5x). 1,000,000 generated GRN records (`sift-bench gen`), written as Parquet by DuckDB with
# the types it detects (`qty` BIGINT, `amount` DOUBLE, `date` DATE). The answers themselves are
# checked by SQLTypedDifferentialTests, not here.
#
#   Benchmarks/sql-typed-bench.sh                    # 1M records, 5 runs each after a warm-up
#   ROWS=100000 RUNS=3 Benchmarks/sql-typed-bench.sh
#
# Needs hyperfine and duckdb. SIFT and SIFT_BENCH name the binaries (default: release builds).
# Put DuckDB's own client first on PATH: the `duckdb` that `pip install duckdb-cli` makes is a
# Python script that starts the client in 60 to 120 ms, which is added to both columns and hides
# the ratio (Docs/Engines.md, Measured). Medians and CPU times are in $WORK/*.json.
set -euo pipefail

ROWS=${ROWS:-1000000}
RUNS=${RUNS:-5}
WORK=${WORK:-/tmp/sift-sql-typed-bench}
NOW=2024-06-12T10:00
cd "$(dirname "$0")/.."
source Benchmarks/typed-bench-setup.sh
duckdb -c "DESCRIBE SELECT * FROM '$parquet'" -csv | tr '\n' ' '; echo

P="read_parquet('$parquet')"
hand_written
for i in "${!JOBS[@]}"; do
  job=${JOBS[$i]}
  name=${job//[^a-z0-9]/_}
  "$SIFT" --sql duckdb --now $NOW -- "$job" "$parquet" > "$WORK/$name.generated.sql"
  echo "${HAND[$i]};" > "$WORK/$name.hand.sql"
  echo "== $job ($(wc -c < "$WORK/$name.generated.sql") bytes of SQL)"
  hyperfine --runs "$RUNS" --warmup 1 --style basic --export-markdown "$WORK/$name.md" --export-json "$WORK/$name.json" \
    -n generated "duckdb -csv -f '$WORK/$name.generated.sql' > /dev/null" \
    -n hand-written "duckdb -csv -f '$WORK/$name.hand.sql' > /dev/null"
done
