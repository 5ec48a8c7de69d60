// tests/fx/rw_array_cast.fx - blur weights as real effects declare them
// (issue 27's held-out corpus: Ikeno's ikGodray): a global array sized by
// its initializer list, "float4 W4[] = {...}", read as floats through
// DX9's array reinterpretation "(float[8])W4". glslang wants the size and
// has no array casts: core writes W4[2] and the cast as the list of W4's
// components in order, W4[0].x ... W4[1].w.
float2 ViewportSize : VIEWPORTPIXELSIZE;
texture2D ScnMap : RENDERCOLORTARGET;
sampler2D ScnSamp = sampler_state { texture = <ScnMap>; MinFilter = LINEAR; AddressU = CLAMP; };

float4 BlurWeightArray[] = {
    float4(0.0920246, 0.0902024, 0.0849494, 0.0768654),
    float4(0.0668236, 0.0558158, 0.0447932, 0.0345379),
};
static float BlurWeight[8] = (float[8])BlurWeightArray;
float Gain[] = { 1.0, 0.5 };

struct VS_OUTPUT { float4 Pos : POSITION; float2 Tex : TEXCOORD0; };

VS_OUTPUT VS(float4 Pos : POSITION, float2 Tex : TEXCOORD0)
{
    VS_OUTPUT Out;
    Out.Pos = Pos;
    Out.Tex = Tex + 0.5 / ViewportSize;
    return Out;
}

float4 PS(VS_OUTPUT In) : COLOR
{
    float4 c = tex2D(ScnSamp, In.Tex) * BlurWeight[0];
    [unroll] for (int i = 1; i < 8; i++)
        c += tex2D(ScnSamp, In.Tex + float2(i, 0) / ViewportSize) * BlurWeight[i];
    return c * Gain[1];
}

technique T { pass P { VertexShader = compile vs_3_0 VS(); PixelShader = compile ps_3_0 PS(); } }
