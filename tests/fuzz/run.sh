#!/usr/bin/env bash
# tests/fuzz/run.sh BUILD SECONDS TARGET... - run libFuzzer targets, FUZZ_JOBS at a time
# (default: the number of CPUs), each for SECONDS; the summary lines come in the order given.
# New inputs go to BUILD/fuzz-work/<t> (the committed corpus is only read);
# crashers to BUILD/fuzz-crash/<t>/ - copy them into tests/fuzz/regressions/<t>/.
# FUZZ_FLAGS adds libFuzzer flags (later ones win), e.g. FUZZ_FLAGS=-malloc_limit_mb=2200.
# Prints one summary line per target (execs, cov, ft, corpus) and exits 1 on any crash.
set -u
build=$1 secs=$2; shift 2
fail=0
summary="$build/fuzz-summary.txt"
: >"$summary"
one() { # target: runs it, leaves its summary line in $build/fuzz-$t.line and its rc in .rc
    local t=$1 bin="$build/fuzz/fuzz_$1"
    local work="$build/fuzz-work/$t" crash="$build/fuzz-crash/$t" log="$build/fuzz-$t.log"
    mkdir -p "$work" "$crash" "tests/fuzz/corpus/$t" "tests/fuzz/regressions/$t"
    local dict=()
    [ -f "tests/fuzz/$t.dict" ] && dict=(-dict="tests/fuzz/$t.dict")
    [ -f "$build/fuzz/$t.dict" ] && dict=(-dict="$build/fuzz/$t.dict") # generated (Makefile: scene.dict)
    "$bin" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=1024 \
        -print_final_stats=1 -artifact_prefix="$crash/" "${dict[@]}" ${FUZZ_FLAGS:-} \
        "$work" "tests/fuzz/corpus/$t" "tests/fuzz/regressions/$t" >"$log" 2>&1
    local rc=$? execs last cov ft corp
    execs=$(sed -nE 's/^stat::number_of_executed_units: *([0-9]+).*/\1/p' "$log" | tail -n 1)
    last=$(grep -E '^#[0-9]+' "$log" | tail -n 1)
    cov=$(sed -nE 's/.* cov: ([0-9]+).*/\1/p' <<<"$last")
    ft=$(sed -nE 's/.* ft: ([0-9]+).*/\1/p' <<<"$last")
    corp=$(sed -nE 's/.* corp: ([0-9]+).*/\1/p' <<<"$last")
    printf '%-8s %4ss  execs %-10s cov %-6s ft %-6s corpus %-5s rc %d\n' \
        "$t" "$secs" "${execs:-?}" "${cov:-?}" "${ft:-?}" "${corp:-?}" "$rc" >"$build/fuzz-$t.line"
    echo "$rc" >"$build/fuzz-$t.rc"
}
jobs=${FUZZ_JOBS:-$(nproc 2>/dev/null || echo 1)}
[[ $jobs =~ ^[1-9][0-9]*$ ]] || jobs=1
targets=()
for t in "$@"; do
    if [ -x "$build/fuzz/fuzz_$t" ]; then targets+=("$t"); else echo "fuzz: $build/fuzz/fuzz_$t not built, skipped"; fi
done
for t in "${targets[@]}"; do
    while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
    rm -f "$build/fuzz-$t.rc" "$build/fuzz-$t.line"
    echo "fuzz: $t for ${secs}s (log $build/fuzz-$t.log)"
    one "$t" &
done
wait
for t in "${targets[@]}"; do
    rc=$(cat "$build/fuzz-$t.rc" 2>/dev/null || echo 1)
    [ -f "$build/fuzz-$t.line" ] && tee -a "$summary" <"$build/fuzz-$t.line"
    if [ "$rc" -ne 0 ]; then
        fail=1
        grep -E 'ERROR: |SUMMARY: |runtime error|Test unit written' "$build/fuzz-$t.log" | head -n 8 | sed 's/^/#   /'
    fi
    rm -f "$build/fuzz-$t.rc" "$build/fuzz-$t.line"
done
exit $fail
