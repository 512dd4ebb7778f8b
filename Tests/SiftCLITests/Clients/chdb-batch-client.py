#!/usr/bin/env python3
"""A ClickHouse client for EngineMatrixTests (Docs/EngineMatrix.md): reads many `sift --sql
clickhouse` statements on standard input, each probe's ended by a line `-- sift-probe-end`, runs
them in one embedded ClickHouse session (`pip install chdb`) and writes each probe's last result
as CSV, then a line `sift-probe-end`; a probe the engine rejects writes `sift-probe-error` and
its one-line reason instead."""
import sys

from chdb import session

engine = session.Session()
for probe in sys.stdin.read().split("-- sift-probe-end\n"):
    statements = [s for s in probe.split(";\n") if s.strip()]
    if not statements:
        continue
    try:
        for setup in statements[:-1]:
            engine.query(setup)
        sys.stdout.write(str(engine.query(statements[-1], "CSV")))
        sys.stdout.write("sift-probe-end\n")
    except Exception as error:  # chdb raises its own RuntimeError subclasses
        reason = str(error).strip().splitlines()[0] if str(error).strip() else "error"
        sys.stdout.write("sift-probe-error " + reason + "\n")
