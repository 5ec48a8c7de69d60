#!/bin/bash
# farm/submit.sh - render a scene on a Slurm cluster: an array of chunk tasks, then one
# stitch job that starts only if every chunk succeeded (afterok).
#
#   farm/submit.sh SCENE OUTDIR [options] [-- RENDER OPTIONS...]
#     -n, --chunks N      array size: N contiguous chunks (default 8)
#     -k, --frames-per-task K  array size from the range instead: ceil(frames / K) chunks of at
#                         most K frames (`mmdrender SCENE --print-plan` counts the frames)
#     --fps N             output rate for render and stitch (default: the scene's)
#     --video [EXT]       chunk videos + mmdrender concat (default ext mp4); default: PNG frames
#                         stitched by mmdrender encode into OUTDIR/final.mp4
#     --cpus N            CPUs per render task (default 2; mmdrender --threads follows it)
#     --partition P       Slurm partition;  --time T  time limit per task (e.g. 01:00:00)
#     --audio FILE|none   stitch audio (default: the scene's [audio], a .pmm's song);  --audio-offset S
#     --final FILE        stitch output (default OUTDIR/final.EXT)
#     --mmdrender PATH    binary every node runs (default: `command -v mmdrender`)
#     --dry-run           print the two sbatch commands instead of running them
# Everything after -- goes to every render task and to the stitch (e.g. -- --size 1920x1080
# --frames 0-599:2). Prints "render JOBID" and "stitch JOBID". OUTDIR must be on a file system
# all nodes share.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
usage() { sed -n '2,23p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit "${1:-1}"; }
[ $# -ge 2 ] || usage
case $1 in -h|--help) usage 0 ;; esac
abs() { case $1 in /*) printf '%s\n' "$1" ;; *) printf '%s/%s\n' "$PWD" "$1" ;; esac; }
scene=$(abs "$1"); out=$(abs "$2"); shift 2
[ -f "$scene" ] || { echo "submit.sh: $scene: no such scene file" >&2; exit 2; }
chunks=8 per_task="" fps="" mode=png ext=mp4 cpus=2 partition="" tlimit="" audio="" offset="" final="" dry=0
mmd=$(command -v mmdrender || true)
while [ $# -gt 0 ]; do
    case $1 in
    -n|--chunks) chunks=$2; shift 2 ;;
    -k|--frames-per-task) per_task=$2; shift 2 ;;
    --fps) fps=$2; shift 2 ;;
    --video) mode=video; shift; if [ $# -gt 0 ] && [[ $1 != -* ]]; then ext=$1; shift; fi ;;
    --cpus) cpus=$2; shift 2 ;;
    --partition) partition=$2; shift 2 ;;
    --time) tlimit=$2; shift 2 ;;
    --audio) audio=$2; shift 2 ;;
    --audio-offset) offset=$2; shift 2 ;;
    --start-time) echo "submit.sh: --start-time is not needed any more (the stitch reads it from the scene)" >&2; shift 2 ;;
    --final) final=$(abs "$2"); shift 2 ;;
    --mmdrender) mmd=$(abs "$2"); shift 2 ;;
    --dry-run) dry=1; shift ;;
    --) shift; break ;;
    -h|--help) usage 0 ;;
    *) echo "submit.sh: unknown option $1" >&2; usage ;;
    esac
done
[[ $chunks =~ ^[1-9][0-9]*$ ]] || { echo "submit.sh: --chunks wants a positive number" >&2; exit 1; }
[ -z "$per_task" ] || [[ $per_task =~ ^[1-9][0-9]*$ ]] || { echo "submit.sh: --frames-per-task wants a positive number" >&2; exit 1; }
[ -n "$mmd" ] || { echo "submit.sh: no mmdrender on PATH; use --mmdrender PATH" >&2; exit 1; }
[ -n "$fps" ] && set -- "$@" --fps "$fps"
if [ -n "$per_task" ]; then
    plan=$("$mmd" "$scene" --print-plan -q "$@") || { echo "submit.sh: mmdrender --print-plan failed" >&2; exit 2; }
    frames=$(sed -n 's/.*"frames":\([0-9]*\).*/\1/p' <<<"$plan")
    [ -n "$frames" ] || { echo "submit.sh: no frame count in: $plan" >&2; exit 2; }
    chunks=$(((frames + per_task - 1) / per_task))
    echo "$frames frames, at most $per_task a task: $chunks tasks"
fi
[ -n "$audio" ] && [ "$audio" != none ] && audio=$(abs "$audio")
mkdir -p "$out/logs"
env="ALL,MMD_SCENE=$scene,MMD_OUT=$out,MMD_CHUNKS=$chunks,MMD_MODE=$mode,MMD_EXT=$ext,MMDRENDER=$mmd"
# Slurm's --export splits on commas, so render options travel in a file-free variable with
# spaces only; options that need a comma cannot be passed this way.
render_args="$*"
case $render_args in *,*) echo "submit.sh: render options may not contain ',' (sbatch --export)" >&2; exit 1 ;; esac
common=()
[ -n "$partition" ] && common+=(--partition "$partition")
[ -n "$tlimit" ] && common+=(--time "$tlimit")
env+=",MMD_ARGS=$render_args"
stitch_env="$env"
[ -n "$audio" ] && stitch_env+=",MMD_AUDIO=$audio"
[ -n "$offset" ] && stitch_env+=",MMD_AUDIO_OFFSET=$offset"
[ -n "$final" ] && stitch_env+=",MMD_FINAL=$final"
render_cmd=(sbatch --parsable --array="0-$((chunks - 1))" --cpus-per-task="$cpus" "${common[@]}"
            --output="$out/logs/render_%A_%a.log" --export="$env" "$here/render.sbatch")
if [ $dry = 1 ]; then
    printf '%q ' "${render_cmd[@]}"; echo
    printf '%q ' sbatch --parsable --dependency=afterok:RENDER_JOBID --kill-on-invalid-dep=yes "${common[@]}" \
        --output="$out/logs/stitch_%j.log" --export="$stitch_env" "$here/stitch.sbatch"; echo
    exit 0
fi
rjob=$("${render_cmd[@]}")
rjob=${rjob%%;*}
sjob=$(sbatch --parsable --dependency="afterok:$rjob" --kill-on-invalid-dep=yes "${common[@]}" \
        --output="$out/logs/stitch_%j.log" --export="$stitch_env" "$here/stitch.sbatch")
sjob=${sjob%%;*}
echo "render $rjob"
echo "stitch $sjob"
