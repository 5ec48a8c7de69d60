/* tests/unit/test_fx_translate.c - the effect translator (renderer/fx/translate.h)
 * and the link on Mesa (renderer/gl/fx_program.h): small effects of our own
 * with MME's semantics (an object effect, a Draw=Buffer post effect), the
 * names, locations and reflection the runtime binds by, errors at FILE:LINE,
 * the size cap, and the shared corpus's figures (parse, translate, link). */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/file.h"
#include "core/fx.h"
#include "renderer/fx/translate.h"
#include "renderer/fx/translate_internal.h"
#include "renderer/gl/context.h"
#include "renderer/gl/fx_program.h"
#include "renderer/image/texpath.h"
#include "tests/util/test.h"
#include "tests/util/fx_files.h"

TEST_STATE_DEFINE

static mmd_gl_context *g_ctx; /* made once; NULL where none can be made */
static char g_ctx_err[512];

static const mmd_gl *gl_or_null(void)
{
    static bool tried;
    if (!tried) {
        tried = true;
        mmd_error err = {0};
        if (mmd_gl_context_create(mmd_gl_default_backend(), 1, &g_ctx, &err) != MMD_OK) {
            g_ctx = NULL;
            snprintf(g_ctx_err, sizeof g_ctx_err, "%s", err.msg);
        }
    }
    return g_ctx ? mmd_gl_context_api(g_ctx) : NULL;
}

static mmd_status disk_read(void *user, const char *dir, const char *name, void **data, size_t *size, mmd_error *err)
{
    (void)user;
    char path[1024];
    mmd_status st = mmd_texpath_resolve(dir, name, true, path, sizeof path, err);
    return st == MMD_OK ? mmd_file_read(path, data, size, err) : st;
}

static mmd_fx *parse(const char *src)
{
    mmd_fx *fx = NULL;
    mmd_error err = {0};
    if (mmd_fx_load(src, strlen(src), "t.fx", NULL, &fx, &err) != MMD_OK) {
        printf("# parse: %s\n", err.msg);
        return NULL;
    }
    return fx;
}

/* Links p on the test context: true, or false with the log printed; 1 when
 * there is no context (the caller skips). */
/* The one pass of src translated with opt. */
static mmd_status translate_one(const char *src, const mmd_fx_translate_options *opt, mmd_fx_program **p,
                                mmd_error *err)
{
    mmd_fx *fx = parse(src);
    if (!fx)
        return MMD_E_BAD_STRUCTURE;
    *p = NULL;
    mmd_status st = mmd_fx_translate(fx, &fx->techniques[0].passes[0], opt, p, err);
    mmd_fx_free(fx);
    return st;
}

/* The one pass of src translated (its error printed when it does not), NULL
 * when it does not; *fx its parse, which the program's names point into
 * (the caller frees both). */
static mmd_fx_program *translated(const char *src, mmd_fx **fx)
{
    mmd_fx_program *p = NULL;
    mmd_error err = {0};
    *fx = parse(src);
    if (*fx && mmd_fx_translate(*fx, &(*fx)->techniques[0].passes[0], NULL, &p, &err) == MMD_OK)
        return p;
    printf("# %s\n", *fx ? err.msg : "does not parse");
    return NULL;
}

static int link_ok(const mmd_fx_program *p)
{
    const mmd_gl *gl = gl_or_null();
    if (!gl)
        return 1;
    GLuint prog = 0;
    mmd_error err = {0};
    if (mmd_gl_fx_program_link(gl, p->vs, p->fs, &prog, &err) != MMD_OK) {
        printf("# link: %s\n--- vs\n%s\n--- fs\n%s\n", err.msg, p->vs, p->fs);
        return 0;
    }
    gl->DeleteProgram(prog);
    return 2;
}

/* The one ending of a translate test: p links here (skipped without a GL
 * context); p and fx freed either way. */
static void link_then_free(mmd_fx_program *p, mmd_fx *fx)
{
    int linked = link_ok(p);
    mmd_fx_program_free(p);
    mmd_fx_free(fx);
    if (linked == 1)
        SKIP("skipped: no GL context");
    CHECK(linked == 2);
}

static const mmd_fx_uniform *uniform(const mmd_fx_program *p, const char *name, mmd_fx_stage stage)
{
    for (uint32_t i = 0; i < p->uniform_count; i++)
        if (!strcmp(p->uniforms[i].name, name) && p->uniforms[i].stage == stage)
            return &p->uniforms[i];
    return NULL;
}

static const mmd_fx_io *io(const mmd_fx_io *list, uint32_t n, const char *sem)
{
    for (uint32_t i = 0; i < n; i++)
        if (!strcmp(list[i].semantic, sem))
            return &list[i];
    return NULL;
}

/* An object effect as MME's full.fx writes one: matrices and material by
 * semantic, the material texture through a sampler_state, a struct output
 * with POSITION in it, and compile arguments bound to uniform parameters. */
