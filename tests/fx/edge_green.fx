// tests/fx/edge_green.fx - an object effect of our own (issue 27): only an
// "edge" technique, drawing the model's edge opaque green. MMD hands MME's edge
// pass the hull (each vertex moved along its normal by its edge width), so the
// effect transforms POSITION as it comes; no "object" technique: the model's
// colour is the built-in pass's. tests/cli/object_effects.sh: every pixel
// that changes is green, and no pixel of the built-in edge colour is left.
float4x4 WorldViewProj : WORLDVIEWPROJECTION;

float4 VS(float4 pos : POSITION) : POSITION { return mul(pos, WorldViewProj); }
float4 PS() : COLOR0 { return float4(0, 1, 0, 1); }

technique EdgeTec < string MMDPass = "edge"; >
{ pass DrawEdge { VertexShader = compile vs_2_0 VS(); PixelShader = compile ps_2_0 PS(); } }
