#!/usr/bin/env bash
# sift's SQL against real engines (Docs/Engines.md, Checked): the differential queries through
# `--sql` in DuckDB, PostgreSQL, ClickHouse (chDB) and Spark, and through `--engine spark`,
# compared with sift's own answers.
#
#   Benchmarks/engines.sh          # installs what is missing, then checks every engine
#
# Installs (when missing): pip duckdb-cli, chdb, pyspark; apt-get postgresql, openjdk-17-jre-headless.
# Starts a throw-away PostgreSQL cluster on a socket in $WORK and stops it at the end.
set -euo pipefail

WORK=${WORK:-/tmp/sift-engines}
PORT=${PORT:-54329}
cd "$(dirname "$0")/.."
ROOT=$(pwd)
mkdir -p "$WORK"

say() { printf '%s\n' "$*" >&2; }

# --- tools ------------------------------------------------------------------------------------
[ -x "$WORK/venv/bin/python" ] || python3 -m venv "$WORK/venv"
command -v duckdb >/dev/null || pip install -q duckdb-cli
"$WORK/venv/bin/python" -c 'import chdb' 2>/dev/null || "$WORK/venv/bin/pip" install -q chdb
"$WORK/venv/bin/python" -c 'import pyspark' 2>/dev/null || "$WORK/venv/bin/pip" install -q pyspark
command -v java >/dev/null || apt-get install -y -q openjdk-17-jre-headless
command -v initdb >/dev/null || apt-get install -y -q postgresql
PATH=$PATH:$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | tail -1)

# --- PostgreSQL: a cluster owned by an unprivileged user, which must read this checkout ------
id sift-pg >/dev/null 2>&1 || useradd -m sift-pg
rm -rf "$WORK/pg" && mkdir -p "$WORK/pg" && chown sift-pg "$WORK/pg"
su sift-pg -c "initdb -D '$WORK/pg' -A trust -E UTF8 --locale=C.UTF-8 >/dev/null"
su sift-pg -c "pg_ctl -D '$WORK/pg' -o '-p $PORT -k $WORK/pg' -l '$WORK/pg.log' start >/dev/null"
trap 'su sift-pg -c "pg_ctl -D \"$WORK/pg\" stop -m fast >/dev/null"' EXIT

# --- ClickHouse: chDB as a client that reads statements and writes CSV with a header --------
cat > "$WORK/chdb-client" <<PY
#!$WORK/venv/bin/python
import sys, chdb
statements = [s for s in sys.stdin.read().split(';\n') if s.strip()]
try:
    sys.stdout.write(chdb.query(statements[-1], 'CSVWithNames').bytes().decode())
except Exception as error:
    sys.stderr.write(str(error))
    sys.exit(1)
PY
chmod +x "$WORK/chdb-client"

# --- DuckDB, PostgreSQL, ClickHouse: the Swift differential suite --------------------------
say "== DuckDB, PostgreSQL and ClickHouse (SQLDifferentialTests)"
SIFT_PSQL="psql -h $WORK/pg -p $PORT -U sift-pg -d postgres" SIFT_CLICKHOUSE="$WORK/chdb-client" \
  swift test --filter SQLDifferentialTests 2>&1 | grep -E '✘|passed|failed|agree' | grep -v '✔ Test case'

# --- Spark: one local session runs every statement, then sift --engine spark each query -------
say "== Spark (local mode)"
swift build --product sift >/dev/null
"$WORK/venv/bin/python" Benchmarks/spark-check.py "$ROOT/.build/debug/sift" "$ROOT"

# spark-sql from the pip package, in local mode, tuned for small inputs: few shuffle partitions
# and a JIT that starts fast (each query is one run of spark-sql).
say "== sift --engine spark (local mode)"
mkdir -p "$WORK/spark-conf"
cat > "$WORK/spark-conf/spark-defaults.conf" <<CONF
spark.master local[2]
spark.ui.enabled false
spark.sql.shuffle.partitions 2
spark.driver.extraJavaOptions -XX:TieredStopAtLevel=1 -XX:+UseSerialGC
CONF
SPARK_CONF_DIR="$WORK/spark-conf" \
  SIFT_SPARK_SQL="$("$WORK/venv/bin/python" -c 'import os, pyspark; print(os.path.dirname(pyspark.__file__))')/bin/spark-sql" \
  "$WORK/venv/bin/python" Benchmarks/spark-check.py "$ROOT/.build/debug/sift" "$ROOT" --engine
