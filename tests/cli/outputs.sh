#!/usr/bin/env bash
# tests/cli/outputs.sh BUILD - output conveniences (issue 28): `-o FILE.png` for a one-frame
# range, and a video of a --frames A-B:STEP range playing at fps/STEP in sync with its song.
. tests/util/cli_lib.sh
MKDEMO=$BUILD/tools/mkdemo
if [ ! -x "$MMD" ] || [ ! -x "$MKDEMO" ]; then
    t_skip "outputs cli" "skipped: $MMD or $MKDEMO not built"; t_done; exit
fi
"$MKDEMO" "$TMP/demo" >/dev/null 2>&1 || { t_fail "mkdemo generates the demo assets"; t_done; exit; }
cp scenes/demo.ini "$TMP/scene.ini"
S=$TMP/scene.ini
SMALL=(--size 160x90 --aa 1 --progress none)

# --- one frame to one PNG file ------------------------------------------------------------
t_expect "-o still.png with --frames 12" 0 "$MMD" "$S" -o "$TMP/still.png" "${SMALL[@]}" --frames 12
t_expect "the same frame into a folder" 0 "$MMD" "$S" -o "$TMP/seq/" "${SMALL[@]}" --frames 12
cmp -s "$TMP/still.png" "$TMP/seq/frame_000012.png" && t_pass "still.png = the folder's frame_000012.png, byte for byte" \
    || t_fail "still.png = frame_000012.png" "$(ls -l "$TMP/still.png" "$TMP/seq/" 2>&1 | tr '\n' ' ')"
t_expect "-o still.png with --frames 12-12 (a range of one)" 0 "$MMD" "$S" -o "$TMP/s2.png" "${SMALL[@]}" --frames 12-12
cmp -s "$TMP/still.png" "$TMP/s2.png" && t_pass "12-12 writes the same file" || t_fail "12-12 writes the same file"
t_expect "-o still.png with a range of 3 is a usage error" 1 "$MMD" "$S" -o "$TMP/many.png" "${SMALL[@]}" --frames 10-12
t_grep "and says what to give" 'one PNG file, for a one-frame range \(--frames N\); frames 10-12 need a folder/ or a pattern'
[ ! -e "$TMP/many.png" ] && t_pass "nothing written for the refused range" || t_fail "nothing written for the refused range"
touch -d '2000-01-01' "$TMP/still.png"
t_expect "--skip-existing keeps a complete still" 0 "$MMD" "$S" -o "$TMP/still.png" --size 160x90 --aa 1 --frames 12 --skip-existing
t_grep "nothing rendered" ' 0 frame\(s\)'
[ "$(stat -c %Y "$TMP/still.png")" -lt 1000000000 ] && t_pass "the still was not rewritten" || t_fail "the still was not rewritten"
t_expect "a still with a transparent background" 0 "$MMD" "$S" -o "$TMP/alpha.png" "${SMALL[@]}" --frames 3 --background transparent
if command -v file >/dev/null; then
    OUT=$(file "$TMP/alpha.png")
    t_grep "transparent still is RGBA" '160 x 90, 8-bit/color RGBA'
fi

# --- a STEP range to video: fps/STEP, song in sync ------------------------------------------
if command -v ffprobe >/dev/null; then
    t_expect "--frames 0-29:3 to mp4" 0 "$MMD" "$S" -o "$TMP/s3.mp4" --size 160x90 --aa 1 --frames 0-29:3
    t_grep "says the video plays at fps/step" 'step 3: the video plays at 10/1 fps \(fps / step\), in sync with the song'
    OUT=$(ffprobe -v error -count_packets -show_entries stream=codec_type,avg_frame_rate,nb_read_packets,duration -of compact=p=0 "$TMP/s3.mp4")
    t_grep "10 frames at 10 fps" 'codec_type=video\|avg_frame_rate=10/1\|duration=1\.000000\|nb_read_packets=10'
    t_grep "the song lasts as long as the motion (1 s), not 1/3 of it" 'codec_type=audio\|avg_frame_rate=0/0\|duration=1\.0'
    t_expect "--frames 0-11:4 at 30000/1001 to mkv" 0 "$MMD" "$S" -o "$TMP/s4.mkv" "${SMALL[@]}" --fps 30000/1001 --frames 0-11:4 --codec ffv1
    OUT=$(ffprobe -v error -show_entries stream=avg_frame_rate -select_streams v -of csv=p=0 "$TMP/s4.mkv")
    t_grep "30000/1001 / 4 = 7500/1001 exactly" '^7500/1001$'
    t_expect "-q: no step note" 0 "$MMD" "$S" -o "$TMP/s5.mp4" "${SMALL[@]}" --frames 0-5:2 -q
    [ -z "$OUT" ] && t_pass "-q prints nothing" || t_fail "-q prints nothing" "$OUT"
else
    t_skip "STEP video" "no ffprobe"
fi

# --- --print-plan: what a farm sizes its array and stitches with -----------------------------
sed 's/^fps = 30$/fps = 60/' "$S" >"$TMP/s60.ini"
t_expect "--print-plan (no -o, no GL)" 0 "$MMD" "$TMP/s60.ini" --print-plan --frames 0-23:2 --chunk 1/4 --codec x264rgb
t_grep "one JSON line: range, chunk, rates, start, song" '^\{"first":0,"last":23,"step":2,"frames":12,"chunk_first":6,"chunk_last":10,"chunk_frames":3,"fps_num":60,"fps_den":1,"video_fps_num":30,"video_fps_den":1,"start_time":0\.000000,"audio_file":"/.*/demo/beat\.wav","audio_offset":0\.000000\}$'
[ "$(wc -l <<<"$OUT")" = 1 ] && t_pass "--print-plan prints nothing else" || t_fail "--print-plan prints nothing else" "$OUT"
t_expect "--print-plan with --no-audio" 0 "$MMD" "$TMP/s60.ini" --print-plan --no-audio --frames 30-40
t_grep "start time of frame 30 at 60 fps, no song" '"first":30,.*"start_time":0\.500000,"audio_file":null,'
t_done
