#!/usr/bin/env bash
# tests/cli/scene_place.sh BUILD - [model] position / rotation / scale (issue 28) on the demo model:
# the bone matrices of a placed model equal those of the same model moved by a root-bone key
# (`pose --scene`), physics included they equal the placement times the unplaced model's (a turn about
# Y and a move along the ground leave gravity and the ground alike), a scaled model is the unplaced one
# scaled, the frames rendered both ways agree, and bad values are refused with the line.
. tests/util/cli_lib.sh
MKDEMO=$BUILD/tools/mkdemo
if [ ! -x "$MMD" ] || [ ! -x "$MKDEMO" ]; then
    t_skip "placement" "skipped: $MMD or $MKDEMO not built"; t_done; exit
fi
if ! command -v python3 >/dev/null; then
    t_skip "placement" "skipped: no python3 to write the root-key VMD and read the matrices"; t_done; exit
fi
"$MKDEMO" "$TMP/demo" >/dev/null 2>&1 || { t_fail "mkdemo generates the demo assets"; t_done; exit; }
# a VMD with one key on 全ての親 (the demo's root bone, at the origin): position X Y Z, Y turn in degrees
python3 - "$TMP/demo/root.vmd" 5 0 -3 30 <<'PY'
import math, struct, sys
out, x, y, z, deg = sys.argv[1], *map(float, sys.argv[2:6])
h = math.radians(deg) / 2
interp = bytes([20, 20, 0, 0, 20, 20, 20, 20, 107, 107, 107, 107, 107, 107, 107, 107] * 4)
key = '全ての親'.encode('cp932').ljust(15, b'\0') + struct.pack('<I3f4f', 0, x, y, z, 0, math.sin(h), 0, math.cos(h))
open(out, 'wb').write(b'Vocaloid Motion Data 0002'.ljust(30, b'\0') + b'root'.ljust(20, b'\0') + struct.pack('<I', 1)
                      + key + interp + struct.pack('<4I', 0, 0, 0, 0))
PY
scene() { # NAME EXTRA-LINES...: a one-model scene
    local n=$1; shift
    { printf '[output]\nsize = 160x90\n[camera]\nposition = 3 10 -2\ndistance = -60\n'
      printf '[model:demo]\nfile = demo/character.pmx\nmotion = demo/dance.vmd\n'
      printf '%s\n' "$@"; } >"$TMP/$n.ini"
}
scene placed "position = 5 0 -3" "rotation = 0 30 0"
scene keyed "motion = demo/root.vmd"
scene plain
scene scaled "scale = 2"
# compare.py A.json B.json X Y Z YDEG S TOL: every bone world of A = P(X Y Z, Y turn, scale S) x B's
cat >"$TMP/compare.py" <<'PY'
import json, math, sys
a, b = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
x, y, z, deg, s, tol = map(float, sys.argv[3:9])
c, n = math.cos(math.radians(deg)) * s, math.sin(math.radians(deg)) * s
P = [[c, 0, -n, 0], [0, s, 0, 0], [n, 0, c, 0], [x, y, z, 1]]  # columns, as glm_rotate_y
worst = 0
for fa, fb in zip(a['frames'], b['frames']):
    for ma, mb in zip(fa['models'], fb['models']):
        for wa, wb in zip(ma['world'], mb['world']):
            B = [wb[4 * i:4 * i + 4] for i in range(4)]
            E = [[sum(P[k][r] * B[j][k] for k in range(4)) for r in range(4)] for j in range(4)]
            worst = max([worst] + [abs(wa[4 * j + r] - E[j][r]) for j in range(4) for r in range(4)])
print('worst %.3g' % worst)
sys.exit(0 if worst <= tol and len(a['frames']) == len(b['frames']) > 0 else 1)
PY
pose() { "$MMD" pose --scene "$TMP/$1.ini" "${@:2}" --json >"$TMP/$1$2.json"; }
for s in placed keyed plain scaled; do
    t_expect "pose --scene $s" 0 pose "$s" --frames 0:40:5
done
t_expect "placed = moved by a root-bone key (1e-4)" 0 python3 "$TMP/compare.py" "$TMP/placed--frames.json" "$TMP/keyed--frames.json" 0 0 0 0 1 1e-4
t_expect "placed = placement x unplaced, no physics (1e-4)" 0 python3 "$TMP/compare.py" "$TMP/placed--frames.json" "$TMP/plain--frames.json" 5 0 -3 30 1 1e-4
t_expect "scaled = 2 x unplaced (1e-4)" 0 python3 "$TMP/compare.py" "$TMP/scaled--frames.json" "$TMP/plain--frames.json" 0 0 0 0 2 1e-4
for s in placed plain scaled; do
    t_expect "pose --scene $s --physics" 0 pose "$s" --physics --frames 0:40
