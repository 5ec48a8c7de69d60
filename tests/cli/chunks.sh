#!/usr/bin/env bash
# tests/cli/chunks.sh - determinism and chunking through the real binary, on the
# generated demo scene (scenes/demo.ini + build/tools/mkdemo) at a small size:
# byte-identical PNGs across runs, --threads values and chunked vs whole renders;
# --chunk I/N (contiguous, sizes differ by at most one) and auto/N from the three
# farm index variables; --frames A-B:STEP; --skip-existing resumes after deleted,
# corrupted and killed frames; chunk videos joined by concat equal the PNGs.
. tests/util/cli_lib.sh
[ -x "$MMD" ] || { echo "not ok 1 - $MMD missing"; echo "# counts: 0 passed, 1 failed, 0 skipped"; exit 1; }
MKDEMO=$BUILD/tools/mkdemo
if [ ! -f scenes/demo.ini ] || [ ! -x "$MKDEMO" ] || ! "$MMD" --help 2>&1 | grep -q -- '--chunk'; then
    t_skip "chunks" "render CLI, scenes/demo.ini or $MKDEMO not there yet"; t_done; exit
fi
S=$TMP/scene
mkdir -p "$S"
cp scenes/demo.ini "$S/"
if ! "$MKDEMO" "$S/demo" >"$TMP/mkdemo.log" 2>&1; then
    t_fail "demo assets" "$(tail -3 "$TMP/mkdemo.log")"; t_done; exit
fi
SCENE=$S/demo.ini
# small and quick; physics is on in the demo, so later chunks pre-roll it. --aa 1, as the other CLI
# tests: with MSAA 4, llvmpipe's anisotropic filter (the default texture_filter) costs up to 1.5 CPU s
# on single frames of the demo at this size (frame 3: ten times its neighbours), 3.5 s for the 24
# frames instead of 0.5 s, and chunking does not depend on either.
R=(--size 160x90 --aa 1 --frames 0-23 -q)
frames_of() { (cd "$1" && ls frame_*.png 2>/dev/null | sed 's/frame_0*\([0-9]\)/\1/; s/\.png$//' | sort -n | tr '\n' ' '); }
same_dir() { # REF DIR: every PNG in DIR is byte-identical to REF's
    local f bad=0
    for f in "$2"/frame_*.png; do cmp -s "$f" "$1/$(basename "$f")" || { bad=1; echo "differs: $(basename "$f")"; }; done
    return $bad
}

t_expect "whole run, 1 thread" 0 "$MMD" "$SCENE" -o "$TMP/ref/" "${R[@]}" --threads 1
n=$(ls "$TMP/ref" | grep -c '^frame_.*\.png$')
[ "$n" = 24 ] && t_pass "24 frames" || t_fail "24 frames" "got $n"
t_expect "second run" 0 "$MMD" "$SCENE" -o "$TMP/again/" "${R[@]}" --threads 1
OUT=$(same_dir "$TMP/ref" "$TMP/again") && t_pass "identical across runs" || t_fail "identical across runs" "$OUT"
for th in 2 0; do
    t_expect "--threads $th" 0 "$MMD" "$SCENE" -o "$TMP/th$th/" "${R[@]}" --threads "$th"
    OUT=$(same_dir "$TMP/ref" "$TMP/th$th") && [ "$(frames_of "$TMP/th$th")" = "$(frames_of "$TMP/ref")" ] &&
        t_pass "identical with --threads $th" || t_fail "identical with --threads $th" "$OUT"
done

# --chunk I/4: 6 contiguous frames each, union = the whole run, bytes identical
all=""
for i in 0 1 2 3; do
    "$MMD" "$SCENE" -o "$TMP/c4_$i/" "${R[@]}" --threads 1 --chunk "$i/4" || t_fail "chunk $i/4 exit"
    all+="$(frames_of "$TMP/c4_$i")"
done
want4="0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 "
[ "$all" = "$want4" ] && t_pass "4 chunks: contiguous, in order, cover every frame once" || t_fail "4 chunks cover" "$all"
[ "$(frames_of "$TMP/c4_2")" = "12 13 14 15 16 17 " ] && t_pass "chunk 2/4 = frames 12-17" || t_fail "chunk 2/4 = frames 12-17" "$(frames_of "$TMP/c4_2")"
bad=""; for i in 0 1 2 3; do same_dir "$TMP/ref" "$TMP/c4_$i" >/dev/null || bad+=" $i"; done
[ -z "$bad" ] && t_pass "chunked PNGs byte-identical to the whole run" || t_fail "chunked PNGs identical" "chunks$bad"

