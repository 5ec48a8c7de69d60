// tests/fx/subset.fx - an object effect of our own (issue 27): MME's Subset
// annotation, the material indices a technique is for: material 0 opaque
// red, every other material opaque blue (the second technique takes what the
// first's Subset leaves). tests/fx/subset0.fx defines SUBSET_ONLY: only the
// red technique, the other materials keep the built-in look;
// tests/fx/subset_rest.fx defines SUBSET_REST_FIRST: the same picture from
// Subset = "1-" (blue) first and a technique for every material (red) after.
// tests/cli/object_effects.sh compares the three.
float4x4 WorldViewProj : WORLDVIEWPROJECTION;

float4 VS(float4 pos : POSITION) : POSITION { return mul(pos, WorldViewProj); }
float4 Red() : COLOR0 { return float4(1, 0, 0, 1); }
float4 Blue() : COLOR0 { return float4(0, 0, 1, 1); }

#ifdef SUBSET_REST_FIRST
technique Rest < string MMDPass = "object"; string Subset = "1-"; >
{ pass P { VertexShader = compile vs_2_0 VS(); PixelShader = compile ps_2_0 Blue(); } }
technique Any < string MMDPass = "object"; >
{ pass P { VertexShader = compile vs_2_0 VS(); PixelShader = compile ps_2_0 Red(); } }
#else
technique First < string MMDPass = "object"; string Subset = "0"; >
{ pass P { VertexShader = compile vs_2_0 VS(); PixelShader = compile ps_2_0 Red(); } }
#ifndef SUBSET_ONLY
technique Rest < string MMDPass = "object"; >
{ pass P { VertexShader = compile vs_2_0 VS(); PixelShader = compile ps_2_0 Blue(); } }
#endif
#endif