static const char k_object[] =
    "float4x4 WorldViewProj : WORLDVIEWPROJECTION;\n"
    "float4x4 World : WORLD;\n"
    "float4 MaterialDiffuse : DIFFUSE < string Object = \"Geometry\"; >;\n"
    "float3 LightDir : DIRECTION < string Object = \"Light\"; >;\n"
    "texture ObjectTexture : MATERIALTEXTURE;\n"
    "sampler ObjTexSampler = sampler_state { texture = <ObjectTexture>; MINFILTER = LINEAR; };\n"
    "struct VS_OUTPUT { float4 Pos : POSITION; float2 Tex : TEXCOORD1; float3 Normal : TEXCOORD2; };\n"
    "VS_OUTPUT Basic_VS(float4 Pos : POSITION, float3 Normal : NORMAL, float2 Tex : TEXCOORD0, uniform bool useTexture)\n"
    "{\n"
    "    VS_OUTPUT Out;\n"
    "    Out.Pos = mul(Pos, WorldViewProj);\n"
    "    Out.Normal = normalize(mul(Normal, (float3x3)World));\n"
    "    Out.Tex = useTexture ? Tex : float2(0, 0);\n"
    "    return Out;\n"
    "}\n"
    "float4 Basic_PS(VS_OUTPUT IN, uniform bool useTexture) : COLOR0\n"
    "{\n"
    "    float4 c = MaterialDiffuse * saturate(dot(IN.Normal, -LightDir));\n"
    "    if (useTexture) c *= tex2D(ObjTexSampler, IN.Tex);\n"
    "    return c;\n"
    "}\n"
    "technique MainTec < string MMDPass = \"object\"; bool UseTexture = true; > {\n"
    "    pass DrawObject {\n"
    "        VertexShader = compile vs_2_0 Basic_VS(true);\n"
    "        PixelShader = compile ps_2_0 Basic_PS(true);\n"
    "    }\n"
    "}\n";

TEST(object_effect_translates_and_links)
{
    mmd_fx *fx;
    mmd_fx_program *p = translated(k_object, &fx);
    REQUIRE(p);
    const mmd_fx_uniform *u = uniform(p, "WorldViewProj", MMD_FX_STAGE_VERTEX);
    REQUIRE(u);
    CHECK_STR(u->semantic, "WORLDVIEWPROJECTION");
    CHECK_STR(u->type, "float4x4");
    CHECK_STR(u->glsl, "mmd_vs.WorldViewProj");
    CHECK_EQ_INT(u->size, 64);
    u = uniform(p, "MaterialDiffuse", MMD_FX_STAGE_FRAGMENT);
    REQUIRE(u);
    CHECK_STR(u->semantic, "DIFFUSE");
    CHECK_STR(u->glsl, "mmd_ps.MaterialDiffuse");
    REQUIRE(p->sampler_count == 1);
    CHECK_STR(p->samplers[0].name, "ObjTexSampler");
    CHECK_STR(p->samplers[0].texture, "ObjectTexture");
    CHECK_EQ_INT(p->samplers[0].stage, MMD_FX_STAGE_FRAGMENT);
    CHECK_EQ_INT(p->input_count, 3);
    const mmd_fx_io *in = io(p->inputs, p->input_count, "POSITION");
    REQUIRE(in);
    CHECK_EQ_INT(in->location, 0);
    CHECK_STR(in->glsl, "a_POSITION");
    REQUIRE((in = io(p->inputs, p->input_count, "NORMAL")) != NULL);
    CHECK_EQ_INT(in->location, 1);
    REQUIRE((in = io(p->inputs, p->input_count, "TEXCOORD0")) != NULL);
    CHECK_EQ_INT(in->location, 2);
    REQUIRE(p->output_count == 1);
    CHECK_STR(p->outputs[0].semantic, "COLOR0");
    CHECK_EQ_INT(p->outputs[0].location, 0);
    /* POSITION in a struct is gl_Position; a float2 varying travels as a vec4 */
    CHECK(strstr(p->vs, "gl_Position = "));
    CHECK(strstr(p->vs, "out vec4 v_TEXCOORD1;"));
    CHECK(strstr(p->fs, "in vec4 v_TEXCOORD1;"));
    CHECK(strstr(p->fs, "uniform sampler2D ObjTexSampler;"));
    link_then_free(p, fx);
}

/* A post effect's Draw=Buffer pass: the screen quad's POSITION and TEXCOORD0
 * (out parameters), VPOS and a VIEWPORTPIXELSIZE offset in the pixel shader,
 * a render target read through its sampler, and a pass-level Script. */
static const char k_post[] =
    "float2 ViewportSize : VIEWPORTPIXELSIZE;\n"
    "static float2 ViewportOffset = float2(0.5, 0.5) / ViewportSize;\n"
    "float Script : STANDARDSGLOBAL < string ScriptOutput = \"color\"; string ScriptClass = \"scene\";\n"
    "    string ScriptOrder = \"postprocess\"; > = 0.8;\n"
    "texture2D ScnMap : RENDERCOLORTARGET < float2 ViewPortRatio = {1.0, 1.0}; string Format = \"A8R8G8B8\"; >;\n"
    "sampler2D ScnSamp = sampler_state { texture = <ScnMap>; MinFilter = POINT; AddressU = CLAMP; };\n"
    "void PostVS(in float4 Position : POSITION, in float2 Tex : TEXCOORD0,\n"
    "            out float4 oPosition : POSITION, out float2 oTex : TEXCOORD0)\n"
    "{\n"
    "    oPosition = Position;\n"
    "    oTex = Tex + ViewportOffset;\n"
    "}\n"
    "float4 PostPS(float2 Tex : TEXCOORD0, float2 vpos : VPOS) : COLOR\n"
    "{\n"
    "    float4 c = tex2D(ScnSamp, Tex);\n"
    "    return fmod(vpos.x + vpos.y, 2) < 1 ? c : c * 0.5;\n"
    "}\n"
    "technique Post < string Script = \"RenderColorTarget0=ScnMap; ClearSetColor=ClearColor; Clear=Color;\"\n"
    "    \"ScriptExternal=Color; RenderColorTarget0=; Pass=Checker;\"; > {\n"
    "    pass Checker < string Script = \"Draw=Buffer;\"; > {\n"
    "        AlphaBlendEnable = FALSE; ZEnable = FALSE;\n"
    "        VertexShader = compile vs_3_0 PostVS();\n"
    "        PixelShader = compile ps_3_0 PostPS();\n"
    "    }\n"
    "}\n";

