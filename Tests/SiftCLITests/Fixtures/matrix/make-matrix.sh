#!/bin/sh
# Makes typed.parquet and typed.csv for EngineMatrixTests (Docs/EngineMatrix.md): one column
# per engine type, the same values as Parquet (DuckDB reads them in their types) and as CSV
# (what sift, Spark and ClickHouse read). A TIMESTAMPTZ is written with a `+00:00` offset in the
# CSV, which sift reads as an instant in UTC (`--tz UTC`). Run from this folder with DuckDB 1.5:
#   sh make-matrix.sh
set -eu
duckdb -c "
SET TimeZone = 'UTC';
COPY (SELECT id, s, CAST(i AS BIGINT) AS i, CAST(d AS DECIMAL(10,2)) AS d, CAST(f AS DOUBLE) AS f,
    CAST(dt AS DATE) AS dt, CAST(ts AS TIMESTAMP) AS ts, CAST(tz AS TIMESTAMPTZ) AS tz
  FROM (VALUES
    (1, 'apple', 1, 1.50, 0.5, '2024-01-15', '2024-01-15 08:30:00', '2024-01-15 08:30:00+00'),
    (2, 'Banana', 10, 2.25, 3.25, '2024-02-29', '2024-02-29 23:59:59', '2024-02-29 23:59:59+00'),
    (3, 'cherry', 42, 10.00, 100.0, '2024-03-31', '2024-03-31 12:00:00', '2024-03-31 12:00:00+00'),
    (4, 'banana', -3, -0.75, -2.5, '2024-06-01', '2024-06-01 00:00:00', '2024-06-01 00:00:00+00'),
    (5, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
    (6, 'date 5', 100, 2.25, 0.5, '2024-12-01', '2024-12-01 17:45:10', '2024-12-01 17:45:10+00'),
    (7, 'apple', 5, 0.05, 12.75, '2023-12-31', '2023-12-31 23:00:00', '2023-12-31 23:00:00+00'),
    (8, 'fig', 15, 15.00, 15.5, '2024-02-01', '2024-02-01 00:00:01', '2024-02-01 00:00:01+00'))
    t(id, s, i, d, f, dt, ts, tz))
  TO 'typed.parquet' (FORMAT parquet);
COPY (SELECT * REPLACE (strftime(tz, '%Y-%m-%d %H:%M:%S+00:00') AS tz) FROM 'typed.parquet')
  TO 'typed.csv' (FORMAT csv, HEADER);
"
