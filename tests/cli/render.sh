#!/usr/bin/env bash
# tests/cli/render.sh BUILD - end to end: `mmdrender SCENE -o OUT` on the generated demo.
. tests/util/cli_lib.sh
MKDEMO=$BUILD/tools/mkdemo

if [ ! -x "$MMD" ] || [ ! -x "$MKDEMO" ]; then
    t_skip "render cli" "skipped: $MMD or $MKDEMO not built"; t_done; exit
fi
if ! "$MKDEMO" "$TMP/demo" >/dev/null 2>&1; then
    t_fail "mkdemo generates the demo assets"; t_done; exit
fi
t_pass "mkdemo generates the demo assets"
cp scenes/demo.ini "$TMP/scene.ini"
S=$TMP/scene.ini
SMALL=(--size 160x90 --aa 1 --progress none)
probe() { ffprobe -v error -count_packets -show_entries stream=codec_type,codec_name,width,height,nb_read_packets,avg_frame_rate,pix_fmt -of compact=p=0:nk=0 "$@" 2>&1; }

# --- usage and help ---------------------------------------------------------
t_expect "--version" 0 "$MMD" --version
t_grep "--version prints the version" '^mmdrender [0-9]+\.[0-9]+'
t_expect "--help" 0 "$MMD" --help
t_grep "--help documents exit codes" '130 interrupted'
t_expect "no arguments is a usage error" 1 "$MMD"
t_expect "missing -o is a usage error" 1 "$MMD" "$S"
t_expect "unknown option" 1 "$MMD" "$S" -o "$TMP/x.mp4" --bogus
t_grep "unknown option is named" "unknown option '--bogus'"
t_expect "bad --frames" 1 "$MMD" "$S" -o "$TMP/x.mp4" --frames 9-3
t_expect "bad --size" 1 "$MMD" "$S" -o "$TMP/x.mp4" --size 12
t_expect "bad --chunk" 1 "$MMD" "$S" -o "$TMP/f/" --chunk 3/2
t_expect "--chunk auto without an index variable" 1 env -u SLURM_ARRAY_TASK_ID -u JOB_COMPLETION_INDEX -u AWS_BATCH_JOB_ARRAY_INDEX "$MMD" "$S" -o "$TMP/f/" --chunk auto/4
t_expect "unknown output kind" 1 "$MMD" "$S" -o "$TMP/out.xyz"
t_expect "h264 cannot go in webm" 1 "$MMD" "$S" -o "$TMP/x.webm" --codec h264 "${SMALL[@]}" --frames 0
sed 's#^file = demo/beat.wav#file = out.mp4#' "$S" >"$TMP/clash.ini"; : >"$TMP/out.mp4"
t_expect "same path as audio and output" 1 "$MMD" "$TMP/clash.ini" -o "$TMP/out.mp4" "${SMALL[@]}" --frames 0
t_grep "clash is explained" 'also an input'

# --- bad input ---------------------------------------------------------------
t_expect "missing scene" 2 "$MMD" "$TMP/none.ini" -o "$TMP/x.mp4"
printf '[output]\nwidth = 64\ncolour = red\n[model]\nfile = demo/character.pmx\n' >"$TMP/bad.ini"
t_expect "unknown scene key" 2 "$MMD" "$TMP/bad.ini" -o "$TMP/x.mp4"
t_grep "error names file:line" 'bad\.ini:3: unknown key .colour.'
head -c 300 /dev/urandom >"$TMP/junk.pmx"
printf '[model]\nfile = junk.pmx\n' >"$TMP/junk.ini"
t_expect "corrupt model" 2 "$MMD" "$TMP/junk.ini" -o "$TMP/x.mp4"
t_grep "corrupt model is named" 'junk\.pmx'

# --- unwritable output -------------------------------------------------------
t_expect "video in a missing folder" 5 "$MMD" "$S" -o /nonexistent-dir/x.mp4 "${SMALL[@]}" --frames 0
t_expect "PNGs under /proc" 5 "$MMD" "$S" -o /proc/mmd-no/ "${SMALL[@]}" --frames 0

