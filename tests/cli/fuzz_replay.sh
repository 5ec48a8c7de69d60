#!/usr/bin/env bash
# tests/cli/fuzz_replay.sh BUILD - replay the fuzz seed corpus and every kept crasher
# (tests/fuzz/{corpus,regressions}/<target>/ and the seeds of tests/fuzz/targets.sh; the targets are
# the Makefile's FUZZ_ALL) through the gcc-built replay programs
# ($(BUILD)/fuzz/replay_<target>, built by `make tests`; sanitizers with SAN=1).
# A target whose code has not landed yet has no replay program: skipped.
. tests/util/cli_lib.sh
. tests/fuzz/targets.sh
for t in $(sed -n 's/^FUZZ_ALL := //p' Makefile); do
    bin="$BUILD/fuzz/replay_$t"
    if [ ! -x "$bin" ]; then
        t_skip "replay $t" "skipped: $bin not built (its reader has not landed)"
        continue
    fi
    mapfile -t dirs < <(fuzz_seed_dirs "$t")
    [ -d "tests/fuzz/regressions/$t" ] && dirs+=("tests/fuzz/regressions/$t")
    if [ ${#dirs[@]} -eq 0 ]; then
        t_skip "replay $t" "skipped: no corpus or regressions for $t"
        continue
    fi
    n=$(find "${dirs[@]}" -type f ! -name '.*' | wc -l)
    t_expect "replay $t: $n inputs from ${dirs[*]} without a crash" 0 "$bin" "${dirs[@]}"
    t_grep "replay $t: every input ran" "replay: $n inputs, no crash"
done
t_done
