// tests/fx/rw_matrix_swizzle.fx - matrix swizzles as real effects write them
// (issue 27's held-out corpus: `WorldMatrix._41_42_43` for a position,
// `._11_12_13` for a scale, a column `._12_22_32`, 0-based `._m30_m31`,
// Ikeno's ikGodray mask.fx `p._11_22 *= FrameScale;` on a projection):
// glslang 12.0 compiles each to the row's index constant unless the
// translator rewrites it (renderer/fx/rewrite.c); every pass must link.
float4x4 WorldMatrix : WORLD;
float4x4 AcsMatrix : CONTROLOBJECT < string name = "(self)"; >;
static float3 AcsPos = AcsMatrix._41_42_43;
static float AcsScale = length(AcsMatrix._11_12_13);

float FrameScale = 0.8;
float4x4 Zoomed(float4x4 p)
{
    p._11_22 *= FrameScale;
    return p;
}

float4 VS(float4 Pos : POSITION) : POSITION
{
    float4x4 m = Zoomed(WorldMatrix);
    m._41_42_43 = AcsPos;
    return mul(Pos, m) + float4(WorldMatrix._m30_m31, 0, 0);
}

float4 PS() : COLOR
{
    float3 column = WorldMatrix._12_22_32;
    return float4(column * AcsScale + (AcsMatrix)._43_42_41, WorldMatrix._44);
}

technique T { pass P { VertexShader = compile vs_3_0 VS(); PixelShader = compile ps_3_0 PS(); } }