TEST(post_effect_translates_and_links)
{
    mmd_fx *fx;
    mmd_fx_program *p = translated(k_post, &fx);
    REQUIRE(p);
    const mmd_fx_uniform *u = uniform(p, "ViewportSize", MMD_FX_STAGE_VERTEX);
    REQUIRE(u);
    CHECK_STR(u->semantic, "VIEWPORTPIXELSIZE");
    CHECK_EQ_INT(u->offset, 0);
    CHECK_EQ_INT(p->input_count, 2);
    CHECK(io(p->inputs, p->input_count, "TEXCOORD0") != NULL);
    REQUIRE(p->sampler_count == 1);
    CHECK_STR(p->samplers[0].texture, "ScnMap");
    CHECK_STR(p->outputs[0].glsl, "o_COLOR0");
    CHECK(strstr(p->vs, "gl_Position = a_POSITION"));
    CHECK(strstr(p->fs, "gl_FragCoord - vec4(0.5, 0.5, 0.0, 0.0)"));
    CHECK(strstr(p->fs, "= v_TEXCOORD0.xy;"));
    CHECK(strstr(p->vs, "v_TEXCOORD0 = vec4(mmd_vo_TEXCOORD0, 0.0, 1.0);"));
    /* DX9's fmod (renderer/fx/dx9.c), its helpers only where a rule is used */
    CHECK(strstr(p->fs, "mmd_dx9_fmod(") != NULL);
    CHECK(strstr(p->fs, " mod(") == NULL);
    CHECK(strstr(p->vs, "mmd_dx9_") == NULL);
    link_then_free(p, fx);
}

/* MME's own full.fx idioms: three compile arguments, a shared global, samplers
 * bound by register() (MME's shadow map), a (struct)0 cast, clip, COLOR0 as
 * a varying, the Light's matrices by annotation, an edge pass, an empty
 * shadow technique. */
static const char k_full_idioms[] =
    "float4x4 WorldViewProjMatrix : WORLDVIEWPROJECTION;\n"
    "float4x4 LightWorldViewProjMatrix : WORLDVIEWPROJECTION < string Object = \"Light\"; >;\n"
    "float3 LightDirection : DIRECTION < string Object = \"Light\"; >;\n"
    "float4 MaterialToon : TOONCOLOR;\n"
    "bool parthf;\n"
    "bool transp;\n"
    "bool spadd;\n"
    "shared float SharedValue;\n"
    "sampler MMDSamp0 : register(s0);\n"
    "sampler DefSampler : register(s0);\n"
    "texture ObjectTexture: MATERIALTEXTURE;\n"
    "sampler ObjTexSampler = sampler_state { texture = <ObjectTexture>; };\n"
    "struct VS_OUTPUT { float4 Pos : POSITION; float4 ZCalcTex : TEXCOORD0; float2 Tex : TEXCOORD1; float3 Normal : TEXCOORD2; float4 Color : COLOR0; };\n"
    "VS_OUTPUT Basic_VS(float4 Pos : POSITION, float3 Normal : NORMAL, float2 Tex : TEXCOORD0, uniform bool useTexture, uniform bool useSphereMap, uniform bool useToon)\n"
    "{\n"
    "    VS_OUTPUT Out = (VS_OUTPUT)0;\n"
    "    Out.Pos = mul( Pos, WorldViewProjMatrix );\n"
    "    Out.ZCalcTex = mul( Pos, LightWorldViewProjMatrix );\n"
    "    Out.Normal = Normal;\n"
    "    Out.Color = saturate(max(0, dot(Normal, -LightDirection)));\n"
    "    Out.Tex = Tex;\n"
    "    return Out;\n"
    "}\n"
    "float4 Basic_PS(VS_OUTPUT IN, uniform bool useTexture, uniform bool useSphereMap, uniform bool useToon) : COLOR0\n"
    "{\n"
    "    float4 Color = IN.Color;\n"
    "    if ( useTexture ) Color *= tex2D( ObjTexSampler, IN.Tex );\n"
    "    if ( useToon ) Color.rgb *= MaterialToon.rgb;\n"
    "    float2 TransTexCoord;\n"
    "    TransTexCoord.x = (1.0f + IN.ZCalcTex.x/IN.ZCalcTex.w)*0.5f;\n"
    "    TransTexCoord.y = (1.0f - IN.ZCalcTex.y/IN.ZCalcTex.w)*0.5f;\n"
    "    float comp = tex2D(DefSampler,TransTexCoord).r;\n"
    "    if (parthf) comp = 1 - comp;\n"
    "    clip(Color.a - 0.01);\n"
    "    return Color * comp + SharedValue;\n"
    "}\n"
    "float4 ColorRender_VS(float4 Pos : POSITION) : POSITION { return mul(Pos, WorldViewProjMatrix); }\n"
    "float4 ColorRender_PS() : COLOR { return float4(0, 0, 0, 1); }\n"
    "technique MainTec0 < string MMDPass = \"object_ss\"; bool UseTexture = true; bool UseSphereMap = false; bool UseToon = true; > {\n"
    "    pass DrawObject {\n"
    "        VertexShader = compile vs_2_0 Basic_VS(true, false, true);\n"
    "        PixelShader  = compile ps_2_0 Basic_PS(true, false, true);\n"
    "    }\n"
    "}\n"
    "technique EdgeTec < string MMDPass = \"edge\"; > {\n"
    "    pass DrawEdge { AlphaBlendEnable = FALSE; AlphaTestEnable = FALSE;\n"
    "        VertexShader = compile vs_2_0 ColorRender_VS(); PixelShader = compile ps_2_0 ColorRender_PS(); }\n"
    "}\n"
    "technique ShadowTec < string MMDPass = \"shadow\"; > { }\n";

