// tests/fx/copy.fx - a post effect that copies the scene through a target of
// its own with DX9's half-texel offset: the frame comes out unchanged when the
// runtime's pixel rules (y orientation, half texel) match DX9's.
float2 ViewportSize : VIEWPORTPIXELSIZE;
static float2 ViewportOffset = float2(0.5, 0.5) / ViewportSize;
float4 ClearColor = {0, 0, 0, 0};
float ClearDepth = 1.0;

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
    return tex2D(ScnSamp, coord);
}

technique Copy <
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
        "Pass=Copy;";
> {
    pass Copy < string Script = "Draw=Buffer;"; > {
        AlphaBlendEnable = false; ZEnable = false; ZWriteEnable = false;
        VertexShader = compile vs_3_0 CopyVS();
        PixelShader = compile ps_3_0 CopyPS();
    }
}
