// tests/fx/rw_stateblock.fx - passes that take their states and shaders
// from a `stateblock ... = stateblock_state { ... }` (DX9 effect syntax,
// issue 27's held-out corpus: Beamman's SyuSyu_Blur SavePos.fx), a sampler
// naming its texture in parentheses, and MME's `_INDEX` vertex input (the
// vertex's index: gl_VertexID).
float4x4 WorldMatrix : WORLD;
texture PosTex : RENDERCOLORTARGET < int Width = 256; int Height = 256; string Format = "A32B32G32R32F"; >;
sampler PosSamp = sampler_state { Texture = (PosTex); MinFilter = Point; MagFilter = Point; };

struct VS_OUT { float4 Pos : POSITION; float4 World : COLOR0; };

VS_OUT IndexVS(float4 Pos : POSITION, int index : _INDEX)
{
    VS_OUT Out;
    float2 t = float2(index % 256, index / 256) / 256.0;
    Out.Pos = float4(t * 2 - 1, 1, 1);
    Out.World = mul(Pos, WorldMatrix);
    return Out;
}

float4 IndexPS(VS_OUT In) : COLOR0 { return In.World; }

float4 CopyVS(float4 Pos : POSITION, inout float2 Tex : TEXCOORD0) : POSITION { return Pos; }
float4 CopyPS(float2 Tex : TEXCOORD0, uniform sampler s) : COLOR { return tex2Dlod(s, float4(Tex, 0, 0)); }

stateblock DrawState = stateblock_state
{
    FillMode = POINT;
    ZEnable = false;
    VertexShader = compile vs_3_0 IndexVS();
    PixelShader  = compile ps_3_0 IndexPS();
};
stateblock CopyState = stateblock_state
{
    AlphaBlendEnable = false;
    VertexShader = compile vs_3_0 CopyVS();
    PixelShader  = compile ps_3_0 CopyPS(PosSamp);
};

technique MainTec < string MMDPass = "object"; string Script = "RenderColorTarget=PosTex; Pass=Draw; RenderColorTarget=; Pass=Copy;"; > {
    pass Draw < string Script = "Draw=Geometry;"; > { StateBlock = (DrawState); }
    pass Copy < string Script = "Draw=Buffer;"; > { CullMode = NONE; StateBlock = (CopyState); }
}
