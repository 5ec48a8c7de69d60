#!/usr/bin/env bash
# tests/cli/faults.sh BUILD - the render CLI under faults: outputs that cannot be
# written (read-only folder, /dev/full, a full disk simulated with `ulimit -f`)
# stop with exit 5 (or 4 for the encoder) and leave no partial PNG or video;
# SIGTERM/SIGINT mid-render keep every reported PNG complete and finalise the
# video up to the last encoded frame; missing textures and unbound motion names
# warn once and the render goes on; a forged count is refused fast with exit 2.
# Assets are the fuzz seeds from our own writers (tests/fuzz/corpus/).
. tests/util/cli_lib.sh

if [ ! -x "$MMD" ] || ! "$MMD" --help 2>&1 | grep -q -- '--output'; then
    t_skip "render faults" "skipped: $MMD has no render command yet (branch cli)"
    t_done; exit
fi
model=tests/fuzz/corpus/pmx/v20_utf16.pmx motion=tests/fuzz/corpus/vmd/full.vmd
if [ ! -f "$model" ] || [ ! -f "$motion" ]; then
    t_skip "render faults" "skipped: fuzz seeds missing (make fuzz-corpus)"; t_done; exit
fi
mkdir -p "$TMP/m"
cp "$model" "$TMP/m/fixture.pmx"   # its three textures do not exist
cp "$motion" "$TMP/full.vmd"       # keys 'unknown_morph', which the model lacks
S=$TMP/scene.ini
printf '[output]\nwidth = 96\nheight = 64\nfps = 30\nantialias = 1\n[model]\nfile = m/fixture.pmx\nmotion = full.vmd\nphysics = off\n' >"$S"
SMALL=(--progress none)
leftovers() { find "$1" -name '.*part*' -o -name '*.tmp' 2>/dev/null | head -n 3; }
# A complete PNG ends with the IEND chunk (cheap enough for hundreds of files).
IEND=$(printf '\000\000\000\000IEND\256B`\202' | od -An -tx1 | tr -d ' \n')
png_ok() { [ "$(tail -c 12 "$1" 2>/dev/null | od -An -tx1 | tr -d ' \n')" = "$IEND" ]; }

# --- warnings that do not stop the render ------------------------------------
t_expect "missing textures and unbound names: the render goes on" 0 "$MMD" "$S" -o "$TMP/w/" "${SMALL[@]}" --frames 0-2
n=$(grep -c 'warning: texture' <<<"$OUT")
[ "$n" -eq 3 ] && t_pass "each of the 3 missing textures warned once over 3 frames" \
    || t_fail "each missing texture warned once" "$n texture warnings: $(grep -i texture <<<"$OUT" | head -n 5)"
n=$(grep -c 'match nothing' <<<"$OUT")
[ "$n" -eq 1 ] && t_pass "unbound motion names warned once" || t_fail "unbound motion names warned once" "$n warnings"
t_grep "the unbound name is given" 'unknown_morph'
n=$(ls "$TMP/w" | grep -c '\.png$')
[ "$n" -eq 3 ] && t_pass "3 frames written despite the warnings" || t_fail "3 frames written" "$(ls "$TMP/w")"

# --- forged count: refused at once, file and offset named --------------------
python3 - "$TMP/m/fixture.pmx" "$TMP/m/forged.pmx" <<'PY' 2>/dev/null || cp "$TMP/m/fixture.pmx" "$TMP/m/forged.pmx"
import struct, sys
d = bytearray(open(sys.argv[1], 'rb').read())
off = 17
for _ in range(4):                      # skip the four header texts
    off += 4 + struct.unpack_from('<i', d, off)[0]
