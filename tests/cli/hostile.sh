#!/usr/bin/env bash
# tests/cli/hostile.sh BUILD - hostile inputs, round 2 (issue 14): small generated
# files that would hang a worker, grow memory or write where they must not.
# Every case asserts a cap (exit code, bytes, file untouched), not a timing; the
# `timeout` around each run only turns a regression into a failure instead of a
# hung suite. Assets are the fuzz seeds from our own writers (tests/fuzz/corpus/).
. tests/util/cli_lib.sh

model=tests/fuzz/corpus/pmx/v20_utf16.pmx motion=tests/fuzz/corpus/vmd/full.vmd
if [ ! -x "$MMD" ] || [ ! -f "$model" ] || [ ! -f "$motion" ]; then
    t_skip "hostile inputs" "skipped: no $MMD or fuzz seeds"; t_done; exit
fi
mkdir -p "$TMP/m"
cp "$model" "$TMP/m/fixture.pmx"
cp "$motion" "$TMP/full.vmd"
S=$TMP/scene.ini
scene() { # FILE MODEL MOTION [extra lines]
    printf '[output]\nwidth = 32\nheight = 24\nfps = 30\nantialias = 1\n[model]\nfile = %s\nmotion = %s\nphysics = off\n%s' \
        "$2" "$3" "${4:-}" >"$1"
}
scene "$S" m/fixture.pmx full.vmd
Q=(--progress none -q)
BOMB=$BUILD/tools/mkbomb
# t_within NAME RC SECONDS CMD... : t_expect under a watchdog (124 = it hung)
t_within() { local n=$1 rc=$2 s=$3; shift 3; t_expect "$n" "$rc" timeout -k 2 "$s" "$@"; }

# --- FIFOs and devices are refused before anything blocks --------------------
mkfifo "$TMP/fifo.pmx" "$TMP/fifo.vmd" "$TMP/fifo.ini" "$TMP/fifo.wav" "$TMP/fifo.png" "$TMP/fifo.mp4"
t_within "FIFO as scene: exit 2" 2 10 "$MMD" "$TMP/fifo.ini" -o "$TMP/o1/" "${Q[@]}"
t_grep "FIFO as scene: named as a FIFO" 'fifo\.ini.*FIFO'
scene "$TMP/s_model.ini" fifo.pmx full.vmd
t_within "FIFO as model: exit 2" 2 10 "$MMD" "$TMP/s_model.ini" -o "$TMP/o2/" "${Q[@]}"
t_grep "FIFO as model: line and reason" 's_model\.ini:[0-9]+.*FIFO'
scene "$TMP/s_motion.ini" m/fixture.pmx fifo.vmd
t_within "FIFO as motion: exit 2" 2 10 "$MMD" "$TMP/s_motion.ini" -o "$TMP/o3/" "${Q[@]}"
scene "$TMP/s_cam.ini" m/fixture.pmx full.vmd $'[camera]\nmotion = fifo.vmd\n'
t_within "FIFO as camera: exit 2" 2 10 "$MMD" "$TMP/s_cam.ini" -o "$TMP/o4/" "${Q[@]}"
scene "$TMP/s_audio.ini" m/fixture.pmx full.vmd $'[audio]\nfile = fifo.wav\n'
t_within "FIFO as audio: exit 2" 2 10 "$MMD" "$TMP/s_audio.ini" -o "$TMP/o5.mp4" "${Q[@]}" --frames 0-1
t_within "/dev/zero as model (info): exit 2" 2 10 "$MMD" info /dev/zero
t_grep "/dev/zero: a character device" 'character device'
t_within "FIFO as info input: exit 2" 2 10 "$MMD" info "$TMP/fifo.pmx"
t_within "FIFO as pose model: exit 2" 2 10 "$MMD" pose "$TMP/fifo.pmx" --motion "$TMP/full.vmd" --frames 0 --json
t_within "FIFO as pose motion: exit 2" 2 10 "$MMD" pose "$TMP/m/fixture.pmx" --motion "$TMP/fifo.vmd" --frames 0 --json
"$MMD" "$S" -o "$TMP/d/" "${Q[@]}" --frames 0 >/dev/null 2>&1
t_within "FIFO as diff input: exit 2" 2 10 "$MMD" diff "$TMP/fifo.png" "$TMP/d/frame_000000.png"
t_within "FIFO as concat chunk: exit 2" 2 10 "$MMD" concat "$TMP/fifo.mp4" -o "$TMP/cat.mp4"
mkdir -p "$TMP/skip"
"$MMD" "$S" -o "$TMP/skip/" "${Q[@]}" --frames 0 >/dev/null 2>&1
mkfifo "$TMP/skip/frame_000001.png"
t_within "FIFO where --skip-existing looks for a PNG: no hang" 0 20 "$MMD" "$S" -o "$TMP/skip/" "${Q[@]}" --frames 0-1 --skip-existing
[ -f "$TMP/skip/frame_000001.png" ] && [ ! -p "$TMP/skip/frame_000001.png" ] \
    && t_pass "the FIFO counted as not done: frame 1 rendered over it" || t_fail "frame 1 rendered over the FIFO"