# uneven: 24 frames in 5 chunks -> sizes 5 5 5 5 4 in some order, each differing by <= 1
sizes=""; all=""
for i in 0 1 2 3 4; do
    "$MMD" "$SCENE" -o "$TMP/c5_$i/" "${R[@]}" --chunk "$i/5" >/dev/null 2>&1
    f=$(frames_of "$TMP/c5_$i"); all+="$f"; set -- $f; sizes+="$# "
done
[ "$all" = "$want4" ] && t_pass "5 chunks of 24 cover every frame once, in order" || t_fail "5 chunks cover" "$all"
[ "$(tr ' ' '\n' <<<"$sizes" | grep -c '^[45]$')" = 5 ] && [ "$(tr ' ' '\n' <<<"$sizes" | grep -c '^4$')" = 1 ] &&
    t_pass "5 chunk sizes 4..5 ($sizes)" || t_fail "5 chunk sizes" "$sizes"

# auto/N from each farm variable (first set wins), and the errors
env -u JOB_COMPLETION_INDEX -u AWS_BATCH_JOB_ARRAY_INDEX SLURM_ARRAY_TASK_ID=1 \
    "$MMD" "$SCENE" -o "$TMP/auto_s/" "${R[@]}" --chunk auto/4
[ "$(frames_of "$TMP/auto_s")" = "6 7 8 9 10 11 " ] && t_pass "auto/4 with SLURM_ARRAY_TASK_ID=1" || t_fail "auto/4 slurm" "$(frames_of "$TMP/auto_s")"
env -u SLURM_ARRAY_TASK_ID -u AWS_BATCH_JOB_ARRAY_INDEX JOB_COMPLETION_INDEX=3 \
    "$MMD" "$SCENE" -o "$TMP/auto_k/" "${R[@]}" --chunk auto/4
[ "$(frames_of "$TMP/auto_k")" = "18 19 20 21 22 23 " ] && t_pass "auto/4 with JOB_COMPLETION_INDEX=3" || t_fail "auto/4 k8s" "$(frames_of "$TMP/auto_k")"
env -u SLURM_ARRAY_TASK_ID -u JOB_COMPLETION_INDEX AWS_BATCH_JOB_ARRAY_INDEX=0 \
    "$MMD" "$SCENE" -o "$TMP/auto_a/" "${R[@]}" --chunk auto/4
[ "$(frames_of "$TMP/auto_a")" = "0 1 2 3 4 5 " ] && t_pass "auto/4 with AWS_BATCH_JOB_ARRAY_INDEX=0" || t_fail "auto/4 aws" "$(frames_of "$TMP/auto_a")"
same_dir "$TMP/ref" "$TMP/auto_k" >/dev/null && t_pass "auto chunk identical to the whole run" || t_fail "auto chunk identical"
t_expect "auto/4 without an index variable: exit 1" 1 env -u SLURM_ARRAY_TASK_ID -u JOB_COMPLETION_INDEX \
    -u AWS_BATCH_JOB_ARRAY_INDEX "$MMD" "$SCENE" -o "$TMP/x/" "${R[@]}" --chunk auto/4
t_expect "chunk 4/4 (0-based): exit 1" 1 "$MMD" "$SCENE" -o "$TMP/x/" "${R[@]}" --chunk 4/4
t_expect "auto index out of range: exit 1" 1 env SLURM_ARRAY_TASK_ID=7 "$MMD" "$SCENE" -o "$TMP/x/" "${R[@]}" --chunk auto/4
t_expect "chunk 0/0: exit 1" 1 "$MMD" "$SCENE" -o "$TMP/x/" "${R[@]}" --chunk 0/0

# --frames A-B:STEP, alone and with chunks
t_expect "--frames 0-23:5" 0 "$MMD" "$SCENE" -o "$TMP/step/" --size 160x90 --aa 1 --frames 0-23:5 -q
[ "$(frames_of "$TMP/step")" = "0 5 10 15 20 " ] && t_pass "step 5 renders 0 5 10 15 20" || t_fail "step 5" "$(frames_of "$TMP/step")"
same_dir "$TMP/ref" "$TMP/step" >/dev/null && t_pass "stepped frames identical to the whole run" || t_fail "stepped frames identical"
"$MMD" "$SCENE" -o "$TMP/stepc/" --size 160x90 --aa 1 --frames 0-23:5 --chunk 1/2 -q
[ "$(frames_of "$TMP/stepc")" = "15 20 " ] || [ "$(frames_of "$TMP/stepc")" = "10 15 20 " ] &&
    t_pass "step + chunk 1/2 takes the later rendered frames ($(frames_of "$TMP/stepc"))" || t_fail "step + chunk" "$(frames_of "$TMP/stepc")"