TEST(full_fx_idioms_translate_and_link)
{
    mmd_fx *fx = parse(k_full_idioms);
    REQUIRE(fx);
    REQUIRE(fx->technique_count == 3);
    for (uint32_t t = 0; t < 2; t++) {
        mmd_fx_program *p = NULL;
        mmd_error err = {0};
        mmd_status st = mmd_fx_translate(fx, &fx->techniques[t].passes[0], NULL, &p, &err);
        if (st != MMD_OK)
            printf("# %s\n", err.msg);
        REQUIRE(st == MMD_OK);
        if (t == 0) {
            const mmd_fx_uniform *u = uniform(p, "LightWorldViewProjMatrix", MMD_FX_STAGE_VERTEX);
            REQUIRE(u);
            CHECK_STR(u->semantic, "WORLDVIEWPROJECTION");
            CHECK(uniform(p, "parthf", MMD_FX_STAGE_FRAGMENT) != NULL);
            CHECK_EQ_INT(p->sampler_count, 2); /* ObjTexSampler and DefSampler, read by the pixel shader */
            CHECK(strstr(p->vs, "out vec4 v_COLOR0;"));
        }
        int linked = link_ok(p);
        mmd_fx_program_free(p);
        if (linked == 1) {
            mmd_fx_free(fx);
            SKIP("skipped: no GL context");
        }
        CHECK(linked == 2);
    }
    mmd_fx_free(fx);
}

/* A pixel shader reading a varying its vertex shader never writes links
 * (DX9 gives it a value; ours is zero). */
TEST(unwritten_varying_links)
{
    mmd_fx *fx =
        parse("float4 VS(float4 p : POSITION) : POSITION { return p; }\n"
              "float4 PS(float4 c : COLOR0, float3 t : TEXCOORD3) : COLOR0 { return c + t.xyzz; }\n"
              "technique T { pass P { VertexShader = compile vs_2_0 VS(); PixelShader = compile ps_2_0 PS(); } }\n");
    REQUIRE(fx);
    mmd_fx_program *p = NULL;
    mmd_error err = {0};
    REQUIRE(mmd_fx_translate(fx, &fx->techniques[0].passes[0], NULL, &p, &err) == MMD_OK);
    CHECK(strstr(p->vs, "out vec4 v_COLOR0;"));
    CHECK(strstr(p->vs, "v_TEXCOORD3 = vec4(0.0);"));
    link_then_free(p, fx);
}

/* A pass with a pixel shader alone (そぼろ's Stealth.fx): DX9's fixed-function
 * vertex processing, written by the translator (renderer/fx/fixed.c): an
 * object's vertices by WORLDVIEWPROJECTION, COLOR0 lit from MMD's material and
 * light, TEXCOORD0 passed on; a Draw=Buffer pass's quad as given. */
TEST(pixel_shader_alone_gets_fixed_function_vertices)
{
    mmd_fx *fx = NULL;
    mmd_fx_program *p = translated("float4 PS(float4 c : COLOR0, float2 uv : TEXCOORD0) : COLOR0 { return c * uv.x; }\n"
                                   "technique T < string MMDPass = \"object\"; > {\n"
                                   "  pass P { PixelShader = compile ps_2_0 PS(); } }\n",
                                   &fx);
    REQUIRE(p);
    static const char *const want[][2] = {{"mmd_ff_WorldViewProj", "WORLDVIEWPROJECTION"},
                                          {"mmd_ff_MaterialDiffuse", "DIFFUSE"},
                                          {"mmd_ff_LightDirection", "DIRECTION"}};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        const mmd_fx_uniform *u = uniform(p, want[i][0], MMD_FX_STAGE_VERTEX);
        REQUIRE(u);
        CHECK_STR(u->semantic, want[i][1]);
        CHECK(u->type[0] != '\0'); /* typed, so the runtime uploads it */
    }
    const mmd_fx_param *light = mmd_fx_fixed_param("mmd_ff_LightDirection");
    REQUIRE(light && light->annotation_count == 1);
    CHECK_STR(light->annotations[0].text, "Light");
    CHECK(mmd_fx_fixed_param("WorldViewProj") == NULL);
    int linked = link_ok(p);
    mmd_fx_program_free(p);
    mmd_fx_free(fx);
    /* a post effect's Draw=Buffer pass: the screen quad is already in clip space */
    p = translated("float Script : STANDARDSGLOBAL < string ScriptOrder = \"postprocess\"; > = 0.8;\n"
                   "float4 PS(float2 uv : TEXCOORD0) : COLOR0 { return uv.xyxy; }\n"
                   "technique T { pass P < string Script = \"Draw=Buffer;\"; > { PixelShader = compile ps_2_0 PS(); } }\n",
                   &fx);
    REQUIRE(p);
    CHECK(uniform(p, "mmd_ff_WorldViewProj", MMD_FX_STAGE_VERTEX) == NULL);
    if (linked == 2)
        linked = link_ok(p);
    mmd_fx_program_free(p);
    mmd_fx_free(fx);
    if (linked == 1)
        SKIP("skipped: no GL context");
    CHECK(linked == 2);
}

/* HLSL's any/all of a scalar (Rui's Spectrum WaveTiles: freq = any(freq)):
 * SPIRV-Cross writes any(bool), which GLSL lacks; renderer/fx/dx9.c's
 * helpers take bool and bvec2..4. */
TEST(any_all_of_a_scalar_link)
{
    mmd_fx *fx = NULL;
    mmd_fx_program *p = translated("float Gain;\n"
                                   "float4 VS(float4 p : POSITION) : POSITION { return p; }\n"
                                   "float4 PS() : COLOR0 { float f = any(Gain); return float4(f, all(Gain), any(float2(Gain, 1)), 1); }\n"
                                   "technique T { pass P { VertexShader = compile vs_3_0 VS(); PixelShader = compile ps_3_0 PS(); } }\n",
                                   &fx);
    REQUIRE(p);
    CHECK(strstr(p->fs, "mmd_dx9_any(") != NULL);
    CHECK(strstr(p->fs, "mmd_dx9_all(") != NULL);
    CHECK(strstr(p->fs, " any(bool") == NULL);
    link_then_free(p, fx);
}

