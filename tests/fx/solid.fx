// tests/fx/solid.fx - an object effect of our own (issue 27): every material
// of the model one opaque magenta, drawn by MME's technique for "object" and
// for "object_ss"; no edge technique (and no technique without MMDPass, which
// nanoem tries for every kind): the built-in edge stays.
// tests/cli/object_effects.sh: every pixel the effect changes is magenta
// (tests/util/png_check.py only_colour).
float4x4 WorldViewProj : WORLDVIEWPROJECTION;

float4 VS(float4 pos : POSITION) : POSITION { return mul(pos, WorldViewProj); }
float4 PS() : COLOR0 { return float4(1, 0, 1, 1); }

technique Main < string MMDPass = "object"; >
{ pass P { VertexShader = compile vs_2_0 VS(); PixelShader = compile ps_2_0 PS(); } }
technique MainSS < string MMDPass = "object_ss"; >
{ pass P { VertexShader = compile vs_2_0 VS(); PixelShader = compile ps_2_0 PS(); } }
