#!/usr/bin/env bash
# tests/cli/diff.sh - `mmdrender diff` exit codes and output through the real binary.
. tests/util/cli_lib.sh
[ -x "$MMD" ] || { echo "not ok 1 - $MMD missing"; echo "# counts: 0 passed, 1 failed, 0 skipped"; exit 1; }

# Fixtures: exact PPMs (printf), converted losslessly to PNG by ffmpeg.
if ! command -v ffmpeg >/dev/null; then
    t_skip "diff cli" "no ffmpeg to make fixtures"; t_done; exit
fi
rep() { local i; for ((i = 0; i < $1; i++)); do printf "$2"; done; }
png() { ffmpeg -loglevel error -y -i "$TMP/$1.ppm" "$TMP/$1.png"; }
base='\x33\x66\x99'
{ printf 'P6\n64 48\n255\n'; rep 3072 "$base"; } >"$TMP/a.ppm"; png a
cp "$TMP/a.png" "$TMP/b.png"
# one pixel (x=10, y=10) with red +2
{ printf 'P6\n64 48\n255\n'; rep 650 "$base"; printf '\x35\x66\x99'; rep 2421 "$base"; } >"$TMP/c.ppm"; png c
# left half with red +10
{ printf 'P6\n64 48\n255\n'; for ((y = 0; y < 48; y++)); do rep 32 '\x3d\x66\x99'; rep 32 "$base"; done; } >"$TMP/d.ppm"; png d
{ printf 'P6\n32 32\n255\n'; rep 1024 "$base"; } >"$TMP/small.ppm"; png small
mkdir -p "$TMP/A" "$TMP/B"
cp "$TMP/a.png" "$TMP/A/f1.png"; cp "$TMP/b.png" "$TMP/B/f1.png"
cp "$TMP/a.png" "$TMP/A/f2.png"; cp "$TMP/c.png" "$TMP/B/f2.png"

t_expect "identical: exit 0" 0 "$MMD" diff "$TMP/a.png" "$TMP/b.png"
t_grep "identical: PSNR inf" "PSNR inf"
t_expect "one pixel: exact fails" 1 "$MMD" diff "$TMP/a.png" "$TMP/c.png"
t_grep "one pixel: max 2" "max 2,"
t_expect "one pixel: tolerant passes" 0 "$MMD" diff "$TMP/a.png" "$TMP/c.png" --threshold 4 --max-fraction 0.01
t_expect "half image +10: tolerant fails" 1 "$MMD" diff "$TMP/a.png" "$TMP/d.png" --threshold 4 --max-fraction 0.01
t_expect "json" 1 "$MMD" diff --json "$TMP/a.png" "$TMP/d.png"
t_grep "json: fields" '"max_error": 10, "mean_error": 1\.666667, "psnr": [0-9.]+, "ssim": [0-9.]+, "pixels_over": 1536, "fraction_over": 0\.50000000, "pass": false'
if command -v python3 >/dev/null; then
    if python3 -c 'import json,sys; d=json.loads(sys.stdin.read()); assert d["pass"] is False and d["images"][0]["width"]==64' <<<"$OUT"
    then t_pass "json parses"; else t_fail "json parses" "$OUT"; fi
fi
t_expect "size mismatch: 2" 2 "$MMD" diff "$TMP/a.png" "$TMP/small.png"
t_grep "size mismatch message" "size mismatch: 64x48 vs 32x32"
t_expect "missing file: 6 (missing, not unusable)" 6 "$MMD" diff "$TMP/a.png" "$TMP/nope.png"
t_grep "missing file named" "nope.png: no such file"
t_expect "bad option: 2" 2 "$MMD" diff "$TMP/a.png" "$TMP/b.png" --frobnicate
t_expect "directories exact: 1" 1 "$MMD" diff "$TMP/A" "$TMP/B"
t_grep "directories summary" "2 images: 1 ok, 1 differ, 0 unusable"
t_expect "directories tolerant: 0" 0 "$MMD" diff "$TMP/A" "$TMP/B" --threshold 4 --max-fraction 0.01
t_expect "heatmap dir" 1 "$MMD" diff "$TMP/A" "$TMP/B" --heatmap "$TMP/heat"
if [ -f "$TMP/heat/f2.png" ] && [ ! -e "$TMP/heat/f1.png" ]; then t_pass "heatmap only for the differing image"
else t_fail "heatmap only for the differing image" "$(ls "$TMP/heat" 2>&1)"; fi
cp "$TMP/a.png" "$TMP/A/f3.png"
t_expect "one-sided name: 6" 6 "$MMD" diff "$TMP/A" "$TMP/B" --threshold 4 --max-fraction 0.01
t_grep "one-sided message" "f3.png: ERROR: only in"
t_grep "one-sided count" "^1 missing \(only in A\), 0 new \(only in B\)$"
t_expect "json summary" 6 "$MMD" diff "$TMP/A" "$TMP/B" --json
t_grep "json summary counts" '"summary": \{"compared": 2, "passed": 1, "failed": 1, "unusable": 0, "missing": 1, "new": 0, "approved": 0\}\}$'
t_expect "junit" 6 "$MMD" diff "$TMP/A" "$TMP/B" --junit "$TMP/junit.xml"
if command -v python3 >/dev/null; then
    if python3 - "$TMP/junit.xml" <<'PY'