/* An entry function with a prototype before it (glslang alone would take
 * the prototype for the entry: "No function definition (body) found"). */
TEST(prototyped_entry_translates)
{
    mmd_fx *fx =
        parse("float4 VS(float4 p : POSITION) : POSITION;\n"
              "float4 PS() : COLOR0;\n"
              "float4 VS(float4 p : POSITION) : POSITION { return p; }\n"
              "float4 PS() : COLOR0 { return 1; }\n"
              "technique T { pass P { VertexShader = compile vs_2_0 VS(); PixelShader = compile ps_2_0 PS(); } }\n");
    REQUIRE(fx);
    mmd_fx_program *p = NULL;
    mmd_error err = {0};
    mmd_status st = mmd_fx_translate(fx, &fx->techniques[0].passes[0], NULL, &p, &err);
    if (st != MMD_OK)
        printf("# %s\n", err.msg);
    CHECK_EQ_INT(st, MMD_OK);
    mmd_fx_program_free(p);
    mmd_fx_free(fx);
}

static void expect_error(const char *src, mmd_status want, const char *msg_prefix)
{
    mmd_fx *fx = parse(src);
    REQUIRE(fx);
    REQUIRE(fx->technique_count == 1 && fx->techniques[0].pass_count == 1);
    mmd_fx_program *p = NULL;
    mmd_error err = {0};
    CHECK_EQ_INT(mmd_fx_translate(fx, &fx->techniques[0].passes[0], NULL, &p, &err), want);
    CHECK(p == NULL);
    if (strncmp(err.msg, msg_prefix, strlen(msg_prefix)))
        printf("# got '%s', want '%s...'\n", err.msg, msg_prefix);
    CHECK(!strncmp(err.msg, msg_prefix, strlen(msg_prefix)));
    mmd_fx_free(fx);
}

/* A sampler's dimension: its texture's declared type, its ResourceType, or
 * the tex3D / texCUBE calls that read an untyped one (core/fx.c), in the
 * GLSL and the reflection the runtime binds by. */
static const char k_dims[] =
    "texture3D Noise < string ResourceName = \"noise.dds\"; >;\n"
    "texture Vol < string ResourceName = \"vol.dds\"; string ResourceType = \"3D\"; >;\n"
    "texture Plain < string ResourceName = \"plain.dds\"; >;\n"
    "texture Env < string ResourceName = \"env.dds\"; >;\n"
    "texture2D Flat < string ResourceName = \"flat.png\"; >;\n"
    "sampler NoiseSamp = sampler_state { texture = <Noise>; };\n"
    "sampler VolSamp = sampler_state { texture = <Vol>; };\n"
    "sampler PlainSamp = sampler_state { texture = <Plain>; };\n"
    "sampler EnvSamp = sampler_state { texture = <Env>; };\n"
    "sampler FlatSamp = sampler_state { texture = <Flat>; };\n"
    "float4 VS(float4 p : POSITION) : POSITION { return p; }\n"
    "float4 PS(float2 t : TEXCOORD0) : COLOR\n"
    "{\n"
    "    return tex3Dlod(NoiseSamp, float4(t, 0.5, 0)) + tex3D(VolSamp, t.xyx) + tex3D( PlainSamp , t.xxy)\n"
    "         + texCUBE(EnvSamp, t.xyy) + tex2D(FlatSamp, t);\n"
    "}\n"
    "technique T { pass P { VertexShader = compile vs_3_0 VS(); PixelShader = compile ps_3_0 PS(); } }\n";

TEST(sampler_dimensions_follow_the_texture)
{
    mmd_fx *fx;
    mmd_fx_program *p = translated(k_dims, &fx);
    REQUIRE(p);
    static const struct { const char *name, *glsl; mmd_fx_sampler_dim dim; } want[] = {
        {"NoiseSamp", "uniform sampler3D NoiseSamp;", MMD_FX_SAMPLER_3D},
        {"VolSamp", "uniform sampler3D VolSamp;", MMD_FX_SAMPLER_3D},
        {"PlainSamp", "uniform sampler3D PlainSamp;", MMD_FX_SAMPLER_3D},
        {"EnvSamp", "uniform samplerCube EnvSamp;", MMD_FX_SAMPLER_CUBE},
        {"FlatSamp", "uniform sampler2D FlatSamp;", MMD_FX_SAMPLER_2D},
    };
    CHECK_EQ_INT(p->sampler_count, 5);
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        CHECK(strstr(p->fs, want[i].glsl) != NULL);
        for (uint32_t k = 0; k < p->sampler_count; k++)
            if (!strcmp(p->samplers[k].name, want[i].name))
                CHECK_EQ_INT(p->samplers[k].dim, want[i].dim);
    }
    /* tex3Dlod's w is the level, z the third coordinate (glslang read a plain sampler as 2D and dropped z) */
    CHECK(strstr(p->fs, "textureLod(NoiseSamp, vec3(") != NULL);
    link_then_free(p, fx);
}

