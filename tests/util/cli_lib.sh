# tests/util/cli_lib.sh - helpers for CLI test scripts (sourced, not run).
# A script: . tests/util/cli_lib.sh; t_ok "name" cmd...; ... ; t_done
BUILD=${1:-build}
MMD=${MMD:-$BUILD/mmdrender}
SHARED_ASSETS=${SHARED_ASSETS:-../shared/assets}
T_PASS=0 T_FAIL=0 T_SKIP=0 T_N=0
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
# Under LSan: OSMesa (Mesa 22) leaks its context state at exit and x265 3.5 its param strings;
# not ours. LSan stays on for everything else.
printf 'leak:libOSMesa.so\nleak:libx265.so\n' >"$TMP/lsan.supp"
export LSAN_OPTIONS="suppressions=$TMP/lsan.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
t_pass() { T_N=$((T_N+1)); T_PASS=$((T_PASS+1)); echo "ok $T_N - $1"; }
t_fail() { T_N=$((T_N+1)); T_FAIL=$((T_FAIL+1)); echo "not ok $T_N - $1"; [ -n "${2:-}" ] && echo "#   $2"; }
t_skip() { T_N=$((T_N+1)); T_SKIP=$((T_SKIP+1)); echo "ok $T_N - $1 # SKIP $2"; }
# t_expect NAME EXPECTED_RC CMD... : run, compare exit code; output in $OUT
t_expect() {
    local name=$1 want=$2; shift 2
    OUT=$("$@" 2>&1); local rc=$?
    # a sanitizer runtime's fatal line is kept whatever its place (tests/run.sh reruns on it)
    local san; san=$(grep -m 1 -o 'LeakSanitizer has encountered a fatal error' <<<"$OUT")
    if [ "$rc" -eq "$want" ]; then t_pass "$name"; else t_fail "$name" "exit $rc, wanted $want: $(head -c 300 <<<"$OUT")${san:+ ... $san}"; fi
}
# t_threads_chunks NAME SCENE DIR ARGS... : SCENE rendered with ARGS (a frame range) by 1 and 3
# threads and as chunks 0/2 + 1/2 into DIR/1, DIR/3, DIR/c; one check that every frame is the same
# bytes in all three
t_threads_chunks() {
    local name=$1 scene=$2 dir=$3 ok=1 f; shift 3
    t_expect "$name, 1 thread" 0 "$MMD" "$scene" -o "$dir/1/" "$@" --threads 1
    t_expect "$name, 3 threads" 0 "$MMD" "$scene" -o "$dir/3/" "$@" --threads 3
    t_expect "$name, chunk 0/2" 0 "$MMD" "$scene" -o "$dir/c/" "$@" --chunk 0/2
    t_expect "$name, chunk 1/2" 0 "$MMD" "$scene" -o "$dir/c/" "$@" --chunk 1/2
    for f in "$dir"/1/*.png; do
        cmp -s "$f" "$dir/3/${f##*/}" && cmp -s "$f" "$dir/c/${f##*/}" || ok=0
    done
    [ -e "$dir/1/${f##*/}" ] || ok=0
    [ $ok -eq 1 ] && t_pass "$name: the same bytes across --threads 1/3 and chunks 0/2 1/2" \
        || t_fail "$name: the same bytes across --threads 1/3 and chunks 0/2 1/2"
}
# t_grep NAME PATTERN : $OUT matches
t_grep() { if grep -qE -- "$2" <<<"$OUT"; then t_pass "$1"; else t_fail "$1" "output lacks /$2/: $(head -c 300 <<<"$OUT")"; fi; }
t_done() { echo "# counts: $T_PASS passed, $T_FAIL failed, $T_SKIP skipped"; [ "$T_FAIL" -eq 0 ]; }
# mp4_atoms FILE : the top-level atoms of an MP4/MOV in file order ("ftyp moov mdat ...")
mp4_atoms() {
    local f=$1 off=0 size len
    len=$(stat -c %s "$f")
    while [ "$off" -lt "$len" ]; do
        size=$(od -An -tu1 -j "$off" -N4 "$f" | awk '{ print $1 * 16777216 + $2 * 65536 + $3 * 256 + $4 }')
        printf '%s ' "$(dd if="$f" bs=1 skip=$((off + 4)) count=4 status=none)"
        [ "$size" -ge 8 ] || break
        off=$((off + size))
    done
    echo
}
# demo_scene WHAT [TOOL...]: the generated demo in $TMP/demo (tools/mkdemo) and its scene copied
# to S=$TMP/scene.ini; false after one skip of WHAT (the binary, mkdemo, a TOOL or python3
# missing) or one failure (mkdemo did not run): the script then ends with `|| { t_done; exit; }`.
demo_scene() {
    local what=$1 t; shift
    for t in "$MMD" "$BUILD/tools/mkdemo" "$@"; do
        [ -x "$t" ] || { t_skip "$what" "skipped: $t not built"; return 1; }
    done
    command -v python3 >/dev/null || { t_skip "$what" "skipped: python3 missing"; return 1; }
    "$BUILD/tools/mkdemo" "$TMP/demo" >/dev/null 2>&1 || { t_fail "mkdemo generates the demo assets"; return 1; }
    cp scenes/demo.ini "$TMP/scene.ini"
    S=$TMP/scene.ini
}
