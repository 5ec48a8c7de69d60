// tests/fx/rw_static_init.fx - static globals whose initializers call the
// effect's own functions, as real effects write them (issue 27's held-out
// corpus: Ikeno's Scroll.fx `static float kWx = SetHScale();`, 針金P's
// Color.fx `static float3 ColorHSV = HSV2RGB(...)`). fxc runs them; glslang
// 12.0 counts the call as one from the function above it ("Recursion
// detected"), so core defers them to MMD_FX_STATIC_INIT, which the entry
// point calls first; `Twice` reads a deferred global and is deferred too.
float Si : CONTROLOBJECT < string name = "(self)"; string item = "Si"; >;
float2 ViewportSize : VIEWPORTPIXELSIZE;
static float2 Offset = 0.5 / ViewportSize;

float Scale(float s) { return s * 0.1; }
static float Scaled = Scale(Si);
static float Twice = Scaled * 2;
static const float3 Tint = float3(Twice, 1, 1);
static const float Weights[2] = {0.25, 0.75};

float4 VS(float4 Pos : POSITION, inout float2 Tex : TEXCOORD0) : POSITION
{
    Tex += Offset;
    return Pos;
}

float4 PS(float2 Tex : TEXCOORD0) : COLOR
{
    return float4(Tint * Weights[1], Scaled);
}

technique T { pass P { VertexShader = compile vs_3_0 VS(); PixelShader = compile ps_3_0 PS(); } }