# --- temporaries: exclusive, random names; symlinks never followed ----------
mkdir -p "$TMP/sl"
echo precious >"$TMP/victim"
# every name the old scheme could pick for this process and the next few
for p in $(seq $$ $(( $$ + 400 ))); do
    ln -sf "$TMP/victim" "$TMP/sl/.frame_000000.png.tmp-$p"; ln -sf "$TMP/victim" "$TMP/sl/.v.mp4.part-$p"
done
t_within "PNG next to planted temp-name symlinks: exit 0" 0 30 "$MMD" "$S" -o "$TMP/sl/" "${Q[@]}" --frames 0
t_within "video next to planted temp-name symlinks: exit 0" 0 30 "$MMD" "$S" -o "$TMP/sl/v.mp4" "${Q[@]}" --frames 0-1
[ "$(cat "$TMP/victim")" = precious ] && t_pass "the symlinks' target is untouched" || t_fail "symlink target untouched"
ln -s "$TMP/victim" "$TMP/sl/frame_000001.png"
ln -s "$TMP/victim" "$TMP/sl/w.mp4"
t_within "PNG output name is a symlink: exit 5, not replaced" 5 30 "$MMD" "$S" -o "$TMP/sl/" "${Q[@]}" --frames 1
t_grep "symlink named" 'symbolic link'
t_within "video output name is a symlink: exit 5" 5 30 "$MMD" "$S" -o "$TMP/sl/w.mp4" "${Q[@]}" --frames 0
[ "$(cat "$TMP/victim")" = precious ] && [ -L "$TMP/sl/w.mp4" ] && [ -L "$TMP/sl/frame_000001.png" ] \
    && t_pass "symlinked outputs left as they were" || t_fail "symlinked outputs left as they were"
[ -z "$(find "$TMP/sl" -name '.*' -type f ! -name .mmdrender.lock)" ] && t_pass "no temporary left" \
    || t_fail "no temporary left" "$(find "$TMP/sl" -name '.*' -type f)"

# --- a second signal while finalising still removes the .part ----------------
mkdir -p "$TMP/sig2"
"$MMD" "$S" -o "$TMP/sig2/v.mp4" --size 320x240 --frames 0-30000 --threads 1 --progress plain >"$TMP/sig2.log" 2>&1 &
pid=$!
for _ in $(seq 100); do grep -q '^frame [0-9]' "$TMP/sig2.log" 2>/dev/null && break; sleep 0.1; done
kill -INT $pid; kill -INT $pid; wait $pid; rc=$?
[ $rc -eq 130 ] && t_pass "two quick SIGINTs: exit 130" || t_fail "two quick SIGINTs: exit 130" "exit $rc"
[ -z "$(find "$TMP/sig2" -name '.*part*')" ] && t_pass "two quick SIGINTs: no .part left" \
    || t_fail "two quick SIGINTs: no .part left" "$(ls -A "$TMP/sig2")"

# --- one writer per PNG folder -------------------------------------------------
mkdir -p "$TMP/lk"
if command -v flock >/dev/null; then
    # a render holding frames 0-3000 (slow enough to still be running), then a second writer
    "$MMD" "$S" -o "$TMP/lk/" --size 320x240 --frames 0-300000 --threads 1 --progress plain >"$TMP/lk.log" 2>&1 & holder=$!
    for _ in $(seq 100); do grep -q '^frame [0-9]' "$TMP/lk.log" 2>/dev/null && break; sleep 0.1; done
    t_within "second writer of overlapping frames into a PNG folder: exit 5" 5 20 "$MMD" "$S" -o "$TMP/lk/" "${Q[@]}" --frames 299990-300005
    t_grep "the lock is named" 'being written by another mmdrender'
    [ ! -e "$TMP/lk/frame_300005.png" ] && t_pass "nothing written by the refused writer" || t_fail "nothing written by the refused writer"
    t_within "a disjoint range (a farm chunk) shares the folder: exit 0" 0 20 "$MMD" "$S" -o "$TMP/lk/" "${Q[@]}" --frames 300001-300002
    kill -TERM $holder; wait $holder 2>/dev/null
    t_within "the lock is released with its holder: exit 0" 0 20 "$MMD" "$S" -o "$TMP/lk/" "${Q[@]}" --frames 299999-300000
else
    t_skip "PNG folder lock" "skipped: no flock(1)"
fi

