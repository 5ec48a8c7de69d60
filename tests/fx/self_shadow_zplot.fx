// tests/fx/self_shadow_zplot.fx - self_shadow.fx's receiver plus MME's
// z-plot (full.fx's ZplotTec shape, our own code): each caster drawn into
// MMD's self-shadow map by the effect, z/w of the Object = "Light" matrix in
// R, as MMD's own map holds it (nanoem: the ShadowCamera's R32F colour
// image). The renderer keeps the depth of the draw (test_render
// zplot_technique_draws_the_casters).
#include "self_shadow.fx"

struct VS_Z {
    float4 Pos : POSITION;
    float4 Tex : TEXCOORD0;
};

VS_Z ZPlot_VS(float4 Pos : POSITION)
{
    VS_Z Out;
    Out.Pos = mul(Pos, LightWorldViewProj);
    Out.Tex = Out.Pos;
    return Out;
}

float4 ZPlot_PS(float4 Tex : TEXCOORD0) : COLOR0 { return float4(Tex.z / Tex.w, 0, 0, 1); }

technique ZplotTec < string MMDPass = "zplot"; >
{
    pass ZValuePlot {
        AlphaBlendEnable = FALSE;
        VertexShader = compile vs_2_0 ZPlot_VS();
        PixelShader = compile ps_2_0 ZPlot_PS();
    }
}