struct.pack_into('<I', d, off, 8 * 1024 * 1024)   # vertex count at MMD_MAX_VERTICES
open(sys.argv[2], 'wb').write(d)
PY
sed 's#m/fixture.pmx#m/forged.pmx#' "$S" >"$TMP/forged.ini"
start=$(date +%s%N)
t_expect "forged vertex count: exit 2" 2 "$MMD" "$TMP/forged.ini" -o "$TMP/f/" "${SMALL[@]}" --frames 0
ms=$(( ($(date +%s%N) - start) / 1000000 ))
t_grep "forged count: file, offset and section named" 'forged\.pmx.*offset 0x[0-9a-f]+.*pmx\.vertex'
[ "$ms" -lt 5000 ] && t_pass "forged count refused in ${ms} ms" || t_fail "forged count refused fast" "${ms} ms"
[ -z "$(ls -A "$TMP/f" 2>/dev/null)" ] && t_pass "nothing written for bad input" || t_fail "nothing written for bad input" "$(ls -A "$TMP/f")"

# --- outputs that cannot be written ------------------------------------------
t_expect "PNGs under /dev/full (not a folder): exit 5" 5 "$MMD" "$S" -o /dev/full/frames/ "${SMALL[@]}" --frames 0
t_grep "the output path is named" '/dev/full'
if [ "$(id -u)" -ne 0 ]; then
    mkdir -p "$TMP/ro" && chmod 555 "$TMP/ro"
    t_expect "video in a read-only folder: exit 5" 5 "$MMD" "$S" -o "$TMP/ro/x.mp4" "${SMALL[@]}" --frames 0-2
    t_grep "read-only: the output is named" 'ro/x\.mp4'
    t_expect "PNGs in a read-only folder: exit 5" 5 "$MMD" "$S" -o "$TMP/ro/" "${SMALL[@]}" --frames 0-2
    [ -z "$(ls -A "$TMP/ro")" ] && t_pass "read-only folder left empty" || t_fail "read-only folder left empty" "$(ls -A "$TMP/ro")"
    chmod 755 "$TMP/ro"
else
    t_skip "read-only folder" "skipped: running as root, permissions are not enforced"
