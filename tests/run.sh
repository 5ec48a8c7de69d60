#!/usr/bin/env bash
# tests/run.sh BUILD_DIR - run every test program and script, add up the counts,
# and print the suite's closing line "N passed, N failed, N skipped".
# MMD_TESTS=REGEX runs only the tests whose name (test_x, cli_x) matches it
# (.ci/run: the GL tests once more against the EGL-only build).
# MMD_TEST_JOBS=N runs N tests at once (default: the number of CPUs; every
# test works in its own temporary folder and log). Results are reported in the
# fixed order below whatever order they finish in, each with its seconds, so
# the slow ones are visible: wall seconds, then CPU seconds (user + system of
# the test and every process it waited for; timings are printed, never asserted).
set -u
build=${1:-build}
shift || true
jobs=${MMD_TEST_JOBS:-$(nproc 2>/dev/null || echo 1)}
[[ $jobs =~ ^[1-9][0-9]*$ ]] || jobs=1
passed=0 failed=0 skipped=0 broken=()
log_dir="$build/test-out"
mkdir -p "$log_dir"
names=() cmds=()
add() { # name, command...
    local name=$1; shift
    [ -n "${MMD_TESTS:-}" ] && ! [[ $name =~ $MMD_TESTS ]] && return
    names+=("$name")
    cmds+=("$(printf '%q ' "$@")")
}
for t in "$build"/tests/test_*; do
    [ -x "$t" ] || continue
    add "$(basename "$t")" "$t"
done
for s in tests/cli/*.sh; do
    [ -f "$s" ] || continue
    add "cli_$(basename "$s" .sh)" bash "$s" "$build"
done
# cpu_seconds FILE: the CPU seconds (user + system) of a shell's children from its `times` in FILE
# (`times` itself must run in that shell: a pipe or $(...) would be a fresh process with no children).
cpu_seconds() {
    tail -n 1 "$1" | awk '{ n = 0; for (i = 1; i <= NF; i++) { split($i, a, /[ms]/); n += a[1] * 60 + a[2] }
                            printf "%.1f", n }'
}
start_one() { # index: runs in the background, leaves NAME.log and NAME.rc (exit status, seconds, CPU seconds)
    local name=${names[$1]} t0=$SECONDS
    (
        eval "${cmds[$1]}" >"$log_dir/$name.log" 2>&1
        rc=$?
        times >"$log_dir/$name.times"
        echo "$rc $((SECONDS - t0)) $(cpu_seconds "$log_dir/$name.times")" >"$log_dir/$name.rc.part" &&
            mv "$log_dir/$name.rc.part" "$log_dir/$name.rc"
    ) &
}
report_one() { # index
    local name=${names[$1]} log="$log_dir/${names[$1]}.log" rc secs cpu line
    read -r rc secs cpu <"$log_dir/$name.rc"
    rm -f "$log_dir/$name.rc" "$log_dir/$name.times"
    line=$(grep -E '^# counts: [0-9]+ passed, [0-9]+ failed, [0-9]+ skipped' "$log" | tail -n 1)
    if [ -z "$line" ]; then
        echo "not ok - $name (exit $rc, no counts line; see $log)"
        tail -n 20 "$log" | sed 's/^/#   /'
        failed=$((failed + 1)); broken+=("$name"); return
    fi
    read -r p f s < <(sed -E 's/^# counts: ([0-9]+) passed, ([0-9]+) failed, ([0-9]+) skipped.*/\1 \2 \3/' <<<"$line")
    # LeakSanitizer's stop-the-world tracer can crash at a process's exit ("Tracer caught signal
    # 11", google/sanitizers#1170; seen on the EGL-only build, docs/building.md): a fault of the sanitizer
    # runtime, not of the test. Such a test runs once more, said; any other failure stands.
    if { [ "$f" -gt 0 ] || [ "$rc" -ne 0 ]; } && grep -q 'LeakSanitizer has encountered a fatal error' "$log"; then
        echo "# rerun: $name (LeakSanitizer's tracer crashed at a process exit; its log: $log.first)"
        mv "$log" "$log.first"
        eval "${cmds[$1]}" >"$log" 2>&1
        rc=$?
        line=$(grep -E '^# counts: [0-9]+ passed, [0-9]+ failed, [0-9]+ skipped' "$log" | tail -n 1)
        [ -n "$line" ] || line="# counts: 0 passed, 1 failed, 0 skipped"
        read -r p f s < <(sed -E 's/^# counts: ([0-9]+) passed, ([0-9]+) failed, ([0-9]+) skipped.*/\1 \2 \3/' <<<"$line")
    fi
    passed=$((passed + p)); failed=$((failed + f)); skipped=$((skipped + s))
    if [ "$f" -gt 0 ] || [ "$rc" -ne 0 ]; then
        grep -E '^(not ok|#   )' "$log" | head -n 40
        [ "$f" -eq 0 ] && { failed=$((failed + 1)); echo "not ok - $name exited $rc"; }
        broken+=("$name")
    fi
    grep -E '# SKIP' "$log" | sed "s/^/$name: /" | head -n 5
    printf '%-28s %3d passed, %d failed, %d skipped %5ds %7ss cpu\n' "$name" "$p" "$f" "$s" "$secs" "$cpu"
}
next=0 done_upto=0 running=0
while [ "$done_upto" -lt "${#names[@]}" ]; do
    while [ "$running" -lt "$jobs" ] && [ "$next" -lt "${#names[@]}" ]; do
        rm -f "$log_dir/${names[$next]}.rc"
        start_one "$next"; next=$((next + 1)); running=$((running + 1))
    done
    wait -n 2>/dev/null || true
    running=$(jobs -rp | wc -l)
    while [ "$done_upto" -lt "$next" ] && [ -f "$log_dir/${names[$done_upto]}.rc" ]; do
        report_one "$done_upto"; done_upto=$((done_upto + 1))
    done
done
[ ${#broken[@]} -gt 0 ] && echo "failing: ${broken[*]}"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
