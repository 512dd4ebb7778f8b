#!/usr/bin/env bash
# Remakes the seed corpora under Fuzz/corpus/ from files already in the repository: small
# conformance files, test fixtures, and the queries of the golden cases. Run from anywhere.
set -euo pipefail
cd "$(dirname "$0")/.."
rm -rf Fuzz/corpus && mkdir -p Fuzz/corpus/{csv,json,workbook,query,pipeline}
copy_small() { # DEST MAXBYTES FILE...
  local dest=$1 max=$2; shift 2
  for f in "$@"; do [[ $(stat -c %s "$f") -le $max ]] && cp "$f" "Fuzz/corpus/$dest/"; done
}
fixtures=Tests/SiftCLITests/Fixtures
copy_small csv 4096 Tests/Conformance/csv-spectrum/csvs/*.csv $fixtures/*.csv $fixtures/*.tsv $fixtures/*.txt
cp Fuzz/corpus/csv/* Fuzz/corpus/pipeline/
copy_small json 4096 Tests/Conformance/JSONTestSuite/test_parsing/*.json $fixtures/*.json $fixtures/*.ndjson
copy_small workbook 16384 $fixtures/workbooks/*.xlsx $fixtures/workbooks/*.zip $fixtures/book.xlsx
# The query of each golden case (its first argument that is not an option or a view).
python3 - <<'PY'
import glob, hashlib, shlex
valued = {'--config', '-o', '-f', '--color', '--encoding', '--sheet', '--delimiter', '-j', '--memory',
          '--now', '--fields', '--engine', '--decimal', '--dates', '--view', '--views', '-d', '--tz'}
seen = set()
for cmd in sorted(glob.glob('Tests/SiftCLITests/Cases/*/cmd')):
    try:
        args = shlex.split(open(cmd).read())
    except ValueError:
        continue
    if not args or args[0] != 'sift':
        continue
    i = 1
    while i < len(args) and (args[i] in valued or (args[i].startswith('-') and args[i] != '-') or args[i].startswith('@')):
        i += 2 if args[i] in valued else 1
    if i < len(args) and args[i] not in seen and len(args[i]) < 400:
        seen.add(args[i])
        open('Fuzz/corpus/query/' + hashlib.sha1(args[i].encode()).hexdigest()[:12], 'w').write(args[i])
PY
