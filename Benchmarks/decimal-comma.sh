#!/usr/bin/env bash
# The decimal-comma CSV jobs against the same records written the ISO way (Docs/Performance.md,
# Decimal commas): 1,000,000 GRN records from sift-bench, written twice with ';' as the
# delimiter, once with decimal points (iso.csv) and once with decimal commas (de.csv, every
# decimal number's '.' made a ','), nothing else differing. Checks that both give the same
# answers, then times each job on both files, interleaved (hyperfine -N).
#
#   Benchmarks/decimal-comma.sh             # RUNS=11 by default
set -euo pipefail

ROWS=${ROWS:-1000000}
RUNS=${RUNS:-11}
WORK=${WORK:-/tmp/sift-decimal-comma}
cd "$(dirname "$0")/.."
swift build -c release --product sift-bench >&2
swift build -c release --product sift >&2
SIFT=$(pwd)/.build/release/sift
mkdir -p "$WORK"
cd "$WORK"
[ -f grn.csv ] || "$OLDPWD/.build/release/sift-bench" gen --rows "$ROWS" --format csv --seed 1 --out grn.csv
python3 - <<'PY'
import csv, re
number = re.compile(r'^-?\d+\.\d+$')
with open('grn.csv', newline='', encoding='utf-8') as f, \
     open('iso.csv', 'w', newline='', encoding='utf-8') as iso, \
     open('de.csv', 'w', newline='', encoding='utf-8') as de:
    wi = csv.writer(iso, delimiter=';', lineterminator='\n')
    wd = csv.writer(de, delimiter=';', lineterminator='\n')
    for i, row in enumerate(csv.reader(f)):
        wi.writerow(row)
        wd.writerow(row if i == 0 else [v.replace('.', ',') if number.match(v) else v for v in row])
PY
JOBS=(
  'status:received,pending qty:>100'
  'unit_price:>10 amount:1000..5000'
  'group:customer sum:amount avg:qty'
  'sort:-amount limit:10'
)
for q in "${JOBS[@]}"; do
  a=$("$SIFT" -q -o csv "$q" iso.csv | sed 's/\./,/g' | md5sum)
  b=$("$SIFT" -q -o csv "$q" de.csv | sed 's/\./,/g' | md5sum)
  [ "$a" = "$b" ] || { echo "decimal-comma.sh: '$q' differs between iso.csv and de.csv" >&2; exit 1; }
done
for q in "${JOBS[@]}"; do
  hyperfine -N -w 2 -r "$RUNS" \
    -n "iso  $q" "$SIFT -q -o csv '$q' iso.csv" \
    -n "de   $q" "$SIFT -q -o csv '$q' de.csv"
done