# --- --skip-existing trusts only PNGs that decode at the expected size ------
mkdir -p "$TMP/se"
"$MMD" "$S" -o "$TMP/se/" "${Q[@]}" --frames 0-2 >/dev/null 2>&1
python3 - "$TMP/se/frame_000001.png" <<'PY'
import sys
p = sys.argv[1]; d = bytearray(open(p, 'rb').read())
mid = len(d) // 2
for i in range(mid, mid + 16): d[i] ^= 0x5a          # damage the image data, keep signature + IEND
open(p, 'wb').write(d)
PY
"$MMD" "$S" -o "$TMP/se2/" "${Q[@]}" --frames 2 --size 16x16 >/dev/null 2>&1
cp "$TMP/se2/frame_000002.png" "$TMP/se/frame_000002.png"  # complete, but 16x16
before0=$(stat -c %Y.%i "$TMP/se/frame_000000.png")
t_within "--skip-existing over damaged and wrong-size frames: exit 0" 0 30 "$MMD" "$S" -o "$TMP/se/" --frames 0-2 --skip-existing --progress plain
t_grep "only the 2 bad frames are rendered" 'frame 2/2'
[ "$(stat -c %Y.%i "$TMP/se/frame_000000.png")" = "$before0" ] && t_pass "the good frame was kept" || t_fail "the good frame was kept"
"$MMD" diff "$TMP/se/frame_000001.png" "$TMP/d/frame_000000.png" >/dev/null 2>&1; rc=$?
python3 -c "import struct,sys; d=open(sys.argv[1],'rb').read(); sys.exit(0 if struct.unpack('>II', d[16:24]) == (32, 24) else 1)" "$TMP/se/frame_000002.png" \
    && t_pass "the wrong-size frame was re-rendered at 32x24" || t_fail "the wrong-size frame was re-rendered"

# --- exit codes ------------------------------------------------------------------
for pat in 'f_%n.png' 'f_%s.png' 'f_%d_%d.png'; do
    t_within "PNG pattern '$pat': exit 1" 1 20 "$MMD" "$S" -o "$TMP/pat/$pat" "${Q[@]}" --frames 0
done
# a name ending in .png without a pattern is one file: one frame (issue 28), not a range
t_within "-o x.png for frames 0-1: exit 1" 1 20 "$MMD" "$S" -o "$TMP/x.png" "${Q[@]}" --frames 0-1
[ ! -e "$TMP/x.png" ] && t_pass "no x.png for a range" || t_fail "no x.png for a range"
"$MMD" "$S" -o "$TMP/c0.mp4" "${Q[@]}" --frames 0-1 >/dev/null 2>&1
t_within "concat -o out.avi: exit 1" 1 20 "$MMD" concat "$TMP/c0.mp4" -o "$TMP/out.avi"
[ ! -e "$TMP/out.avi" ] && t_pass "no out.avi written" || t_fail "no out.avi written"

# --- pose --json stays JSON with a 3e38 camera key --------------------------------
if [ -x "$BOMB" ]; then
    "$BOMB" far-camera 0 "$TMP/cam.vmd"
    python3 - "$TMP/cam.vmd" <<'PY'
import struct, sys
p = sys.argv[1]; d = bytearray(open(p, 'rb').read())
off = 30 + 20 + 4 + 4 + 4                        # header, name, empty bone and morph sections, camera count
struct.pack_into('<f', d, off + 4, 3e38)          # distance
struct.pack_into('<3f', d, off + 8, 3e38, -3e38, 3e38)   # target
open(p, 'wb').write(d)
PY
    t_within "pose with a 3e38 camera key: exit 0" 0 20 "$MMD" pose "$TMP/m/fixture.pmx" --camera "$TMP/cam.vmd" --frames 0 --json
    python3 -c "import json,sys; json.loads(sys.stdin.read(), parse_constant=lambda c: (_ for _ in ()).throw(ValueError(c)))" <<<"$OUT" 2>/dev/null \
        && t_pass "pose --json output is strict JSON (no inf/nan)" || t_fail "pose --json is strict JSON" "$(grep -o '.\{20\}inf.\{10\}' <<<"$OUT" | head -n 2)"
fi

# --- a scene with a UTF-8 BOM -----------------------------------------------------
{ printf '\xef\xbb\xbf'; cat "$S"; } >"$TMP/bom.ini"
t_within "scene starting with a UTF-8 BOM: exit 0" 0 20 "$MMD" "$TMP/bom.ini" -o "$TMP/bom/" "${Q[@]}" --frames 0

