// tests/fx/sky.fx - a ScriptOrder "preprocess" effect of our own (issue 27): MME runs it before
// the objects, into the screen: the top half of the cleared frame cyan (D3D's texture y = 0 is the
// top row), depth untouched, so every object is drawn over it as without it.
// tests/cli/post_effects_project.sh: every pixel it changes is cyan, and only background ones.
float Script : STANDARDSGLOBAL <
    string ScriptOutput = "color";
    string ScriptClass = "scene";
    string ScriptOrder = "preprocess";
> = 0.8;

void SkyVS(in float4 Position : POSITION, in float4 Texcoord : TEXCOORD0,
           out float4 oPosition : POSITION, out float2 oTexcoord : TEXCOORD0)
{
    oPosition = Position;
    oTexcoord = Texcoord.xy;
}

float4 SkyPS(in float2 coord : TEXCOORD0) : COLOR
{
    clip(0.5 - coord.y);
    return float4(0, 1, 1, 1);
}

technique Sky <
    string Script = "RenderColorTarget0=; RenderDepthStencilTarget=; Pass=Draw;";
> {
    pass Draw < string Script = "Draw=Buffer;"; > {
        ZEnable = FALSE;
        ZWriteEnable = FALSE;
        AlphaBlendEnable = FALSE;
        VertexShader = compile vs_2_0 SkyVS();
        PixelShader = compile ps_2_0 SkyPS();
    }
}
