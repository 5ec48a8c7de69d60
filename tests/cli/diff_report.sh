#!/usr/bin/env bash
# tests/cli/diff_report.sh BUILD - `mmdrender diff A B --html DIR` on a generated case (demo frames,
# two of them changed, one missing), then the page in Debian's headless Chromium: it loads with no
# console message but its own, rows and images are there, and a screenshot is kept under
# BUILD/test-out/diff_report/ (with a copy of the report). Chromium is installed when missing
# (tools/deps.sh --browser); the browser checks skip with a message where it cannot be.
. tests/util/cli_lib.sh
MKDEMO=$BUILD/tools/mkdemo

if [ ! -x "$MMD" ] || [ ! -x "$MKDEMO" ]; then
    t_skip "diff report" "skipped: $MMD or $MKDEMO not built"; t_done; exit
fi
"$MKDEMO" "$TMP/demo" >/dev/null 2>&1 || { t_fail "mkdemo generates the demo assets"; t_done; exit; }
cp scenes/demo.ini "$TMP/scene.ini"
SMALL=(--size 160x90 --aa 1 --progress none -q)

# A: frames 0-4 (golden); B: the same with frame 2 showing frame 3's pose, frame 4 on a pink
# background (the worst) and frame 1 missing (unusable: only in A)
t_expect "render A" 0 "$MMD" "$TMP/scene.ini" -o "$TMP/A/" "${SMALL[@]}" --frames 0-4
t_expect "render B's pink frame" 0 "$MMD" "$TMP/scene.ini" -o "$TMP/pink/" "${SMALL[@]}" --frames 4 --background '#ff80c0'
mkdir -p "$TMP/B"
cp "$TMP/A/frame_000000.png" "$TMP/A/frame_000003.png" "$TMP/B/"
cp "$TMP/A/frame_000003.png" "$TMP/B/frame_000002.png"
cp "$TMP/pink/frame_000004.png" "$TMP/B/frame_000004.png"
R=$TMP/report
t_expect "diff --html: exit 6 (a frame is only in A)" 6 "$MMD" diff "$TMP/A" "$TMP/B" --html "$R"
t_grep "text output names the report" "^report: .*/index.html \(3 rows\)$"
t_grep "text output unchanged" "^5 images: 2 ok, 2 differ, 1 unusable$"
H=$R/index.html
[ -f "$H" ] && t_pass "index.html written" || t_fail "index.html written"
n=$(grep -c '<tr class="row"' "$H")
[ "$n" = 3 ] && t_pass "3 rows: 2 differing frames + 1 unusable" || t_fail "3 rows" "got $n"
order=$(grep -o '<tr class="row" id="r[0-9]*"><td><div class="name">[^<]*' "$H" | sed 's/.*>//' | tr '\n' ' ')
[ "$order" = "frame_000001.png frame_000004.png frame_000002.png " ] \
    && t_pass "sorted worst first (unusable, pink, pose)" || t_fail "sorted worst first" "got $order"
OUT=$(cat "$H")
t_grep "summary counts" '5 compared: 2 identical, 0 within thresholds, 2 differ, 1 unusable'
t_grep "the worst frame is named in the summary" 'worst</th><td><a href="#r0" class="name">frame_000001.png'
t_grep "figures: PSNR and SSIM" 'PSNR [0-9.]+ dB<br>SSIM 0\.[0-9]{5}'
t_grep "a slider flips A and B" '<input type="range"'
t_grep "the unusable row says why" 'only in '
imgs=$(grep -o 'src="img/[^"]*"' "$H" | sort -u | sed 's/src="//; s/"$//')
missing=0; count=0
for i in $imgs; do count=$((count + 1)); ffprobe -v error "$R/$i" >/dev/null 2>&1 || missing=$((missing + 1)); done
[ "$count" = 6 ] && [ "$missing" = 0 ] && t_pass "6 images beside the page (A, B, heatmap x 2), all PNGs" \
    || t_fail "6 images beside the page" "$count images, $missing unreadable"
t_expect "A's image is A's frame, unchanged" 0 "$MMD" diff "$TMP/A/frame_000004.png" "$R/img/$(grep -o 'img/[0-9]*-a.png' "$H" | head -n 1 | sed 's#img/##')"
if grep -qE '(src|href)="(https?:)?//' "$H"; then t_fail "no network address in the page"; else t_pass "no network address in the page"; fi
t_expect "a second run into the same report folder (ours): 6" 6 "$MMD" diff "$TMP/A" "$TMP/B" --html "$R" --junit "$TMP/r.xml"
grep -q '<failure type="missing" message="only in ' "$TMP/r.xml" && t_pass "JUnit beside the report names the missing frame" \
    || t_fail "JUnit beside the report names the missing frame" "$(cat "$TMP/r.xml")"
