// tests/fx/object_only.fx - an object effect of our own (issue 27): only a
// technique for "object", every material opaque cyan. With the self-shadow
// on MMD draws object_ss; nanoem's Effect::findTechnique then takes the
// object technique (docs/effects.md "Passes of a drawable"), so the model is
// cyan in the demo (self-shadow on), not the built-in look.
// tests/cli/object_effects.sh (tests/util/png_check.py only_colour).
float4x4 WorldViewProj : WORLDVIEWPROJECTION;

float4 VS(float4 pos : POSITION) : POSITION { return mul(pos, WorldViewProj); }
float4 PS() : COLOR0 { return float4(0, 1, 1, 1); }

technique Main < string MMDPass = "object"; >
{ pass P { VertexShader = compile vs_2_0 VS(); PixelShader = compile ps_2_0 PS(); } }
