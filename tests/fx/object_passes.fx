// tests/fx/object_passes.fx - an object effect of our own (issue 27 stage 3b):
// one technique per MMDPass kind and material case, each with one pass, so
// MME's technique choice (renderer/fx/select.h) and the renderer's per-object
// pass hook (gl/render.h) can be checked: tests/unit/test_fx_select.c.
float4x4 WorldViewProj : WORLDVIEWPROJECTION;
float4 Diffuse : DIFFUSE < string Object = "Geometry"; >;
texture ObjTex : MATERIALTEXTURE;
sampler ObjSamp = sampler_state { texture = <ObjTex>; };

float4 VS(float4 pos : POSITION, float2 uv : TEXCOORD0, out float2 oUV : TEXCOORD0) : POSITION
{
    oUV = uv;
    return mul(pos, WorldViewProj);
}
float4 PS_Tex(float2 uv : TEXCOORD0) : COLOR0 { return tex2D(ObjSamp, uv) * Diffuse; }
float4 PS_Plain(float2 uv : TEXCOORD0) : COLOR0 { return Diffuse; }
float4 PS_Black(float2 uv : TEXCOORD0) : COLOR0 { return float4(0, 0, 0, 1); }

// object, textured materials (technique 0)
technique ObjectTex < string MMDPass = "object"; bool UseTexture = true; >
{ pass P { VertexShader = compile vs_2_0 VS(); PixelShader = compile ps_2_0 PS_Tex(); } }
// object, every other material (technique 1)
technique ObjectPlain < string MMDPass = "object"; >
{ pass P { VertexShader = compile vs_2_0 VS(); PixelShader = compile ps_2_0 PS_Plain(); } }
// object_ss, toon materials only (models) (technique 2)
technique ObjectSS < string MMDPass = "object_ss"; bool UseToon = true; >
{ pass P { VertexShader = compile vs_2_0 VS(); PixelShader = compile ps_2_0 PS_Plain(); } }
// edge: drawn black by the effect (technique 3)
technique Edge < string MMDPass = "edge"; >
{ pass P { VertexShader = compile vs_2_0 VS(); PixelShader = compile ps_2_0 PS_Black(); } }
// shadow: the effect draws nothing (MME's empty-technique idiom) (technique 4)
technique Shadow < string MMDPass = "shadow"; > { }
// no zplot technique: the built-in self-shadow map
