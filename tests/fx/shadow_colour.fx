// tests/fx/shadow_colour.fx - an object effect of our own (issue 27): the
// ground shadow drawn by the effect's "shadow" technique as MME's full.fx
// draws it: POSITION x WORLDVIEWPROJECTION (WORLD flattened onto the ground
// along the light) in GROUNDSHADOWCOLOR (alpha 0.5 when translucent).
// tests/cli/object_effects.sh: the very bytes of MMD's built-in ground
// shadow, opaque and translucent (its stencil darkens each pixel once).
float4x4 WorldViewProj : WORLDVIEWPROJECTION;
float4 GroundShadowColor : GROUNDSHADOWCOLOR;

float4 VS(float4 pos : POSITION) : POSITION { return mul(pos, WorldViewProj); }
float4 PS() : COLOR0 { return GroundShadowColor; }

technique ShadowTec < string MMDPass = "shadow"; >
{ pass DrawShadow { VertexShader = compile vs_2_0 VS(); PixelShader = compile ps_2_0 PS(); } }
