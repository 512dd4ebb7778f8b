#!/usr/bin/env bash
# sift side by side with DuckDB, Miller (mlr), jq and openpyxl on the same jobs
# (Docs/Performance.md).
#
#   Benchmarks/compare.sh            # everything: about 20-25 minutes on 2 cores
#   RUNS=3 BIG_ROWS=2000000 Benchmarks/compare.sh   # a quicker look
#   JOBS="2 8" RUNS=3 Benchmarks/compare.sh          # only jobs 2 and 8
#
# Job 8 reads a workbook: XLSX_ROWS records of sift-bench gen written as .xlsx by XlsxWriter
# (Benchmarks/workbook/csv-to-xlsx.py), against openpyxl's read-only mode
# (Benchmarks/workbook/filter-openpyxl.py); DuckDB's excel extension cannot be installed offline.
# Job 9 compares two exports (Docs/Reports.md, Changes since the last run): the CSV file and the
# same file edited by awk (every 200th record gone, every 100th changed, one new every 200), as
# `sift --changes grn_no --against OLD '' NEW` and as DuckDB's full outer join on the key with the
# records whose values differ; mlr and jq have no such job.
# The decimal-comma and day-first CSV jobs against the ISO ones are Benchmarks/conventions.sh.
#
# Installs what is missing (apt-get: miller jq hyperfine time; pip: duckdb-cli), builds sift in
# release mode, generates the data with sift-bench, checks that every tool returns the same number
# of records for every job (stops on a mismatch), then times the tools interleaved: each round runs
# every tool once, after one warm-up round. Prints the medians, each peer's ratio to sift, and
# peak memory (/usr/bin/time -v).
set -euo pipefail

ROWS=${ROWS:-1000000}
BIG_ROWS=${BIG_ROWS:-10000000}
SMALL_ROWS=${SMALL_ROWS:-100}
RUNS=${RUNS:-5}              # rounds for jobs 1-4 and 7
SMALL_RUNS=${SMALL_RUNS:-40} # rounds for job 5 (start-up)
BIG_RUNS=${BIG_RUNS:-3}      # rounds for job 6
XLSX_ROWS=${XLSX_ROWS:-200000}
XLSX_RUNS=${XLSX_RUNS:-3}    # rounds for job 8 (openpyxl takes about 10 s a round)
JOBS=${JOBS:-1 2 3 4 5 6 7 8 9}
selected() { case " $JOBS " in *" $1 "*) return 0 ;; *) return 1 ;; esac; }
WORK=${WORK:-/tmp/sift-compare}
SEED=${SEED:-1}

cd "$(dirname "$0")/.."
ROOT=$(pwd)

say() { printf '%s\n' "$*" >&2; }
die() { say "compare.sh: $*"; exit 1; }

