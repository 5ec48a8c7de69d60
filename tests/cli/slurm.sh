#!/usr/bin/env bash
# tests/cli/slurm.sh - a real distributed run on a one-node Slurm cluster started here.
#
# Installs Debian's slurm-wlm and munge when missing (apt-get, idempotent), starts
# munged, slurmctld -D and slurmd -D with a minimal configuration in a temp folder
# (own ports, state and spool there, no accounting, proctrack/linuxproc, task/none),
# then submits the demo scene at 60 fps with its song, every 2nd frame, through
# farm/submit.sh twice - PNG frames (4 tasks of at most 3 frames, --frames-per-task)
# stitched by `mmdrender encode`, and lossless chunk videos (4 chunks) joined by concat -
# each an array plus the afterok stitch job, waits (bounded), and checks every frame is
# there and identical to a single-process render (PNG bytes; decoded video frames), that
# the encoded video equals a single-process render's video byte for byte, and that both
# stitched videos play at 60/2 fps with the song cut to their length; then a .pmm project
# (mkproject's music.pmm, its song on) at 60 fps, PNG mode, whose encode stitch must equal a
# single-process render of the project byte for byte, with the project's song. Every daemon it started is stopped on exit. Skips with a message
# when the packages cannot be installed or a daemon does not come up.
# MMD_SKIP_SLURM=1 skips it.
. tests/util/cli_lib.sh
[ -x "$MMD" ] || { echo "not ok 1 - $MMD missing"; echo "# counts: 0 passed, 1 failed, 0 skipped"; exit 1; }
MKDEMO=$BUILD/tools/mkdemo
skip_all() { t_skip "slurm farm run" "$1"; t_done; exit 0; }
[ "${MMD_SKIP_SLURM:-0}" = 1 ] && skip_all "MMD_SKIP_SLURM=1"
if [ ! -f scenes/demo.ini ] || [ ! -x "$MKDEMO" ] || ! "$MMD" --help 2>&1 | grep -q -- '--chunk'; then
    skip_all "render CLI, scenes/demo.ini or $MKDEMO not there yet"
fi

# ---- packages -------------------------------------------------------------------------
have_slurm() { command -v munged && command -v slurmctld && command -v slurmd && command -v sbatch; } >/dev/null
if ! have_slurm; then
    sudo=""
    [ "$(id -u)" -ne 0 ] && sudo="sudo -n"
    if ! command -v apt-get >/dev/null; then skip_all "slurm-wlm/munge missing and no apt-get"; fi
    export DEBIAN_FRONTEND=noninteractive
    { timeout 300 ${sudo:+$sudo} apt-get install -y -q --no-install-recommends slurm-wlm munge ||
      { timeout 120 ${sudo:+$sudo} apt-get update -q && timeout 300 ${sudo:+$sudo} apt-get install -y -q --no-install-recommends slurm-wlm munge; }
    } >"$TMP/apt.log" 2>&1
    have_slurm || skip_all "cannot install slurm-wlm and munge: $(tail -n 1 "$TMP/apt.log")"
fi
[ "$(id -u)" -eq 0 ] || skip_all "the daemons need root here (SlurmUser=root)"

# ---- daemons --------------------------------------------------------------------------
C=$TMP/slurm
mkdir -p "$C/state" "$C/spool" "$C/log"
chmod 755 "$TMP" "$C"
PIDS=()
stop_daemons() {
    [ -n "${SLURM_CONF:-}" ] && timeout 10 scontrol shutdown >/dev/null 2>&1
    local p
    for p in "${PIDS[@]}"; do
        for _ in 1 2 3 4 5 6 7 8 9 10; do kill -0 "$p" 2>/dev/null || break; sleep 0.3; done
        kill "$p" 2>/dev/null
    done
    for p in "${PIDS[@]}"; do wait "$p" 2>/dev/null; done
}
trap 'stop_daemons; rm -rf "$TMP"' EXIT
trap 'exit 130' INT TERM

port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
pick_port() {
    local p=$((20000 + (RANDOM % 20000) * 2))
    while ! port_free $p || ! port_free $((p + 1)); do p=$((p + 2)); done
    echo $p
}
P=$(pick_port)
node=$(hostname -s 2>/dev/null || hostname)
cpus=$(nproc); [ "$cpus" -gt 2 ] && cpus=2