# --- an output never replaces an input (by inode, every command) ---------------
mkdir -p "$TMP/oi"
cp "$TMP/m/fixture.pmx" "$TMP/oi/tri0.pmx"
printf '[output]\nwidth = 32\nheight = 24\nantialias = 1\n[model]\nfile = tri0.pmx\nphysics = off\n' >"$TMP/oi/scene0.ini"
sum0=$(md5sum "$TMP/oi/tri0.pmx" "$TMP/oi/scene0.ini")
t_within "-o 'tri%d.pmx' over the model: exit 1" 1 20 "$MMD" "$TMP/oi/scene0.ini" -o "$TMP/oi/tri%d.pmx" "${Q[@]}" --frames 0
t_grep "the clash is named" "would overwrite the input .*tri0\.pmx"
t_within "-o 'scene%d.ini' over the scene: exit 1" 1 20 "$MMD" "$TMP/oi/scene0.ini" -o "$TMP/oi/scene%d.ini" "${Q[@]}" --frames 0
t_within "a frame outside the range may share a name: exit 0" 0 20 "$MMD" "$TMP/oi/scene0.ini" -o "$TMP/oi/o/tri%d.pmx" "${Q[@]}" --frames 1
[ "$(md5sum "$TMP/oi/tri0.pmx" "$TMP/oi/scene0.ini")" = "$sum0" ] && t_pass "model and scene untouched" || t_fail "model and scene untouched"
mkdir -p "$TMP/oi/t/tex"
# the fixture's texture 'tex\body.png' renamed to 'frame_000000.png' (same length, UTF-16LE)
python3 - "$TMP/m/fixture.pmx" "$TMP/oi/t/fixture.pmx" <<'PY'
import sys
d = open(sys.argv[1], 'rb').read()
a, b = 'tex\\body.png'.encode('utf-16-le'), 'f_000000.png'.encode('utf-16-le')
assert a in d and len(a) == len(b)
open(sys.argv[2], 'wb').write(d.replace(a, b, 1))
PY
"$MMD" "$S" -o "$TMP/oi/png/" "${Q[@]}" --frames 0 >/dev/null 2>&1
cp "$TMP/oi/png/frame_000000.png" "$TMP/oi/t/f_000000.png"
printf '[output]\nwidth = 32\nheight = 24\nantialias = 1\n[model]\nfile = t/fixture.pmx\nphysics = off\n' >"$TMP/oi/t.ini"
t_within "-o writing a texture's name (f_%06d.png in the model folder): exit 1" 1 20 "$MMD" "$TMP/oi/t.ini" -o "$TMP/oi/t/f_%06d.png" "${Q[@]}" --frames 0
t_grep "texture clash named" 'f_000000\.png'
python3 - "$TMP/oi/t/fixture.pmx" <<'PY'
import sys
p = sys.argv[1]; d = open(p, 'rb').read()
a, b = 'f_000000.png'.encode('utf-16-le'), 'f_000000.PNG'.encode('utf-16-le')
open(p, 'wb').write(d.replace(a, b, 1))
PY
t_within "-o the model folder/ holding a texture found by case (F_000000.PNG): still refused" 1 20 "$MMD" "$TMP/oi/t.ini" -o "$TMP/oi/t/f_%06d.png" "${Q[@]}" --frames 0
"$MMD" "$S" -o "$TMP/oi/c1.mp4" "${Q[@]}" --frames 0-1 --chunk 0/2 >/dev/null 2>&1
"$MMD" "$S" -o "$TMP/oi/c2.mp4" "${Q[@]}" --frames 0-1 --chunk 1/2 >/dev/null 2>&1
c1=$(md5sum <"$TMP/oi/c1.mp4")
t_within "concat -o a chunk: exit 1" 1 20 "$MMD" concat "$TMP/oi/c1.mp4" "$TMP/oi/c2.mp4" -o "$TMP/oi/c1.mp4"
[ "$(md5sum <"$TMP/oi/c1.mp4")" = "$c1" ] && t_pass "the chunk is untouched" || t_fail "the chunk is untouched"
p0=$(md5sum <"$TMP/oi/png/frame_000000.png")
t_within "diff A B --heatmap A: refused (2)" 2 20 "$MMD" diff "$TMP/oi/png/frame_000000.png" "$TMP/oi/t/tex/body.png" --heatmap "$TMP/oi/png/frame_000000.png"
[ "$(md5sum <"$TMP/oi/png/frame_000000.png")" = "$p0" ] && t_pass "diff's input is untouched" || t_fail "diff's input is untouched"

# --- the default range obeys the --frames cap ---------------------------------------
if [ -x "$BOMB" ]; then
    "$BOMB" far-vmd 0xFFFFFFFF "$TMP/far.vmd"
    scene "$TMP/far.ini" m/fixture.pmx far.vmd
    t_within "a key at frame 0xFFFFFFFF without --frames: exit 2" 2 20 "$MMD" "$TMP/far.ini" -o "$TMP/far/" "${Q[@]}"
    t_grep "the cap is named" 'past the frame cap 100000000'
    [ ! -e "$TMP/far" ] && t_pass "no frame written" || t_fail "no frame written" "$(ls "$TMP/far" | head -n 3)"
    t_within "the same with --frames: exit 0" 0 20 "$MMD" "$TMP/far.ini" -o "$TMP/far/" "${Q[@]}" --frames 0
fi