# --- tools ------------------------------------------------------------------------------------
install_tools() {
  local missing=()
  command -v mlr >/dev/null || missing+=(miller)
  command -v jq >/dev/null || missing+=(jq)
  command -v hyperfine >/dev/null || missing+=(hyperfine)
  [ -x /usr/bin/time ] || missing+=(time)
  if [ ${#missing[@]} -gt 0 ]; then
    say "installing ${missing[*]}"
    local sudo=""
    [ "$(id -u)" -eq 0 ] || sudo=sudo
    $sudo apt-get update -qq
    $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
  fi
  if ! command -v duckdb >/dev/null; then
    say "installing duckdb-cli"
    pip install -q duckdb-cli || python3 -m pip install -q duckdb-cli
    hash -r
  fi
  command -v duckdb >/dev/null || die "duckdb is still missing (is pip's bin directory on PATH?)"
  if ! python3 -c 'import openpyxl, xlsxwriter' 2>/dev/null; then
    say "installing openpyxl and xlsxwriter"
    python3 -m pip install -q openpyxl xlsxwriter
  fi
}

install_tools

# pip's `duckdb` is a Python script that starts the native binary it ships; time the binary
# itself, so DuckDB is not charged ~90 ms of Python start-up per run.
DUCKDB=$(python3 -c 'import duckdb_cli, os; print(os.path.join(os.path.dirname(duckdb_cli.__file__), "duckdb"))' 2>/dev/null || true)
[ -x "$DUCKDB" ] || DUCKDB=$(command -v duckdb)

# The README's own release build: on Linux Package.swift links it as a static executable, which
# starts in about a third of the time of one loading the Swift runtime's shared libraries.
say "building sift (release, as the README builds it)"
BUILD=(swift build -c release --product sift)
"${BUILD[@]}" >/dev/null
BIN=$("${BUILD[@]}" --show-bin-path)
SIFT=$BIN/sift
COMMIT=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
git diff --quiet HEAD 2>/dev/null || COMMIT="$COMMIT+changes"

mkdir -p "$WORK"
CSV=$WORK/grn-$ROWS.csv
ND=$WORK/grn-$ROWS.ndjson
SMALL=$WORK/grn-$SMALL_ROWS.csv
BIG=$WORK/grn-$BIG_ROWS.csv
BOOK=$WORK/grn-$XLSX_ROWS.xlsx
NEXT=$WORK/grn-$ROWS-next.csv
trap 'rm -f "$CSV" "$ND" "$SMALL" "$BIG" "$BOOK" "$NEXT" "$WORK"/times-*.tsv "$WORK"/round.json "$WORK"/time.txt' EXIT
say "generating $ROWS and $SMALL_ROWS records in $WORK"
"$BIN/sift-bench" gen --rows "$ROWS" --format csv --seed "$SEED" --out "$CSV"
"$BIN/sift-bench" gen --rows "$ROWS" --format ndjson --seed "$SEED" --out "$ND"
"$BIN/sift-bench" gen --rows "$SMALL_ROWS" --format csv --seed "$SEED" --out "$SMALL"
if selected 9; then
  # The fields before `status` hold no comma, so awk's split on `,` finds it, and a record put
  # back together with `,` is its own text.
  awk -F, 'BEGIN { OFS = "," } NR == 1 { print; next } NR % 200 == 0 { next }
    NR % 100 == 50 { $3 = "zz-changed" } { print } NR % 200 == 77 { $1 = "GRN-N" NR; print }' \
    "$CSV" >"$NEXT"
fi
if selected 8; then
  say "writing $XLSX_ROWS records as $BOOK (XlsxWriter)"
  "$BIN/sift-bench" gen --rows "$XLSX_ROWS" --format csv --seed "$SEED" --out "$WORK/book.csv"
  python3 Benchmarks/workbook/csv-to-xlsx.py "$WORK/book.csv" "$BOOK"
  rm -f "$WORK/book.csv"
fi

# --- the jobs ----------------------------------------------------------------------------------
# Same semantics everywhere: `customer:Acme` is a case-insensitive whole-value equality,
# `status:received,pending` a case-insensitive any-of, `qty:>100` numeric (a value that is not a
# number does not match), `sort:-date` descending with empty values last.
FILTER1="lower(status) = 'received' AND lower(customer) = 'acme'"
FILTER2="lower(status) IN ('received', 'pending') AND TRY_CAST(qty AS DOUBLE) > 100"
MLR1='tolower($status) == "received" && tolower($customer) == "acme"'
MLR2='(tolower($status) == "received" || tolower($status) == "pending") && is_numeric($qty) && $qty > 100'
JQ4='select((.status | tostring | ascii_downcase) == "received" and (.customer | tostring | ascii_downcase) == "acme")'

duck_csv() { # SQL → CSV with a header on stdout
  printf '%s' "$DUCKDB -c \"COPY ($1) TO '/dev/stdout' (FORMAT csv, HEADER)\""
}

# Each job: a title, how its output is counted, then one command per tool ("" when the tool
# does not take part). Commands run without a shell (hyperfine -N), so quote for hyperfine.
declare -a TITLES COUNTING SIFTS DUCKS MLRS JQS PYXLS
add_job() {
  TITLES+=("$1"); COUNTING+=("$2"); SIFTS+=("$3"); DUCKS+=("$4"); MLRS+=("$5"); JQS+=("$6"); PYXLS+=("${7:-}")
}

add_job "1 CSV filter+sort" header \
  "$SIFT -o csv 'status:received customer:Acme sort:-date' $CSV" \
  "$(duck_csv "SELECT * FROM read_csv('$CSV') WHERE $FILTER1 ORDER BY date DESC NULLS LAST")" \
  "mlr --icsv --ocsv filter '$MLR1' then sort -tr date $CSV" ""
add_job "2 CSV filter" header \
  "$SIFT -o csv 'status:received,pending qty:>100' $CSV" \
  "$(duck_csv "SELECT * FROM read_csv('$CSV') WHERE $FILTER2")" \
  "mlr --icsv --ocsv filter '$MLR2' $CSV" ""
add_job "3 CSV group count" lines \
  "$SIFT -c 'group:customer' $CSV" \
  "$DUCKDB -noheader -csv -c \"SELECT customer, count(*) FROM read_csv('$CSV') GROUP BY customer ORDER BY customer\"" \
  "mlr --icsv --ocsv --headerless-csv-output count -g customer $CSV" ""
add_job "4 NDJSON filter" lines \
  "$SIFT -o ndjson 'status:received customer:Acme' $ND" \
  "$DUCKDB -c \"COPY (SELECT * FROM read_json('$ND', format='newline_delimited') WHERE $FILTER1) TO '/dev/stdout' (FORMAT json)\"" \
  "mlr --ijsonl --ojsonl filter '$MLR1' $ND" \
  "jq -c '$JQ4' $ND"
add_job "5 100 records" header \
  "$SIFT -o csv 'status:received,pending qty:>100' $SMALL" \
  "$(duck_csv "SELECT * FROM read_csv('$SMALL') WHERE $FILTER2")" \
  "mlr --icsv --ocsv filter '$MLR2' $SMALL" ""
add_job "6 CSV filter, ${BIG_ROWS} records" header \
  "$SIFT -o csv 'status:received,pending qty:>100' $BIG" \
  "$(duck_csv "SELECT * FROM read_csv('$BIG') WHERE $FILTER2")" "" ""
add_job "7 CSV group sum+avg" header \
  "$SIFT -o csv 'group:customer sum:amount avg:qty' $CSV" \
  "$(duck_csv "SELECT customer, count(*), sum(TRY_CAST(replace(amount, ',', '') AS DECIMAL(18,2))), avg(TRY_CAST(qty AS DOUBLE)) FROM read_csv('$CSV', all_varchar=true) GROUP BY customer ORDER BY customer")" \
  "mlr --icsv --ocsv stats1 -a count,sum,mean -f amount,qty -g customer $CSV" ""
add_job "8 xlsx filter, ${XLSX_ROWS} records" header \
  "$SIFT -o csv 'status:received,pending qty:>100' $BOOK" "" "" "" \
  "python3 $ROOT/Benchmarks/workbook/filter-openpyxl.py $BOOK"
# Job 9's SQL: every column of the record, the new one's values else the old one's.
FIELDS=$(head -1 "$CSV" | tr -d '\r')
PICK=$(printf '%s\n' "$FIELDS" | tr ',' '\n' | awk '{ printf "%scoalesce(n.%s, o.%s) AS %s", (NR > 1 ? ", " : ""), $1, $1, $1 }')
DIFFER=$(printf '%s\n' "$FIELDS" | tr ',' '\n' | awk 'NR > 1 { printf "%sn.%s IS DISTINCT FROM o.%s", (NR > 2 ? " OR " : ""), $1, $1 }')
add_job "9 what changed between two exports" header \
  "$SIFT -q -o csv --changes grn_no --against $CSV '' $NEXT" \
  "$(duck_csv "SELECT CASE WHEN o.grn_no IS NULL THEN 'new' WHEN n.grn_no IS NULL THEN 'gone' ELSE 'changed' END AS change, $PICK FROM read_csv('$NEXT', all_varchar=true) n FULL OUTER JOIN read_csv('$CSV', all_varchar=true) o ON n.grn_no = o.grn_no WHERE o.grn_no IS NULL OR n.grn_no IS NULL OR $DIFFER")" \
  "" ""
TOOLS=(sift duckdb mlr jq openpyxl)

command_of() { # job index, tool index
  case $2 in
    0) echo "${SIFTS[$1]}" ;; 1) echo "${DUCKS[$1]}" ;; 2) echo "${MLRS[$1]}" ;; 3) echo "${JQS[$1]}" ;;
    4) echo "${PYXLS[$1]}" ;;
  esac
}