# --skip-existing: delete two frames, truncate one, zero another's tail; only those are rendered
cp -r "$TMP/ref" "$TMP/resume"
rm "$TMP/resume/frame_000003.png" "$TMP/resume/frame_000017.png"
head -c 200 "$TMP/ref/frame_000008.png" >"$TMP/resume/frame_000008.png"
sz=$(stat -c %s "$TMP/ref/frame_000020.png")
{ head -c $((sz - 12)) "$TMP/ref/frame_000020.png"; head -c 12 /dev/zero; } >"$TMP/resume/frame_000020.png"
touch -d @1000000000 "$TMP"/resume/frame_*.png
t_expect "--skip-existing rerun" 0 "$MMD" "$SCENE" -o "$TMP/resume/" "${R[@]}" --skip-existing
redone=$(cd "$TMP/resume" && for f in frame_*.png; do [ "$(stat -c %Y "$f")" != 1000000000 ] && echo "$f"; done | tr '\n' ' ')
[ "$redone" = "frame_000003.png frame_000008.png frame_000017.png frame_000020.png " ] &&
    t_pass "only missing/corrupt frames rendered again" || t_fail "only missing/corrupt rendered" "rewritten: $redone"
OUT=$(same_dir "$TMP/ref" "$TMP/resume") && [ "$(frames_of "$TMP/resume")" = "$want4" ] &&
    t_pass "resumed folder identical to the whole run" || t_fail "resumed folder identical" "$OUT"

# a killed task resumes: SIGKILL mid-run, rerun with --skip-existing
mkdir -p "$TMP/killed"
"$MMD" "$SCENE" -o "$TMP/killed/" "${R[@]}" --threads 1 --skip-existing &
pid=$!
for _ in $(seq 1 300); do
    [ "$(ls "$TMP/killed" | grep -c '^frame_.*\.png$')" -ge 4 ] && break
    kill -0 $pid 2>/dev/null || break
    sleep 0.02
done
kill -9 $pid 2>/dev/null; wait $pid 2>/dev/null
before=$(ls "$TMP/killed" | grep -c '^frame_.*\.png$')
t_expect "rerun after SIGKILL" 0 "$MMD" "$SCENE" -o "$TMP/killed/" "${R[@]}" --skip-existing
OUT=$(same_dir "$TMP/ref" "$TMP/killed") && [ "$(frames_of "$TMP/killed")" = "$want4" ] &&
    t_pass "killed at $before frames, resumed: identical to the whole run" || t_fail "killed + resumed identical" "$OUT"

# chunk videos through the CLI, joined: lossless frames equal the PNGs, with the scene's audio
if command -v ffprobe >/dev/null; then
    ok=1
    for i in 0 1 2 3; do
        "$MMD" "$SCENE" -o "$TMP/v_$i.mp4" "${R[@]}" --codec x264rgb --chunk "$i/4" || ok=0
    done
    [ $ok = 1 ] && t_pass "4 chunk videos (x264rgb)" || t_fail "4 chunk videos"
    a=$(ffprobe -v error -select_streams a -show_entries stream=index -of csv=p=0 "$TMP/v_1.mp4")
    [ -z "$a" ] && t_pass "chunk video has no audio" || t_fail "chunk video has no audio"
    t_expect "concat with the scene's audio" 0 "$MMD" concat "$TMP"/v_{0,1,2,3}.mp4 --audio "$S/demo/beat.wav" -o "$TMP/final.mp4"
    n=$(ffprobe -v error -select_streams v -count_packets -show_entries stream=nb_read_packets -of csv=p=0 "$TMP/final.mp4")
    [ "$n" = 24 ] && t_pass "joined video has 24 frames" || t_fail "joined video has 24 frames" "got $n"
    ffmpeg -loglevel error -i "$TMP/final.mp4" -map 0:v -pix_fmt rgb24 -f framemd5 - | grep -v '^#' | awk -F, '{print $NF}' >"$TMP/v.md5"
    ffmpeg -loglevel error -framerate 30 -i "$TMP/ref/frame_%06d.png" -pix_fmt rgb24 -f framemd5 - | grep -v '^#' | awk -F, '{print $NF}' >"$TMP/p.md5"
    if [ -s "$TMP/v.md5" ] && cmp -s "$TMP/v.md5" "$TMP/p.md5"; then t_pass "joined lossless video = whole-run PNGs, frame for frame"
    else t_fail "joined lossless video = PNGs" "$(diff "$TMP/v.md5" "$TMP/p.md5" | head -4)"; fi
    adur=$(ffprobe -v error -select_streams a -show_entries stream=duration -of csv=p=0 "$TMP/final.mp4")
    awk -v a="${adur:-0}" 'BEGIN { d = a - 0.8; if (d < 0) d = -d; exit !(d < 0.03) }' &&
        t_pass "audio 0.8 s (= 24 frames)" || t_fail "audio 0.8 s" "got $adur"
else
    t_skip "chunk videos" "no ffprobe"
fi
t_done
