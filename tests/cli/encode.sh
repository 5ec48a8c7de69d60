#!/usr/bin/env bash
# tests/cli/encode.sh BUILD - `mmdrender encode FRAMES --scene SCENE|PROJECT -o VIDEO`: PNG frames
# into the video a render of the same frames writes, byte for byte (h264 on one thread and
# lossless x264rgb), at the scene's rate and step with its song cut to the range (60 fps, a
# step, a .pmm project's own song); missing or odd frames are exit 2 before anything is written.
. tests/util/cli_lib.sh
MKDEMO=$BUILD/tools/mkdemo
MKP=$BUILD/tools/mkproject
if [ ! -x "$MMD" ] || [ ! -x "$MKDEMO" ] || [ ! -x "$MKP" ]; then
    t_skip "encode cli" "skipped: $MMD, $MKDEMO or $MKP not built"; t_done; exit
fi
command -v ffprobe >/dev/null || { t_skip "encode cli" "no ffprobe"; t_done; exit; }
"$MKDEMO" "$TMP/demo" >/dev/null 2>&1 || { t_fail "mkdemo generates the demo assets"; t_done; exit; }
export TMPDIR=$TMP/tmpdir   # a project's export folder goes here: checked to be removed
mkdir -p "$TMPDIR"
S=$TMP/scene.ini
sed 's/^fps = 30$/fps = 60/' scenes/demo.ini >"$S"
grep -q '^fps = 60$' "$S" && t_pass "a 60 fps scene with a song" || t_fail "a 60 fps scene" "$(grep fps "$S")"
R=(--size 160x90 --aa 1 -q)
streams() { ffprobe -v error -count_packets -show_entries stream=codec_type,avg_frame_rate,nb_read_packets,duration -of compact=p=0 "$1" 2>&1; }

# --- encode = render's own video, byte for byte ---------------------------------------------
t_expect "render 0-23 to PNGs" 0 "$MMD" "$S" -o "$TMP/f/" "${R[@]}" --frames 0-23
t_expect "render 0-23 to mp4 (h264, song)" 0 "$MMD" "$S" -o "$TMP/r.mp4" "${R[@]}" --frames 0-23
t_expect "encode the PNGs (range found in the folder)" 0 "$MMD" encode "$TMP/f/" --scene "$S" -o "$TMP/e.mp4"
t_grep "says the range it found" 'frames 0-23:1 \(found in '
t_grep "summary: frames, rate, song" 'encode: 24 frame\(s\) of 0-23:1 at 60/1 fps with the song -> '
cmp -s "$TMP/r.mp4" "$TMP/e.mp4" && t_pass "encode = render's mp4, byte for byte" || t_fail "encode = render's mp4" "$(ls -l "$TMP"/*.mp4 | tr '\n' ' ')"
OUT=$(streams "$TMP/e.mp4")
t_grep "24 frames at 60 fps: 0.4 s" 'codec_type=video\|avg_frame_rate=60/1\|duration=0\.400000\|nb_read_packets=24'
t_grep "the song, cut to 0.4 s" 'codec_type=audio.*duration=0\.4'
t_expect "render 0-23 lossless (x264rgb, mkv)" 0 "$MMD" "$S" -o "$TMP/r.mkv" "${R[@]}" --frames 0-23 --codec x264rgb
t_expect "encode --codec x264rgb with --frames" 0 "$MMD" encode "$TMP/f/" --scene "$S" -o "$TMP/e.mkv" --codec x264rgb --frames 0-23 -q
cmp -s "$TMP/r.mkv" "$TMP/e.mkv" && t_pass "lossless: encode = render, byte for byte" || t_fail "lossless encode = render"
t_expect "encode takes the render's options (a farm's one line)" 0 "$MMD" encode "$TMP/f/" --scene "$S" -o "$TMP/e2.mp4" \
    --frames 0-23 --size 1920x1080 --aa 4 --glow --chunk 1/4 --skip-existing
t_grep "and says it ignores them" 'encode: 5 render option\(s\) ignored \(--size, \.\.\.\): the frames are rendered already'
cmp -s "$TMP/r.mp4" "$TMP/e2.mp4" && t_pass "ignored options change nothing" || t_fail "ignored options change nothing"
t_expect "an unknown option is still an error" 1 "$MMD" encode "$TMP/f/" --scene "$S" -o "$TMP/e3.mp4" --bogus