dd if=/dev/urandom of="$C/munge.key" bs=128 count=1 status=none
chmod 600 "$C/munge.key"
munged -F -f --socket="$C/munge.sock" --key-file="$C/munge.key" --log-file="$C/log/munged.log" \
    --pid-file="$C/munged.pid" --seed-file="$C/munged.seed" >"$C/log/munged.out" 2>&1 &
PIDS+=($!)
for _ in $(seq 1 50); do [ -S "$C/munge.sock" ] && break; sleep 0.1; done
[ -S "$C/munge.sock" ] || skip_all "munged did not start: $(tail -n 2 "$C/log/munged.log" "$C/log/munged.out" 2>/dev/null | tr '\n' ' ')"

cat >"$C/slurm.conf" <<EOF
ClusterName=mmdtest
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$P
SlurmdPort=$((P + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$C/munge.sock
StateSaveLocation=$C/state
SlurmdSpoolDir=$C/spool
SlurmctldPidFile=$C/slurmctld.pid
SlurmdPidFile=$C/slurmd.pid
SlurmctldLogFile=$C/log/slurmctld.log
SlurmdLogFile=$C/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
SlurmctldTimeout=30
SlurmdTimeout=30
MinJobAge=600
NodeName=$node NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=mmd Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF=$C/slurm.conf
slurmctld -D -f "$SLURM_CONF" >"$C/log/slurmctld.out" 2>&1 &
PIDS+=($!)
slurmd -D -f "$SLURM_CONF" -N "$node" >"$C/log/slurmd.out" 2>&1 &
PIDS+=($!)
state=""
for _ in $(seq 1 60); do
    state=$(timeout 5 sinfo -h -o %T 2>/dev/null | head -n 1)
    [ "$state" = idle ] && break
    sleep 0.5
done
[ "$state" = idle ] || skip_all "Slurm did not come up (node state '$state'): $(tail -n 3 "$C/log/slurmctld.log" "$C/log/slurmd.log" 2>/dev/null | tr '\n' ' ')"
t_pass "munged, slurmctld and slurmd up; node $node idle with $cpus CPUs"

# ---- the scene and a single-process reference -----------------------------------------
S=$TMP/scene
mkdir -p "$S"
sed 's/^fps = 30$/fps = 60/' scenes/demo.ini >"$S/demo.ini"   # a 60 fps scene with a song
grep -q '^fps = 60$' "$S/demo.ini" || { t_fail "60 fps demo scene" "$(grep fps "$S/demo.ini")"; t_done; exit; }
"$MKDEMO" "$S/demo" >"$TMP/mkdemo.log" 2>&1 || { t_fail "demo assets" "$(tail -3 "$TMP/mkdemo.log")"; t_done; exit; }
R=(--size 160x90 --frames 0-23:2)   # 12 frames, a video at 60/2 = 30 fps
t_expect "single-process reference render" 0 "$MMD" "$S/demo.ini" -o "$TMP/ref/" "${R[@]}" -q --threads 1
t_expect "single-process reference video" 0 "$MMD" "$S/demo.ini" -o "$TMP/ref.mp4" "${R[@]}" -q --threads 1

# ---- submit: PNG frames and chunk videos, 4 chunks each + stitch ----------------------
sub() { # NAME OUT [submit options] -- render options
    local name=$1 out=$2; shift 2
    OUT=$(bash farm/submit.sh "$S/demo.ini" "$out" -n 4 --cpus 1 --mmdrender "$MMD" "$@" 2>&1)
    local rc=$?
    printf '%s\n' "$OUT" >"$TMP/submit_$name.out"
    if [ $rc -eq 0 ] && grep -q '^stitch [0-9]' <<<"$OUT"; then t_pass "submit $name: $(tr '\n' ' ' <<<"$OUT")"
    else t_fail "submit $name" "exit $rc: $OUT"; fi
}
sub png "$TMP/png" -k 3 -- "${R[@]}"
png_r=$(sed -n 's/^render //p' <<<"$OUT"); png_s=$(sed -n 's/^stitch //p' <<<"$OUT")
sub video "$TMP/vid" --video mp4 -- "${R[@]}" --codec x264rgb
vid_r=$(sed -n 's/^render //p' <<<"$OUT"); vid_s=$(sed -n 's/^stitch //p' <<<"$OUT")

# a .pmm project with its song (tools/mkproject's music.pmm), rendered at 60 fps, PNG mode:
# the stitch (encode) must take the project's song and the 60/2 rate, as a single render does
"$BUILD/tools/mkproject" "$TMP/p" >"$TMP/mkproject.log" 2>&1
mkdir -p "$TMP/p/assets/Wave"
ffmpeg -loglevel error -f lavfi -i "sine=frequency=440:duration=3" -ac 2 "$TMP/p/assets/Wave/song.wav"
PR=(--asset-root "$TMP/p/assets" --fps 60 --size 160x90 --frames 0-23:2)
t_expect "single-process project video (60 fps, step 2, its song)" 0 "$MMD" "$TMP/p/proj/music.pmm" -o "$TMP/ref_p.mp4" \
    "${PR[@]}" -q --threads 1
OUT=$(bash farm/submit.sh "$TMP/p/proj/music.pmm" "$TMP/pmm" -n 4 --cpus 1 --mmdrender "$MMD" -- "${PR[@]}" 2>&1)
printf '%s\n' "$OUT" >"$TMP/submit_pmm.out"
grep -q '^stitch [0-9]' <<<"$OUT" && t_pass "submit the project: $(tr '\n' ' ' <<<"$OUT")" || t_fail "submit the project" "$OUT"
pmm_r=$(sed -n 's/^render //p' <<<"$OUT"); pmm_s=$(sed -n 's/^stitch //p' <<<"$OUT")

deadline=$((SECONDS + ${MMD_SLURM_TIMEOUT:-240}))
while [ $SECONDS -lt $deadline ]; do
    left=$(squeue -h -o %i 2>/dev/null | wc -l)
    [ "$left" = 0 ] && break
    sleep 1
done
[ "${left:-1}" = 0 ] && t_pass "all jobs left the queue" || t_fail "all jobs left the queue" "$(squeue 2>&1 | head -12)"
job_states() { scontrol show job "$1" 2>/dev/null | grep -o 'JobState=[A-Z_]*' | sed 's/JobState=//' | sort | uniq -c | awk '{ printf "%s%s x%s", (NR > 1 ? ", " : ""), $2, $1 }'; }
for j in "png render:$png_r" "png stitch:$png_s" "video render:$vid_r" "video stitch:$vid_s" \
         "project render:$pmm_r" "project stitch:$pmm_s"; do
    st=$(job_states "${j#*:}")
    if [[ $st =~ ^COMPLETED\ x[0-9]+$ ]]; then t_pass "${j%%:*} job ${j#*:}: $st"
    else t_fail "${j%%:*} job ${j#*:} completed" "states: '$st'; logs: $(tail -n 3 "$TMP"/png/logs/*.log "$TMP"/vid/logs/*.log 2>/dev/null | tr '\n' ' ' | head -c 600)"; fi
done
tasks=$(grep -l '^chunk [0-3]/4 of ' "$TMP"/png/logs/render_*.log 2>/dev/null | wc -l)
[ "$tasks" = 4 ] && t_pass "4 array tasks ran (one log each)" || t_fail "4 array tasks ran" "$tasks logs"

# ---- results ----------------------------------------------------------------------------
frames=$(cd "$TMP/png/frames" 2>/dev/null && ls frame_*.png | tr '\n' ' ')
want=$(cd "$TMP/ref" && ls frame_*.png | tr '\n' ' ')
[ -n "$frames" ] && [ "$frames" = "$want" ] && t_pass "every frame rendered (12)" || t_fail "every frame rendered" "got: $frames"
bad=""; for f in "$TMP"/ref/frame_*.png; do cmp -s "$f" "$TMP/png/frames/$(basename "$f")" || bad+=" $(basename "$f")"; done
[ -z "$bad" ] && t_pass "farm PNGs byte-identical to the single-process render" || t_fail "farm PNGs identical" "$bad"
[ -e "$TMP/png/done/stitched" ] && t_pass "png stitch ran after the array" || t_fail "png stitch ran"
grep -q '^12 frames, at most 3 a task: 4 tasks' <<<"$(cat "$TMP/submit_png.out" 2>/dev/null)" &&
    t_pass "--frames-per-task 3: 12 frames in 4 tasks" || t_fail "--frames-per-task 3" "$(cat "$TMP/submit_png.out" 2>/dev/null)"
E=$TMP/png/final.mp4
if [ -f "$E" ]; then
    cmp -s "$E" "$TMP/ref.mp4" && t_pass "png stitch (mmdrender encode) = a single-process render's video, byte for byte" ||
        t_fail "encoded stitch = single-process video" "$(ls -l "$E" "$TMP/ref.mp4" | tr '\n' ' ')"
    OUT=$(ffprobe -v error -count_packets -show_entries stream=codec_type,avg_frame_rate,nb_read_packets,duration -of compact=p=0 "$E" 2>&1)
    t_grep "encoded stitch: 12 frames at 30 fps (60 fps, step 2)" 'codec_type=video\|avg_frame_rate=30/1\|duration=0\.400000\|nb_read_packets=12'
    t_grep "encoded stitch carries the song, cut to 0.4 s" 'codec_type=audio.*duration=0\.4'
else
    t_fail "png stitch wrote final.mp4" "$(cat "$TMP"/png/logs/stitch_*.log 2>/dev/null | tail -n 5)"
fi

F=$TMP/vid/final.mp4
if [ -f "$F" ] && command -v ffprobe >/dev/null; then
    n=$(ffprobe -v error -select_streams v -count_packets -show_entries stream=nb_read_packets -of csv=p=0 "$F")
    [ "$n" = 12 ] && t_pass "stitched video has every frame (12)" || t_fail "stitched video frames" "got $n"
    ffmpeg -loglevel error -i "$F" -map 0:v -pix_fmt rgb24 -f framemd5 - | grep -v '^#' | awk -F, '{print $NF}' >"$TMP/v.md5"
    ffmpeg -loglevel error -framerate 30 -pattern_type glob -i "$TMP/ref/frame_*.png" -pix_fmt rgb24 -f framemd5 - | grep -v '^#' | awk -F, '{print $NF}' >"$TMP/p.md5"
    [ -s "$TMP/v.md5" ] && cmp -s "$TMP/v.md5" "$TMP/p.md5" && t_pass "stitched lossless video = single-process PNGs, frame for frame" ||
        t_fail "stitched video = reference" "$(diff "$TMP/v.md5" "$TMP/p.md5" | head -3)"
    adur=$(ffprobe -v error -select_streams a -show_entries stream=duration -of csv=p=0 "$F")
    awk -v a="${adur:-0}" 'BEGIN { d = a - 0.4; if (d < 0) d = -d; exit !(d < 0.03) }' &&
        t_pass "stitched video carries the scene's audio, cut to 0.4 s" || t_fail "stitched audio" "duration '$adur'"
    OUT=$(ffprobe -v error -select_streams v -show_entries stream=avg_frame_rate -of csv=p=0 "$F")
    t_grep "concat stitch plays at 60/2 = 30 fps" '^30/1$'
else
    t_fail "stitched video" "$F missing: $(cat "$TMP"/vid/logs/stitch_*.log 2>/dev/null | tail -n 5)"
fi
G=$TMP/pmm/final.mp4
if [ -f "$G" ]; then
    cmp -s "$G" "$TMP/ref_p.mp4" && t_pass "project stitch (encode) = a single-process render of the .pmm, byte for byte" ||
        t_fail "project stitch = single-process video" "$(ls -l "$G" "$TMP/ref_p.mp4" | tr '\n' ' ')"
    OUT=$(ffprobe -v error -count_packets -show_entries stream=codec_type,avg_frame_rate,nb_read_packets,duration -of compact=p=0 "$G" 2>&1)
    t_grep "project stitch: 12 frames at 30 fps (60 fps, step 2)" 'codec_type=video\|avg_frame_rate=30/1\|duration=0\.400000\|nb_read_packets=12'
    t_grep "project stitch carries the project's song, cut to 0.4 s" 'codec_type=audio.*duration=0\.4'
else
    t_fail "project stitch wrote final.mp4" "$(cat "$TMP"/pmm/logs/stitch_*.log 2>/dev/null | tail -n 5)"
fi
t_done