# --- PNG output --------------------------------------------------------------
t_expect "render 3 frames to PNG" 0 "$MMD" "$S" -o "$TMP/png/" "${SMALL[@]}" --frames 0-2
n=$(ls "$TMP/png" | grep -c '^frame_00000[0-2]\.png$')
[ "$n" -eq 3 ] && t_pass "3 PNG files" || t_fail "3 PNG files" "got $n: $(ls "$TMP/png")"
OUT=$(probe "$TMP/png/frame_000001.png")
t_grep "PNG is 160x90" 'width=160\|height=90'
t_expect "skip-existing renders nothing new" 0 "$MMD" "$S" -o "$TMP/png/" "${SMALL[@]}" --frames 0-3 --skip-existing
t_grep "skip-existing reports 1 frame" ' 1 frame\(s\)'
t_expect "chunk 1/2 (0-based) of 0-9" 0 "$MMD" "$S" -o "$TMP/chunk/" "${SMALL[@]}" --frames 0-9 --chunk 1/2
got=$(ls "$TMP/chunk" | tr '\n' ' ')
[ "$got" = "frame_000005.png frame_000006.png frame_000007.png frame_000008.png frame_000009.png " ] \
    && t_pass "chunk 1/2 wrote frames 5-9" || t_fail "chunk 1/2 wrote frames 5-9" "got $got"
rm -rf "$TMP/chunk"
t_expect "chunk auto/2 from SLURM_ARRAY_TASK_ID" 0 env SLURM_ARRAY_TASK_ID=0 "$MMD" "$S" -o "$TMP/chunk/" "${SMALL[@]}" --frames 0-9:2 --chunk auto/2
got=$(ls "$TMP/chunk" | tr '\n' ' ')
[ "$got" = "frame_000000.png frame_000002.png " ] && t_pass "chunk auto/2 with step 2 wrote 0 and 2" \
    || t_fail "chunk auto/2 with step 2 wrote 0 and 2" "got $got"
t_expect "json progress" 0 "$MMD" "$S" -o "$TMP/png2/" --size 160x90 --aa 1 --frames 0-1 --progress json
t_grep "json progress lines" '^\{"frame":1,"done":2,"total":2,"fps":[0-9.]+,"eta_s":[0-9.]+\}$'
t_expect "plain progress" 0 "$MMD" "$S" -o "$TMP/png3/" --size 160x90 --aa 1 --frames 0-1 --progress plain
t_grep "plain progress line: frame, fps, elapsed, ETA" '^frame 2/2 100% [0-9]+\.[0-9]{2} fps elapsed 0:00:[0-9]{2} ETA 0:00:00$'

# --- video output ------------------------------------------------------------
t_expect "render 10 frames to MP4 with audio" 0 "$MMD" "$S" -o "$TMP/a.mp4" "${SMALL[@]}" --frames 0-9
OUT=$(probe "$TMP/a.mp4")
t_grep "mp4 video stream" 'codec_name=h264\|codec_type=video\|width=160\|height=90\|pix_fmt=yuv420p\|avg_frame_rate=30/1\|nb_read_packets=10'
t_grep "mp4 has 10 video packets" 'codec_type=video.*nb_read_packets=10'
t_grep "mp4 has an AAC track" 'codec_name=aac.*codec_type=audio'
OUT=$(mp4_atoms "$TMP/a.mp4")
t_grep "mp4 is faststart: moov before mdat" '^ftyp (free )?moov .*mdat'
# an AAC song fits MP4: its packets are copied (44.1 kHz kept; encoding would give 48 kHz), in sync
if command -v ffmpeg >/dev/null; then
    ffmpeg -loglevel error -y -f lavfi -i "sine=frequency=660:duration=2" -af "adelay=500|500" -ac 2 -c:a aac "$TMP/song.m4a"
    sed 's#^file = demo/beat.wav#file = song.m4a#' "$S" >"$TMP/m4a.ini"
    t_expect "render with an AAC song" 0 "$MMD" "$TMP/m4a.ini" -o "$TMP/m4a.mp4" "${SMALL[@]}" --frames 0-29
    OUT=$(ffprobe -v error -select_streams a -show_entries stream=codec_name,sample_rate -of compact=p=0 "$TMP/m4a.mp4" 2>&1)
    t_grep "AAC song is copied" 'codec_name=aac.*sample_rate=44100'
    on=$(ffmpeg -hide_banner -i "$TMP/m4a.mp4" -map 0:a -af silencedetect=n=-30dB:d=0.1 -f null - 2>&1 | sed -n 's/.*silence_end: \([0-9.]*\).*/\1/p' | head -n 1)
    awk -v t="${on:-0}" 'BEGIN { exit !(t > 0.49 && t < 0.52) }' && t_pass "copied song starts its tone at 0.5 s" \
        || t_fail "copied song starts its tone at 0.5 s" "got '${on}'"
    t_expect "same song at an offset" 0 "$MMD" "$TMP/m4a.ini" -o "$TMP/m4a_off.mp4" "${SMALL[@]}" --frames 15-29
    OUT=$(ffprobe -v error -select_streams a -show_entries stream=codec_name,sample_rate -of compact=p=0 "$TMP/m4a_off.mp4" 2>&1)
    t_grep "a range not starting at 0 re-encodes" 'codec_name=aac.*sample_rate=48000'