done
# physics amplifies rounding: moving the demo by 0.001 alone changes its hair by 0.0065 after 40 frames
t_expect "physics: placed = placement x unplaced (hair within 0.1)" 0 python3 "$TMP/compare.py" "$TMP/placed--physics.json" "$TMP/plain--physics.json" 5 0 -3 30 1 0.1
t_expect "physics: scaled = 2 x unplaced (simulated at the model's size)" 0 python3 "$TMP/compare.py" "$TMP/scaled--physics.json" "$TMP/plain--physics.json" 0 0 0 0 2 1e-4
# the pictures: placed and keyed, physics off (their warm-ups differ: a root key is blended in, a placement is not)
for s in placed keyed plain; do
    sed -i 's/^\[model:demo\]$/[model:demo]\nphysics = off/' "$TMP/$s.ini"
    t_expect "render $s" 0 "$MMD" "$TMP/$s.ini" -o "$TMP/out_$s/" --frames 0-20:10 --aa 1 --progress none -q
done
t_expect "frames: placed = keyed (rasterised from matrices 1e-6 apart)" 0 "$MMD" diff "$TMP/out_placed" "$TMP/out_keyed" --threshold 8 --max-fraction 0.001
t_expect "the placed model is not where the unplaced one is" 1 "$MMD" diff "$TMP/out_placed" "$TMP/out_plain"
t_grep "every frame differs" "^3 images: 0 ok, 3 differ, 0 unusable$"
# a scene saved on Japanese Windows: Shift-JIS, CRLF, '\' and other letter case
if command -v iconv >/dev/null; then
    mkdir -p "$TMP/jp"; cp -r "$TMP/demo" "$TMP/jp/デモ"
    printf '[model:踊り手]\r\nfile = デモ\\Character.PMX\r\nmotion = デモ\\DANCE.vmd\r\nposition = 5 0 -3\r\nrotation = 0 30 0\r\n' \
        | iconv -f UTF-8 -t CP932 >"$TMP/jp/scene.ini"
    t_expect "Shift-JIS scene with Windows paths" 0 "$MMD" pose --scene "$TMP/jp/scene.ini" --frames 0:40:5 --json
    t_grep "it names its model" '"name":"踊り手"'
    "$MMD" pose --scene "$TMP/jp/scene.ini" --frames 0:40:5 --json >"$TMP/jp.json" 2>"$TMP/jp.err"
    grep -q "warning: .*scene.ini: not UTF-8; read as Shift-JIS (CP932): save it as UTF-8" "$TMP/jp.err" \
        && t_pass "one warning names the encoding" || t_fail "one warning names the encoding" "$(cat "$TMP/jp.err")"
    t_expect "and places it as the UTF-8 scene does" 0 python3 "$TMP/compare.py" "$TMP/jp.json" "$TMP/placed--frames.json" 0 0 0 0 1 0
else
    t_skip "Shift-JIS scene" "no iconv"
fi
printf '[model]\nfile = a\x80\x80.pmx\n' >"$TMP/latin.ini"
t_expect "neither UTF-8 nor Shift-JIS: 2" 2 "$MMD" pose --scene "$TMP/latin.ini" --frames 0 --json
t_grep "the hint names both encodings" "not UTF-8 text \(2 invalid sequences\) nor Shift-JIS: save the scene as UTF-8"
# refused values name the line
printf '[model]\nfile = demo/character.pmx\nscale = 0\n' >"$TMP/bad1.ini"
t_expect "scale 0 refused" 2 "$MMD" pose --scene "$TMP/bad1.ini" --frames 0 --json
t_grep "scale message" "bad1.ini:3: expected scale as a number above 0, at most 1000, got '0'"
printf '[model]\nfile = demo/character.pmx\nposition = 1 2\n' >"$TMP/bad2.ini"
t_expect "two-number position refused" 2 "$MMD" pose --scene "$TMP/bad2.ini" --frames 0 --json
t_grep "position message" "bad2.ini:3: expected position as three numbers 'x y z'"
printf '[model]\nfile = demo/character.pmx\nrotation = 0 1 0\nrotation = 0 2 0\n' >"$TMP/bad3.ini"
t_expect "rotation twice refused" 2 "$MMD" pose --scene "$TMP/bad3.ini" --frames 0 --json
t_grep "twice message" "key 'rotation' given twice"
t_done