# --- concat: chunks must be one contiguous render; signals clean up ---------------
mkdir -p "$TMP/cc"
for i in 0 1 2; do "$MMD" "$S" -o "$TMP/cc/c$i.mp4" "${Q[@]}" --frames 0-8 --chunk $i/3 >/dev/null 2>&1; done
t_within "concat of the 3 chunks in order: exit 0" 0 30 "$MMD" concat "$TMP/cc/c0.mp4" "$TMP/cc/c1.mp4" "$TMP/cc/c2.mp4" -o "$TMP/cc/all.mp4"
t_within "a chunk missing in the middle: exit 2" 2 30 "$MMD" concat "$TMP/cc/c0.mp4" "$TMP/cc/c2.mp4" -o "$TMP/cc/x.mp4"
t_grep "gap named" 'a chunk is missing before it'
t_within "a chunk twice: exit 2" 2 30 "$MMD" concat "$TMP/cc/c0.mp4" "$TMP/cc/c1.mp4" "$TMP/cc/c1.mp4" "$TMP/cc/c2.mp4" -o "$TMP/cc/x.mp4"
t_grep "overlap named" 'overlaps the previous chunk'
t_within "chunks reordered: exit 2" 2 30 "$MMD" concat "$TMP/cc/c1.mp4" "$TMP/cc/c0.mp4" "$TMP/cc/c2.mp4" -o "$TMP/cc/x.mp4"
t_within "the last chunk missing: exit 2" 2 30 "$MMD" concat "$TMP/cc/c0.mp4" "$TMP/cc/c1.mp4" -o "$TMP/cc/x.mp4"
"$MMD" "$S" -o "$TMP/cc/other.mp4" "${Q[@]}" --frames 0-9 --chunk 1/3 >/dev/null 2>&1
t_within "a chunk of another render: exit 2" 2 30 "$MMD" concat "$TMP/cc/c0.mp4" "$TMP/cc/other.mp4" "$TMP/cc/c2.mp4" -o "$TMP/cc/x.mp4"
"$MMD" "$S" -o "$TMP/cc/k1.mkv" "${Q[@]}" --frames 0-8 --chunk 1/3 >/dev/null 2>&1
t_within "an MKV chunk among MP4 chunks: exit 2" 2 30 "$MMD" concat "$TMP/cc/c0.mp4" "$TMP/cc/k1.mkv" "$TMP/cc/c2.mp4" -o "$TMP/cc/x.mp4"
t_within "MP4 chunks into an MKV: exit 1" 1 30 "$MMD" concat "$TMP/cc/c0.mp4" "$TMP/cc/c1.mp4" "$TMP/cc/c2.mp4" -o "$TMP/cc/x.mkv"
# an interrupted chunk: its video has fewer frames than its metadata says
# (each is signalled once it reports a frame: its handlers are in, and a SIGTERM before them, as a
# fixed 1 s wait gave under ASan on a loaded machine, ends it with no video at all)
for c in 1 0; do
    "$MMD" "$S" -o "$TMP/cc/long$c.mp4" --size 320x240 --frames 0-30000 --chunk $c/2 --threads 1 --progress plain \
        >"$TMP/cc/long$c.log" 2>&1 &
    pid=$!
    for _ in $(seq 600); do grep -q '^frame [0-9]' "$TMP/cc/long$c.log" 2>/dev/null && break; sleep 0.1; done
    kill -TERM $pid; wait $pid
done
t_within "an interrupted chunk: exit 2" 2 30 "$MMD" concat "$TMP/cc/long0.mp4" "$TMP/cc/long1.mp4" -o "$TMP/cc/x.mp4"
t_grep "interrupted named" 'interrupted'
[ -z "$(ls -A "$TMP/cc" | grep -e '^\.' -e '^x\.')" ] && t_pass "refused joins leave nothing" || t_fail "refused joins leave nothing" "$(ls -A "$TMP/cc")"

# --- sizes the encoder or GL cannot take: exit 1 before loading anything ------------
cp "$TMP/m/fixture.pmx" "$TMP/broken.pmx"; printf 'PMX junk' | dd of="$TMP/broken.pmx" conv=notrunc 2>/dev/null
scene "$TMP/broken.ini" broken.pmx full.vmd
t_within "odd size for h264 (yuv420p): exit 1 before the (broken) model is read" 1 20 "$MMD" "$TMP/broken.ini" -o "$TMP/odd.mp4" "${Q[@]}" --size 33x24 --frames 0
t_grep "the reason" 'even width and height'
t_within "16384x16384 video: exit 1 before loading" 1 20 "$MMD" "$TMP/broken.ini" -o "$TMP/big.mp4" "${Q[@]}" --size 16384x16384 --aa 1 --frames 0
t_grep "libavcodec's frame size named" 'larger than libavcodec takes'
t_within "a size GL cannot hold with MSAA: exit 1 before loading" 1 60 "$MMD" "$TMP/broken.ini" -o "$TMP/big/" "${Q[@]}" --size 16384x16384 --aa 4 --frames 0 --max-memory 1048576
t_grep "GL's reason" 'render target|MSAA'