t_expect "--all: every image" 6 "$MMD" diff "$TMP/A" "$TMP/B" --html "$TMP/all" --all
n=$(grep -c '<tr class="row"' "$TMP/all/index.html")
[ "$n" = 5 ] && t_pass "--all has 5 rows" || t_fail "--all has 5 rows" "got $n"
rm "$TMP/A/frame_000001.png"
t_expect "--json with --html" 1 "$MMD" diff "$TMP/A" "$TMP/B" --html "$TMP/j" --json
if python3 -c 'import json,sys; d=json.loads(sys.stdin.read()); assert len(d["images"])==4 and not d["pass"]' <<<"$OUT"
then t_pass "JSON unchanged beside a report"; else t_fail "JSON unchanged beside a report" "$OUT"; fi
# a file name with HTML in it is shown as text, never as markup
mkdir -p "$TMP/E1" "$TMP/E2"
cp "$TMP/A/frame_000000.png" "$TMP/E1/<i>x&y\"'.png"; cp "$TMP/pink/frame_000004.png" "$TMP/E2/<i>x&y\"'.png"
t_expect "a name with <, &, quotes" 1 "$MMD" diff "$TMP/E1" "$TMP/E2" --html "$TMP/esc"
OUT=$(cat "$TMP/esc/index.html")
t_grep "the name is escaped" '&lt;i&gt;x&amp;y&quot;&#39;\.png'
if grep -q '<i>x' "$TMP/esc/index.html"; then t_fail "no raw markup from a file name"; else t_pass "no raw markup from a file name"; fi
t_expect "identical folders: exit 0, empty report" 0 "$MMD" diff "$TMP/A" "$TMP/A" --html "$TMP/same"
t_grep "empty report has 0 rows" 'index.html \(0 rows\)'
t_expect "--all without --html is a usage error" 2 "$MMD" diff "$TMP/A" "$TMP/B" --all
t_expect "unwritable report folder: exit 2" 2 "$MMD" diff "$TMP/A" "$TMP/B" --html /proc/mmd-no-report
t_grep "unwritable report is explained" "cannot create report directory"

# --- the page in a real browser ----------------------------------------------------
command -v chromium >/dev/null || bash tools/deps.sh --browser
if ! command -v chromium >/dev/null; then
    t_skip "report in headless Chromium" "skipped: chromium is not installed and could not be"; t_done; exit
fi
ART=$BUILD/test-out/diff_report
rm -rf "$ART"; mkdir -p "$ART"
cp -r "$R" "$ART/report"
chrome() { # args...: a fresh profile each time, no network services
    timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
        --disable-background-networking --disable-component-update --disable-sync \
        --user-data-dir="$(mktemp -d "$TMP/profile.XXXX")" --enable-logging=stderr --v=0 "$@"
}
URL="file://$(cd "$ART/report" && pwd)/index.html"
chrome --window-size=1400,1000 --screenshot="$ART/screenshot.png" "$URL" >"$ART/chromium.out" 2>"$ART/chromium.err"
rc=$?
[ $rc -eq 0 ] && [ -s "$ART/screenshot.png" ] && t_pass "screenshot kept: $ART/screenshot.png" \
    || t_fail "Chromium takes a screenshot" "exit $rc: $(tail -n 3 "$ART/chromium.err")"
OUT=$(grep -a 'CONSOLE' "$ART/chromium.err")
t_grep "the page's script ran after load: 3 rows, 10 images, all loaded" 'mmd-diff-report: rows=3 images=10 loaded=10 eager=10'
others=$(grep -v 'mmd-diff-report: rows=' <<<"$OUT" | grep -c .)
[ "$others" = 0 ] && t_pass "no console errors (nor any other console message)" \
    || t_fail "no console errors" "$(grep -v 'mmd-diff-report: rows=' <<<"$OUT" | head -n 3)"
OUT=$(chrome --dump-dom "$URL" 2>/dev/null)
t_grep "DOM after load: every eager image decoded" '<body data-loaded="10">'
n=$(grep -o '<tr class="row"' <<<"$OUT" | grep -c .)
[ "$n" = 3 ] && t_pass "DOM has the 3 rows" || t_fail "DOM has the 3 rows" "got $n"
t_done
