#!/usr/bin/env bash
# tests/cli/project.sh - MikuMikuDance projects: info (text, JSON contract), export,
# render (= render of the export, byte for byte), outside parents (fan in a
# hand: child world = parent bone world x local), camera follow, cycles, v1,
# missing files, options over the project. Projects from tools/mkproject.c.
. tests/util/cli_lib.sh
# A private TMPDIR, so the check that no mmdrender-pmm-* folder is left behind
# sees only this script's runs, not other renders on the same machine.
export TMPDIR=$TMP/tmpdir
mkdir -p "$TMPDIR"
MKP=$BUILD/tools/mkproject
"$MKP" "$TMP/p" || { t_fail "mkproject writes the fixtures"; t_done; exit 1; }
P=$TMP/p/proj/song.pmm
A=$TMP/p/assets
# the project's background video: a still of the fan on blue, 8 frames of lossless FFV1
printf '[output]\nsize = 32x24\nbackground = #204060\n[model]\nfile = %s\n' "$A/Model/Fan.pmx" > "$TMP/clip.ini"
t_expect "a background video for the project" 0 "$MMD" "$TMP/clip.ini" -o "$A/BackGround/clip.mkv" --codec ffv1 --frames 0-7 -q

t_expect "info on a project exits 0" 0 "$MMD" info "$P" --asset-root "$A"
t_grep "info: the dancer is found through UserFile\\ under the asset root" "model 1: dancer .*\[found\]"
t_grep "info: the fan is found in another letter case" "model 2: fan .*\[found\]"
t_grep "info: the missing accessory is named" "accessory 1: stage .*\[MISSING\]"
t_grep "info: the .emm effects are listed" "Pmd1 = \.\.\\\\fx\\\\AutoLuminous\.fx"
t_expect "info without the asset root still exits 0" 0 "$MMD" info "$P"
t_grep "info: a missing model is a warning naming its path" "warning: model 'dancer' not found: C:\\\\MMD\\\\UserFile"

"$MMD" info "$P" --json --asset-root "$A" > "$TMP/info.json" 2>/dev/null
if command -v python3 >/dev/null; then
    OUT=$(python3 - "$TMP/info.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["format"] == "pmm" and d["version"] == 2
assert d["output"] == {"width": 160, "height": 120, "fps": 30, "first_frame": 0, "last_frame": 40,
                       "begin_enabled": True, "end_enabled": True}, d["output"]
assert [m["file"]["status"] for m in d["models"]] == ["found", "found"]
assert d["models"][0]["file"]["resolved"].endswith("assets/Model/dancer.pmx")
assert d["models"][1]["keys"]["outside_parent"] == 1
assert d["models"][0]["keys"]["bone_tracks"] == 2 and d["models"][0]["bones"] == 3
assert [a["file"]["status"] for a in d["accessories"]] == ["missing", "found"]
assert d["models"][0]["effect"].endswith("/proj/AutoLuminous.fx") and d["models"][1]["effect"] is None
assert [a["effect"] for a in d["accessories"]] == [None, None]
assert d["accessories"][1]["keys"] == 2 and d["accessories"][1]["add_blend"] is True
assert d["keys"]["camera"] == 2 and d["keys"]["camera_follow"] == 1
assert d["render"]["black_background"] is True and d["render"]["physics"] == "trace"
assert len(d["effects"]["assignments"]) == 2 and d["effects"]["file"].endswith("song.emm")
assert len(d["warnings"]) == 1
m0, m1 = d["models"]
assert (m0["edge_width"], m0["self_shadow"], m1["add_blend"]) == (2, False, True)
r = d["render"]
assert r["ground_shadow_brightness"] == 0.5 and r["ground_shadow_translucent"] is True
assert r["edge_color"] == [1, 0.501961, 0], r["edge_color"]
bg = d["background_image"]
assert bg["status"] == "found" and bg["offset"] == [10, 5] and bg["scale"] == 0.5, bg
assert bg["resolved"].endswith("assets/BackGround/sky.bmp")
bv = d["background_video"]
assert bv["status"] == "found" and bv["offset"] == [-20, -10] and bv["scale"] == 0.25, bv
print("json ok")
PY
)
    t_grep "info --json carries the documented keys and values" "json ok"
else
    t_skip "info --json contract" "skipped: no python3"
fi

