#!/bin/sh
# long-ids.parquet: long-ids.csv written as Parquet by DuckDB (every column text), for the
# golden case sql-spark-parquet-is-refused-without-sift-hint. Run from the repository root.
duckdb -c "COPY (SELECT * FROM read_csv('Tests/SiftCLITests/Fixtures/long-ids.csv', all_varchar=true)) TO 'Tests/SiftCLITests/Fixtures/long-ids.parquet' (FORMAT parquet)"
