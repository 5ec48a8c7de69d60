#!/usr/bin/env bash
# tests/fuzz/run.sh BUILD SECONDS TARGET... - run libFuzzer targets one after another.
# New inputs go to BUILD/fuzz-work/<t> (the committed corpus is only read);
# crashers to BUILD/fuzz-crash/<t>/ - copy them into tests/fuzz/regressions/<t>/.
# FUZZ_FLAGS adds libFuzzer flags (later ones win), e.g. FUZZ_FLAGS=-malloc_limit_mb=2200.
# Prints one summary line per target (execs, cov, ft, corpus) and exits 1 on any crash.
set -u
build=$1 secs=$2; shift 2
fail=0
summary="$build/fuzz-summary.txt"
: >"$summary"
for t in "$@"; do
    bin="$build/fuzz/fuzz_$t"
    [ -x "$bin" ] || { echo "fuzz: $bin not built, skipped"; continue; }
    work="$build/fuzz-work/$t" crash="$build/fuzz-crash/$t"
    mkdir -p "$work" "$crash" "tests/fuzz/corpus/$t" "tests/fuzz/regressions/$t"
    dict=()
    [ -f "tests/fuzz/$t.dict" ] && dict=(-dict="tests/fuzz/$t.dict")
    [ -f "$build/fuzz/$t.dict" ] && dict=(-dict="$build/fuzz/$t.dict") # generated (Makefile: scene.dict)
    log="$build/fuzz-$t.log"
    echo "fuzz: $t for ${secs}s (log $log)"
    "$bin" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=1024 \
        -print_final_stats=1 -artifact_prefix="$crash/" "${dict[@]}" ${FUZZ_FLAGS:-} \
        "$work" "tests/fuzz/corpus/$t" "tests/fuzz/regressions/$t" >"$log" 2>&1
    rc=$?
    execs=$(sed -nE 's/^stat::number_of_executed_units: *([0-9]+).*/\1/p' "$log" | tail -n 1)
    last=$(grep -E '^#[0-9]+' "$log" | tail -n 1)
    cov=$(sed -nE 's/.* cov: ([0-9]+).*/\1/p' <<<"$last")
    ft=$(sed -nE 's/.* ft: ([0-9]+).*/\1/p' <<<"$last")
    corp=$(sed -nE 's/.* corp: ([0-9]+).*/\1/p' <<<"$last")
    line=$(printf '%-8s %4ss  execs %-10s cov %-6s ft %-6s corpus %-5s rc %d' \
        "$t" "$secs" "${execs:-?}" "${cov:-?}" "${ft:-?}" "${corp:-?}" "$rc")
    echo "$line" | tee -a "$summary"
    if [ $rc -ne 0 ]; then
        fail=1
        grep -E 'ERROR: |SUMMARY: |runtime error|Test unit written' "$log" | head -n 8 | sed 's/^/#   /'
    fi
done
exit $fail
