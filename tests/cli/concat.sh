#!/usr/bin/env bash
# tests/cli/concat.sh - `mmdrender concat`: chunk videos written by the real video
# sink (build/tools/mkchunk, chunk mode) are joined without re-encoding; checked
# with ffprobe/ffmpeg: frame count, continuous timestamps, decoded frames equal to
# the chunks' own, audio present with the video's duration, error exit codes.
. tests/util/cli_lib.sh
MK=$BUILD/tools/mkchunk
[ -x "$MMD" ] && [ -x "$MK" ] || { echo "not ok 1 - $MMD or $MK missing"; echo "# counts: 0 passed, 1 failed, 0 skipped"; exit 1; }
if ! command -v ffprobe >/dev/null || ! command -v ffmpeg >/dev/null; then
    t_skip "concat" "no ffmpeg/ffprobe"; t_done; exit
fi
D=$TMP
md5s() { ffmpeg -loglevel error -i "$1" -map 0:v -f framemd5 - | grep -v '^#' | awk -F, '{print $NF}'; }
near() { awk -v a="$1" -v b="$2" -v e="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= e) }'; }

# 35 frames at 30 fps in chunks of 10, 10, 10, 5 (h264 in mp4)
ranges="0-9 10-19 20-29 30-34"
ok=1
for r in $ranges; do "$MK" "$D/c_$r.mp4" --frames "$r" || ok=0; done
[ $ok = 1 ] && t_pass "4 chunk videos written by the sink" || t_fail "4 chunk videos written by the sink"
chunks=(); for r in $ranges; do chunks+=("$D/c_$r.mp4"); done
ffmpeg -loglevel error -f lavfi -i "sine=frequency=440:duration=3" -ac 2 -ar 44100 "$D/song.wav"

t_expect "concat mp4 + wav: exit 0" 0 "$MMD" concat "${chunks[@]}" --audio "$D/song.wav" -o "$D/final.mp4"
t_grep "summary" "final.mp4: 4 chunks, 35 frames, 1.167 s, audio encoded \(aac\)"
OUT=$(mp4_atoms "$D/final.mp4")
t_grep "concat's mp4 is faststart: moov before mdat" '^ftyp (free )?moov .*mdat'
n=$(ffprobe -v error -select_streams v -count_packets -show_entries stream=nb_read_packets -of csv=p=0 "$D/final.mp4")
[ "$n" = 35 ] && t_pass "frame count = sum of chunks (35)" || t_fail "frame count = sum of chunks (35)" "got $n"
# presentation times sorted must be exactly k/30
bad=$(ffprobe -v error -select_streams v -show_entries packet=pts_time -of csv=p=0 "$D/final.mp4" | sort -g |
      awk '{ d = $1 - (NR - 1) / 30; if (d < 0) d = -d; if (d > 0.0005) print NR-1": "$1 }' | head -3)
[ -z "$bad" ] && t_pass "timestamps continuous (frame k at k/30 s)" || t_fail "timestamps continuous" "$bad"
dtsok=$(ffprobe -v error -select_streams v -show_entries packet=pts_time,dts_time -of csv=p=0 "$D/final.mp4" |
        awk -F, 'NR > 1 && $2 <= last { bad = 1 } $2 > $1 + 1e-6 { bad = 1 } { last = $2 } END { print bad ? "no" : "yes" }')
[ "$dtsok" = yes ] && t_pass "decode times increase, never after presentation" || t_fail "decode times increase"
for c in "${chunks[@]}"; do md5s "$c"; done >"$D/parts.md5"
md5s "$D/final.mp4" >"$D/final.md5"
if [ -s "$D/final.md5" ] && cmp -s "$D/parts.md5" "$D/final.md5"; then t_pass "decoded frames identical to the chunks' (no re-encode)"
else t_fail "decoded frames identical to the chunks'" "$(diff "$D/parts.md5" "$D/final.md5" | head -3)"; fi
read -r acodec adur < <(ffprobe -v error -select_streams a -show_entries stream=codec_name,duration -of csv=p=0 "$D/final.mp4" | tr ',' ' ')
[ "$acodec" = aac ] && t_pass "audio stream aac" || t_fail "audio stream aac" "got '$acodec'"
near "${adur:-0}" 1.1667 0.025 && t_pass "audio cut to the video (1.167 s)" || t_fail "audio cut to the video" "audio $adur s"
left=$(ls -A "$D" | grep -c '\.part-' || true)
[ "$left" = 0 ] && t_pass "no temp file left" || t_fail "no temp file left" "$(ls -A "$D")"

# audio copy: AAC in .m4a fits mp4
ffmpeg -loglevel error -f lavfi -i "sine=frequency=660:duration=5" -ac 2 -c:a aac "$D/song.m4a"
t_expect "aac audio: exit 0" 0 "$MMD" concat "${chunks[@]}" --audio "$D/song.m4a" -o "$D/copy.mp4"
t_grep "aac audio is copied" "audio copied \(aac\)"
adur=$(ffprobe -v error -select_streams a -show_entries stream=duration -of csv=p=0 "$D/copy.mp4")
near "${adur:-0}" 1.1667 0.05 && t_pass "copied audio cut near the video's end" || t_fail "copied audio cut" "audio $adur s"

# offset: 0.5 s of silence first, still cut to the video
t_expect "--audio-offset 0.5: exit 0" 0 "$MMD" concat "${chunks[@]}" --audio "$D/song.m4a" --audio-offset 0.5 -o "$D/off.mp4"
t_grep "offset forces encoding" "audio encoded"
vol=$(ffmpeg -hide_banner -i "$D/off.mp4" -t 0.4 -map 0:a -af volumedetect -f null - 2>&1 | sed -n 's/.*max_volume: \(.*\) dB/\1/p')
vol2=$(ffmpeg -hide_banner -ss 0.7 -i "$D/off.mp4" -map 0:a -af volumedetect -f null - 2>&1 | sed -n 's/.*max_volume: \(.*\) dB/\1/p')
if awk -v a="${vol:-0}" -v b="${vol2:--999}" 'BEGIN { exit !(a < -60 && b > -30) }'; then t_pass "silent before the offset, tone after"
else t_fail "silent before the offset, tone after" "max volume first 0.4 s: $vol dB, after 0.7 s: $vol2 dB"; fi

# lossless chunks in mkv (1/1000 time base): decoded frames equal a one-run video
for r in $ranges; do "$MK" "$D/l_$r.mkv" --frames "$r" --codec x264rgb; done
"$MK" "$D/whole.mkv" --frames 0-34 --codec x264rgb --whole
printf '%s\n' "# chunk list" "$D/l_0-9.mkv" "$D/l_10-19.mkv" "" "$D/l_20-29.mkv" "$D/l_30-34.mkv" >"$D/list.txt"
t_expect "mkv via --list: exit 0" 0 "$MMD" concat --list "$D/list.txt" -o "$D/lossless.mkv" -q
md5s "$D/whole.mkv" >"$D/whole.md5"; md5s "$D/lossless.mkv" >"$D/lossless.md5"
if [ "$(wc -l <"$D/lossless.md5")" = 35 ] && cmp -s "$D/whole.md5" "$D/lossless.md5"; then t_pass "lossless chunks joined = one-run video, frame for frame"
else t_fail "lossless chunks joined = one-run video" "$(wc -l <"$D/lossless.md5") frames"; fi
"$MMD" concat --list "$D/list.txt" -o "$D/lossless2.mkv" -q
if cmp -s "$D/lossless.mkv" "$D/lossless2.mkv"; then t_pass "mkv concat: the same bytes on a second run (bit-exact muxer)"
else t_fail "mkv concat: the same bytes on a second run" "Matroska segment id or dates differ"; fi

# errors
"$MK" "$D/small.mp4" --frames 35-39 --size 32x32
t_expect "different size: exit 2" 2 "$MMD" concat "${chunks[@]}" "$D/small.mp4" -o "$D/bad.mp4"
t_grep "names the field" "small.mp4: cannot join without re-encoding: .*size 64x48 vs 32x32"
"$MK" "$D/fps.mp4" --frames 35-39 --fps 25
t_expect "different frame rate: exit 2" 2 "$MMD" concat "${chunks[@]}" "$D/fps.mp4" -o "$D/bad.mp4"
t_grep "frame rate message" "frame rate 30/1 vs 25/1"
t_expect "different codec: exit 2" 2 "$MMD" concat "${chunks[0]}" "$D/l_10-19.mkv" -o "$D/bad.mp4"
[ ! -e "$D/bad.mp4" ] && t_pass "no output after a refused join" || t_fail "no output after a refused join"
t_expect "missing chunk: exit 2" 2 "$MMD" concat "${chunks[0]}" "$D/nope.mp4" -o "$D/bad.mp4"
t_expect "audio file missing: exit 2" 2 "$MMD" concat "${chunks[@]}" --audio "$D/nope.wav" -o "$D/bad.mp4"
printf 'not a video' >"$D/junk.mp4"
t_expect "junk chunk: exit 2" 2 "$MMD" concat "${chunks[0]}" "$D/junk.mp4" -o "$D/bad.mp4"
t_expect "no -o: exit 1" 1 "$MMD" concat "${chunks[@]}"
t_expect "no chunks: exit 1" 1 "$MMD" concat -o "$D/bad.mp4"
t_expect "unknown option: exit 1" 1 "$MMD" concat "${chunks[@]}" -o "$D/bad.mp4" --frobnicate
t_expect "bad offset: exit 1" 1 "$MMD" concat "${chunks[@]}" -o "$D/bad.mp4" --audio-offset abc
t_expect "unknown container: exit 1" 1 "$MMD" concat "${chunks[@]}" -o "$D/bad.xyz"
t_grep "unknown container: every container of the table, .avi included" 'bad\.xyz: unknown container \(use \.mp4 \.mkv \.mov \.webm \.avi\)'
t_expect "unwritable output: exit 5" 5 "$MMD" concat "${chunks[@]}" -o "$D/no/such/dir/out.mp4"
t_expect "--help: exit 0" 0 "$MMD" concat --help
t_grep "help text" "usage: mmdrender concat"
t_done
