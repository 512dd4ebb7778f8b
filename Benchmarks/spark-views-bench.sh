#!/usr/bin/env bash
# `sift --views --engine spark` against one `sift --engine spark -c` run per view (Docs/Engines.md,
# Views on an engine; issue 26 item 3): the four badge views of SampleData/sift.json's sources
# (GRN, a preset query with a date badge, dispatch, orders), wall time of the four separate runs
# and of the one --views run, ROUNDS times; the answers printed, so they can be compared.
#
#   SPARK_CONF_DIR=… Benchmarks/spark-views-bench.sh
#   SIFT=.build/release/sift ROUNDS=1 Benchmarks/spark-views-bench.sh
#
# Needs spark-sql (pip install pyspark, and Java). SIFT names the binary (default: the debug build).
set -euo pipefail

ROUNDS=${ROUNDS:-3}
cd "$(dirname "$0")/.."
SIFT=$(realpath "${SIFT:-.build/debug/sift}")
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
cp SampleData/grn.csv SampleData/dispatch.csv SampleData/orders.ndjson "$WORK"
cat > "$WORK/sift.json" <<'JSON'
{ "title": "Warehouse", "views": {
  "grn": { "title": "GRN List", "source": "grn.csv", "sort": "-date", "badge": "status:pending" },
  "big": { "title": "Big receipts", "source": "grn.csv", "sort": "-amount", "query": "qty:>100",
    "badge": "date:2024-05..2024-09" },
  "dispatch": { "title": "Dispatch List", "source": "dispatch.csv", "sort": "-date",
    "badge": "status:planned,picking,packed" },
  "orders": { "title": "Order List", "source": "orders.ndjson", "sort": "order_no",
    "badge": "status:new,allocated" } } }
JSON
cd "$WORK"
now() { date +%s.%N; }
for round in $(seq "$ROUNDS"); do
  start=$(now)
  "$SIFT" -q --engine spark -c 'status:pending' grn.csv
  "$SIFT" -q --engine spark -c 'qty:>100 date:2024-05..2024-09' grn.csv
  "$SIFT" -q --engine spark -c 'status:planned,picking,packed' dispatch.csv
  "$SIFT" -q --engine spark -c 'status:new,allocated' orders.ndjson
  middle=$(now)
  "$SIFT" -q --views --engine spark --ascii
  end=$(now)
  printf 'round %s: 4 separate runs %.1f s, one --views run %.1f s (load %s)\n' "$round" \
    "$(echo "$middle - $start" | bc)" "$(echo "$end - $middle" | bc)" "$(cut -d' ' -f1-3 /proc/loadavg)"
done