# --- memory from a few bytes (issue 24): the estimate against --max-memory, before the GL context ---
t_within "16384x16384 MSAA 4 from a small scene: exit 1 before loading" 1 10 "$MMD" "$TMP/broken.ini" -o null "${Q[@]}" --size 16384x16384 --aa 4 --frames 0
t_grep "the estimate and the cap named" 'would hold about 10256 MiB .*over --max-memory 1024 MiB'
t_within "16384x8192 PNGs: exit 1 before loading" 1 10 "$MMD" "$TMP/broken.ini" -o "$TMP/bigp/" "${Q[@]}" --size 16384x8192 --aa 1 --frames 0
t_grep "PNG queue counted" 'the png output\), over --max-memory'
[ ! -e "$TMP/bigp" ] && t_pass "refused before the output was opened" || t_fail "refused before the output was opened"
t_within "the same under --max-memory 8192: the broken model is reached (exit 2)" 2 30 "$MMD" "$TMP/broken.ini" -o null "${Q[@]}" --size 16384x8192 --aa 1 --frames 0 --max-memory 8192
t_within "--max-memory below 64: usage error" 1 10 "$MMD" "$S" -o null "${Q[@]}" --frames 0 --max-memory 63
t_within "--texture-memory 2048 beside the default cap: exit 1" 1 10 "$MMD" "$S" -o null "${Q[@]}" --frames 0 --texture-memory 2048
t_grep "what is left named" 'texture-memory 2048 MiB does not fit .*at most [0-9]+ MiB left'
t_within "--texture-memory 2048 --max-memory 4096: renders" 0 30 "$MMD" "$S" -o null "${Q[@]}" --frames 0 --texture-memory 2048 --max-memory 4096

if [ -x "$BUILD/tools/mkproject" ] && "$BUILD/tools/mkproject" "$TMP/proj" >/dev/null 2>&1; then
    t_within "a project rendered at 16384x8192 to PNGs: exit 1 before loading" 1 20 "$MMD" "$TMP/proj/proj/song.pmm" \
        --asset-root "$TMP/proj/assets" -o "$TMP/projbig/" --size 16384x8192 --aa 1 -q
    t_grep "the project's render names the cap" 'about 3600 MiB .*over --max-memory 1024 MiB'
else
    t_skip "project over --max-memory" "skipped: no mkproject"
fi

# --- a compressed .x that inflates ~1000:1 (issue 24): refused before inflating --------
if [ -x "$BOMB" ] && "$BOMB" xzip 1000000 text "$TMP/xbomb.x" 2>/dev/null; then
    t_within "tzip .x bomb ($(stat -c %s "$TMP/xbomb.x") bytes): info exits 2" 2 10 "$MMD" info "$TMP/xbomb.x"
    t_grep "the ratio cap named" 'more than 32 times .*compression-ratio limit'
else
    t_skip ".x bomb" "skipped: no $BOMB"
fi

# --- the same file named several times is loaded once -------------------------------
printf '[output]\nwidth = 32\nheight = 24\nantialias = 1\n[camera]\nmotion = full.vmd\n' >"$TMP/dup.ini"
for n in a b c; do printf '[model:%s]\nfile = m/fixture.pmx\nmotion = full.vmd\nmotion = full.vmd\nphysics = off\n' $n >>"$TMP/dup.ini"; done
t_within "3 models x (1 model + 2 motions) of the same 2 files: exit 0" 0 30 "$MMD" "$TMP/dup.ini" -o null --progress none -q --stats --frames 0
t_grep "each file read once" '"files_loaded":2[,}]'

# --- names from files are printed with control characters escaped -----------------
python3 - "$TMP/m/fixture.pmx" "$TMP/esc.pmx" <<'PY'
import sys
d = open(sys.argv[1], 'rb').read()
a, b = 'fixture'.encode('utf-16-le'), '\x1b[31mX\x07'.encode('utf-16-le')
assert a in d and len(a) == len(b)
open(sys.argv[2], 'wb').write(d.replace(a, b, 1))
PY
t_within "info on a model named with escape sequences: exit 0" 0 20 "$MMD" info "$TMP/esc.pmx"
if grep -q $'\x1b' <<<"$OUT"; then t_fail "no raw ESC in info's output"; else t_pass "no raw ESC in info's output"; fi
t_grep "escaped as \\xNN" '\\x1b\[31mX\\x07'
scene "$TMP/esc.ini" esc.pmx full.vmd
OUT=$("$MMD" "$TMP/esc.ini" -o null --progress none --frames 0 2>&1)
if grep -q $'\x1b' <<<"$OUT"; then t_fail "no raw ESC in render's warnings"; else t_pass "no raw ESC in render's warnings"; fi

