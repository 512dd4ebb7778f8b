#!/usr/bin/env python3
"""A ClickHouse client for the tests (Docs/Engines.md, Checked): reads `sift --sql clickhouse`
statements on standard input, runs them in one embedded ClickHouse session (`pip install chdb`),
and writes the last one's result as CSVWithNames, like `clickhouse local --output-format
CSVWithNames`. An engine error goes to standard error, exit 1.

    SIFT_CLICKHOUSE="python3 Tests/SiftCLITests/Clients/chdb-client.py" swift test ...
"""
import sys

from chdb import session

statements = [s for s in sys.stdin.read().split(";\n") if s.strip()]
engine = session.Session()
try:
    for setup in statements[:-1]:
        engine.query(setup)
    sys.stdout.write(str(engine.query(statements[-1], "CSVWithNames")))
except Exception as error:  # chdb raises its own RuntimeError subclasses
    sys.stderr.write(str(error) + "\n")
    sys.exit(1)