TEST(errors_name_file_and_line)
{
    /* glslang's own error, at the effect's line through the #line markers */
    expect_error("float4 Gain;\n"
                 "float4 VS(float4 p : POSITION) : POSITION { return p; }\n"
                 "float4 PS() : COLOR0\n"
                 "{\n"
                 "    return Gain * undefined_thing;\n"
                 "}\n"
                 "technique T { pass P { VertexShader = compile vs_2_0 VS(); PixelShader = compile ps_2_0 PS(); } }\n",
                 MMD_E_UNSUPPORTED, "t.fx:5: 'undefined_thing' : unknown variable");
    /* ours: the arguments of compile against F's uniform parameters, at the pass */
    expect_error("float4 VS(float4 p : POSITION, uniform bool b) : POSITION { return b ? p : -p; }\n"
                 "float4 PS() : COLOR0 { return 1; }\n"
                 "technique T {\n"
                 "  pass P { VertexShader = compile vs_2_0 VS(); PixelShader = compile ps_2_0 PS(); } }\n",
                 MMD_E_UNSUPPORTED, "t.fx:4: VS has 1 uniform parameter(s), compile passes 0 argument(s)");
    expect_error("float4 VS(float4 p : POSITION) : POSITION { return p; }\n"
                 "technique T {\n"
                 "  pass P { VertexShader = compile vs_2_0 VS(); } }\n",
                 MMD_E_UNSUPPORTED, "t.fx:3: pass P sets no pixel shader (fixed-function pixel passes");
    /* a pass without shaders is MMD's own drawing in MME (the held-out corpus: T.Ogura's fur shader) */
    expect_error("float4 PS() : COLOR0 { return 1; }\n"
                 "technique T < string MMDPass = \"object\"; > {\n"
                 "  pass DrawObject { } }\n",
                 MMD_E_UNSUPPORTED, "t.fx:3: pass DrawObject sets no shaders (MMD's own drawing of the object");
    expect_error(
        "float4 PS() : COLOR0 { return 1; }\n"
        "technique T { pass P { VertexShader = compile vs_2_0 Missing(); PixelShader = compile ps_2_0 PS(); } }\n",
        MMD_E_UNSUPPORTED, "t.fx:2: shader function Missing not found");
    expect_error("float4 VS(float4 p : POSITION, float4 w : BLENDWEIGHT3) : POSITION { return p * w; }\n"
                 "float4 PS() : COLOR0 { return 1; }\n"
                 "technique T { pass P { VertexShader = compile vs_2_0 VS(); PixelShader = compile ps_2_0 PS(); } }\n",
                 MMD_E_UNSUPPORTED, "t.fx:3: vertex shader: input BLENDWEIGHT3 is no vertex data");
}

/* glslang 12.0 dereferences NULL on this (a mutant our fuzzing made): its
 * child process dies, the pass gets an error at its line, we go on. */
TEST(glslang_crash_is_an_error)
{
    expect_error("float4 VS(float4 p : POSITION, uniform bool t) : POSITION { return p; }\n"
                 "float4 PS(uniform bool t) : COLOR0 { return t ? 1 : D; }\n"
                 "technique T { pass P { VertexShader = compile vs_3_0 VS(false);\n"
                 "    PixelShader = compile ps_3_0 PS(false); } }\n",
                 MMD_E_UNSUPPORTED, "t.fx:");
    /* the next pass still translates in this process */
    mmd_fx *fx = parse(k_post);
    REQUIRE(fx);
    mmd_fx_program *p = NULL;
    mmd_error err = {0};
    CHECK_EQ_INT(mmd_fx_translate(fx, &fx->techniques[0].passes[0], NULL, &p, &err), MMD_OK);
    mmd_fx_program_free(p);
    mmd_fx_free(fx);
}

/* The HLSL of one pass is capped before glslang sees it. */
TEST(hlsl_size_is_capped)
{
    size_t cap = MMD_FX_MAX_HLSL_BYTES + 200000, n = 0;
    char *src = malloc(cap);
    REQUIRE(src);
    for (int i = 0; n + 200 < MMD_FX_MAX_HLSL_BYTES + 100000; i++)
        n += (size_t)snprintf(src + n, cap - n, "float f%d(float x) { return x * %d.0; }\n", i, i);
    n += (size_t)snprintf(src + n, cap - n,
                          "float4 VS(float4 p : POSITION) : POSITION { return p; }\n"
                          "float4 PS() : COLOR0 { return 1; }\n"
                          "technique T { pass P { VertexShader = compile vs_2_0 VS(); "
                          "PixelShader = compile ps_2_0 PS(); } }\n");
    mmd_fx *fx = parse(src);
    free(src);
    REQUIRE(fx);
    mmd_fx_program *p = NULL;
    mmd_error err = {0};
    CHECK_EQ_INT(mmd_fx_translate(fx, &fx->techniques[0].passes[0], NULL, &p, &err), MMD_E_LIMIT);
    CHECK(strstr(err.msg, "the pass's HLSL is"));
    mmd_fx_free(fx);
}

/* ---- bounds: hostile passes end with an error, within the limits (translate.h) ---- */

#define VS_PS_TAIL                                                                                                   \
    "float4 VS(float4 p : POSITION) : POSITION { return p; }\n"                                                    \
    "technique T { pass P { VertexShader = compile vs_3_0 VS(); PixelShader = compile ps_3_0 PS(); } }\n"

/* f24 calls f23 twice, ...: 2^24 calls once glslang's legalisation inlines
 * them. Its child is stopped by the alarm (1 s here, 20 s by default). */
TEST(compile_time_is_bounded)
{
    char src[4096] = "float f0(float x) { return sin(x * 2); }\n";
    for (int i = 1; i <= 24; i++)
        snprintf(src + strlen(src), sizeof src - strlen(src), "float f%d(float x) { return f%d(x) + f%d(x + 1); }\n",
                 i, i - 1, i - 1);
    strcat(src, "float4 PS(float2 t : TEXCOORD0) : COLOR0 { return f24(t.x); }\n" VS_PS_TAIL);
    mmd_fx_translate_options opt = {.compile_seconds = 1};
    mmd_fx_program *p = NULL;
    mmd_error err = {0};
    CHECK_EQ_INT(translate_one(src, &opt, &p, &err), MMD_E_LIMIT);
    CHECK(p == NULL);
    CHECK_STR(err.msg, "t.fx:28: glslang took more than 1 s");
    printf("# %s\n", err.msg);
}

/* A loop of 100000 with [unroll] is not unrolled by glslang or SPIRV-Tools
 * (nor by Mesa's link): one loop in the GLSL. */
