// tests/fx/self_shadow.fx - MME's self-shadow receiver in the shape of its
// full.fx object_ss technique (our own code, the same algorithm): the vertex
// shader puts the position through the Object = "Light" matrix (ZCalcTex),
// the pixel shader divides by w, maps x/y to the shadow map's uv (D3D: v
// down) and compares z with the map MMD binds at register(s0) (R: z/w),
// full.fx's SKII1 (mode 1) or SKII2 x v (mode 2, parthf) with its 0.3 bias.
// Drawn for self-shadow receivers only (UseSelfShadow): lit pure green,
// shadowed pure blue, so a test reads the map's verdict per pixel
// (test_render object_ss_reads_the_shadow_map_at_s0).
float4x4 WorldViewProj : WORLDVIEWPROJECTION;
float4x4 LightWorldViewProj : WORLDVIEWPROJECTION < string Object = "Light"; >;
bool parthf;
#define SKII1 1500
#define SKII2 8000
sampler DefSampler : register(s0);

struct VS_SS {
    float4 Pos : POSITION;
    float4 ZCalcTex : TEXCOORD0;
};

VS_SS Receive_VS(float4 Pos : POSITION)
{
    VS_SS Out;
    Out.Pos = mul(Pos, WorldViewProj);
    Out.ZCalcTex = mul(Pos, LightWorldViewProj);
    return Out;
}

float4 Receive_PS(VS_SS IN) : COLOR0
{
    float3 z = IN.ZCalcTex.xyz / IN.ZCalcTex.w;
    float2 uv = float2(1.0f + z.x, 1.0f - z.y) * 0.5f;
    float comp = 1;
    if (!any(saturate(uv) != uv)) {
        float k = parthf ? SKII2 * uv.y : SKII1;
        comp = 1 - saturate(max(z.z - tex2D(DefSampler, uv).r, 0.0f) * k - 0.3f);
    }
    return comp > 0.5f ? float4(0, 1, 0, 1) : float4(0, 0, 1, 1);
}

technique Receiver < string MMDPass = "object_ss"; bool UseSelfShadow = true; >
{
    pass P { VertexShader = compile vs_2_0 Receive_VS(); PixelShader = compile ps_2_0 Receive_PS(); }
}