# Records in a command's output: lines, less the header line for CSV.
count_records() {
  local lines
  lines=$(eval "$1" 2>/dev/null | wc -l)
  [ "$2" = header ] && lines=$((lines - 1))
  echo "$lines"
}

declare -A MEDIAN RSS COUNT
run_job() {
  local j=$1 rounds=$2
  local cmds=() names=()
  for t in 0 1 2 3 4; do
    local c
    c=$(command_of "$j" "$t")
    [ -n "$c" ] || continue
    cmds+=("$c")
    names+=("${TOOLS[$t]}")
  done
  say ""
  say "== job ${TITLES[$j]}"
  # Same number of records from every tool, or stop.
  local expected=""
  for i in "${!cmds[@]}"; do
    local n
    n=$(count_records "${cmds[$i]}" "${COUNTING[$j]}")
    COUNT[$j,${names[$i]}]=$n
    say "   ${names[$i]}: $n records"
    if [ -z "$expected" ]; then expected=$n; elif [ "$n" != "$expected" ]; then
      die "job ${TITLES[$j]}: ${names[$i]} returned $n records, sift $expected"
    fi
  done
  # Interleaved rounds: a warm-up round, then `rounds` rounds of one run per tool.
  local times=$WORK/times-$j.tsv
  : >"$times"
  for round in $(seq 0 "$rounds"); do
    hyperfine -N --runs 1 --style none --export-json "$WORK/round.json" "${cmds[@]}" >/dev/null 2>&1 \
      || die "hyperfine failed on job ${TITLES[$j]}"
    [ "$round" -eq 0 ] && continue
    jq -r '.results | to_entries[] | "\(.key)\t\(.value.times[0])"' "$WORK/round.json" >>"$times"
  done
  for i in "${!cmds[@]}"; do
    MEDIAN[$j,${names[$i]}]=$(awk -F'\t' -v k="$i" '$1 == k { print $2 * 1000 }' "$times" | sort -g \
      | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }')
    /usr/bin/time -v -o "$WORK/time.txt" bash -c "exec ${cmds[$i]} >/dev/null 2>&1"
    RSS[$j,${names[$i]}]=$(awk -F': ' '/Maximum resident set size/ { print $2 }' "$WORK/time.txt")
    say "   ${names[$i]}: median $(printf '%.1f' "${MEDIAN[$j,${names[$i]}]}") ms, peak RSS ${RSS[$j,${names[$i]}]} KB"
  done
}

