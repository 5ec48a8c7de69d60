// tests/fx/dx9_math.fx - DX9's arithmetic where GLSL's differs (docs/effects.md,
// "DX9's arithmetic"; renderer/fx/dx9.c): every pixel is black when each
// result is what ps_3_0 gives (any/all of a scalar as HLSL allows), and a check that fails lights its channel.
// The operands are uniforms (non-static globals), so no compiler folds them.
float Zero = 0.0;
float One = 1.0;
float Two = 2.0;
float Three = 3.0;
float Four = 4.0;
float Eight = 8.0;
float Seven = 7.5;

float Script : STANDARDSGLOBAL <
    string ScriptOutput = "color";
    string ScriptClass = "scene";
    string ScriptOrder = "postprocess";
> = 0.8;

float Bad(float got, float want)
{
    return abs(got - want) < 1e-4 ? 0.0 : 1.0; // NaN compares false: bad
}

void MathVS(in float4 Position : POSITION, out float4 oPosition : POSITION)
{
    oPosition = Position;
}

float4 MathPS() : COLOR
{
    float r = 0, g = 0, b = 0;
    r += Bad(fmod(Seven, Zero), 0.0);             // rcp(0) = inf, times y = 0: 0 (GLSL mod: NaN)
    r += Bad(step(Zero, fmod(Seven, Zero)), 1.0); // FilmGrain's scan lines at 0
    r += Bad(fmod(-Seven, Two), -1.5);            // the sign of x (GLSL mod: 0.5)
    g += Bad(pow(-Two, Two), 4.0);                // abs(x)^y (GLSL: NaN)
    g += Bad(pow(Zero, Zero), 1.0);
    g += Bad(log2(-Eight), 3.0);                  // log2 of abs(x)
    g += Bad(log2(Zero), -3.402823466e38);        // -FLT_MAX, not -inf
    b += Bad(sqrt(-Four), 2.0);                   // rcp(rsq(abs(x)))
    b += Bad(rsqrt(-Four), 0.5);
    b += Bad(length(normalize(float3(Zero, Zero, Zero))), 0.0); // 0 * inf = 0 (GLSL: NaN)
    b += Bad(normalize(float3(Three, Zero, Four)).z, 0.8);
    r += Bad(any(Zero) ? 1.0 : 0.0, 0.0);         // any and all of a scalar (GLSL's take a bvec)
    r += Bad(any(Two) ? 1.0 : 0.0, 1.0);
    g += Bad(all(Zero) ? 1.0 : 0.0, 0.0);
    g += Bad(all(float2(One, Two)) ? 1.0 : 0.0, 1.0);
    return float4(r, g, b, 1.0);
}

technique Math <
    string Script = "RenderColorTarget0=;" "Pass=P;";
> {
    pass P < string Script = "Draw=Buffer;"; > {
        AlphaBlendEnable = false;
        ZEnable = false;
        VertexShader = compile vs_3_0 MathVS();
        PixelShader = compile ps_3_0 MathPS();
    }
}
