// tests/fx/states_invert_top.fx - the same picture as invert_top.fx (the top
// half inverted, the bottom kept), made by render states alone: pass Mark
// writes no colour (ColorWriteEnable = 0) and marks the bottom half's stencil
// (StencilFunc ALWAYS, StencilPass REPLACE, clip() drops the top half); pass
// Invert draws white over the frame with BlendOp SUBTRACT (src - dst = 1 - c)
// where the stencil is NOT 1, writing RED|GREEN|BLUE only (alpha kept), and
// its ZFunc (a global's D3D number, 8 = ALWAYS) passes every pixel.
float2 ViewportSize : VIEWPORTPIXELSIZE;
static float2 ViewportOffset = float2(0.5, 0.5) / ViewportSize;
float4 ClearColor = {0, 0, 0, 0};
float ClearDepth = 1.0;
int AlwaysFunc = 8;

float Script : STANDARDSGLOBAL <
    string ScriptOutput = "color";
    string ScriptClass = "scene";
    string ScriptOrder = "postprocess";
> = 0.8;

void QuadVS(in float4 Position : POSITION, in float4 Texcoord : TEXCOORD0,
            out float4 oPosition : POSITION, out float2 oTexcoord : TEXCOORD0)
{
    oPosition = Position;
    oTexcoord = Texcoord.xy + ViewportOffset;
}

float4 MarkPS(in float2 coord : TEXCOORD0) : COLOR
{
    clip(coord.y - 0.5); /* the bottom half (D3D: y = 0 is the top row) */
    return float4(1, 0, 1, 0);
}

float4 WhitePS(in float2 coord : TEXCOORD0) : COLOR
{
    return float4(1, 1, 1, 1);
}

technique StatesInvertTop <
    string Script =
        "RenderColorTarget0=;"
        "RenderDepthStencilTarget=;"
        "ClearSetColor=ClearColor;"
        "ClearSetDepth=ClearDepth;"
        "Clear=Color;"
        "Clear=Depth;"
        "ScriptExternal=Color;"
        "Pass=Mark;"
        "Pass=Invert;";
> {
    pass Mark < string Script = "Draw=Buffer;"; > {
        AlphaBlendEnable = false; ZEnable = false; ZWriteEnable = false;
        ColorWriteEnable = 0;
        StencilEnable = TRUE; StencilFunc = ALWAYS; StencilRef = 1; StencilPass = REPLACE;
        VertexShader = compile vs_3_0 QuadVS();
        PixelShader = compile ps_3_0 MarkPS();
    }
    pass Invert < string Script = "Draw=Buffer;"; > {
        AlphaBlendEnable = true; SrcBlend = ONE; DestBlend = ONE; BlendOp = SUBTRACT;
        ZEnable = true; ZWriteEnable = false; ZFunc = AlwaysFunc;
        ColorWriteEnable = RED | GREEN | BLUE;
        StencilEnable = TRUE; StencilFunc = NOTEQUAL; StencilRef = 0x01; StencilPass = KEEP;
        VertexShader = compile vs_3_0 QuadVS();
        PixelShader = compile ps_3_0 WhitePS();
    }
}