# --- every name from a file reaches the terminal escaped (issue 24): .x, .vac, scene, .pmm, diff ---
mkdir -p "$TMP/esc/A" "$TMP/esc/B"
no_esc() { # NAME: $OUT holds no raw ESC and shows it as \x1b (JSON: \u001b)
    if grep -q $'\x1b' <<<"$OUT"; then t_fail "$1: no raw ESC" "$(od -c <<<"$OUT" | head -5)"; else t_pass "$1: no raw ESC"; fi
    t_grep "$1: ESC shown escaped" '\\(x1b|u001b)\[31m'
}
python3 - tests/fuzz/corpus/x/sample_txt.x "$TMP/esc/esc.x" tests/fuzz/corpus/pmm/full_v2.pmm "$TMP/esc/esc.pmm" <<'PY'
import sys
d = open(sys.argv[1], 'rb').read()
j = d.index(b'"', d.index(b'TextureFilename {')) + 1
open(sys.argv[2], 'wb').write(d[:j] + b'\x1b[31mred.png*\x1b[31menv.spa' + d[d.index(b'"', j):])
d = open(sys.argv[3], 'rb').read()
a, b = b'dancer.pmx', b'\x1b[31mx.pmx'
assert a in d and len(a) == len(b)
open(sys.argv[4], 'wb').write(d.replace(a, b, 1))
PY
python3 - "$TMP/m/fixture.pmx" "$TMP/esc/tex.pmx" <<'PY'
import sys
d = open(sys.argv[1], 'rb').read()
a, b = 'tex\\body.png'.encode('utf-16-le'), '\x1b[31mbod.png'.encode('utf-16-le')
assert a in d and len(a) == len(b)
open(sys.argv[2], 'wb').write(d.replace(a, b, 1))
PY
t_within "info on a model naming a texture with escapes: exit 0" 0 20 "$MMD" info "$TMP/esc/tex.pmx"; no_esc "info texture name"
t_grep "its own backslash kept (not turned into a /)" '^  \\x1b\[31mbod\.png'
t_within "info on a .x naming textures with escapes: exit 0" 0 20 "$MMD" info "$TMP/esc/esc.x"; no_esc "info .x"
t_within "info --json on that .x: exit 0" 0 20 "$MMD" info "$TMP/esc/esc.x" --json; no_esc "info .x --json"
printf 'stage\r\n\x1b[31mnone.x\r\n1\r\n0,0,0\r\n0,0,0\r\n' >"$TMP/esc/esc.vac"
printf '[output]\nwidth = 32\nheight = 24\nantialias = 1\n[model]\nfile = ../m/fixture.pmx\nphysics = off\n[accessory]\nfile = esc.vac\n' >"$TMP/esc/vac.ini"
t_within "a .vac naming a .x with escapes: exit 2" 2 20 "$MMD" "$TMP/esc/vac.ini" -o null "${Q[@]}" --frames 0; no_esc ".vac error"
printf '[output]\nwidth = 32\nheight = 24\n[model]\nfile = \x1b[31mnone.pmx\n' >"$TMP/esc/path.ini"
t_within "a scene naming a model path with escapes: exit 2" 2 20 "$MMD" "$TMP/esc/path.ini" -o null "${Q[@]}"; no_esc "scene path error"
t_within "info on a project whose model path has escapes: exit 0" 0 20 "$MMD" info "$TMP/esc/esc.pmm"; no_esc "info .pmm"
t_within "render of that project (path warnings; no model found): exit 2" 2 60 "$MMD" "$TMP/esc/esc.pmm" -o null --progress none --frames 0 --size 32x24; no_esc ".pmm warnings"
cp "$TMP/d/frame_000000.png" "$TMP/esc/A/"$'\x1b[31ma.png'
cp "$TMP/d/frame_000000.png" "$TMP/esc/B/"$'\x1b[31ma.png'
cp "$TMP/d/frame_000000.png" "$TMP/esc/A/"$'\x1b[31monly.png'
t_within "diff of folders with escaped names: exit 6 (one only in A: missing)" 6 20 "$MMD" diff "$TMP/esc/A" "$TMP/esc/B"; no_esc "diff names"
t_within "diff --json of them: exit 6" 6 20 "$MMD" diff "$TMP/esc/A" "$TMP/esc/B" --json; no_esc "diff --json names"
mkdir -p "$TMP/c1/A" "$TMP/c1/B" # a C1 control (U+009B, CSI) in a name: \x9b in text, \u009b in diff's JSON
cp "$TMP/d/frame_000000.png" "$TMP/c1/A/"$'\xc2\x9b31mc.png'
cp "$TMP/d/frame_000000.png" "$TMP/c1/B/"$'\xc2\x9b31mc.png'
t_within "diff --json of a C1 name: exit 0" 0 20 "$MMD" diff "$TMP/c1/A" "$TMP/c1/B" --json
t_grep "diff --json escapes C1 as \\u009b (shared mmd_json_str), main's keys kept" '"name": "\\u009b31mc\.png", "status": "pass", "pixels_masked"'
t_within "diff of it as text: exit 0" 0 20 "$MMD" diff "$TMP/c1/A" "$TMP/c1/B"
t_grep "text shows it as \\x9b" '^\\x9b31mc\.png: 32x24'

# --- -q silences the renderer's warnings too (textures drawn white) ---------
t_within "fixture with missing textures: warns" 0 20 "$MMD" "$S" -o null --progress none --frames 0
t_grep "texture drawn white is a warning" 'tex\\body\.png.*drawn white'
t_within "the same with -q: exit 0" 0 20 "$MMD" "$S" -o null -q --frames 0
[ -z "$OUT" ] && t_pass "-q: no texture warning" || t_fail "-q: no texture warning" "$OUT"