else
    t_skip "AAC song is copied" "no ffmpeg"
fi
# x264 writes its settings into the stream (an SEI): veryfast has CABAC and subme 2, ultrafast neither
x264_opts() { grep -a -o 'cabac=[01] .* subme=[0-9]*' "$1" | head -n 1; }
OUT=$(x264_opts "$TMP/a.mp4")
t_grep "default preset is veryfast" 'cabac=1 .* subme=2'
t_expect "--preset ultrafast" 0 "$MMD" "$S" -o "$TMP/u.mp4" "${SMALL[@]}" --frames 0-3 --no-audio --preset ultrafast
OUT=$(x264_opts "$TMP/u.mp4")
t_grep "ultrafast reaches x264" 'cabac=0 .* subme=0'
t_expect "unknown preset" 1 "$MMD" "$S" -o "$TMP/x.mp4" "${SMALL[@]}" --frames 0 --preset warp
t_grep "unknown preset lists the names" "unknown x264 preset 'warp' .*ultrafast superfast veryfast"
t_expect "--preset with vp9" 1 "$MMD" "$S" -o "$TMP/x.webm" "${SMALL[@]}" --frames 0 --preset fast
t_expect "--preset with PNG output" 1 "$MMD" "$S" -o "$TMP/xp/" "${SMALL[@]}" --frames 0 --preset fast
t_expect "60 fps NTSC-style rate" 0 "$MMD" "$S" -o "$TMP/b.mov" "${SMALL[@]}" --frames 0-3 --fps 60000/1001 --no-audio
OUT=$(probe "$TMP/b.mov")
t_grep "mov rate 60000/1001" 'avg_frame_rate=60000/1001'
t_expect "transparent webm" 0 "$MMD" "$S" -o "$TMP/t.webm" "${SMALL[@]}" --frames 0-2 --background transparent
OUT=$(ffprobe -v error -show_entries stream=codec_name:stream_tags=alpha_mode -of compact=p=0 "$TMP/t.webm" 2>&1)
t_grep "webm is vp9 with alpha" 'codec_name=vp9.*alpha_mode=1'
ls -a "$TMP" | grep -q '\.part-' && t_fail "no temp files left" "$(ls -a "$TMP")" || t_pass "no temp files left"

# --- interrupt ---------------------------------------------------------------
# 30001 frames: far more than the wait below at any speed (160x90 renders at ~170 fps, so 301 frames
# could finish before the signal); frames past the motions' end hold the last pose.
# started PID CMD...: polls CMD until it holds (false when PID ends first or after 60 s). The signal
# waits for the render to have opened its output: its handlers are installed then, and a signal
# before them is lost (`&` in a script ignores SIGINT), so a loaded machine rendered all 30001 frames.
started() {
    local pid=$1 i
    shift
    for i in $(seq 1 3000); do
        "$@" && return 0
        kill -0 "$pid" 2>/dev/null || return 1
        sleep 0.02
    done
    return 1
}
"$MMD" "$S" -o "$TMP/int.mp4" --size 160x90 --aa 1 --progress json --frames 0-30000 --threads 1 >/dev/null 2>"$TMP/int.log" &
pid=$!
started $pid grep -qE '"done":([3-9]|[1-9][0-9]+),' "$TMP/int.log" # 3 frames: the handlers are in
kill -INT $pid
wait $pid; rc=$?
[ $rc -eq 130 ] && t_pass "SIGINT exits 130" || t_fail "SIGINT exits 130" "exit $rc"
OUT=$(probe "$TMP/int.mp4")
n=$(sed -n 's/.*codec_type=video.*nb_read_packets=\([0-9]*\).*/\1/p' <<<"$OUT")
[ -n "$n" ] && [ "$n" -gt 0 ] && [ "$n" -lt 30001 ] && t_pass "interrupted MP4 plays ($n frames)" \
    || t_fail "interrupted MP4 plays" "$OUT"