TEST(unroll_hint_is_not_expanded)
{
    mmd_fx_program *p = NULL;
    mmd_error err = {0};
    mmd_status st = translate_one("float4 PS(float2 t : TEXCOORD0) : COLOR0\n"
                                  "{\n"
                                  "    float4 s = 0;\n"
                                  "    [unroll] for (int i = 0; i < 100000; i++) s += sin(t.x * i) * cos(t.y + i);\n"
                                  "    return s;\n"
                                  "}\n" VS_PS_TAIL,
                                  NULL, &p, &err);
    if (st != MMD_OK)
        printf("# %s\n", err.msg);
    REQUIRE(st == MMD_OK);
    CHECK(strlen(p->fs) < 4096);
    CHECK(strstr(p->fs, "100000") != NULL);
    int linked = link_ok(p);
    mmd_fx_program_free(p);
    CHECK(linked != 0);
}

/* SPIRV-Cross runs in this process: the SPIR-V it reads is capped, from
 * glslang's child and from the cache alike. */
TEST(spirv_words_are_capped)
{
    char dir[] = "/tmp/mmd_fx_capXXXXXX";
    REQUIRE(mkdtemp(dir));
    mmd_fx_translate_options opt = {.cache_dir = dir};
    mmd_fx_program *p = NULL;
    mmd_error err = {0};
    REQUIRE(translate_one(k_post, &opt, &p, &err) == MMD_OK); /* fills the cache */
    mmd_fx_program_free(p);
    opt.max_spirv_words = 16;
    CHECK_EQ_INT(translate_one(k_post, &opt, &p, &err), MMD_E_LIMIT); /* from the cache */
    CHECK(strstr(err.msg, "words of SPIR-V (at most 16)") != NULL);
    opt.cache_dir = NULL;
    memset(&err, 0, sizeof err);
    CHECK_EQ_INT(translate_one(k_post, &opt, &p, &err), MMD_E_LIMIT); /* from glslang's child */
    CHECK(strstr(err.msg, "t.fx:20: glslang made ") != NULL && strstr(err.msg, "(at most 16)") != NULL);
    printf("# %s\n", err.msg);
    char cmd[64];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    CHECK(system(cmd) == 0);
}

/* A constant array glslang cannot encode (an instruction over 65535 words)
 * and a glslang crash (deep recursion of a 60000-term sum) are errors of the pass. */
TEST(hostile_arrays_and_sums_are_errors)
{
    size_t cap = 1u << 20;
    char *src = malloc(cap);
    REQUIRE(src);
    size_t n = (size_t)snprintf(src, cap, "static float4 tab[65536] = {");
    for (int i = 0; i < 2000; i++)
        n += (size_t)snprintf(src + n, cap - n, "%sfloat4(1, 2, 3, %d)", i ? ", " : "", i);
    n += (size_t)snprintf(src + n, cap - n, "};\nfloat4 PS(float2 t : TEXCOORD0) : COLOR0 { return tab[(int)t.x]; }\n%s",
                          VS_PS_TAIL);
    mmd_fx_program *p = NULL;
    mmd_error err = {0};
    mmd_status st = translate_one(src, NULL, &p, &err);
    printf("# array: %s\n", err.msg);
    CHECK(st != MMD_OK && p == NULL && !strncmp(err.msg, "t.fx:", 5));
    n = (size_t)snprintf(src, cap, "float4 PS(float2 t : TEXCOORD0) : COLOR0 { return t.x");
    for (int i = 0; i < 60000; i++)
        n += (size_t)snprintf(src + n, cap - n, " + t.x * %d.0", i);
    snprintf(src + n, cap - n, "; }\n%s", VS_PS_TAIL);
    memset(&err, 0, sizeof err);
    st = translate_one(src, NULL, &p, &err);
    printf("# sum: %s\n", err.msg);
    CHECK(st != MMD_OK && p == NULL && !strncmp(err.msg, "t.fx:", 5));
    free(src);
}

/* glslang's address space is capped (not under ASan, which reserves
 * terabytes: skipped there): 64 inlined copies of a 2000-statement function
 * take ~500 MB and 20 s without the cap. */
TEST(compile_memory_is_bounded)
{
#if defined(__SANITIZE_ADDRESS__)
    SKIP("skipped: no address-space cap under ASan");
#else
    size_t cap = 1u << 20;
    char *src = malloc(cap);
    REQUIRE(src);
    size_t n = (size_t)snprintf(src, cap, "float f(float x) {\nfloat a0 = x;\n");
    for (int i = 0; i < 2000; i++)
        n += (size_t)snprintf(src + n, cap - n, "float a%d = a%d * %d.5 + a%d;\n", i + 1, i, i, i);
    n += (size_t)snprintf(src + n, cap - n, "return a2000; }\nfloat4 PS(float2 t : TEXCOORD0) : COLOR0 { return 0");
    for (int i = 0; i < 64; i++)
        n += (size_t)snprintf(src + n, cap - n, " + f(t.x + %d)", i);
    snprintf(src + n, cap - n, "; }\n%s", VS_PS_TAIL);
    mmd_fx_translate_options opt = {.compile_memory = 64u << 20};
    mmd_fx_program *p = NULL;
    mmd_error err = {0};
    CHECK_EQ_INT(translate_one(src, &opt, &p, &err), MMD_E_LIMIT);
    free(src);
    CHECK(p == NULL);
    CHECK_STR(err.msg, "t.fx:2006: glslang needed more than 64 MiB");
#endif
}

/* A child that sits blocked after fork (as one that inherits an allocator
 * lock another thread held: GCC 12's ASan) is killed and forked again; three
 * in a row are an error naming the cause. g_block_forks children pause for
 * good in a pthread_atfork handler (test state: the count is taken in the
 * parent before each fork). */
static int g_block_forks;
static bool g_block_this;

static void fork_prepare(void)
{
    g_block_this = g_block_forks > 0;
    if (g_block_forks > 0)
        g_block_forks--;
}

