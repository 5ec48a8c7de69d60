#!/usr/bin/env bash
# tools/bench.sh BUILD - run every benchmark program (tools/bench_*.c) and print its figures.
set -u
build=${1:-build}
found=0
for b in "$build"/tools/bench_*; do
    [ -x "$b" ] || continue
    [ -f "tools/$(basename "$b").sh" ] && continue # driven by its shell script below
    found=1
    echo "== $(basename "$b")"
    "$b" || echo "($(basename "$b") exited $?)"
done
[ $found -eq 1 ] || echo "no benchmarks built yet"
# shell benchmarks (tools/bench_*.sh) get the build folder
for b in tools/bench_*.sh; do
    [ -f "$b" ] || continue
    echo "== $(basename "$b" .sh)"
    bash "$b" "$build" || echo "($(basename "$b") exited $?)"
done