# --- a step: fps/STEP, the song in sync -------------------------------------------------------
t_expect "render 6-41:5 to PNGs" 0 "$MMD" "$S" -o "$TMP/s/" "${R[@]}" --frames 6-41:5
t_expect "render 6-41:5 to mp4" 0 "$MMD" "$S" -o "$TMP/rs.mp4" "${R[@]}" --frames 6-41:5
t_expect "encode --frames 6-41:5" 0 "$MMD" encode "$TMP/s/" --scene "$S" -o "$TMP/es.mp4" --frames 6-41:5 -q
cmp -s "$TMP/rs.mp4" "$TMP/es.mp4" && t_pass "step: encode = render, byte for byte" || t_fail "step: encode = render"
t_expect "encode with the step found in the folder" 0 "$MMD" encode "$TMP/s/" --scene "$S" -o "$TMP/es2.mp4"
t_grep "finds 6-41:5 in the folder" 'frames 6-41:5 \(found in '
cmp -s "$TMP/rs.mp4" "$TMP/es2.mp4" && t_pass "found step: the same bytes" || t_fail "found step: the same bytes"
OUT=$(streams "$TMP/es.mp4")
t_grep "8 frames at 60/5 = 12 fps, not a 1-frame video" 'codec_type=video\|avg_frame_rate=12/1\|duration=0\.666667\|nb_read_packets=8'
t_grep "song as long as the video" 'codec_type=audio.*duration=0\.66'

# --- missing and bad frames: exit 2, nothing written ------------------------------------------
cp -r "$TMP/f" "$TMP/g"
rm "$TMP/g/frame_000007.png" "$TMP/g/frame_000023.png"
t_expect "two frames missing of --frames 0-23: exit 2" 2 "$MMD" encode "$TMP/g/" --scene "$S" -o "$TMP/m.mp4" --frames 0-23
t_grep "names the missing frames" 'missing frame 7: .*frame_000007\.png'
t_grep "counts them" '2 of the 24 frames of 0-23:1 are missing: nothing written'
[ ! -e "$TMP/m.mp4" ] && [ -z "$(find "$TMP" -maxdepth 1 -name '*.part*')" ] && t_pass "no video and no .part left" || t_fail "nothing written"
t_expect "a gap in the frames found: exit 2" 2 "$MMD" encode "$TMP/g/" --scene "$S" -o "$TMP/m.mp4"
t_grep "the gap is named" 'missing frame 7: '
"$MMD" "$S" -o "$TMP/big/" --size 320x180 --aa 1 -q --frames 5
cp "$TMP/big/frame_000005.png" "$TMP/g/frame_000007.png"
cp "$TMP/f/frame_000023.png" "$TMP/g/"
t_expect "a frame of another size: exit 2" 2 "$MMD" encode "$TMP/g/" --scene "$S" -o "$TMP/m.mp4" -q
t_grep "names it and both sizes" 'frame_000007\.png is 320x180, the frames before it 160x90'
[ ! -e "$TMP/m.mp4" ] && t_pass "no video for the odd frame" || t_fail "no video for the odd frame"
printf 'not a png' >"$TMP/g/frame_000007.png"
t_expect "a corrupt frame: exit 2" 2 "$MMD" encode "$TMP/g/" --scene "$S" -o "$TMP/m.mp4" -q
t_expect "an empty folder: exit 2" 2 "$MMD" encode "$TMP/empty/" --scene "$S" -o "$TMP/m.mp4"
t_expect "PNG output is a usage error" 1 "$MMD" encode "$TMP/f/" --scene "$S" -o "$TMP/x/"
t_grep "encode writes a video" 'expected a video'
t_expect "no --scene: usage" 1 "$MMD" encode "$TMP/f/" -o "$TMP/m.mp4"
t_expect "encode --help" 0 "$MMD" encode --help
t_grep "encode --help lists --scene and --frames" '--scene SCENE'
grep -q -- '--ssaa' <<<"$OUT" && t_fail "encode --help lists only its options" "--ssaa listed" || t_pass "encode --help lists only its options"