static void fork_child(void)
{
    while (g_block_this)
        pause();
}

TEST(blocked_child_is_forked_again)
{
    REQUIRE(pthread_atfork(fork_prepare, NULL, fork_child) == 0);
    mmd_fx_program *p = NULL;
    mmd_error err = {0};
    g_block_forks = 1; /* the vertex shader's first child: the second one compiles */
    CHECK_EQ_INT(translate_one(k_post, NULL, &p, &err), MMD_OK);
    mmd_fx_program_free(p);
    CHECK_EQ_INT(g_block_forks, 0);
    g_block_forks = 3;
    memset(&err, 0, sizeof err);
    CHECK_EQ_INT(translate_one(k_post, NULL, &p, &err), MMD_E_LIMIT);
    CHECK(p == NULL);
    CHECK(strstr(err.msg, "t.fx:20: glslang's process sat blocked (no CPU time for 3 s, 3 tries): a lock another "
                          "thread held when it was forked") == err.msg);
    printf("# %s\n", err.msg);
    g_block_forks = 0;
}

TEST(semantics_normalise)
{
    static const char *const cases[][2] = {
        {"TEXCOORD", "TEXCOORD0"}, {"texcoord3", "TEXCOORD3"}, {"COLOR", "COLOR0"},  {"SV_Target", "COLOR0"},
        {"SV_Target2", "COLOR2"},  {"POSITION0", "POSITION"},  {"Normal", "NORMAL"}, {"VPOS", "VPOS"},
    };
    char out[40];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        REQUIRE(mmd_fx_semantic_normalise(cases[i][0], out, sizeof out));
        CHECK_STR(out, cases[i][1]);
    }
    CHECK(!mmd_fx_semantic_normalise("", out, sizeof out));
    CHECK(!mmd_fx_semantic_normalise("A B", out, sizeof out));
    CHECK_EQ_INT(mmd_fx_vertex_location("POSITION"), 0);
    CHECK_EQ_INT(mmd_fx_vertex_location("TEXCOORD7"), 9);
    CHECK_EQ_INT(mmd_fx_vertex_location("TEXCOORD8"), -1);
    CHECK_EQ_INT(mmd_fx_vertex_location("FOG"), -1);
}

/* ---- ../shared effects: the figures of docs/effects.md ---- */

typedef struct corpus_counts {
    int files, parsed, passes, translated, linked;
} corpus_counts;

static void corpus_file(const char *path, const mmd_gl *gl, corpus_counts *c)
{
    void *data = NULL;
    size_t size = 0;
    mmd_error err = {0};
    mmd_fx *fx = NULL;
    mmd_fx_loader ld = {disk_read, NULL};
    mmd_status st = mmd_file_read(path, &data, &size, &err);
    if (st == MMD_OK)
        st = mmd_fx_load(data, size, path, &ld, &fx, &err);
    free(data);
    c->files++;
    if (st != MMD_OK) {
        printf("# does not parse: %s\n", err.msg);
        return;
    }
    c->parsed++;
    for (uint32_t t = 0; t < fx->technique_count; t++)
        for (uint32_t k = 0; k < fx->techniques[t].pass_count; k++) {
            mmd_fx_program *p = NULL;
            GLuint prog = 0;
            c->passes++;
            if (mmd_fx_translate(fx, &fx->techniques[t].passes[k], NULL, &p, &err) != MMD_OK) {
                printf("# does not translate: %s\n", err.msg);
                continue;
            }
            c->translated++;
            if (gl && mmd_gl_fx_program_link(gl, p->vs, p->fs, &prog, &err) == MMD_OK) {
                c->linked++;
                gl->DeleteProgram(prog);
            } else if (gl)
                printf("# does not link: %s: %s\n", path, err.msg);
            mmd_fx_program_free(p);
        }
    mmd_fx_free(fx);
}

TEST(shared_corpus_figures)
{
    static char files[256][512];
    int count = 0;
    fx_files_find(MMD_SHARED_ASSETS "/fx", files, &count, 256);
    if (count == 0)
        SKIP("skipped: no ../shared");
    const mmd_gl *gl = gl_or_null();
    corpus_counts c = {0};
    for (int i = 0; i < count; i++)
        corpus_file(files[i], gl, &c);
    printf("# fx corpus: %d of %d files parse (%.1f %%); of %d passes %d translate (%.1f %%), %d link (%.1f %%)%s\n",
           c.parsed, c.files, 100.0 * c.parsed / c.files, c.passes, c.translated, 100.0 * c.translated / c.passes,
           c.linked, 100.0 * c.linked / c.passes, gl ? "" : " (no GL context: nothing linked)");
    CHECK(c.parsed * 100 >= c.files * 95);
    CHECK(c.translated * 100 >= c.passes * 85);
    if (gl)
        CHECK(c.linked * 100 >= c.passes * 85);
}

int main(void)
{
    RUN(object_effect_translates_and_links);
    RUN(post_effect_translates_and_links);
    RUN(full_fx_idioms_translate_and_link);
    RUN(unwritten_varying_links);
    RUN(prototyped_entry_translates);
    RUN(pixel_shader_alone_gets_fixed_function_vertices);
    RUN(any_all_of_a_scalar_link);
    RUN(sampler_dimensions_follow_the_texture);
    RUN(errors_name_file_and_line);
    RUN(glslang_crash_is_an_error);
    RUN(hlsl_size_is_capped);
    RUN(compile_time_is_bounded);
    RUN(unroll_hint_is_not_expanded);
    RUN(spirv_words_are_capped);
    RUN(hostile_arrays_and_sums_are_errors);
    RUN(compile_memory_is_bounded);
    RUN(blocked_child_is_forked_again);
    RUN(semantics_normalise);
    RUN(shared_corpus_figures);
    mmd_gl_context_free(g_ctx);
    return test_finish();
}
