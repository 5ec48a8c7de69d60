// tests/fx/flat.fx - an object effect of our own (issue 27): every material
// drawn flat, unlit: its diffuse colour (DIFFUSE, Object "Geometry"), times
// its texture (MATERIALTEXTURE) where it has one; opaque. Techniques for
// "object" and "object_ss" (MME picks one per material by UseTexture), and an
// empty "edge" technique: MME's idiom to turn the model's edge off.
// tests/cli/object_effects.sh checks the pixels (tests/util/png_check.py flat).
float4x4 WorldViewProj : WORLDVIEWPROJECTION;
float4 MaterialDiffuse : DIFFUSE < string Object = "Geometry"; >;
texture ObjTex : MATERIALTEXTURE;
sampler ObjSamp = sampler_state { texture = <ObjTex>; MINFILTER = POINT; MAGFILTER = POINT; };

struct VS_OUT { float4 pos : POSITION; float2 uv : TEXCOORD0; };

VS_OUT VS(float4 pos : POSITION, float2 uv : TEXCOORD0)
{
    VS_OUT o;
    o.pos = mul(pos, WorldViewProj);
    o.uv = uv;
    return o;
}

float4 PS_Tex(float2 uv : TEXCOORD0) : COLOR0 { return float4(tex2D(ObjSamp, uv).rgb * MaterialDiffuse.rgb, 1); }
float4 PS_Flat(float2 uv : TEXCOORD0) : COLOR0 { return float4(MaterialDiffuse.rgb, 1); }

technique MainTex < string MMDPass = "object"; bool UseTexture = true; >
{ pass P { VertexShader = compile vs_2_0 VS(); PixelShader = compile ps_2_0 PS_Tex(); } }
technique Main < string MMDPass = "object"; >
{ pass P { VertexShader = compile vs_2_0 VS(); PixelShader = compile ps_2_0 PS_Flat(); } }
technique MainTexSS < string MMDPass = "object_ss"; bool UseTexture = true; >
{ pass P { VertexShader = compile vs_2_0 VS(); PixelShader = compile ps_2_0 PS_Tex(); } }
technique MainSS < string MMDPass = "object_ss"; >
{ pass P { VertexShader = compile vs_2_0 VS(); PixelShader = compile ps_2_0 PS_Flat(); } }
technique EdgeOff < string MMDPass = "edge"; > { }
