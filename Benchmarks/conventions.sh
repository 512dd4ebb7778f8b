#!/usr/bin/env bash
# The decimal-comma and day-first CSV jobs against the same records written the ISO way
# (Docs/Performance.md, Decimal commas and Dates in other styles): ROWS GRN records from
# sift-bench, written three times with ';' as the delimiter, nothing else differing:
#   iso.csv  decimal points, ISO dates (2023-01-01, 2023-01-01T12:30:31)
#   de.csv   every decimal number's '.' made a ',' (3795,12)
#   dmy.csv  dates day-first (01.01.2023, 01.01.2023 12:30:31)
# Checks that each job gives the same answer on its two files, then times the pairs interleaved
# (each round runs the ISO and the other file once, hyperfine -N, after a warm-up round) and
# prints medians of CPU (user + system) and wall seconds and the medians of the per-round ratios.
#
#   Benchmarks/conventions.sh             # RUNS=11 by default, about 5 minutes on 2 cores
set -euo pipefail

ROWS=${ROWS:-1000000}
RUNS=${RUNS:-11}
WORK=${WORK:-/tmp/sift-conventions}
cd "$(dirname "$0")/.."
# The release build of Benchmarks/compare.sh (the README's, a static executable on Linux).
BUILD=(swift build -c release --product sift)
"${BUILD[@]}" >&2
BIN=$("${BUILD[@]}" --show-bin-path)
SIFT=$BIN/sift
COMMIT=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
git diff --quiet HEAD 2>/dev/null || COMMIT="$COMMIT+changes"
mkdir -p "$WORK"
cd "$WORK"
[ -f "grn-$ROWS.csv" ] || "$BIN/sift-bench" gen --rows "$ROWS" --format csv --seed 1 --out "grn-$ROWS.csv"
python3 - "grn-$ROWS.csv" <<'PY'
import csv, re, sys
number = re.compile(r'^-?\d+\.\d+$')
date = re.compile(r'^(\d{4})-(\d\d)-(\d\d)(?:T(\d\d:\d\d:\d\d))?$')
def day_first(v):
    m = date.match(v)
    if not m:
        return v
    y, mo, d, t = m.groups()
    return f'{d}.{mo}.{y}' + (f' {t}' if t else '')
with open(sys.argv[1], newline='', encoding='utf-8') as f, \
     open('iso.csv', 'w', newline='', encoding='utf-8') as iso, \
     open('de.csv', 'w', newline='', encoding='utf-8') as de, \
     open('dmy.csv', 'w', newline='', encoding='utf-8') as dmy:
    wi = csv.writer(iso, delimiter=';', lineterminator='\n')
    wd = csv.writer(de, delimiter=';', lineterminator='\n')
    wm = csv.writer(dmy, delimiter=';', lineterminator='\n')
    for i, row in enumerate(csv.reader(f)):
        wi.writerow(row)
        wd.writerow(row if i == 0 else [v.replace('.', ',') if number.match(v) else v for v in row])
        wm.writerow(row if i == 0 else [day_first(v) for v in row])
PY
# Each job: the other file, then sift's arguments (before the file).
JOBS=(
  "de.csv|-o csv|status:received,pending qty:>100"
  "de.csv|-o csv|unit_price:>10 amount:1000..5000"
  "de.csv|-o csv|group:customer sum:amount avg:qty"
  "de.csv|-o csv|sort:-amount limit:10"
  "dmy.csv|-c|date:>=2024-03-01"
  "dmy.csv|-c|updated:>=2024-03-01T12:00"
  "dmy.csv|-o csv|status:received customer:Acme sort:-date"
)
# The same answer from both files: decimal commas compared with their points made commas,
# day-first files by each output line's first field (the GRN number, or the count).
same_answer() { # other file, flags, query
  local a b
  if [ "$1" = de.csv ]; then
    a=$("$SIFT" -q $2 "$3" iso.csv | sed 's/\./,/g' | md5sum)
    b=$("$SIFT" -q $2 "$3" de.csv | sed 's/\./,/g' | md5sum)
  else
    a=$("$SIFT" -q $2 "$3" iso.csv | awk -F'[;,]' '{ print $1 }' | md5sum)
    b=$("$SIFT" -q $2 "$3" dmy.csv | awk -F'[;,]' '{ print $1 }' | md5sum)
  fi
  [ "$a" = "$b" ] || { echo "conventions.sh: '$3' differs between iso.csv and $1" >&2; exit 1; }
}
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

echo "sift $COMMIT, $ROWS records, $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) at the start;"
echo "medians of $RUNS interleaved rounds after a warm-up round, $(hyperfine --version)"
echo
echo "| job | file | ISO cpu s | other cpu s | cpu ratio | ISO wall s | other wall s | wall ratio |"
echo "|---|---|---:|---:|---:|---:|---:|---:|"
for job in "${JOBS[@]}"; do
  IFS='|' read -r other flags query <<<"$job"
  same_answer "$other" "$flags" "$query"
  : >times.tsv
  for round in $(seq 0 "$RUNS"); do
    hyperfine -N --runs 1 --style none --export-json round.json \
      "$SIFT -q $flags '$query' iso.csv" "$SIFT -q $flags '$query' $other" >/dev/null 2>&1 \
      || { echo "conventions.sh: hyperfine failed on '$query'" >&2; exit 1; }
    [ "$round" -eq 0 ] && continue
    # One line a round: ISO cpu, other cpu, ISO wall, other wall.
    jq -r '[.results[0].user + .results[0].system, .results[1].user + .results[1].system,
            .results[0].times[0], .results[1].times[0]] | @tsv' round.json >>times.tsv
  done
  col() { awk -F'\t' "{ print $1 }" times.tsv | median; }
  printf '| `%s %s` | %s | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f |\n' "$flags" "$query" "$other" \
    "$(col '$1')" "$(col '$2')" "$(col '$2 / $1')" "$(col '$3')" "$(col '$4')" "$(col '$4 / $3')"
done
echo
echo "load average $(cut -d' ' -f1-3 /proc/loadavg) at the end"
rm -f times.tsv round.json
