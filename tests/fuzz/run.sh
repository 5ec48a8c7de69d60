#!/usr/bin/env bash
# tests/fuzz/run.sh BUILD SECONDS TARGET... - run libFuzzer targets, FUZZ_JOBS at a time
# (default: the number of CPUs), each for SECONDS; the summary lines come in the order given.
# New inputs go to BUILD/fuzz-work/<t> (the committed corpus and the seeds of
# tests/fuzz/targets.sh are only read);
# crashers to BUILD/fuzz-crash/<t>/ - copy them into tests/fuzz/regressions/<t>/.
# FUZZ_FLAGS adds libFuzzer flags (later ones win), e.g. FUZZ_FLAGS=-malloc_limit_mb=2200.
# Prints one summary line per target (execs, cov, ft, corpus) and exits 1 on any crash.
# A target that calls a library the real build isolates (tests/fuzz/targets.sh: fxpass, glslang)
# runs in libFuzzer's fork mode; each artifact is replayed and sorted by its first frame of our
# tree: the library's are listed as findings, ours fail the run.
set -u
. tests/fuzz/targets.sh
build=$1 secs=$2; shift 2
fail=0
summary="$build/fuzz-summary.txt"
: >"$summary"
# classify T BIN FILE: "ours" or "library" for an artifact of T, by the first frame of our tree in
# the report its replay prints (tests/fuzz/targets.sh, fuzz_isolated_source).
classify() {
    local iso frame
    iso=$(fuzz_isolated_source "$1")
    frame=$("$2" -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=1024 "$3" 2>&1 |
        grep -E '^ +#[0-9]+ ' | grep -m 1 -F " $PWD/") # a source line, not the binary's "(path+0x..)"
    if [ -n "$iso" ] && [[ $frame == *"$PWD/$iso"* ]]; then echo library; else echo ours; fi
}
one() { # target: runs it, leaves its summary line in $build/fuzz-$t.line and its rc in .rc
    local t=$1 bin="$build/fuzz/fuzz_$1"
    local work="$build/fuzz-work/$t" crash="$build/fuzz-crash/$t" log="$build/fuzz-$t.log"
    mkdir -p "$work" "$crash" "tests/fuzz/regressions/$t"
    local seeds
    mapfile -t seeds < <(fuzz_seed_dirs "$t"; fuzz_shared_seeds "$t" "$build/fuzz-seed/$t")
    local dict=()
    [ -f "tests/fuzz/$t.dict" ] && dict=(-dict="tests/fuzz/$t.dict")
    [ -f "$build/fuzz/$t.dict" ] && dict=(-dict="$build/fuzz/$t.dict") # generated (Makefile: scene.dict, fxpass.dict)
    local stamp="$build/fuzz-$t.start"
    : >"$stamp"
    # shellcheck disable=SC2046 # the target's flags are words
    "$bin" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=1024 \
        -print_final_stats=1 -artifact_prefix="$crash/" "${dict[@]}" $(fuzz_target_flags "$t") ${FUZZ_FLAGS:-} \
        "$work" "${seeds[@]}" "tests/fuzz/regressions/$t" >"$log" 2>&1
    local rc=$? execs last cov ft corp lib=0 a
    while IFS= read -r -d '' a; do # each artifact of this run (fork mode keeps going past them)
        if [ "$(classify "$t" "$bin" "$a")" = library ]; then
            lib=$((lib + 1))
            echo "LIBRARY FINDING (isolated in the real build): $a" >>"$log"
        else
            rc=1
            echo "ERROR: our code: $a" >>"$log"
        fi
    done < <(find "$crash" -type f -newer "$stamp" -print0)
    execs=$(sed -nE 's/^stat::number_of_executed_units: *([0-9]+).*/\1/p' "$log" | tail -n 1)
    last=$(grep -E '^#[0-9]+' "$log" | tail -n 1)
    [ -n "$execs" ] || execs=$(sed -nE 's/^#([0-9]+).*/\1/p' <<<"$last") # fork mode: "#N: cov: ..."
    cov=$(sed -nE 's/.* cov: ([0-9]+).*/\1/p' <<<"$last")
    ft=$(sed -nE 's/.* ft: ([0-9]+).*/\1/p' <<<"$last")
    corp=$(sed -nE 's/.* corp: ([0-9]+).*/\1/p' <<<"$last")
    printf '%-8s %4ss  execs %-10s cov %-6s ft %-6s corpus %-5s rc %d%s\n' \
        "$t" "$secs" "${execs:-?}" "${cov:-?}" "${ft:-?}" "${corp:-?}" "$rc" \
        "$([ $lib -gt 0 ] && echo "  ($lib library findings in $crash)")" >"$build/fuzz-$t.line"
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
        grep -E 'ERROR: |SUMMARY: |runtime error|Test unit written' "$build/fuzz-$t.log" | grep -v '^LIBRARY' |
            head -n 8 | sed 's/^/#   /'
    fi
    rm -f "$build/fuzz-$t.rc" "$build/fuzz-$t.line"
done
exit $fail
