# The jobs sql-typed-bench.sh (DuckDB) and spark-bench.sh (Spark) time over the same generated
# Parquet file, and the hand-written SQL each is compared with (Docs/Engines.md). Sourced, with
# P the dialect's relation of the Parquet file.
JOBS=(
  "customer:acme"
  "qty:100..500"
  "date:2024-05"
  "sort:-amount limit:100"
  "group:customer sum:amount avg:amount"
)
HAND=(
  "SELECT * FROM $P WHERE lower(customer) = 'acme'"
  "SELECT * FROM $P WHERE qty BETWEEN 100 AND 500"
  "SELECT * FROM $P WHERE date >= DATE '2024-05-01' AND date < DATE '2024-06-01'"
  "SELECT * FROM $P ORDER BY amount DESC NULLS LAST LIMIT 100"
  "SELECT customer, count(*), sum(amount), avg(amount) FROM $P GROUP BY customer ORDER BY customer"
)
