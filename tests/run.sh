#!/usr/bin/env bash
# tests/run.sh BUILD_DIR - run every test program and script, add up the counts,
# and print the suite's closing line "N passed, N failed, N skipped".
# MMD_TESTS=REGEX runs only the tests whose name (test_x, cli_x) matches it
# (.ci/run: the GL tests once more against the EGL-only build).
set -u
build=${1:-build}
shift || true
passed=0 failed=0 skipped=0 broken=()
log_dir="$build/test-out"
mkdir -p "$log_dir"
run_one() { # name, command...
    local name=$1; shift
    [ -n "${MMD_TESTS:-}" ] && ! [[ $name =~ $MMD_TESTS ]] && return
    local log="$log_dir/$name.log"
    "$@" >"$log" 2>&1
    local rc=$?
    local line
    line=$(grep -E '^# counts: [0-9]+ passed, [0-9]+ failed, [0-9]+ skipped' "$log" | tail -n 1)
    if [ -z "$line" ]; then
        echo "not ok - $name (exit $rc, no counts line; see $log)"
        tail -n 20 "$log" | sed 's/^/#   /'
        failed=$((failed + 1)); broken+=("$name"); return
    fi
    read -r p f s < <(sed -E 's/^# counts: ([0-9]+) passed, ([0-9]+) failed, ([0-9]+) skipped.*/\1 \2 \3/' <<<"$line")
    passed=$((passed + p)); failed=$((failed + f)); skipped=$((skipped + s))
    if [ "$f" -gt 0 ] || [ $rc -ne 0 ]; then
        grep -E '^(not ok|#   )' "$log" | head -n 40
        [ "$f" -eq 0 ] && { failed=$((failed + 1)); echo "not ok - $name exited $rc"; }
        broken+=("$name")
    fi
    grep -E '# SKIP' "$log" | sed "s/^/$name: /" | head -n 5
    printf '%-28s %3d passed, %d failed, %d skipped\n' "$name" "$p" "$f" "$s"
}
for t in "$build"/tests/test_*; do
    [ -x "$t" ] || continue
    run_one "$(basename "$t")" "$t"
done
for s in tests/cli/*.sh; do
    [ -f "$s" ] || continue
    run_one "cli_$(basename "$s" .sh)" bash "$s" "$build"
done
[ ${#broken[@]} -gt 0 ] && echo "failing: ${broken[*]}"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