# --- IK and physics bombs: bounded work, a warning, the frame is drawn -------
if [ -x "$BOMB" ]; then
    "$BOMB" ik 16 1024 65536 "$TMP/ik.pmx" && "$BOMB" physics 4096 "$TMP/ph.pmx"
    printf '[output]\nsize = 64x64\nantialias = 1\nframes = 0-1\n[model]\nfile = ik.pmx\n' >"$TMP/ik.ini"
    printf '[output]\nsize = 64x64\nantialias = 1\nframes = 0-1\n[model]\nfile = ph.pmx\n' >"$TMP/ph.ini"
    t_within "IK bomb (16 chains x 1024 links x 65536 loops): 2 frames" 0 60 "$MMD" "$TMP/ik.ini" -o "$TMP/ik/" --progress none
    t_grep "IK bomb: warned with the cap" 'IK would cost 4299161600 bone updates a frame \(cap 2097152\)'
    t_within "physics bomb (4096 overlapping bodies): 2 frames" 0 60 "$MMD" "$TMP/ph.ini" -o "$TMP/ph/" --progress none
    t_grep "physics bomb: drawn without physics, warned" 'more than 4096 colliding pairs.*without physics'
    # later pile-ups: 4,096 balls apart at rest, pulled into one place by their joints (colliding, or
    # masked out and passing through each other); minutes and 6 GB a frame before the budget
    "$BOMB" converge 4096 collide "$TMP/pile.pmx" && "$BOMB" converge 4096 through "$TMP/pass.pmx"
    for k in pile pass; do
        printf '[output]\nsize = 64x64\nantialias = 1\nframes = 0-2\n[model]\nfile = %s.pmx\nphysics = on\n' $k >"$TMP/$k.ini"
        t_within "physics pile-up ($k, 4096 balls pulled together): 3 frames" 0 60 "$MMD" "$TMP/$k.ini" -o "$TMP/$k/" --progress none
        t_grep "pile-up ($k): physics stopped at the budget, model named" 'pass\.pmx|pile\.pmx: 4097 rigid bodies piled up past the physics budget \(69648 colliding pairs, 557184 box tests a step\) while settling'
    done
    t_within "-q: the pile-up warning obeys it" 0 60 "$MMD" "$TMP/pile.ini" -o "$TMP/pileq/" --progress none -q
    [ -z "$OUT" ] && t_pass "-q: nothing printed" || t_fail "-q: nothing printed" "$OUT"
    # SIGTERM inside a long frame: IK at its cap into a video, 4,096 jointed balls at fps 1/10
    # (1,200 substeps a frame); the process ends within 3 s (a cap) with 130 and no temporaries
    "$BOMB" converge 4096 hold "$TMP/hold.pmx"
    printf '[output]\nsize = 64x64\nantialias = 1\nfps = 1/10\n[model]\nfile = hold.pmx\nphysics = on\n' >"$TMP/hold.ini"
    t_stops() { # NAME DIR CMD... : SIGTERM 0.5 s after the output was opened (signals handled from there)
        local name=$1 dir=$2 pid i rc; shift 2
        "$@" --progress plain >"$TMP/stop.log" 2>&1 &
        pid=$!
        for i in $(seq 600); do [ -n "$(ls -A "$dir")" ] && break; sleep 0.1; done
        sleep 0.5
        kill -TERM $pid
        for i in $(seq 30); do kill -0 $pid 2>/dev/null || break; sleep 0.1; done
        if kill -0 $pid 2>/dev/null; then
            kill -KILL $pid; wait $pid; t_fail "$name: ends within 3 s of SIGTERM" "still running"; return
        fi
        wait $pid; rc=$?
        [ $rc -eq 130 ] && t_pass "$name: ends within 3 s of SIGTERM, exit 130" \
            || t_fail "$name: ends within 3 s of SIGTERM, exit 130" "exit $rc: $(tail -n 2 "$TMP/stop.log")"
        [ -z "$(find "$dir" -name '.*' -type f ! -name .mmdrender.lock)" ] && t_pass "$name: no temporary left" \
            || t_fail "$name: no temporary left" "$(ls -A "$dir")"
    }
    mkdir -p "$TMP/sik" "$TMP/sph"
    t_stops "IK bomb, video" "$TMP/sik" "$MMD" "$TMP/ik.ini" -o "$TMP/sik/ik.mp4" --frames 0-100000 --threads 1
    [ ! -e "$TMP/sik/ik.mp4" ] || ffprobe -v error "$TMP/sik/ik.mp4" >/dev/null 2>&1 \
        && t_pass "IK bomb, video: finalised (plays)" || t_fail "IK bomb, video: finalised (plays)"
    t_stops "physics frame of 1200 substeps, PNGs" "$TMP/sph" "$MMD" "$TMP/hold.ini" -o "$TMP/sph/" --frames 1-1 --threads 1
    [ -z "$(ls "$TMP/sph" | grep -v '^\.')" ] && t_pass "physics frame: interrupted before its frame was done, nothing written" \
        || t_fail "physics frame: nothing written" "$(ls "$TMP/sph")"
else
    t_skip "IK and physics bombs" "skipped: no $BOMB"
fi

t_done
