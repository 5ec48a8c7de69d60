// tests/fx/shadow_green.fx - an object effect of our own (issue 27): the
// ground shadow drawn by the effect's "shadow" technique in one opaque green.
// MME hands that technique WORLD with the flattening onto the ground along
// the light already in it, so POSITION x WORLDVIEWPROJECTION lands where MMD
// draws its own ground shadow. No other technique: the model keeps its
// built-in look. tests/cli/object_effects.sh: green exactly where the
// built-in ground shadow was.
float4x4 WorldViewProj : WORLDVIEWPROJECTION;

float4 VS(float4 pos : POSITION) : POSITION { return mul(pos, WorldViewProj); }
float4 PS() : COLOR0 { return float4(0, 1, 0, 1); }

technique ShadowTec < string MMDPass = "shadow"; >
{ pass DrawShadow { VertexShader = compile vs_2_0 VS(); PixelShader = compile ps_2_0 PS(); } }
