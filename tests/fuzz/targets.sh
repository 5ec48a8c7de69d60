# tests/fuzz/targets.sh - what a fuzz target needs beyond its name (sourced by run.sh and
# tests/cli/fuzz_replay.sh; the targets themselves are the Makefile's FUZZ_ALL).

# fuzz_seed_dirs T: the folders T reads seeds from (never written): corpus/T when it exists; the
# effect translator (fxpass) also takes the parser's corpus and our own effects (tests/fx).
fuzz_seed_dirs() {
    [ -d "tests/fuzz/corpus/$1" ] && echo "tests/fuzz/corpus/$1"
    case $1 in
    fxpass) printf '%s\n' tests/fuzz/corpus/fx tests/fx ;;
    esac
}

# fuzz_shared_seeds T DIR: for fxpass, every .fx/.fxsub of $SHARED_ASSETS/fx (../shared/assets/fx;
# licensed files: copied into DIR under the build folder, never into the repo, flat, without the
# textures beside them); prints DIR when it holds any. Other targets: nothing.
fuzz_shared_seeds() {
    local src="${SHARED_ASSETS:-../shared/assets}/fx"
    [ "$1" = fxpass ] && [ -d "$src" ] || return 0
    rm -rf "$2" && mkdir -p "$2"
    local i=0 f
    while IFS= read -r -d '' f; do
        cp "$f" "$2/shared_$i.${f##*.}" && i=$((i + 1))
    done < <(find "$src" -type f \( -iname '*.fx' -o -iname '*.fxsub' \) -print0 | sort -z)
    [ "$i" -gt 0 ] && echo "$2"
}

# fuzz_isolated_source T: the one file of ours through which T calls a library the real build runs
# in a child process (renderer/fx/isolate.c: glslang and SPIRV-Tools), "" for none. The fuzz
# build calls it in-process; a crash, hang, leak or blow-up whose first frame of our tree is this
# file is that library's (a finding, listed by run.sh: its input goes to regressions/T, where the
# replay of `make test` shows the real build making it an error of the pass), not a failure.
fuzz_isolated_source() {
    case $1 in
    fxpass) echo renderer/fx/hlsl_spirv.cpp ;;
    esac
}

# fuzz_target_flags T: libFuzzer flags of T before FUZZ_FLAGS. A target with an isolated library
# runs in fork mode, so one of the library's crashes does not end the run (run.sh sorts them).
fuzz_target_flags() {
    [ -n "$(fuzz_isolated_source "$1")" ] && echo "-fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1"
    return 0
}