t_expect "export exits 0" 0 "$MMD" export "$P" "$TMP/exp" --asset-root "$A"
OUT=$(cat "$TMP/exp/scene.ini" 2>/dev/null)
t_grep "export: the fan's outside parent is the dancer's right wrist" "^outside_parent = センター -> dancer:右手首 @0$"
t_grep "export: the camera follows the dancer from frame 20" "^follow = dancer:センター @20$"
t_grep "export: the project's range" "^frames = 0-40$"
t_grep "export: the ground shadow is off" "^ground_shadow = off$"
t_grep "export: the found accessory has a section" "^\\[accessory:a2\\]$"
t_grep "export: it sits in the dancer's right wrist from frame 0" "^parent = dancer:右手首 @0$"
t_grep "export: and in the world from frame 30 (its second key)" "^parent = none @30$"
t_grep "export: key 0 (Si as stored, degrees, opacity, visible, shadow)" "^key = 0 0 1 0 0 0 90(\\.[0-9]+)? 0\\.5 0\\.5 on on$"
t_grep "export: key 30" "^key = 30 0 2 0 0 0 0 1 1 on on$"
t_grep "export: its add-blend" "^add_blend = on$"
t_grep "export: the gravity keys" "^key = 20 5 0 1 0$"
t_grep "export: the dancer's edge width" "^edge_width = 2$"
t_grep "export: the dancer's self-shadow is off" "^self_shadow = off$"
t_grep "export: the dancer's effect from the .emm (Pmd1)" "^effect = .*AutoLuminous\\.fx$"
OUT=$(grep -A3 '^\[model:fan\]' "$TMP/exp/scene.ini")
t_grep "export: the fan model is add-blended" "^add_blend = on$"
OUT=$(cat "$TMP/exp/scene.ini")
t_grep "export: the ground shadow's brightness and translucency" "^ground_shadow_brightness = 0\\.5$"
t_grep "export: translucent" "^ground_shadow_translucent = on$"
t_grep "export: the edge colour" "^edge_color = #ff8000$"
OUT=$(grep -A3 '^\[background\]' "$TMP/exp/scene.ini")
t_grep "export: the background image" "^image = .*assets/BackGround/sky\\.bmp$"
t_grep "export: its offset" "^offset = 10 5$"
t_grep "export: its scale" "^scale = 0\\.5$"
OUT=$(grep -A6 '^\[background\]' "$TMP/exp/scene.ini")
t_grep "export: the background video" "^video = .*assets/BackGround/clip\\.mkv$"
t_grep "export: its offset" "^video_offset = -20 -10$"
t_grep "export: its scale" "^video_scale = 0\\.25$"
OUT=$(cat "$TMP/exp/scene.ini")
t_expect "export: one VMD per model and the camera" 0 test -s "$TMP/exp/model_1.vmd" -a -s "$TMP/exp/model_2.vmd" -a -s "$TMP/exp/camera.vmd"

t_expect "render the project" 0 "$MMD" "$P" -o "$TMP/r1/" --asset-root "$A" --frames 0-40:20 -q
t_grep "render warns once per effect" "effect \.\.\\\\fx\\\\shadow\.fx \(Pmd1\) is not applied: an offscreen target's"
RENDER_OUT=$OUT
t_expect "render one frame without -q" 0 "$MMD" "$P" -o "$TMP/r0/" --asset-root "$A" --frames 0 --strict-effects
t_expect "the .emm's Pmd1 (an empty object technique) is applied: no warning for it" 1 grep -q "AutoLuminous\.fx.*not applied" <<<"$OUT"
OUT=$RENDER_OUT
if grep -q "accessory 'fan' after its first\\|not applied yet:.*gravity" <<<"$OUT"; then
    t_fail "render applies accessory keys and gravity (no not-applied warning for them)" "$OUT"
else
    t_pass "render applies accessory keys and gravity (no not-applied warning for them)"
fi
t_expect "the render applies the appearance settings (none is named as not applied)" 1 grep -qE "not applied yet:.*(edge|add-blend|self-shadow|ground-shadow|background)" <<<"$OUT"
t_expect "render the export" 0 "$MMD" "$TMP/exp/scene.ini" -o "$TMP/r2/" --frames 0-40:20 -q
same=1
for f in 000000 000020 000040; do cmp -s "$TMP/r1/frame_$f.png" "$TMP/r2/frame_$f.png" || same=0; done
if [ $same -eq 1 ]; then t_pass "project render = export render, byte for byte"; else t_fail "project render = export render, byte for byte"; fi
t_expect "no temporary folder is left behind" 0 bash -c "! ls -d \"$TMPDIR\"/mmdrender-pmm-* 2>/dev/null | grep -q ."

