// tests/fx/ff_solid.fx - an object effect of our own (issue 27): solid.fx with
// pixel shaders alone, as そぼろ's Stealth.fx writes its passes. Direct3D 9 then
// transforms the vertices with its fixed-function pipeline; the translator
// writes that vertex shader (renderer/fx/fixed.c). tests/cli/object_effects.sh:
// the same pixels as solid.fx, byte for byte.
float4 PS() : COLOR0 { return float4(1, 0, 1, 1); }

technique Main { pass P { PixelShader = compile ps_2_0 PS(); } }
technique MainSS < string MMDPass = "object_ss"; > { pass P { PixelShader = compile ps_2_0 PS(); } }
