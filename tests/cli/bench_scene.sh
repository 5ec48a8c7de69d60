#!/usr/bin/env bash
# tests/cli/bench_scene.sh - the bench scene generator (tools/mkbench.c) makes models of the sizes
# issue 17 names, they render, --stats reports the load and CPU fields, and bench_scene's per-pass
# profile accounts for the passes (figures themselves belong to `make bench-scene`, not to tests).
. tests/util/cli_lib.sh

d=$TMP/scene
t_expect "mkdemo" 0 "$BUILD/tools/mkdemo" "$d"
t_expect "mkbench" 0 "$BUILD/tools/mkbench" "$d"
t_expect "info dancer" 0 "$MMD" info "$d/dancer.pmx"
t_grep "dancer vertices" '^vertices: +25958 \(.*sdef 8000'
t_grep "dancer faces" '^faces: +40960$'
t_grep "dancer materials" '^materials: +30$'
t_grep "dancer rigid bodies" '^rigid bodies: +107$'
t_expect "info stage" 0 "$MMD" info "$d/stage.pmd"
t_grep "stage is a PMD" '^format: +PMD'
t_grep "stage textures" '^textures: +12$'
t_grep "stage faces" '^faces: +3300$'
t_expect "info moved dancer" 0 "$MMD" info "$d/dancer_x-21.pmx"
t_grep "moved dancer same counts" '^faces: +40960$'
t_expect "bench4 renders" 0 "$MMD" "$d/bench4.ini" -o null --size 96x54 --frames 60-61 --stats -q
t_grep "stats: load and CPU fields" '"frames":2,.*"load_s":[0-9.]+,"first_frame_s":[0-9.]+,"first_frame_cpu_s":[0-9.]+,"cpu_s":[0-9.]+\}'
# the profile: every pass that runs has a figure; the colour pass costs something
t_expect "bench_scene profile" 0 "$BUILD/tools/bench_scene" "$d/bench.ini" 96x54 4 1 60
t_grep "one-core table names the dancer" 'dancer1 +25958 '
t_grep "colour pass figure" 'colour +[0-9]+\.[0-9]+ \|'
t_grep "costliest materials table" '^costliest materials of the colour pass'  # rows depend on CPU timings (none may register at this size)
# a GPU backend: renders where a hardware EGL device exists, else exit 3 naming what is missing
OUT=$("$MMD" "$d/bench.ini" -o null --size 64x36 --frames 60-60 --gl egl-gpu -q 2>&1); rc=$?
if [ $rc -eq 0 ]; then t_pass "egl-gpu renders on this machine's GPU"
elif [ $rc -eq 3 ] && grep -q 'no GPU device' <<<"$OUT"; then t_pass "egl-gpu without a GPU: exit 3, says so"
else t_fail "egl-gpu" "exit $rc: $OUT"; fi
t_expect "bad --gl value" 1 "$MMD" "$d/bench.ini" -o null --gl vulkan
t_grep "bad --gl names the choices" 'expected osmesa, egl or egl-gpu'
t_done
