#!/usr/bin/env bash
# tools/check_func_len.sh [MAX] - no function in core/ or renderer/ longer than MAX lines
# (default 120, the house rule), counted from the line that names it to its closing brace.
#
# A function is what the house style makes of one: a line at column 0 that has a '(' and does
# not end in ';' (the signature, possibly continued), then '{' and, at the end, '}' both at
# column 0. Prints each offender as "N lines  file:line  signature"; exit 1 if any.
set -u
cd "$(dirname "$0")/.."
max=${1:-120}
files=$(git ls-files 'core/*.c' 'core/*.cpp' 'renderer/*.c' 2>/dev/null)
[ -n "$files" ] || files=$(find core renderer -name '*.c' -o -name '*.cpp')
# shellcheck disable=SC2086 # file names have no spaces
awk -v max="$max" '
FNR == 1 { open = 0 }
/^[A-Za-z_].*\(/ && !/;[ \t]*$/ { sig = $0; sigline = FNR }
/^\{/ { open = 1; from = sigline; name = sig }
/^\}/ && open {
    n = FNR - from + 1
    if (n > max) { printf "%d lines  %s:%d  %s\n", n, FILENAME, from, name; bad = 1 }
    open = 0
}
END { exit bad }' $files || { echo "function length: the lines above are over $max (split them; STYLE: one job each)"; exit 1; }
