#!/usr/bin/env bash
# tests/cli/effect.sh - `mmdrender effect FILE.fx [--json]` through the real binary:
# text and JSON of a small effect with an include, located errors, exit codes.
. tests/util/cli_lib.sh
[ -x "$MMD" ] || { echo "not ok 1 - $MMD missing"; echo "# counts: 0 passed, 1 failed, 0 skipped"; exit 1; }

mkdir -p "$TMP/fx/Shader"
cat >"$TMP/fx/Shader/Common.fxsub" <<'FX'
float4x4 WorldViewProj : WORLDVIEWPROJECTION;
#define TEX(n) texture2D n : RENDERCOLORTARGET < float2 ViewportRatio = {1.0, 0.5}; string Format = "A16B16G16R16F"; >;
FX
cat >"$TMP/fx/post.fx" <<'FX'
#include "shader\common.fxsub"
float Gain : CONTROLOBJECT < string name = "(self)"; string item = "Si"; > = 1;
TEX(ScnMap)
sampler ScnSamp = sampler_state { texture = <ScnMap>; MinFilter = LINEAR; AddressU = CLAMP; };
float4 PS(float2 uv : TEXCOORD0) : COLOR { return tex2D(ScnSamp, uv) * Gain; }
technique Post < string Script = "RenderColorTarget0=ScnMap;Pass=Main;"; > {
    pass Main { ZEnable = FALSE; PixelShader = compile ps_3_0 PS(); }
}
FX
printf 'float a;\ntechnique T {\n  pass P { ZEnable TRUE; }\n}\n' >"$TMP/fx/bad.fx"