fi
# A full disk: every file is capped (SIGXFSZ ignored so writes fail with EFBIG).
mkdir -p "$TMP/full"
OUT=$( (ulimit -f 1; trap '' XFSZ; exec "$MMD" "$S" -o "$TMP/full/" --size 320x240 "${SMALL[@]}" --frames 0-4) 2>&1 ); rc=$?
[ $rc -eq 5 ] && t_pass "disk full while writing PNGs: exit 5" || t_fail "disk full while writing PNGs: exit 5" "exit $rc: $(head -c 300 <<<"$OUT")"
t_grep "disk full: the reason is given" 'File too large|No space|cannot write|write'
bad=0
for f in "$TMP"/full/*; do [ -e "$f" ] || continue; png_ok "$f" || bad=$((bad+1)); done
[ $bad -eq 0 ] && [ -z "$(leftovers "$TMP/full")" ] && t_pass "disk full: no partial PNG or temp file left" \
    || t_fail "disk full: no partial PNG left" "$(ls -A "$TMP/full")"
OUT=$( (ulimit -f 8; trap '' XFSZ; exec "$MMD" "$S" -o "$TMP/full/v.mp4" --size 320x240 "${SMALL[@]}" --frames 0-59) 2>&1 ); rc=$?
[ $rc -eq 5 ] && t_pass "disk full while encoding: exit 5 (output, not the encoder)" \
    || t_fail "disk full while encoding: exit 5" "exit $rc: $(head -c 300 <<<"$OUT")"
[ ! -e "$TMP/full/v.mp4" ] && [ -z "$(leftovers "$TMP/full")" ] && t_pass "disk full: no unplayable video left" \
    || t_fail "disk full: no unplayable video left" "$(ls -A "$TMP/full")"

# --- signals mid-render ------------------------------------------------------
# Progress (plain) reports frames once complete; after the signal every reported
# PNG must exist and be complete, and the video must play up to the last frame
# reported. (--frames 0-20000 cannot finish before the signal; a watchdog kills
# a run whose handler is broken. Not `timeout`: it signals the child twice.)
start_render() { # OUT LOG
    "$MMD" "$S" -o "$1" --size 320x240 --frames 0-20000 --threads 1 --progress plain >"$2" 2>&1 &
    pid=$!
    ( sleep 120; kill -9 $pid 2>/dev/null ) >/dev/null 2>&1 &
    watchdog=$!
    for _ in $(seq 100); do grep -q '^frame [0-9]' "$2" 2>/dev/null && break; sleep 0.1; done
    sleep 0.5
}
stop_render() { # SIG
    kill -"$1" $pid; wait $pid; rc=$?
    pkill -P $watchdog 2>/dev/null; kill $watchdog 2>/dev/null; wait $watchdog 2>/dev/null
}
for sig in TERM INT; do
    rm -rf "$TMP/sig"; mkdir -p "$TMP/sig"
    start_render "$TMP/sig/" "$TMP/sig.log"
    stop_render $sig
    [ $rc -eq 130 ] && t_pass "SIG$sig during PNGs exits 130" || t_fail "SIG$sig during PNGs exits 130" "exit $rc"
    done_n=$(sed -nE 's/^frame ([0-9]+)\/.*/\1/p' "$TMP/sig.log" | tail -n 1)
    bad=0 miss=0
    for i in $(seq 0 $(( ${done_n:-0} - 1 ))); do
        [ -f "$(printf '%s/sig/frame_%06d.png' "$TMP" "$i")" ] || miss=$((miss+1))
    done
    for f in "$TMP"/sig/*; do [ -e "$f" ] || continue; png_ok "$f" || bad=$((bad+1)); done
    last=$(ls "$TMP/sig" | tail -n 1)
    [ -n "$done_n" ] && [ $bad -eq 0 ] && [ $miss -eq 0 ] && [ -z "$(leftovers "$TMP/sig")" ] \
        && ffprobe -v error "$TMP/sig/$last" >/dev/null 2>&1 \
        && t_pass "SIG$sig: the $done_n reported PNGs (of $(ls "$TMP/sig" | wc -l) written) are complete" \
        || t_fail "SIG$sig: reported PNGs complete" "reported ${done_n:-none}, $miss missing, $bad bad: $(ls -A "$TMP/sig" | tail -n 3)"
    grep -q 'interrupted after' "$TMP/sig.log" && t_pass "SIG$sig: says it was interrupted" \
        || t_fail "SIG$sig: says it was interrupted" "$(tail -n 2 "$TMP/sig.log")"
done
start_render "$TMP/sig.mp4" "$TMP/sigv.log"
stop_render TERM
[ $rc -eq 130 ] && t_pass "SIGTERM during video exits 130" || t_fail "SIGTERM during video exits 130" "exit $rc"
done_n=$(sed -nE 's/^frame ([0-9]+)\/.*/\1/p' "$TMP/sigv.log" | tail -n 1)
pk=$(ffprobe -v error -count_packets -select_streams v:0 -show_entries stream=nb_read_packets -of csv=p=0 "$TMP/sig.mp4" 2>/dev/null)
[ -n "$pk" ] && [ -n "$done_n" ] && [ "$pk" -ge "$done_n" ] && [ "$pk" -le 20001 ] \
    && t_pass "interrupted video plays: $pk frames >= $done_n reported" \
    || t_fail "interrupted video plays up to the last reported frame" "packets '${pk}', reported '${done_n}'"
ffmpeg -v error -i "$TMP/sig.mp4" -f null - >/dev/null 2>&1 && t_pass "interrupted video decodes to the end" \
    || t_fail "interrupted video decodes to the end"
[ -z "$(leftovers "$TMP")" ] && t_pass "no temp files after the interrupts" || t_fail "no temp files after the interrupts" "$(leftovers "$TMP")"
t_done
