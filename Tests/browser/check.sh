#!/usr/bin/env bash
# HTML reports checked as e-mail clients and a real browser see them (Docs/Reports.md, Tests).
# First, every golden HTML document and two fresh reports (a grouped summary and the views
# digest) are checked for e-mail safety (email_safe.py). Then headless Chromium renders the two
# reports to PNG, and pixels.py checks that the chips' orange (#f69000) and the badges' red
# (#D32030) are on the page and that the page is no wider than 1,000 px; at a phone's 390 px,
# that the page stays inside the window (only a wide table scrolls). Without Chromium that
# part says it skipped. Keeps the reports and screenshots in $SIFT_BROWSER_OUT (default a
# temporary folder) to look at.
set -euo pipefail
cd "$(dirname "$0")/../.."
swift build --product sift >/dev/null
sift="$(swift build --show-bin-path)/sift"
out="${SIFT_BROWSER_OUT:-$(mktemp -d)}"
mkdir -p "$out"
export SIFT_NOW=2026-11-24T07:00

"$sift" 'status:received,pending group:warehouse sum:qty,amount avg:unit_price' \
  SampleData/grn.csv -o html >"$out/summary.html"
(cd SampleData && "$sift" --views -o html) >"$out/digest.html"
# A table wider than a phone: at 390 px only the table scrolls; the sheet, the chips and the
# counts stay inside the window.
"$sift" 'status:pending fields:grn_no,date,customer,item,qty,unit_price,amount limit:8' \
  SampleData/grn.csv -o html --title 'Pending goods received' >"$out/phone.html"
python3 Tests/browser/email_safe.py "$out/summary.html" "$out/digest.html" "$out/phone.html" \
  $(grep -l '<!DOCTYPE html>' Tests/SiftCLITests/Cases/*/expout)

browser=""
for name in chromium chromium-browser google-chrome; do
  if command -v "$name" >/dev/null; then browser=$name; break; fi
done
if [[ -z "$browser" ]]; then
  echo "skipped: the browser check needs Chromium (apt-get install -y chromium)"
  exit 0
fi

# A window wider than the page, so that a page too wide shows as content past 1,000 px.
for page in summary:900 digest:5000; do
  name=${page%%:*}
  "$browser" --headless=new --no-sandbox --disable-gpu --hide-scrollbars \
    --force-device-scale-factor=1 --window-size=1400,"${page##*:}" \
    --screenshot="$out/$name.png" "file://$(cd "$out" && pwd)/$name.html" >/dev/null 2>&1
done
for page in summary phone; do
  "$browser" --headless=new --no-sandbox --disable-gpu --hide-scrollbars \
    --force-device-scale-factor=1 --window-size=390,900 \
    --screenshot="$out/$page-390.png" "file://$(cd "$out" && pwd)/$page.html" >/dev/null 2>&1
  python3 Tests/browser/pixels.py "$out/$page-390.png" --colour '#f69000' --max-width 390
done
python3 Tests/browser/pixels.py "$out/summary.png" --colour '#f69000' --max-width 1000
python3 Tests/browser/pixels.py "$out/digest.png" --colour '#D32030' --colour '#f69000' --max-width 1000
echo "browser check passed; screenshots in $out"
