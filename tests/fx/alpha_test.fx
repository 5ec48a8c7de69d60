// tests/fx/alpha_test.fx - DX9's alpha test and fill mode on an object effect (issue 27):
// every material one magenta at alpha 0.5 (D3D's 8-bit 128), blending off, the frame's alpha
// kept (ColorWriteEnable), tested GREATER against 100 (passes: the model magenta as solid.fx
// draws it). tests/cli/render_states.sh rewrites the AlphaFunc / AlphaRef / FillMode lines:
// GREATER 200 and NEVER discard every pixel, EQUAL 128 passes, WIREFRAME/POINT draw fewer.
float4x4 WorldViewProj : WORLDVIEWPROJECTION;

float4 VS(float4 pos : POSITION) : POSITION { return mul(pos, WorldViewProj); }
float4 PS() : COLOR0 { return float4(1, 0, 1, 0.5); }

// the same pass for MME's "object" and, the demo's character having self-shadow, "object_ss"
#define PASS_P \
    pass P \
    { \
        AlphaBlendEnable = FALSE; \
        ColorWriteEnable = RED | GREEN | BLUE; \
        AlphaTestEnable = TRUE; \
        AlphaFunc = GREATER; \
        AlphaRef = 100; \
        FillMode = SOLID; \
        VertexShader = compile vs_2_0 VS(); \
        PixelShader = compile ps_2_0 PS(); \
    }

technique Main { PASS_P }
technique MainSS < string MMDPass = "object_ss"; > { PASS_P }
