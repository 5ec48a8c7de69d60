#!/usr/bin/env bash
# tests/fuzz/valgrind_demo.sh BUILD - `make valgrind-demo`: render a few frames of
# the generated demo under valgrind (memcheck, leak check) and fail on any error
# or definite leak in our code. Mesa/LLVM keep reachable caches until exit and
# hold a few "possibly lost" blocks, so only definite leaks count.
# Skips (exit 0) when valgrind, the render CLI or the demo generator is absent.
set -u
build=${1:-build}
mmd=$build/mmdrender mkdemo=$build/tools/mkdemo
if ! command -v valgrind >/dev/null; then echo "valgrind-demo: skipped (no valgrind)"; exit 0; fi
if [ ! -x "$mkdemo" ] || [ ! -f scenes/demo.ini ] || ! "$mmd" --help 2>&1 | grep -q -- '--output'; then
    echo "valgrind-demo: skipped ($mmd render command, $mkdemo or scenes/demo.ini not there yet)"; exit 0
fi
if ldd "$mmd" 2>/dev/null | grep -q 'libasan'; then
    echo "valgrind-demo: $mmd is an ASan build; use a plain build (make valgrind-demo BUILD=build)"; exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$mkdemo" "$tmp/demo" >/dev/null || { echo "valgrind-demo: mkdemo failed"; exit 1; }
cp scenes/demo.ini "$tmp/scene.ini"
frames=${VALGRIND_FRAMES:-0-2}
echo "valgrind-demo: frames $frames of the demo at 160x90 under valgrind (slow: LLVM JIT runs under memcheck)"
valgrind --tool=memcheck --leak-check=full --errors-for-leak-kinds=definite --show-leak-kinds=definite \
    --error-exitcode=1 --track-origins=no --num-callers=30 --log-file="$tmp/vg.log" \
    --suppressions=tests/fuzz/valgrind.supp \
    "$mmd" "$tmp/scene.ini" -o "$tmp/out/" --size 160x90 --aa 1 --threads 1 --frames "$frames" \
    --no-audio --progress none
rc=$?
grep -E 'ERROR SUMMARY|definitely lost|indirectly lost|possibly lost' "$tmp/vg.log" | sed 's/^==[0-9]*== /valgrind-demo: /'
n=$(ls "$tmp/out" 2>/dev/null | grep -c '\.png$')
echo "valgrind-demo: $n PNG(s) written, exit $rc"
if [ $rc -ne 0 ]; then
    cp "$tmp/vg.log" "$build/valgrind-demo.log" 2>/dev/null && echo "valgrind-demo: full log in $build/valgrind-demo.log"
    grep -A 25 -E 'Invalid|uninitialised|definitely lost in' "$tmp/vg.log" | head -n 60
fi
exit $rc