import sys, xml.etree.ElementTree as ET
s = ET.parse(sys.argv[1]).getroot().find('testsuite')
cases = {c.get('name'): c for c in s.findall('testcase')}
assert s.get('tests') == '3' and s.get('failures') == '2' and s.get('errors') == '0', s.attrib
assert len(cases['f1.png']) == 0
f = cases['f2.png'].find('failure'); assert f.get('type') == 'differs' and f.get('message').startswith('1 px over 0'), f.attrib
assert cases['f3.png'].find('failure').get('type') == 'missing'
PY
    then t_pass "junit parses: 3 testcases, figures in the failure"; else t_fail "junit parses" "$(cat "$TMP/junit.xml")"; fi
fi
# --approve: B's differing frame is copied over A's; the missing one stays missing
rm "$TMP/A/f3.png"
t_expect "approve" 0 "$MMD" diff "$TMP/A" "$TMP/B" --approve
t_grep "approve lists the copy" "^approved: f2.png \(differs\)$"
cmp -s "$TMP/A/f2.png" "$TMP/B/f2.png" && t_pass "approved golden is B's file" || t_fail "approved golden is B's file"
t_expect "after approve: identical" 0 "$MMD" diff "$TMP/A" "$TMP/B"
# a small file declaring a huge image is refused from its header (the pixel cap), fast
if ffmpeg -loglevel error -y -f lavfi -i color=c=black:s=8192x4096 -frames:v 1 "$TMP/huge.png" 2>/dev/null; then
    cp "$TMP/huge.png" "$TMP/huge2.png"
    t_expect "over the pixel cap: 2" 2 "$MMD" diff "$TMP/huge.png" "$TMP/huge2.png" --html "$TMP/hrep"
    t_grep "the cap is named" "33554432 pixels is over the limit of 16777216 pixels \(not decoded\)"
else
    t_skip "pixel cap" "ffmpeg cannot make the 8192x4096 fixture"
fi
# --html never writes through a symbolic link
mkdir -p "$TMP/elsewhere" "$TMP/rep1"; ln -s "$TMP/elsewhere" "$TMP/rep1/img"
t_expect "report img symlink: 2" 2 "$MMD" diff "$TMP/a.png" "$TMP/c.png" --html "$TMP/rep1"
t_grep "symlink refused" "refusing report directory '.*/rep1/img': it is a symbolic link"
[ -z "$(ls "$TMP/elsewhere")" ] && t_pass "nothing written through the link" || t_fail "nothing written through the link"
mkdir -p "$TMP/rep2"; ln -s "$TMP/elsewhere/index.html" "$TMP/rep2/index.html"
t_expect "report index.html symlink: 2" 2 "$MMD" diff "$TMP/a.png" "$TMP/c.png" --html "$TMP/rep2"
t_grep "named as given" "report: .*/rep2/index.html: cannot write: the name is a symbolic link \(not replaced\)"
[ ! -e "$TMP/elsewhere/index.html" ] && t_pass "the link's target is not created" || t_fail "the link's target is not created"
ln -s "$TMP/elsewhere/j.xml" "$TMP/j.xml"
t_expect "junit symlink: 2" 2 "$MMD" diff "$TMP/a.png" "$TMP/c.png" --junit "$TMP/j.xml"
t_grep "junit symlink named" "j.xml: cannot write: the name is a symbolic link \\(not replaced\\)"
t_done
