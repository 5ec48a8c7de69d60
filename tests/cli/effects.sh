#!/usr/bin/env bash
# tests/cli/effects.sh BUILD - the effect options (issue 18) end to end on the generated demo:
# usage errors, [effects] keys, off = the plain bytes, determinism across threads and chunks.
. tests/util/cli_lib.sh
demo_scene "effects cli" || { t_done; exit; }
SMALL=(--size 160x90 --aa 1 --progress none --frames 12)

# --- usage ---------------------------------------------------------------------
t_expect "--help lists the effects" 0 "$MMD" --help
t_grep "--help names --glow" '--glow +AutoLuminous'
t_grep "--help names --ssaa" '--ssaa N'
t_expect "--ssaa 5 is a usage error" 1 "$MMD" "$S" -o "$TMP/x/" "${SMALL[@]}" --ssaa 5
t_grep "--ssaa error says the range" 'ssaa 1, 2, 3 or 4'
t_expect "--ssaa past 16384 px is a usage error" 1 "$MMD" "$S" -o "$TMP/x/" --size 9000x90 --ssaa 2 --frames 12
t_expect "--soft-shadow=soft is a usage error" 1 "$MMD" "$S" -o "$TMP/x/" "${SMALL[@]}" --soft-shadow=soft
{ cat "$S"; printf '\n[effects]\nglow = maybe\n'; } >"$TMP/bad.ini"
t_expect "bad [effects] value" 2 "$MMD" "$TMP/bad.ini" -o "$TMP/x/" "${SMALL[@]}"
t_grep "bad value names file:line" 'bad\.ini:[0-9]+: expected glow = on or off'

# --- off is the plain frame; glow on an unmarked model changes nothing ----------------
t_expect "plain frame" 0 "$MMD" "$S" -o "$TMP/plain/" "${SMALL[@]}"
{ cat "$S"; printf '\n[effects]\nglow = off\nsoft_shadow = off\ndiffusion = off\nssaa = 1\nfxaa = off\nglow_strength = 4\n'; } >"$TMP/off.ini"
t_expect "explicitly off" 0 "$MMD" "$TMP/off.ini" -o "$TMP/off/" "${SMALL[@]}"
cmp -s "$TMP/plain/frame_000012.png" "$TMP/off/frame_000012.png" && t_pass "effects off = the plain bytes" \
    || t_fail "effects off = the plain bytes"
t_expect "--glow on the demo" 0 "$MMD" "$S" -o "$TMP/glow/" "${SMALL[@]}" --glow
cmp -s "$TMP/plain/frame_000012.png" "$TMP/glow/frame_000012.png" \
    && t_pass "--glow on a model without AutoLuminous marks = the plain bytes" \
    || t_fail "--glow on a model without AutoLuminous marks = the plain bytes"
t_expect "--diffusion" 0 "$MMD" "$S" -o "$TMP/diff/" "${SMALL[@]}" --diffusion
cmp -s "$TMP/plain/frame_000012.png" "$TMP/diff/frame_000012.png" && t_fail "--diffusion changes the frame" \
    || t_pass "--diffusion changes the frame"

# --- every effect at once: deterministic across threads and chunks ---------------------
ALL=(--glow --soft-shadow=contact --diffusion --ssaa 2 --fxaa --size 160x90 --aa 1 --progress none --frames 10-13)
t_threads_chunks "all effects" "$S" "$TMP/all" "${ALL[@]}"
t_done
