// tests/fx/volume.fx - volume and cube textures through the runtime (docs/effects.md,
// "Samplers and their dimension"): volume.dds beside this file is 2x2x2, slice 0
// red and slice 1 blue (build/tools/mkfixture volume-dds); cube.dds has 1x1 faces
// +X red, -X green, +Y blue, -Y yellow, +Z cyan, -Z magenta (mkfixture cube-dds).
// Black when the 3D sampler reads slice 0 as red and slice 1 as blue at w = 0.25 /
// 0.75, texCUBE reads each face along its axis, and the 2D sampler naming the
// volume reads 0 (a dimension mismatch, not a GL error).
float SliceRed = 0.25;
float SliceBlue = 0.75;

texture3D Vol < string ResourceName = "volume.dds"; >;
texture Flat < string ResourceName = "volume.dds"; >;
sampler VolSamp = sampler_state {
    texture = <Vol>;
    MinFilter = LINEAR; MagFilter = LINEAR; MipFilter = NONE;
    AddressU = CLAMP; AddressV = CLAMP; AddressW = CLAMP;
};
sampler2D FlatSamp = sampler_state { texture = <Flat>; MinFilter = POINT; MagFilter = POINT; };
textureCUBE Env < string ResourceName = "cube.dds"; >;
sampler EnvSamp = sampler_state { texture = <Env>; MinFilter = POINT; MagFilter = POINT; };

float Script : STANDARDSGLOBAL <
    string ScriptOutput = "color";
    string ScriptClass = "scene";
    string ScriptOrder = "postprocess";
> = 0.8;

void VolVS(in float4 Position : POSITION, out float4 oPosition : POSITION)
{
    oPosition = Position;
}

float4 VolPS() : COLOR
{
    float3 red = tex3D(VolSamp, float3(0.5, 0.5, SliceRed)).rgb;
    float3 blue = tex3Dlod(VolSamp, float4(0.5, 0.5, SliceBlue, 0)).rgb;
    float3 off = abs(red - float3(1, 0, 0)) + abs(blue - float3(0, 0, 1));
    off += abs(texCUBE(EnvSamp, float3(SliceRed * 4, 0, 0)).rgb - float3(1, 0, 0));
    off += abs(texCUBE(EnvSamp, float3(-1, 0, 0)).rgb - float3(0, 1, 0));
    off += abs(texCUBE(EnvSamp, float3(0, 1, 0)).rgb - float3(0, 0, 1));
    off += abs(texCUBE(EnvSamp, float3(0, -1, 0)).rgb - float3(1, 1, 0));
    off += abs(texCUBE(EnvSamp, float3(0, 0, 1)).rgb - float3(0, 1, 1));
    off += abs(texCUBE(EnvSamp, float3(0, 0, -1)).rgb - float3(1, 0, 1));
    return float4(off + tex2D(FlatSamp, float2(0.5, 0.5)).rgb, 1.0);
}

technique Vol <
    string Script = "RenderColorTarget0=;" "Pass=P;";
> {
    pass P < string Script = "Draw=Buffer;"; > {
        AlphaBlendEnable = false;
        ZEnable = false;
        VertexShader = compile vs_3_0 VolVS();
        PixelShader = compile ps_3_0 VolPS();
    }
}