t_expect "options override the project (--size)" 0 "$MMD" "$P" -o "$TMP/r3/" --asset-root "$A" --frames 10 --size 64x48 -q
if command -v python3 >/dev/null; then
    OUT=$(python3 -c "import struct,sys; d=open(sys.argv[1],'rb').read(24); print('%dx%d' % struct.unpack('>II', d[16:24]))" "$TMP/r3/frame_000010.png")
    t_grep "the frame is 64x48" "^64x48$"
fi

"$MMD" pose --scene "$TMP/exp/scene.ini" --frames 0,13.5,20,40 --json > "$TMP/pose.json" 2>/dev/null
if command -v python3 >/dev/null; then
    OUT=$(python3 - "$TMP/pose.json" <<'PY'
import json, math, sys
d = json.load(open(sys.argv[1]))
def m(v):  # column-major 16 -> rows
    return [[v[c * 4 + r] for c in range(4)] for r in range(4)]
def mul(a, b):
    return [[sum(a[r][k] * b[k][c] for k in range(4)) for c in range(4)] for r in range(4)]
h = math.sin(math.radians(15)); c = math.cos(math.radians(15))  # the fan's own key: 30 deg about X, y + 0.5
x, w = h, c
local = [[1, 0, 0, 0], [0, 1 - 2 * x * x, -2 * x * w, 0.5], [0, 2 * x * w, 1 - 2 * x * x, 0], [0, 0, 0, 1]]
assert d["models"][1]["bones"] == ["センター"]
worst = 0
for fr in d["frames"]:
    hand = m(fr["models"][0]["world"][2]); fan = m(fr["models"][1]["world"][0])
    want = mul(hand, local)
    worst = max(worst, max(abs(want[r][k] - fan[r][k]) for r in range(4) for k in range(4)))
assert worst < 1e-5, worst
print("fan ok %.2g" % worst)
PY
)
    t_grep "fan in hand: child world = parent bone world x local (1e-5)" "fan ok"
    OUT=$(python3 - "$TMP/pose.json" <<'PY'
import json, math, sys
d = json.load(open(sys.argv[1]))
def m(v):
    return [[v[c * 4 + r] for c in range(4)] for r in range(4)]
def mul(a, b):
    return [[sum(a[r][k] * b[k][c] for k in range(4)) for c in range(4)] for r in range(4)]
def rz(deg):
    c, s = math.cos(math.radians(deg)), math.sin(math.radians(deg))
    return [[c, -s, 0, 0], [s, c, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]
def ts(y, si):
    return [[1, 0, 0, 0], [0, 1, 0, y], [0, 0, 1, 0], [0, 0, 0, 1]], [[si * 10, 0, 0, 0], [0, si * 10, 0, 0], [0, 0, si * 10, 0], [0, 0, 0, 1]]
fr = {f["frame"]: f for f in d["frames"]}
worst = 0
# frame 13.5 of keys 0 (wrist, y 1, Rz 90, Si 0.5, Tr 0.5) and 30 (world, y 2, Rz 0, Si 1, Tr 1):
# s = 0.45: y 1.45, Rz 49.5 (slerp), Si 0.725, Tr 0.725, still in the wrist (parent stepped)
f = fr[13.5]; a = f["accessories"][0]
t, sc = ts(1.45, 0.725)
want = mul(mul(mul(m(f["models"][0]["world"][2]), t), rz(49.5)), sc)
worst = max(abs(want[r][c] - m(a["world"])[r][c]) for r in range(4) for c in range(4))
assert abs(a["opacity"] - 0.725) < 1e-6 and a["visible"], a
# frame 40: past the last key, in the world at y 2, Si 1
t, sc = ts(2, 1)
want = mul(t, sc)
worst = max(worst, max(abs(want[r][c] - m(fr[40]["accessories"][0]["world"])[r][c]) for r in range(4) for c in range(4)))
assert worst < 1e-5, worst
print("accessory keys ok %.2g" % worst)
PY
)
    t_grep "accessory between keys: interpolated placement in the hand, then its last key in the world (1e-5)" "accessory keys ok"
fi

# MMD's calculation order: the fan (child) evaluated before the dancer (its
# outside parent) sees the hand of the frame before (one-frame lag); frames
# then depend on history, so chunks must still equal the whole run.
OUT=$(cat "$TMP/exp/scene.ini")
t_grep "export: the calculation order" "^calc_order = 2$"
sed -e 's/^calc_order = 1$/calc_order = 9/' "$TMP/exp/scene.ini" > "$TMP/exp/lag.ini"
"$MMD" pose --scene "$TMP/exp/lag.ini" --frames 10,11,12.5 --json > "$TMP/lag.json" 2>/dev/null
"$MMD" pose --scene "$TMP/exp/scene.ini" --frames 10,11,12,13 --json > "$TMP/nolag.json" 2>/dev/null
if command -v python3 >/dev/null; then
    OUT=$(python3 - "$TMP/lag.json" "$TMP/nolag.json" <<'PY'
import json, math, sys
lag = {f["frame"]: f for f in json.load(open(sys.argv[1]))["frames"]}
now = {f["frame"]: f for f in json.load(open(sys.argv[2]))["frames"]}
def m(v):
    return [[v[c * 4 + r] for c in range(4)] for r in range(4)]
def mul(a, b):
    return [[sum(a[r][k] * b[k][c] for k in range(4)) for c in range(4)] for r in range(4)]
h = math.sin(math.radians(15)); c = math.cos(math.radians(15))
local = [[1, 0, 0, 0], [0, 1 - 2 * h * h, -2 * h * c, 0.5], [0, 2 * h * c, 1 - 2 * h * h, 0], [0, 0, 0, 1]]
worst = 0
for f, prev in ((11, 10), (12.5, 12)):  # 12.5 follows the whole frame 12 evaluated in between
    want = mul(m(now[prev]["models"][0]["world"][2]), local)
    got = m(lag[f]["models"][1]["world"][0])
    worst = max(worst, max(abs(want[r][k] - got[r][k]) for r in range(4) for k in range(4)))
moved = max(abs(a - b) for a, b in zip(now[10]["models"][0]["world"][2], now[11]["models"][0]["world"][2]))
assert moved > 1e-3 and worst < 1e-5, (moved, worst)
print("lag ok %.2g" % worst)
PY
)
    t_grep "calc_order child first: the fan follows the hand of the previous frame (1e-5)" "lag ok"
fi
t_expect "lagging scene: whole run" 0 "$MMD" "$TMP/exp/lag.ini" -o "$TMP/lw/" --frames 4-12:4 -q
t_expect "lagging scene: the second of two chunks" 0 "$MMD" "$TMP/exp/lag.ini" -o "$TMP/lc/" --frames 4-12:4 --chunk 1/2 -q
same=1
for f in 000008 000012; do cmp -s "$TMP/lw/frame_$f.png" "$TMP/lc/frame_$f.png" || same=0; done
[ -f "$TMP/lc/frame_000004.png" ] && same=0
if [ $same -eq 1 ]; then t_pass "lagging scene: a chunk starting mid-range = the whole run, byte for byte"; else t_fail "lagging scene: chunk = whole run"; fi

t_expect "a cycle of outside parents is an input error" 2 "$MMD" "$TMP/p/proj/cycle.pmm" -o "$TMP/r4/" --asset-root "$A" -q
t_grep "the cycle names the models and bones" "cycle at frame 0: 'dancer' bone 'センター' follows 'fan' bone 'センター'; 'fan' bone 'センター' follows 'dancer' bone '右手首'"

t_expect "version 1 project: info with the models found" 0 "$MMD" info "$TMP/p/proj/song_v1.pmm" --asset-root "$A"
t_grep "v1: version and keys read" "PMM version 1"
t_expect "v1: export" 0 "$MMD" export "$TMP/p/proj/song_v1.pmm" "$TMP/exp1" --asset-root "$A"
OUT=$(cat "$TMP/exp1/scene.ini")
t_grep "v1: the accessory's keys are exported" "^key = 30 0 2 0 0 0 0 1 1 on on$"
t_grep "v1: and its parent keys" "^parent = none @30$"
if grep -q '^\[gravity\]\|^calc_order' <<<"$OUT"; then t_fail "v1: no gravity or calculation order (v1 has neither)"; else
    t_pass "v1: no gravity or calculation order (v1 has neither)"; fi
t_expect "version 1 project without its models is refused" 2 "$MMD" info "$TMP/p/proj/song_v1.pmm"
t_grep "v1: the refusal names the model" "layout of model 'dancer' depends on its bone count"

# MMD's own sample projects hold links to key indices that do not exist (issue 25): the track ends
# there, one warning, and the picture is the one of the same project with the link ended.
for v in "" _v1; do
    t_expect "links$v.pmm (a link to key 16, which does not exist) loads" 0 "$MMD" info "$TMP/p/proj/links$v.pmm" --asset-root "$A"
    t_grep "links$v: one warning says the track ends there" "warning: 1 key track\(s\) link to a key that does not exist; each ends there"
    t_grep "links$v: the dancer keeps its animated tracks" "keys: bone 5 \(2 tracks animated of 3\)"
    t_expect "links$v.pmm renders" 0 "$MMD" "$TMP/p/proj/links$v.pmm" -o "$TMP/lk$v/" --asset-root "$A" --frames 0-40:20 -q
    t_expect "song$v.pmm renders" 0 "$MMD" "$TMP/p/proj/song$v.pmm" -o "$TMP/sg$v/" --asset-root "$A" --frames 0-40:20 -q
    same=1
    for f in 000000 000020 000040; do cmp -s "$TMP/lk$v/frame_$f.png" "$TMP/sg$v/frame_$f.png" || same=0; done
    if [ $same -eq 1 ]; then t_pass "links$v: the same frames as song$v.pmm"; else t_fail "links$v: the same frames as song$v.pmm"; fi
done

t_expect "a project whose models are all missing is an input error" 2 "$MMD" "$P" -o "$TMP/r5/" -q
t_grep "it says which files" "none of the project's 2 models was found"
printf 'Polygon Movie maker 0003\0\0\0\0\0\0' > "$TMP/v3.pmm"
t_expect "an unknown PMM version is an input error" 2 "$MMD" info "$TMP/v3.pmm"
t_grep "the version is named" "PMM version '0003'"
if [ -f "$SHARED_ASSETS/pmm/a_truncated.pmm" ]; then
    t_expect "a truncated real project is an input error" 2 "$MMD" info "$SHARED_ASSETS/pmm/a_truncated.pmm"
    t_grep "with the offset and section" "offset 0x37, pmm.camera"
    t_expect "the real project t.pmm reads" 0 "$MMD" info "$SHARED_ASSETS/pmm/t.pmm" --json
else
    t_skip "real projects" "skipped: no ../shared"
fi

printf '[model:a]\nfile = %s\noutside_parent = センター -> b:右手首\n' "$A/Model/Fan.pmx" > "$TMP/bad1.ini"
t_expect "outside_parent naming no model is a scene error" 2 "$MMD" "$TMP/bad1.ini" -o "$TMP/x/" -q
t_grep "with its line" "bad1.ini:3: no model named 'b'"
printf '[model:a]\nfile = %s\noutside_parent = 腰 -> a:センター\n' "$A/Model/Fan.pmx" > "$TMP/bad2.ini"
t_expect "outside_parent naming no bone is an input error" 2 "$MMD" "$TMP/bad2.ini" -o "$TMP/x/" -q
t_grep "naming the bone and line" "bad2.ini:3: model 'a' has no bone '腰'"
printf '[output]\nground_shadow = maybe\n[model]\nfile = %s\n' "$A/Model/Fan.pmx" > "$TMP/bad3.ini"
t_expect "ground_shadow takes on or off" 2 "$MMD" "$TMP/bad3.ini" -o "$TMP/x/" -q
t_grep "and says so with the line" "bad3.ini:2: expected ground_shadow = on or off"
# the background video's frame f is output frame f (30 fps): a camera that sees
# nothing shows the video alone, byte for byte; a lone frame (decoded from the
# start) and a jump of 13 s (a seek; past the end: the last frame) too
"$MMD" "$TMP/exp/scene.ini" -o "$TMP/va.mkv" --codec ffv1 --frames 0-7 -q 2>/dev/null
"$MMD" "$TMP/exp/scene.ini" -o "$TMP/va/" --frames 0-7 -q 2>/dev/null
printf '[output]\nsize = 160x120\nbackground = #000000\nground_shadow = off\n[camera]\nposition = 0 5000 0\n[model]\nfile = %s\n[background]\nvideo = %s\n' \
    "$A/Model/Fan.pmx" "$TMP/va.mkv" > "$TMP/vb.ini"
t_expect "a scene with a background video renders" 0 "$MMD" "$TMP/vb.ini" -o "$TMP/vb/" --frames 0-7 -q
same=1
for f in 0 1 2 3 4 5 6 7; do "$MMD" diff "$TMP/va/frame_00000$f.png" "$TMP/vb/frame_00000$f.png" >/dev/null || same=0; done
if [ $same -eq 1 ]; then t_pass "output frame f shows video frame f (8 frames, exact)"; else t_fail "output frame f shows video frame f (8 frames, exact)"; fi
t_expect "a lone frame 5" 0 "$MMD" "$TMP/vb.ini" -o "$TMP/vc/" --frames 5 -q
t_expect "shows video frame 5" 0 "$MMD" diff "$TMP/va/frame_000005.png" "$TMP/vc/frame_000005.png"
t_expect "frames 0 and 400" 0 "$MMD" "$TMP/vb.ini" -o "$TMP/vd/" --frames 0-400:400 -q
t_expect "frame 400 shows the video's last frame" 0 "$MMD" diff "$TMP/va/frame_000007.png" "$TMP/vd/frame_000400.png"
printf 'not a video' > "$TMP/bad.avi"
sed "s|^video = .*|video = $TMP/bad.avi|" "$TMP/vb.ini" > "$TMP/vbad.ini"
t_expect "an undecodable background video is a warning, the render goes on" 0 "$MMD" "$TMP/vbad.ini" -o "$TMP/ve/" --frames 0
t_grep "the warning names it" "warning: background video not drawn: .*bad\\.avi"

for kv in "output:edge_color = red:expected edge_color = #rrggbb" \
          "output:ground_shadow_brightness = 11:expected ground_shadow_brightness 0..10" \
          "output:ground_shadow_translucent = half:expected ground_shadow_translucent = on or off" \
          "model:edge_width = -1:expected edge_width 0..100" "model:add_blend = 2:expected add_blend = on or off" \
          "model:self_shadow = x:expected self_shadow = on or off" \
          "background:scale = 0:expected scale above 0" "background:offset = 1:expected offset = X Y" \
          "background:image = nothere.png:cannot read background image file" \
          "background:video_scale = -1:expected video_scale above 0" \
          "background:movie = a.avi:unknown key 'movie' in \\[background\\]"; do
    sec=${kv%%:*}; rest=${kv#*:}; line=${rest%%:*}; want=${rest#*:}
    if [ "$sec" = model ]; then
        printf '[model]\nfile = %s\n%s\n' "$A/Model/Fan.pmx" "$line" > "$TMP/bad4.ini"; ln=3
    else
        printf '[model]\nfile = %s\n[%s]\n%s\n' "$A/Model/Fan.pmx" "$sec" "$line" > "$TMP/bad4.ini"; ln=4
    fi
    t_expect "[$sec] $line is a scene error" 2 "$MMD" "$TMP/bad4.ini" -o "$TMP/x/" -q
    t_grep "with its line and what is expected" "bad4.ini:$ln: $want"
done
# ---- project paths and export (issue 24, classes 3-5) --------------------------------------
# A project's paths follow the texture rule: after UserFile\ they stay under the project's
# folder or an --asset-root unless --allow-outside-assets; a refused one is one warning and
# the render goes on as for a missing file. Export writes nothing onto an input or through
# a symbolic link, and no name it finds adds lines to the scene.
H=$TMP/h
mkdir -p "$H/a/proj" "$H/a/root/Model"
cp "$A/Model/Fan.pmx" "$H/a/root/Model/Fan.pmx"  # the project's good model, through the asset root
cp "$A/Model/dancer.pmx" "$H/x.pmx"              # outside: two folders above the project
cp "$A/BackGround/sky.bmp" "$H/sky.bmp"
cp "$A/BackGround/clip.mkv" "$H/clip.mkv"
printf 'RIFF' > "$H/song.wav"
ln -s "$H/x.pmx" "$H/a/proj/link.pmx"             # inside the project, pointing outside
GOOD='UserFile\Model\Fan.pmx'
# t_count NAME N PATTERN: $OUT has N lines matching
t_count() { local n; n=$(grep -cE -- "$3" <<<"$OUT"); if [ "$n" = "$2" ]; then t_pass "$1"; else t_fail "$1" "$n lines match /$3/, wanted $2"; fi; }
# status KEY: the info --json status of the project's file KEY (m2, image, video, audio)
status() {
    python3 -c 'import json,sys; d=json.load(sys.stdin); k=sys.argv[1]
print(d["models"][1]["file"]["status"] if k == "m2" else d[{"image": "background_image", "video": "background_video", "audio": "audio"}[k]]["status"])' "$1"
}
i=0
while IFS='|' read -r what key kv; do
    i=$((i+1)); P2=$H/a/proj/t$i.pmm
    "$MKP" --one "$P2" "model=$GOOD" "$kv" || t_fail "mkproject --one writes $what"
    if command -v python3 >/dev/null; then
        OUT=$("$MMD" info "$P2" --json --asset-root "$H/a/root" 2>/dev/null | status "$key")
        t_grep "$what: refused" "^refused$"
        OUT=$("$MMD" info "$P2" --json --asset-root "$H/a/root" --allow-outside-assets 2>/dev/null | status "$key")
        t_grep "$what: found with --allow-outside-assets" "^found$"
    fi
    t_expect "$what: the render goes on" 0 "$MMD" "$P2" -o "$H/o$i/" --asset-root "$H/a/root" --size 32x24 --frames 0 -q
    t_count "$what: one warning, naming it refused" 1 "warning: .*is outside the project's folder and the asset roots: refused"
    t_count "$what: (no other)" 1 "warning"
    t_expect "$what: --allow-outside-assets renders it" 0 "$MMD" "$P2" -o "$H/p$i/" --asset-root "$H/a/root" --size 32x24 --frames 0 -q --allow-outside-assets
    t_count "$what: without a warning" 0 "warning"
done <<EOF2
an absolute Unix path to a model|m2|model=$H/x.pmx
a model at ..\..\x.pmx|m2|model=..\..\x.pmx
a model at \\srv\share\UserFile\..\..\x.pmx (out of the asset root)|m2|model=\\srv\share\UserFile\..\..\x.pmx
a symbolic link in the project's folder to a model outside|m2|model=link.pmx
an absolute background image outside|image|image=$H/sky.bmp
a background video at ..\..\clip.mkv|video|video=..\..\clip.mkv
a song at \\srv\share\UserFile\..\..\song.wav|audio|audio=\\srv\share\UserFile\..\..\song.wav
EOF2
cmp -s "$H/o1/frame_000000.png" "$H/o2/frame_000000.png" && t_pass "a refused model is left out: the frame is the good model's alone" \
    || t_fail "a refused model is left out: the frame is the good model's alone"
if cmp -s "$H/o1/frame_000000.png" "$H/p1/frame_000000.png"; then t_fail "--allow-outside-assets draws the outside model"
else t_pass "--allow-outside-assets draws the outside model"; fi

# names a scene line cannot hold: refused at load (one warning), so export writes no line for them
NL=$'evil\n[effects]\nglow = on\n.pmx' ESC=$'esc\e[31m.pmx'
cp "$A/Model/Fan.pmx" "$H/a/proj/$NL"; cp "$A/Model/Fan.pmx" "$H/a/proj/$ESC"
"$MKP" --one "$H/a/proj/nl.pmm" "model=$GOOD" "model=$NL" "model=$ESC"
t_expect "export of a project naming files with a newline and an escape: exit 0" 0 \
    "$MMD" export "$H/a/proj/nl.pmm" "$H/enl" --asset-root "$H/a/root"
t_grep "the newline's file is refused with a warning" "warning: .*model 'm2': .*evil\\\\x0a\\[effects\\]\\\\x0aglow = on\\\\x0a\\.pmx' has a control character.*refused"
t_grep "so is the escape's (printed as \\x1b)" "model 'm3': .*esc\\\\x1b\\[31m\\.pmx' has a control character"
t_count "two warnings, one line each" 2 "^mmdrender: warning:"
t_expect "the exported scene has no [effects] section" 1 grep -q '^\[effects\]\|^glow' "$H/enl/scene.ini"
OUT=$(cat "$H/enl/scene.ini")
t_count "and one model" 1 '^\[model' 
t_expect "info on it: exit 0" 0 "$MMD" info "$H/a/proj/nl.pmm" --asset-root "$H/a/root"
t_grep "info prints the path made printable, marked REFUSED" "model 2: m2  evil\\\\x0a\[effects\]\\\\x0aglow = on\\\\x0a\.pmx \[REFUSED\]"
t_count "no line of its own for the name's [effects]" 0 '^\[effects\]'
t_expect "the project renders (the good model)" 0 "$MMD" "$H/a/proj/nl.pmm" -o "$H/onl/" --asset-root "$H/a/root" --size 32x24 --frames 0 -q
cmp -s "$H/o1/frame_000000.png" "$H/onl/frame_000000.png" && t_pass "with no effect applied: the good model's frame" \
    || t_fail "with no effect applied: the good model's frame"

# export never writes onto an input, nor through a symbolic link; nothing is written then
E=$TMP/e
mkdir -p "$E/d"
cp "$A/Model/Fan.pmx" "$E/model_1.vmd"; cp "$E/model_1.vmd" "$E/model.orig"
"$MKP" --one "$E/p1.pmm" "model=model_1.vmd"
t_expect "export: a model named model_1.vmd in DIR is exit 1" 1 "$MMD" export "$E/p1.pmm" "$E"
t_grep "the error names both" "output '.*model_1\\.vmd' is also an input of the project \\('.*model_1\\.vmd'\\)"
t_expect "the model is untouched" 0 cmp "$E/model_1.vmd" "$E/model.orig"
t_expect "and nothing is written" 0 test ! -e "$E/scene.ini" -a ! -e "$E/camera.vmd"
printf 'song' > "$E/camera.vmd"
"$MKP" --one "$E/p2.pmm" "audio=camera.vmd"
t_expect "export: a song named camera.vmd in DIR is exit 1" 1 "$MMD" export "$E/p2.pmm" "$E"
t_expect "the song is untouched" 0 test "$(cat "$E/camera.vmd")" = song
"$MKP" --one "$E/scene.ini" "model=model_1.vmd"
cp "$E/scene.ini" "$E/scene.orig"
t_expect "export: the project itself as DIR/scene.ini is exit 1" 1 "$MMD" export "$E/scene.ini" "$E"
t_expect "the project is untouched" 0 cmp "$E/scene.ini" "$E/scene.orig"
echo precious > "$TMP/victim"
ln -s "$TMP/victim" "$E/d/scene.ini"
t_expect "export: DIR/scene.ini a symbolic link to a file outside is exit 5" 5 "$MMD" export "$E/p1.pmm" "$E/d"
t_grep "the link is named" "scene\\.ini \\(the name is a symbolic link \\(not replaced\\)\\)"
t_expect "its target is untouched, the link kept" 0 test "$(cat "$TMP/victim")" = precious -a -L "$E/d/scene.ini"
t_expect "and nothing is written" 0 test ! -e "$E/d/camera.vmd" -a ! -e "$E/d/model_1.vmd"

# info prints the scene the project becomes: the very value export writes, through the same writer (issue 26)
cp -r "$TMP/p" "$TMP/pi"
"$MMD" export "$TMP/pi/proj/song.pmm" "$TMP/pi/proj" --asset-root "$TMP/pi/assets" >/dev/null 2>&1
tail -n +3 "$TMP/pi/proj/scene.ini" > "$TMP/pi/export.ini"
if command -v python3 >/dev/null; then
    "$MMD" info "$TMP/pi/proj/song.pmm" --asset-root "$TMP/pi/assets" --json 2>/dev/null |
        python3 -c 'import json, sys; sys.stdout.write(json.load(sys.stdin)["scene"])' > "$TMP/pi/info.ini"
    t_expect "info --json's scene is export's scene.ini (after its comment)" 0 cmp "$TMP/pi/info.ini" "$TMP/pi/export.ini"
else
    t_skip "info --json's scene" "skipped: no python3"
fi
OUT=$("$MMD" info "$TMP/pi/proj/song.pmm" --asset-root "$TMP/pi/assets" 2>/dev/null)
t_grep "info prints it too, indented" "^    outside_parent = センター -> dancer:右手首 @0$"
t_done