t_expect "text: exit 0" 0 "$MMD" effect "$TMP/fx/post.fx"
t_grep "text: counts" "effect, 1 technique\(s\), 2 parameter\(s\), 1 texture\(s\), 1 sampler\(s\), 2 file\(s\) read"
t_grep "text: pass and shader" "pass Main: vs - , ps ps_3_0 PS, 1 state\(s\)"
t_grep "text: semantic" "float Gain : CONTROLOBJECT, 2 annotation\(s\)"
t_expect "json: exit 0" 0 "$MMD" effect --json "$TMP/fx/post.fx"
if command -v python3 >/dev/null; then
    J=$(python3 -c 'import json,sys; d=json.loads(sys.stdin.read())
t=d["techniques"][0]; p=t["passes"][0]; g=d["parameters"][1]; x=d["textures"][0]; s=d["samplers"][0]
print(t["name"], t["annotations"][0]["value"], p["name"], p["ps"]["entry"], p["vs"], g["semantic"],
      g["annotations"][1]["value"], x["name"], x["annotations"][0]["value"], x["file"].endswith("/post.fx"), x["line"],
      s["states"][0]["value"], p["ok"], p["error"])' <<<"$OUT")
    OUT=$J
    t_grep "json: values" "^Post RenderColorTarget0=ScnMap;Pass=Main; Main PS None CONTROLOBJECT Si ScnMap \[1, 0.5\] True 3 ScnMap True None$" # a pixel shader alone: fixed-function vertices
else
    t_skip "json: values" "no python3"
fi
# ok and error per pass (issue 27 stage 2): one pass translates and links, one names its error's
# line; an HLSL error fails every pass of its file (the effect compiles as one, as with fxc)
cat >"$TMP/fx/two.fx" <<'FX'
float4x4 WVP : WORLDVIEWPROJECTION;
float4 Diffuse : DIFFUSE;
struct VS_OUT { float4 Pos : POSITION; float2 Tex : TEXCOORD0; };
VS_OUT VS(float4 Pos : POSITION, float2 Tex : TEXCOORD0) { VS_OUT o; o.Pos = mul(Pos, WVP); o.Tex = Tex; return o; }
float4 PS(float2 Tex : TEXCOORD0, uniform bool lit) : COLOR0 { return lit ? Diffuse : float4(Tex, 0, 1); }
technique T { pass Good { VertexShader = compile vs_2_0 VS(); PixelShader = compile ps_2_0 PS(true); }
              pass Bad { VertexShader = compile vs_2_0 VS(); PixelShader = compile ps_2_0 PS(); } }
FX
sed 's/return lit ? Diffuse/return lit ? nosuch/' "$TMP/fx/two.fx" >"$TMP/fx/hlsl_error.fx"
t_expect "per pass: exit 0 when a pass fails" 0 "$MMD" effect --json "$TMP/fx/two.fx"
if command -v python3 >/dev/null; then
    OUT=$(python3 -c 'import json,sys; d=json.loads(sys.stdin.read()); p=d["techniques"][0]["passes"]
print(p[0]["ok"], p[0]["error"], p[1]["ok"], p[1]["error"].split("/")[-1])' <<<"$OUT")
    t_grep "per pass: ok, and the first error (FILE:LINE)" "^True None False two.fx:7: PS has 1 uniform parameter\(s\), compile passes 0 argument\(s\)$"
else
    t_skip "per pass: ok and the first error" "no python3"
fi
t_expect "per pass: text" 0 "$MMD" effect "$TMP/fx/two.fx"
t_grep "per pass: text ok" "^    ok: translates and links$"
t_expect "HLSL error: exit 0" 0 "$MMD" effect "$TMP/fx/hlsl_error.fx"
t_grep "HLSL error: glslang's first error at its FILE:LINE" "^    error: .*hlsl_error.fx:5: 'nosuch' : unknown variable$"
# --fx-cache: glslang's SPIR-V by content hash; a second run reads it, a corrupt entry is rewritten
C="$TMP/fxcache"
t_expect "cache: first run" 0 "$MMD" effect --json --fx-cache "$C" "$TMP/fx/two.fx"
first=$OUT
n=$(ls "$C"/*.spv 2>/dev/null | wc -l)
[ "$n" -ge 2 ] && t_pass "cache: entries written ($n)" || t_fail "cache: entries written" "$n"
ls -a "$C" | grep -q '^\.tmp\|^\..*-' && t_fail "cache: no temporary left" "$(ls -a "$C")" || t_pass "cache: no temporary left"
f=$(ls "$C"/*.spv | head -1)
size=$(stat -c %s "$f")
head -c 30 "$f" >"$f.cut" && mv "$f.cut" "$f"
t_expect "cache: run over a corrupt entry" 0 "$MMD" effect --json --fx-cache "$C" "$TMP/fx/two.fx"
[ "$OUT" = "$first" ] && t_pass "cache: same output from the cache" || t_fail "cache: same output" "$OUT"
[ "$(stat -c %s "$f")" = "$size" ] && t_pass "cache: the corrupt entry is rewritten" || t_fail "cache: corrupt entry rewritten" "$(stat -c %s "$f") != $size"
t_expect "cache: --fx-cache needs a folder" 1 "$MMD" effect "$TMP/fx/two.fx" --fx-cache
t_expect "syntax error: exit 2" 2 "$MMD" effect "$TMP/fx/bad.fx"
t_grep "syntax error: file, line, what" "bad.fx:3: expected = after the state's name, got 'TRUE'"
printf '#include "sub/HgShadow_ObjHeader.fxh"\nfloat a;\n' >"$TMP/fx/noinclude.fx"
t_expect "missing include: exit 2" 2 "$MMD" effect "$TMP/fx/noinclude.fx"
t_grep "missing include: named once, as an include, with the reason" \
    "noinclude.fx:1: #include \"sub/HgShadow_ObjHeader.fxh\": not found: no 'sub' in '.*fx' \(also tried"
t_expect "missing file: exit 2" 2 "$MMD" effect "$TMP/fx/none.fx"
t_expect "no file: usage" 1 "$MMD" effect
t_expect "unknown option: usage" 1 "$MMD" effect --bogus "$TMP/fx/post.fx"
# a name cannot carry terminal escapes (printed as \xNN): the file's name, and a bad token in an error
cp "$TMP/fx/post.fx" "$TMP/fx/e"$'\033'"[2J.fx"
printf 'technique T\033]0;x\007 { }\n' >"$TMP/fx/esc.fx"
{ "$MMD" effect "$TMP/fx/e"$'\033'"[2J.fx"; "$MMD" effect "$TMP/fx/esc.fx"; } >"$TMP/esc.out" 2>&1
if grep -q $'\033' "$TMP/esc.out"; then t_fail "no raw escape reaches the terminal" "$(od -c "$TMP/esc.out" | head -3)"
elif grep -qF 'e\x1b[2J.fx: effect' "$TMP/esc.out" && grep -qF "got '\x1b'" "$TMP/esc.out"; then t_pass "no raw escape reaches the terminal (\\x1b shown)"
else t_fail "escapes shown as \\x1b" "$(cat "$TMP/esc.out")"; fi
# hostile effects (issue 27, "bounded"): each ends with its error; none crashes or hangs
H="$TMP/hostile"
mkdir -p "$H"
for i in $(seq 0 19); do printf '#include "d%d.fxsub"\nfloat v%d;\n' $((i + 1)) "$i" >"$H/d$i.fxsub"; done
printf 'float last;\n' >"$H/d20.fxsub"
printf '#include "d0.fxsub"\n' >"$H/deep.fx"
t_expect "hostile: 21 nested includes: exit 2" 2 "$MMD" effect "$H/deep.fx"
t_grep "hostile: the include depth named" 'd14\.fxsub:1: #include nests deeper than 16'
{ printf '#define a0 x x\n'; for i in $(seq 1 39); do printf '#define a%d a%d a%d\n' "$i" $((i - 1)) $((i - 1)); done
  printf 'float v = a39;\n'; } >"$H/bomb.fx"
t_expect "hostile: macro bomb: exit 2" 2 "$MMD" effect --json "$H/bomb.fx"
t_grep "hostile: macro bomb named" 'bomb\.fx:41: macro expansion makes more than 4194304 tokens \(a macro bomb\?\)'
cat >"$H/unroll.fx" <<'FX'
float4 VS(float4 p : POSITION) : POSITION { return p; }
float4 PS(float2 t : TEXCOORD0) : COLOR0
{
    float4 s = 0;
    [unroll] for (int i = 0; i < 100000; i++) s += sin(t.x * i) * cos(t.y + i);
    return s;
}
technique T { pass P { VertexShader = compile vs_3_0 VS(); PixelShader = compile ps_3_0 PS(); } }
FX
t_expect "hostile: [unroll] of 100000 translates (glslang keeps the loop)" 0 "$MMD" effect "$H/unroll.fx"
t_grep "hostile: [unroll] pass ok" '^    ok: translates and links$'
t_expect "hostile: a glslang crasher: exit 0" 0 "$MMD" effect --json tests/fuzz/regressions/fxpass/glslang_segv_return_undeclared.fx
t_grep "hostile: the crash is the pass's error" '"ok":false,"error":"[^"]*glslang_segv_return_undeclared\.fx:9: glslang crashed on this HLSL \(signal 11\)"'
t_done
