// tests/fx/rw_written_global.fx - a function assigning to a global, as real
// effects do (issue 27's held-out corpus: Beamman's DropShadow.fx,
// `WorldPos.x *= -1;` on a CONTROLOBJECT in its vertex shader). DX9's
// effect compiler gives the shader its own copy; glslang refuses to modify
// a uniform, so core declares the uniform as mmd_w_WorldPos and a static
// WorldPos copied from it; the reflection still names it WorldPos.
float3 WorldPos : CONTROLOBJECT < string name = "(self)"; >;
float Gain = 1.0;
float4 Tint = {1, 1, 1, 1};

struct VS_OUTPUT { float4 Pos : POSITION; float2 Tex : TEXCOORD0; };

VS_OUTPUT VS(float4 Pos : POSITION, float2 Tex : TEXCOORD0)
{
    VS_OUTPUT Out;
    WorldPos.x *= -1;
    Out.Pos = Pos;
    Out.Tex = Tex + WorldPos.xy * 0.01;
    return Out;
}

float4 PS(VS_OUTPUT In) : COLOR
{
    Gain++;
    Tint[1] = 0.5;
    return Tint * Gain + float4(In.Tex, 0, 0);
}

technique T { pass P { VertexShader = compile vs_3_0 VS(); PixelShader = compile ps_3_0 PS(); } }