"$MMD" "$S" -o "$TMP/intpng/" "${SMALL[@]}" --frames 0-30000 --threads 1 >/dev/null 2>&1 &
pid=$!
started $pid bash -c "ls '$TMP/intpng' 2>/dev/null | grep -q '^frame_.*\.png$'" # a frame: the handlers are in
kill -TERM $pid
wait $pid; rc=$?
[ $rc -eq 130 ] && t_pass "SIGTERM exits 130" || t_fail "SIGTERM exits 130" "exit $rc"
bad=0; cnt=0
for f in "$TMP"/intpng/*; do
    cnt=$((cnt+1))
    case $f in *.png) ffprobe -v error "$f" >/dev/null 2>&1 || bad=$((bad+1));; *) bad=$((bad+1));; esac
done
[ $cnt -gt 0 ] && [ $bad -eq 0 ] && t_pass "interrupted PNG run left $cnt complete PNGs only" \
    || t_fail "interrupted PNG run left only complete PNGs" "$cnt files, $bad bad: $(ls -a "$TMP/intpng" | head)"
# --- a model's repairs are in the render log, one line per kind (not with --quiet) ---
"$BUILD/tools/mkfixture" oddities "$TMP/odd.pmx"
"$BUILD/tools/mkfixture" vmd-tail "$TMP/tail.vmd"
printf '[model]\nfile = odd.pmx\nmotion = tail.vmd\n' >"$TMP/odd.ini"
t_expect "render a model with repaired fields" 0 "$MMD" "$TMP/odd.ini" -o "$TMP/oddpng/" "${SMALL[@]}" --frames 0
t_grep "log names the repair, element and offset" 'mmdrender: warning: .*odd\.pmx: offset 0x105, pmx\.material #0: sphere mode out of range'
t_grep "log names the motion's dropped section" 'mmdrender: warning: .*tail\.vmd: offset 0xc0, vmd\.camera: '
# --- --texture-filter / [output] texture_filter (issue 25's cost, the user's choice) ---
t_expect "bad --texture-filter" 1 "$MMD" "$S" -o "$TMP/x.png" --texture-filter bilinear
t_grep "bad --texture-filter says the names" "expected texture_filter mmd .*, aniso4 .* or trilinear .*, got 'bilinear'"
# the dance at frame 60 with the camera's textures minified: trilinear draws other pixels than mmd
t_expect "--texture-filter mmd" 0 "$MMD" "$S" -o "$TMP/tf_mmd.png" --size 320x180 --aa 1 --frames 60 -q --texture-filter mmd
t_expect "default filter" 0 "$MMD" "$S" -o "$TMP/tf_def.png" --size 320x180 --aa 1 --frames 60 -q
t_expect "--texture-filter trilinear" 0 "$MMD" "$S" -o "$TMP/tf_tri.png" --size 320x180 --aa 1 --frames 60 -q --texture-filter trilinear
cmp -s "$TMP/tf_mmd.png" "$TMP/tf_def.png" && t_pass "mmd is the default filter" || t_fail "mmd is the default filter"
cmp -s "$TMP/tf_mmd.png" "$TMP/tf_tri.png" && t_fail "trilinear draws another picture" || t_pass "trilinear draws another picture"
t_expect "--texture-filter aniso4" 0 "$MMD" "$S" -o "$TMP/tf_a4.png" --size 320x180 --aa 1 --frames 60 -q --texture-filter aniso4
cmp -s "$TMP/tf_a4.png" "$TMP/tf_tri.png" && t_fail "aniso4 draws another picture than trilinear" \
    || t_pass "aniso4 draws another picture than trilinear"
{ cat "$S"; } | sed 's/^\[output\]$/[output]\ntexture_filter = trilinear/' >"$TMP/tf.ini"
t_expect "scene texture_filter = trilinear" 0 "$MMD" "$TMP/tf.ini" -o "$TMP/tf_key.png" --size 320x180 --aa 1 --frames 60 -q
cmp -s "$TMP/tf_key.png" "$TMP/tf_tri.png" && t_pass "the scene key draws what the option draws" \
    || t_fail "the scene key draws what the option draws"
t_expect "--texture-filter mmd over the scene's trilinear" 0 "$MMD" "$TMP/tf.ini" -o "$TMP/tf_over.png" --size 320x180 --aa 1 --frames 60 -q --texture-filter mmd
cmp -s "$TMP/tf_over.png" "$TMP/tf_mmd.png" && t_pass "the option overrides the scene key" \
    || t_fail "the option overrides the scene key"
t_expect "--quiet render" 0 "$MMD" "$TMP/odd.ini" -o "$TMP/oddpng2/" "${SMALL[@]}" --frames 0 --quiet
if grep -q "warning" <<<"$OUT"; then t_fail "--quiet hides repair warnings" "$OUT"; else t_pass "--quiet hides repair warnings"; fi
t_done
