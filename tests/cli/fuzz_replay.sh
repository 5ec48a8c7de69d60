#!/usr/bin/env bash
# tests/cli/fuzz_replay.sh BUILD - replay the fuzz seed corpus and every kept crasher
# (tests/fuzz/{corpus,regressions}/<target>/) through the gcc-built replay programs
# ($(BUILD)/fuzz/replay_<target>, built by `make tests`; sanitizers with SAN=1).
# A target whose code has not landed yet has no replay program: skipped.
. tests/util/cli_lib.sh
for t in pmx pmd vmd vpd scene texture pmm x fx; do
    bin="$BUILD/fuzz/replay_$t"
    if [ ! -x "$bin" ]; then
        t_skip "replay $t" "skipped: $bin not built (its reader has not landed)"
        continue
    fi
    dirs=()
    for d in corpus regressions; do
        [ -d "tests/fuzz/$d/$t" ] && dirs+=("tests/fuzz/$d/$t")
    done
    if [ ${#dirs[@]} -eq 0 ]; then
        t_skip "replay $t" "skipped: no corpus or regressions for $t"
        continue
    fi
    n=$(find "${dirs[@]}" -type f ! -name '.*' | wc -l)
    t_expect "replay $t: $n inputs from ${dirs[*]} without a crash" 0 "$bin" "${dirs[@]}"
    t_grep "replay $t: every input ran" "replay: $n inputs, no crash"
done
t_done
