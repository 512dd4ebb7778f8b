#!/usr/bin/env bash
# Builds the fuzz harness (SiftCore's sources and Fuzz/Targets compiled together with libFuzzer
# and AddressSanitizer) and runs one target for SECONDS: Fuzz/run.sh TARGET SECONDS [LIBFUZZER ARGS…]
# Targets: csv json workbook query pipeline. See Fuzz/README.md.
set -euo pipefail
cd "$(dirname "$0")/.."
target=${1:?usage: Fuzz/run.sh TARGET SECONDS [libFuzzer options]}
seconds=${2:?usage: Fuzz/run.sh TARGET SECONDS [libFuzzer options]}
shift 2
case "$target" in
  csv | json | workbook | query | pipeline) ;;
  *) echo "unknown target '$target': csv, json, workbook, query or pipeline" >&2; exit 2 ;;
esac

out=Fuzz/.build
binary=$out/sift-fuzz
mkdir -p "$out"
sources=$(find Sources/SiftCore Fuzz/Targets -name '*.swift' | LC_ALL=C sort)
stamp=$(cat $sources Sources/GNUCalls/include/* | cksum | cut -d' ' -f1)
if [[ ! -x $binary || "$(cat "$out/stamp" 2>/dev/null)" != "$stamp" ]]; then
  echo "building $binary" >&2
  # shellcheck disable=SC2086
  swiftc -O -wmo -parse-as-library -sanitize=fuzzer,address -module-name SiftFuzz \
    -I Sources/GNUCalls/include $sources -o "$binary" 2> >(grep -v "Cannot export local symbol" >&2)
  echo "$stamp" > "$out/stamp"
fi
[[ ${FUZZ_BUILD_ONLY:-} ]] && exit 0

# New inputs the fuzzer finds go to a scratch corpus; the committed seeds stay as they are.
work=$out/corpus/$target
crashes=$out/crashes/$target
mkdir -p "$work" "$crashes"
SIFT_FUZZ_TARGET=$target exec "$binary" -max_total_time="$seconds" -max_len=65536 -timeout=20 \
  -rss_limit_mb=4096 -print_final_stats=1 -artifact_prefix="$crashes/" "$@" \
  "$work" "Fuzz/corpus/$target"