for n in 1 2 3 4 7 9; do selected "$n" && run_job $((n - 1)) "$RUNS"; done
selected 8 && run_job 7 "$XLSX_RUNS"
selected 5 && run_job 4 "$SMALL_RUNS"
if selected 6; then
  say ""
  say "generating $BIG_ROWS records for job 6"
  "$BIN/sift-bench" gen --rows "$BIG_ROWS" --format csv --seed "$SEED" --out "$BIG"
  run_job 5 "$BIG_RUNS"
  rm -f "$BIG"
fi

# --- the table ---------------------------------------------------------------------------------
ratio() { # peer median / sift median
  local s=${MEDIAN[$1,sift]:-} p=${MEDIAN[$1,$2]:-}
  [ -n "$p" ] && [ -n "$s" ] || { printf '%s' "-"; return; }
  awk -v p="$p" -v s="$s" 'BEGIN { printf "%.1fx", p / s }'
}
cell() { local v=${MEDIAN[$1,$2]:-}; [ -n "$v" ] && printf '%.1f' "$v" || printf -- '-'; }
mem() { local v=${RSS[$1,$2]:-}; [ -n "$v" ] && printf '%.1f' "$(awk -v k="$v" 'BEGIN { print k / 1024 }')" || printf -- '-'; }

rounds_note=""
selected 5 && rounds_note="$rounds_note; $SMALL_RUNS for job 5"
selected 6 && rounds_note="$rounds_note; $BIG_RUNS for job 6"
selected 8 && rounds_note="$rounds_note; $XLSX_RUNS for job 8, $XLSX_ROWS records in a $(du -h "$BOOK" | cut -f1) xlsx"
echo
echo "sift $COMMIT on $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) at the end; $ROWS records ($(du -h "$CSV" | cut -f1) CSV, $(du -h "$ND" | cut -f1) NDJSON); medians of $RUNS interleaved rounds$rounds_note; after a warm-up round"
echo "DuckDB $("$DUCKDB" --version | cut -d' ' -f1), $(mlr --version), $(jq --version), $(hyperfine --version), openpyxl $(python3 -c 'import openpyxl; print(openpyxl.__version__)')"
echo
echo "| job | records out | sift ms | DuckDB ms | mlr ms | jq ms | openpyxl ms | DuckDB/sift | mlr/sift | jq/sift | openpyxl/sift |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for n in $JOBS; do
  j=$((n - 1))
  echo "| ${TITLES[$j]} | ${COUNT[$j,sift]} | $(cell "$j" sift) | $(cell "$j" duckdb) | $(cell "$j" mlr) | $(cell "$j" jq) | $(cell "$j" openpyxl) | $(ratio "$j" duckdb) | $(ratio "$j" mlr) | $(ratio "$j" jq) | $(ratio "$j" openpyxl) |"
done
echo
echo "| job | sift MB | DuckDB MB | mlr MB | jq MB | openpyxl MB |"
echo "|---|---:|---:|---:|---:|---:|"
for n in $JOBS; do
  j=$((n - 1))
  echo "| ${TITLES[$j]} | $(mem "$j" sift) | $(mem "$j" duckdb) | $(mem "$j" mlr) | $(mem "$j" jq) | $(mem "$j" openpyxl) |"
done
if selected 2 && selected 6; then
  echo
  awk -v big="${MEDIAN[5,sift]}" -v one="${MEDIAN[1,sift]}" -v r="$((BIG_ROWS / ROWS))" \
    'BEGIN { printf "job 6 / job 2 wall time: %.1fx for %dx the records\n", big / one, r }'
fi