# --- SIGINT: the video is finalised with the frames so far, exit 130 ---------------------------
"$MMD" "$S" -o "$TMP/one.png" --size 1280x720 --aa 1 -q --frames 0 || t_fail "a 720p frame"
mkdir -p "$TMP/many"
for i in $(seq 0 299); do cp "$TMP/one.png" "$TMP/many/$(printf 'frame_%06d.png' "$i")"; done
timeout --preserve-status -s INT 1.5 "$MMD" encode "$TMP/many/" --scene "$S" -o "$TMP/int.mp4" -q; rc=$?
if [ $rc = 130 ]; then
    t_pass "SIGINT: exit 130"
    n=$(ffprobe -v error -select_streams v -count_packets -show_entries stream=nb_read_packets -of csv=p=0 "$TMP/int.mp4" 2>/dev/null)
    [ -n "$n" ] && [ "$n" -gt 0 ] && [ "$n" -lt 300 ] && t_pass "the interrupted video plays ($n of 300 frames)" ||
        t_fail "the interrupted video plays" "packets '$n'"
    [ -z "$(find "$TMP" -maxdepth 1 -name '*.part*')" ] && t_pass "no .part left after SIGINT" || t_fail "no .part left after SIGINT"
elif [ $rc = 0 ]; then
    t_skip "SIGINT during encode" "the 300 frames were done before the signal"
else
    t_fail "SIGINT: exit 130" "exit $rc"
fi

# --- a .pmm project: its own song and range ---------------------------------------------------
"$MKP" "$TMP/p" >/dev/null 2>&1 || t_fail "mkproject"
mkdir -p "$TMP/p/assets/Wave"
ffmpeg -loglevel error -f lavfi -i "sine=frequency=440:duration=3" -ac 2 "$TMP/p/assets/Wave/song.wav"
P=$TMP/p/proj/music.pmm
t_expect "render the project to PNGs" 0 "$MMD" "$P" -o "$TMP/pf/" --asset-root "$TMP/p/assets" -q --frames 0-14
t_expect "render the project to mp4" 0 "$MMD" "$P" -o "$TMP/pr.mp4" --asset-root "$TMP/p/assets" -q --frames 0-14
t_expect "encode --scene PROJECT.pmm" 0 "$MMD" encode "$TMP/pf/" --scene "$P" --asset-root "$TMP/p/assets" -o "$TMP/pe.mp4" --frames 0-14
t_grep "the project's song is used" 'with the song'
cmp -s "$TMP/pr.mp4" "$TMP/pe.mp4" && t_pass "project: encode = render, byte for byte" || t_fail "project: encode = render"
OUT=$(streams "$TMP/pe.mp4")
t_grep "the project's song is in the video (not dropped)" 'codec_type=audio.*duration=0\.5'
[ -z "$(ls -A "$TMPDIR")" ] && t_pass "no export folder left behind" || t_fail "no export folder left" "$(ls "$TMPDIR")"

# --- --max-memory: encode's frame and video queue/encoder (no GL), before the video is created ---
t_expect "render one 1280x720 frame to PNG" 0 "$MMD" "$S" -o "$TMP/hd/" --size 1280x720 --aa 1 -q --frames 0
t_expect "encode 720p h264 under --max-memory 64: exit 1" 1 "$MMD" encode "$TMP/hd/" --scene "$S" -o "$TMP/hd.mp4" --frames 0 --max-memory 64
t_grep "names the estimate and the cap" 'encode would hold about [0-9]+ MiB \(the 1280x720 frame read in and the video output.*over --max-memory 64 MiB'
[ ! -e "$TMP/hd.mp4" ] && [ -z "$(find "$TMP" -maxdepth 1 -name '*hd.mp4*')" ] && t_pass "refused: no video, no .part" || t_fail "refused: no video, no .part" "$(ls "$TMP")"
t_expect "the same under the default --max-memory" 0 "$MMD" encode "$TMP/hd/" --scene "$S" -o "$TMP/hd.mp4" --frames 0 -q
t_expect "--max-memory below 64: usage error" 1 "$MMD" encode "$TMP/hd/" --scene "$S" -o "$TMP/hd2.mp4" --max-memory 63
t_grep "with the range" '--max-memory: expected 64\.\.1048576'
t_done
