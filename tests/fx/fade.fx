// tests/fx/fade.fx - the frame times its controller's Tr (CONTROLOBJECT
// "(self)", MME's rule: the accessory fade.x in the scene), times a loop's
// loop: LoopByCount runs the pass Count times, blended ONE + ONE, and only the
// pass whose LoopGetIndex is 0 adds the frame (the others add 0).
float2 ViewportSize : VIEWPORTPIXELSIZE;
static float2 ViewportOffset = float2(0.5, 0.5) / ViewportSize;
float4 ClearColor = {0, 0, 0, 0};
float ClearDepth = 1.0;
float Tr : CONTROLOBJECT < string name = "(self)"; string item = "Tr"; >;
int Count = 4;
float Index;

texture2D ScnMap : RENDERCOLORTARGET <
    float2 ViewportRatio = {1.0, 1.0};
    int MipLevels = 1;
    string Format = "A8R8G8B8";
>;
sampler2D ScnSamp = sampler_state {
    texture = <ScnMap>;
    MinFilter = LINEAR; MagFilter = LINEAR; MipFilter = NONE;
    AddressU = CLAMP; AddressV = CLAMP;
};
texture2D DepthBuffer : RENDERDEPTHSTENCILTARGET <
    float2 ViewportRatio = {1.0, 1.0};
    string Format = "D24S8";
>;

float Script : STANDARDSGLOBAL <
    string ScriptOutput = "color";
    string ScriptClass = "scene";
    string ScriptOrder = "postprocess";
> = 0.8;

void CopyVS(in float4 Position : POSITION, in float4 Texcoord : TEXCOORD0,
            out float4 oPosition : POSITION, out float2 oTexcoord : TEXCOORD0)
{
    oPosition = Position;
    oTexcoord = Texcoord.xy + ViewportOffset;
}

float4 CopyPS(in float2 coord : TEXCOORD0) : COLOR
{
    return float4(tex2D(ScnSamp, coord).rgb * (Index < 0.5 ? Tr : 0.0), 1.0);
}

technique Fade <
    string Script =
        "RenderColorTarget0=ScnMap;"
        "RenderDepthStencilTarget=DepthBuffer;"
        "ClearSetColor=ClearColor;"
        "ClearSetDepth=ClearDepth;"
        "Clear=Color;"
        "Clear=Depth;"
        "ScriptExternal=Color;"
        "RenderColorTarget0=;"
        "RenderDepthStencilTarget=;"
        "Clear=Color;"
        "Clear=Depth;"
        "LoopByCount=Count;"
        "LoopGetIndex=Index;"
        "Pass=Copy;"
        "LoopEnd=;";
> {
    pass Copy < string Script = "Draw=Buffer;"; > {
        AlphaBlendEnable = true; SrcBlend = ONE; DestBlend = ONE; ZEnable = false; ZWriteEnable = false;
        VertexShader = compile vs_3_0 CopyVS();
        PixelShader = compile ps_3_0 CopyPS();
    }
}
