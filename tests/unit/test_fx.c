/* tests/unit/test_fx.c - the effect-file parser (core/fx.h): each construct,
 * the preprocessor's macros and conditionals, located errors, caps (macro
 * bomb, include cycle), speed on 1 MB, and every real effect under
 * ../shared/assets/fx. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/file.h"
#include "core/fx.h"
#include "renderer/image/texpath.h"
#include "tests/util/test.h"
#include "tests/util/fx_files.h"

TEST_STATE_DEFINE

/* In-memory files for #include: name -> text. */
typedef struct memfs {
    const char *names[4], *texts[4];
} memfs;

static mmd_status mem_read(void *user, const char *dir, const char *name, void **data, size_t *size, mmd_error *err)
{
    const memfs *fs = user;
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    for (char *c = path; *c; c++)
        *c = *c == '\\' ? '/' : *c;
    const char *key = strncmp(path, "./", 2) == 0 ? path + 2 : path;
    for (int i = 0; i < 4 && fs->names[i]; i++)
        if (strcmp(fs->names[i], key) == 0) {
            *size = strlen(fs->texts[i]);
            *data = malloc(*size + 1);
            memcpy(*data, fs->texts[i], *size + 1);
            return MMD_OK;
        }
    return mmd_fail(err, MMD_E_IO, "no such file");
}

/* Files on disk: the folder rule and case of the texture resolver. */
static mmd_status disk_read(void *user, const char *dir, const char *name, void **data, size_t *size, mmd_error *err)
{
    (void)user;
    char path[1024];
    mmd_status st = mmd_texpath_resolve(dir, name, true, path, sizeof path, err);
    return st == MMD_OK ? mmd_file_read(path, data, size, err) : st;
}

static mmd_fx *parse_with(const char *src, const memfs *fs, mmd_error *err)
{
    mmd_fx_loader ld = {mem_read, (void *)fs};
    mmd_fx *fx = NULL;
    if (mmd_fx_load(src, strlen(src), "t.fx", fs ? &ld : NULL, &fx, err) != MMD_OK)
        return NULL;
    return fx;
}

static mmd_fx *parse(const char *src)
{
    mmd_error err = {0};
    mmd_fx *fx = parse_with(src, NULL, &err);
    if (!fx)
        printf("#   unexpected error: %s\n", err.msg);
    return fx;
}

/* Parse must fail with status st on line `line` and a message containing `what`. */
#define CHECK_FAILS(src, fs, st, line, what)                                                           \
    do {                                                                                               \
        mmd_error e_ = {0};                                                                            \
        mmd_fx *f_ = parse_with(src, fs, &e_);                                                         \
        CHECK(f_ == NULL);                                                                             \
        mmd_fx_free(f_);                                                                               \
        CHECK_EQ_INT(e_.status, st);                                                                   \
        CHECK_EQ_INT(e_.item, line);                                                                   \
        if (!strstr(e_.msg, what))                                                                     \
            printf("#   %s:%d: message \"%s\" lacks \"%s\"\n", __FILE__, __LINE__, e_.msg, what);     \
        CHECK(strstr(e_.msg, what) != NULL);                                                           \
    } while (0)

static const char k_effect[] =
    "// an object effect\n"
    "float4x4 WorldViewProj : WORLDVIEWPROJECTION;\n"
    "float4 Diffuse : DIFFUSE < string Object = \"Geometry\"; >;\n"
    "float Script : STANDARDSGLOBAL < string ScriptOutput = \"color\"; string ScriptClass = \"scene\";\n"
    "    string ScriptOrder = \"postprocess\"; > = 0.8;\n"
    "static const float Gain = 2.5, Bias = -1;\n"
    "float3 Tint <string UIName = \"tint\"; float3 UIMin = float3(0, -1, 0.5); bool UIVisible = true;\n"
    "             int Steps = 4;> = {1, 1, 1};\n"
    "texture2D ScnMap : RENDERCOLORTARGET < float2 ViewPortRatio = {1.0, 1.0}; int MipLevels = 1;\n"
    "    string Format = \"A8R8G8B8\"; >;\n"
    "sampler2D ScnSamp = sampler_state {\n"
    "    texture = <ScnMap>; MinFilter = LINEAR; MagFilter = POINT; AddressU = CLAMP; AddressV = WRAP;\n"
    "};\n"
    "struct VS_OUT { float4 Pos : POSITION; float2 Tex : TEXCOORD0; };\n"
    "VS_OUT Basic_VS(float4 Pos : POSITION, uniform bool useTex)\n"
    "{\n"
    "    VS_OUT o = (VS_OUT)0; /* a } in a comment */ o.Pos = mul(Pos, WorldViewProj);\n"
    "    if (useTex) { o.Tex = float2(0, 1); }\n"
    "    return o;\n"
    "}\n"
    "float4 Basic_PS(VS_OUT i) : COLOR0 { return tex2D(ScnSamp, i.Tex) * Diffuse * Gain; }\n"
    "technique MainTec < string MMDPass = \"object\"; bool UseTexture = true; > {\n"
    "    pass DrawObject < string Script = \"Draw=Geometry;\"; > {\n"
    "        ZEnable = TRUE; AlphaBlendEnable = FALSE; CullMode = NONE;\n"
    "        VertexShader = compile vs_2_0 Basic_VS(true);\n"
    "        PixelShader  = compile ps_3_0 Basic_PS();\n"
    "    }\n"
    "    pass Second { VertexShader = compile vs_3_0 Basic_VS(false); }\n"
    "}\n"
    "technique11 Dx11 < float2 x = {1, 2}; > { pass P { SetVertexShader(CompileShader(vs_5_0, Basic_VS(true))); } }\n";

TEST(parses_every_construct)
{
    mmd_fx *fx = parse(k_effect);
    REQUIRE(fx);
    REQUIRE(fx->param_count == 6);
    CHECK_STR(fx->params[0].type, "float4x4");
    CHECK_STR(fx->params[0].name, "WorldViewProj");
    CHECK_STR(fx->params[0].semantic, "WORLDVIEWPROJECTION");
    CHECK_EQ_INT(fx->params[0].loc.line, 2);
    CHECK_STR(fx->params[0].loc.file, "t.fx");
    CHECK_STR(fx->params[1].annotations[0].text, "Geometry");
    CHECK_STR(fx->params[2].semantic, "STANDARDSGLOBAL");
    CHECK_EQ_INT(fx->params[2].annotation_count, 3);
    CHECK_STR(fx->params[2].annotations[2].text, "postprocess");
    CHECK_STR(fx->params[2].init, "0.8");
    CHECK_STR(fx->params[3].storage, "static const");
    CHECK_STR(fx->params[3].name, "Gain");
    CHECK_STR(fx->params[4].name, "Bias");
    CHECK_STR(fx->params[4].init, "-1");
    CHECK_STR(fx->params[4].type, "float");
    const mmd_fx_param *tint = &fx->params[5];
    CHECK_STR(tint->init, "{1, 1, 1}");
    REQUIRE(tint->annotation_count == 4);
    const mmd_fx_annotation *mn = mmd_fx_annotation_find(tint->annotations, 4, "uimin");
    REQUIRE(mn);
    CHECK_EQ_INT(mn->kind, MMD_FX_VALUE_NUMBER);
    CHECK_EQ_INT(mn->value_count, 3);
    CHECK_NEAR(mn->values[1], -1.0, 0);
    CHECK_NEAR(mn->values[2], 0.5, 0);
    CHECK_EQ_INT(tint->annotations[2].kind, MMD_FX_VALUE_BOOL);
    CHECK_NEAR(tint->annotations[2].values[0], 1.0, 0);
    CHECK_NEAR(tint->annotations[3].values[0], 4.0, 0);
    REQUIRE(fx->texture_count == 1);
    CHECK_STR(fx->textures[0].semantic, "RENDERCOLORTARGET");
    CHECK_STR(mmd_fx_annotation_find(fx->textures[0].annotations, 3, "Format")->text, "A8R8G8B8");
    REQUIRE(fx->sampler_count == 1);
    const mmd_fx_param *s = &fx->samplers[0];
    REQUIRE(s->state_count == 5);
    CHECK_STR(s->states[0].name, "texture");
    CHECK_STR(s->states[0].value, "ScnMap");
    CHECK(s->states[0].ref);
    CHECK_STR(s->states[2].name, "MagFilter");
    CHECK_STR(s->states[2].value, "POINT");
    CHECK_EQ_INT(s->states[4].line, 12);
    REQUIRE(fx->code_count == 3);
    CHECK_EQ_INT(fx->code[0].kind, MMD_FX_CODE_STRUCT);
    CHECK_STR(fx->code[0].name, "VS_OUT");
    CHECK_STR(fx->code[1].name, "Basic_VS");
    CHECK_EQ_INT(fx->code[1].loc.line, 15);
    CHECK(strstr(fx->code[1].text, "return o;") != NULL);
    CHECK_STR(fx->code[2].name, "Basic_PS");
    REQUIRE(fx->technique_count == 1);
    const mmd_fx_technique *t = &fx->techniques[0];
    CHECK_STR(t->name, "MainTec");
    CHECK_STR(mmd_fx_annotation_find(t->annotations, t->annotation_count, "MMDPass")->text, "object");
    REQUIRE(t->pass_count == 2);
    CHECK_STR(t->passes[0].name, "DrawObject");
    CHECK_EQ_INT(t->passes[0].state_count, 3);
    CHECK_STR(t->passes[0].states[2].name, "CullMode");
    CHECK_STR(t->passes[0].states[2].value, "NONE");
    CHECK_STR(t->passes[0].vs.profile, "vs_2_0");
    CHECK_STR(t->passes[0].vs.entry, "Basic_VS");
    CHECK_STR(t->passes[0].vs.args, "true");
    CHECK_STR(t->passes[0].ps.profile, "ps_3_0");
    CHECK_STR(t->passes[0].ps.args, "");
    CHECK(t->passes[1].ps.profile == NULL);
    CHECK_EQ_INT(fx->warning_count, 1); /* technique11 skipped */
    CHECK_EQ_INT(fx->warnings.kinds[0].item, 30);
    CHECK(strstr(fx->hlsl, "#line 2 \"t.fx\"\nfloat4x4 WorldViewProj : WORLDVIEWPROJECTION;") != NULL);
    CHECK(strstr(fx->hlsl, "sampler2D ScnSamp;") != NULL);
    CHECK(strstr(fx->hlsl, "technique") == NULL);
    CHECK(strstr(fx->hlsl, "ScnMap") == NULL);
    mmd_fx_free(fx);
}

/* DX9 sizes "T X[] = {...}" by its list and reinterprets arrays with
 * "(float[N])X"; glslang needs the size and has no such cast, so the HLSL
 * gets both written out (tests/fx/rw_array_cast.fx links them). */
TEST(array_sizes_and_casts_are_written_out)
{
    mmd_fx *fx = parse("float4 W4[] = { float4(1, 2, 3, 4), float4(5, 6, 7, f(8, 9)), };\n"
                       "float2 W2[] = { {1, 2}, {3, 4}, {5, 6} };\n"
                       "static float W[6] = (float[6])W4;\n"
                       "static float V[5] = ( float [5] ) W2;\n"
                       "static float U[9] = (float[9])W4;\n"
                       "static float2 X[2] = (float2[2])W4;\n"
                       "float Y[] = 3;\n");
    REQUIRE(fx);
    CHECK(strstr(fx->hlsl, "float4 W4[2] = {") != NULL);
    CHECK(strstr(fx->hlsl, "float2 W2[3] = {") != NULL);
    CHECK(strstr(fx->hlsl, "static float W[6] = {W4[0].x, W4[0].y, W4[0].z, W4[0].w, W4[1].x, W4[1].y};") != NULL);
    CHECK(strstr(fx->hlsl, "static float V[5] = {W2[0].x, W2[0].y, W2[1].x, W2[1].y, W2[2].x};") != NULL);
    /* more elements than W4 has, a vector target, no list: left as written (glslang says why) */
    CHECK(strstr(fx->hlsl, "static float U[9] = (float[9])W4;") != NULL);
    CHECK(strstr(fx->hlsl, "static float2 X[2] = (float2[2])W4;") != NULL);
    CHECK(strstr(fx->hlsl, "float Y[] = 3;") != NULL);
    mmd_fx_free(fx);
}

TEST(code_text_keeps_its_lines)
{
    char src[2048] = "float f()\n{\n  float a = 1;\n\n  a += 2;\n";
    for (int i = 0; i < 70; i++)
        strcat(src, "// long comment\n");
    strcat(src, "  return a;\n}\n");
    mmd_fx *fx = parse(src);
    REQUIRE(fx && fx->code_count == 1);
    CHECK_STR(fx->code[0].text, "float f()\n{\nfloat a = 1;\n\na += 2;\n#line 76\nreturn a;\n}");
    CHECK(strstr(fx->hlsl, "#line 1 \"t.fx\"\nfloat f()\n{\n") != NULL);
    mmd_fx_free(fx);
}

/* As fxc reads it (a global is visible below its declaration, a function
 * may use the struct above it), the HLSL keeps the effect's order of
 * structs, globals, samplers and functions. */
TEST(hlsl_keeps_declaration_order)
{
    mmd_fx *fx = parse("float A;\nstruct S { float v; };\nfloat F() { return A; }\nstatic float K = A * 2;\n"
                       "sampler2D Samp;\nfloat4 G() : COLOR { return K; }\n");
    REQUIRE(fx != NULL);
    const char *a = strstr(fx->hlsl, "float A;"), *s = strstr(fx->hlsl, "struct S"),
               *f = strstr(fx->hlsl, "float F()"), *k = strstr(fx->hlsl, "static float K = A * 2;"),
               *sm = strstr(fx->hlsl, "sampler2D Samp;"), *g = strstr(fx->hlsl, "float4 G()");
    REQUIRE(a && s && f && k && sm && g);
    CHECK(a < s && s < f && f < k && k < sm && sm < g);
    CHECK(fx->params[0].order < fx->code[1].order && fx->code[1].order < fx->params[1].order);
    mmd_fx_free(fx);
}

/* A static global whose initializer calls the effect's function (or reads
 * such a global) is set in MMD_FX_STATIC_INIT, in order; others are kept. */
TEST(static_initializers_calling_functions_are_deferred)
{
    mmd_fx *fx = parse("float A;\nfloat F(float x) { return x * 2; }\nstatic float K = F(A);\n"
                       "static const float L = K + 1;\nstatic float M = A * 3;\nstatic float N[2] = {1, 2};\n");
    REQUIRE(fx != NULL);
    CHECK(fx->static_init);
    CHECK(strstr(fx->hlsl, "static float K;") != NULL);
    CHECK(strstr(fx->hlsl, "static float L;") != NULL);
    CHECK(strstr(fx->hlsl, "static float M = A * 3;") != NULL);
    CHECK(strstr(fx->hlsl, "static float N[2] = {1, 2};") != NULL);
    const char *init = strstr(fx->hlsl, "void " MMD_FX_STATIC_INIT "()\n{\n");
    REQUIRE(init != NULL);
    const char *k = strstr(init, "\nK = F(A);\n"), *l = strstr(init, "\nL = K + 1;\n");
    CHECK(k && l && k < l);
    CHECK(strstr(init, "M =") == NULL);
    mmd_fx_free(fx);
    fx = parse("float A;\nstatic float M = A * 3;\nfloat F() { return M; }\n");
    REQUIRE(fx != NULL);
    CHECK(!fx->static_init);
    CHECK(strstr(fx->hlsl, MMD_FX_STATIC_INIT) == NULL);
    mmd_fx_free(fx);
}

/* A uniform a function assigns to (DX9 gives the shader its own copy) is
 * declared as MMD_FX_WRITTEN_PREFIX NAME and a static NAME copied from it;
 * a struct member or local of that name, or a comparison, is no write. */
TEST(written_globals_become_static_copies)
{
    mmd_fx *fx = parse("float3 P : CONTROLOBJECT;\nfloat G = 1;\nfloat4 T[2];\nfloat K;\nstatic float S = 2;\n"
                       "struct O { float K; };\n"
                       "float f(O o) { P.x *= -1; G++; T[1].y = 0; o.K = 3; S = 1; return K == 1 ? P.x : G; }\n");
    REQUIRE(fx != NULL);
    CHECK(strstr(fx->hlsl, "float3 " MMD_FX_WRITTEN_PREFIX "P : CONTROLOBJECT;") != NULL);
    CHECK(strstr(fx->hlsl, "static float3 P = " MMD_FX_WRITTEN_PREFIX "P;") != NULL);
    CHECK(strstr(fx->hlsl, "float " MMD_FX_WRITTEN_PREFIX "G = 1;") != NULL);
    CHECK(strstr(fx->hlsl, "static float4 T[2] = " MMD_FX_WRITTEN_PREFIX "T;") != NULL);
    CHECK(strstr(fx->hlsl, MMD_FX_WRITTEN_PREFIX "K") == NULL);
    CHECK(strstr(fx->hlsl, MMD_FX_WRITTEN_PREFIX "S") == NULL);
    mmd_fx_free(fx);
}

/* `StateBlock = (NAME);` in a pass takes NAME's stateblock_state states
 * and shaders in its place; the stateblock is no parameter and no HLSL. */
TEST(stateblock_states_and_shaders_apply_to_passes)
{
    mmd_fx *fx = parse("float4 VS(float4 p : POSITION) : POSITION { return p; }\n"
                       "float4 PS(uniform float k) : COLOR { return k; }\n"
                       "stateblock SB = stateblock_state { ZEnable = false; VertexShader = compile vs_3_0 VS();\n"
                       "  PixelShader = compile ps_3_0 PS(2); FillMode = POINT; };\n"
                       "technique T { pass A { CullMode = NONE; StateBlock = (SB); AlphaBlendEnable = TRUE; }\n"
                       "  pass B { StateBlock = SB; PixelShader = compile ps_2_0 PS(1); } }\n");
    REQUIRE(fx != NULL);
    CHECK_EQ_INT(fx->param_count, 0);
    CHECK(strstr(fx->hlsl, "stateblock") == NULL);
    REQUIRE(fx->technique_count == 1 && fx->techniques[0].pass_count == 2);
    const mmd_fx_pass *a = &fx->techniques[0].passes[0], *b = &fx->techniques[0].passes[1];
    REQUIRE(a->state_count == 4);
    CHECK_STR(a->states[0].name, "CullMode");
    CHECK_STR(a->states[1].name, "ZEnable");
    CHECK_STR(a->states[2].name, "FillMode");
    CHECK_STR(a->states[3].name, "AlphaBlendEnable");
    CHECK_STR(a->vs.entry, "VS");
    CHECK_STR(a->ps.profile, "ps_3_0");
    CHECK_STR(a->ps.args, "2");
    CHECK_STR(b->ps.profile, "ps_2_0"); /* the pass's own shader wins */
    CHECK_STR(b->ps.args, "1");
    CHECK_STR(b->vs.entry, "VS");
    mmd_fx_free(fx);
}

TEST(script_commands_split)
{
    mmd_arena *a = mmd_arena_create();
    mmd_fx_script_cmd *c = NULL;
    uint32_t n = 0;
    mmd_error err;
    REQUIRE(mmd_fx_script_parse(" RenderColorTarget0=ScnMap; ClearSetColor = ClearColor;Clear=Color;"
                                "ScriptExternal=Color ; Pass=P1", a, &c, &n, &err) == MMD_OK);
    REQUIRE(n == 5);
    CHECK_STR(c[0].name, "RenderColorTarget0");
    CHECK_STR(c[0].value, "ScnMap");
    CHECK_STR(c[1].name, "ClearSetColor");
    CHECK_STR(c[1].value, "ClearColor");
    CHECK_STR(c[3].value, "Color");
    CHECK_STR(c[4].value, "P1");
    CHECK(mmd_fx_script_parse("Clear=Color;Draw;", a, &c, &n, &err) == MMD_E_BAD_VALUE);
    CHECK_EQ_INT(err.item, 1);
    CHECK(strstr(err.msg, "\"Draw\": expected NAME=VALUE") != NULL);
    mmd_arena_destroy(a);
}

/* MME's ScriptOrder of STANDARDSGLOBAL: what makes an accessory's effect a
 * post effect (docs/effects.md "Where effects come from"). */
TEST(script_order_classifies)
{
    static const struct {
        const char *src;
        mmd_fx_order order;
    } cases[] = {
        {"float Script : STANDARDSGLOBAL < string ScriptClass = \"scene\"; string ScriptOrder = \"postprocess\"; > = 0.8;",
         MMD_FX_ORDER_POSTPROCESS},
        {"float S : standardsglobal < string SCRIPTORDER = \"PostProcess\"; > = 0.8;", MMD_FX_ORDER_POSTPROCESS},
        {"float Script : STANDARDSGLOBAL < string ScriptClass = \"scene\"; string ScriptOrder = \"preprocess\"; > = 0.8;",
         MMD_FX_ORDER_PREPROCESS},
        {"float Script : STANDARDSGLOBAL < string ScriptClass = \"object\"; string ScriptOrder = \"standard\"; > = 0.8;",
         MMD_FX_ORDER_STANDARD},
        {"float Script : STANDARDSGLOBAL < string ScriptClass = \"scene\"; > = 0.8;", MMD_FX_ORDER_STANDARD},
        {"float Script : STANDARDSGLOBAL < string ScriptOrder = \"later\"; > = 0.8;", MMD_FX_ORDER_STANDARD},
        {"float Script : STANDARDSGLOBAL < float ScriptOrder = 2; > = 0.8;", MMD_FX_ORDER_STANDARD},
        {"float4x4 W : WORLD; float x = 1;", MMD_FX_ORDER_STANDARD},
        /* the first STANDARDSGLOBAL decides */
        {"float A : STANDARDSGLOBAL < string ScriptOrder = \"standard\"; > = 0.8;\n"
         "float B : STANDARDSGLOBAL < string ScriptOrder = \"postprocess\"; > = 0.8;",
         MMD_FX_ORDER_STANDARD},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        mmd_fx *fx = parse(cases[i].src);
        REQUIRE(fx);
        CHECK_EQ_INT(mmd_fx_script_order(fx), cases[i].order);
        mmd_fx_free(fx);
    }
    CHECK_EQ_INT(mmd_fx_script_order(NULL), MMD_FX_ORDER_STANDARD);
    CHECK_STR(mmd_fx_order_name(MMD_FX_ORDER_POSTPROCESS), "postprocess");
    CHECK_STR(mmd_fx_order_name(MMD_FX_ORDER_COUNT), "");
}

/* register(sN) read from a sampler's semantic (MME binds MMD's self-shadow
 * map at s0: full.fx's `sampler DefSampler : register(s0);`). */
TEST(sampler_registers)
{
    mmd_fx *fx = parse("sampler DefSampler : register(s0);\n"
                       "sampler2D B : REGISTER ( S12 ) = sampler_state { MinFilter = POINT; };\n"
                       "sampler C : register(c0);\nsampler D;\nsampler E : register(s100);\n"
                       "sampler F : register(s);\nsampler G : TEXCOORD0;\n");
    REQUIRE(fx);
    REQUIRE(fx->sampler_count == 7);
    static const int want[7] = {0, 12, -1, -1, -1, -1, -1};
    for (uint32_t i = 0; i < 7; i++)
        CHECK_EQ_INT(mmd_fx_sampler_register(&fx->samplers[i]), want[i]);
    CHECK_EQ_INT(mmd_fx_sampler_register(NULL), -1);
    mmd_fx_free(fx);
}

TEST(macros_expand)
{
    mmd_fx *fx = parse("#define N 4\n"
                       "#define SQ(x) ((x) * (x))\n"
                       "#define STR(x) #x\n"
                       "#define CAT(a, b) a##b\n"
                       "#define DECL(t, n) t CAT(Param, n) : CAT(CONTROL, OBJECT) < string name = STR(n.pmx); >;\n"
                       "#define ID CAT(I, D)\n"
                       "#define F(...) float f(__VA_ARGS__) { return 0; }\n"
                       "float A = SQ(N + 1);\n"
                       "DECL(float3, Light)\n"
                       "float B = SQ(\n  2);\n"
                       "int ID;\n"
                       "F(float a, float b)\n"
                       "#undef N\n"
                       "#ifdef N\nint NotHere;\n#endif\n"
                       "#define SELF SELF + 1\n"
                       "float C = SELF;\n");
    REQUIRE(fx);
    REQUIRE(fx->param_count == 5);
    CHECK_STR(fx->params[0].init, "((4 + 1) * (4 + 1))");
    CHECK_STR(fx->params[1].type, "float3");
    CHECK_STR(fx->params[1].name, "ParamLight");
    CHECK_STR(fx->params[1].semantic, "CONTROLOBJECT");
    CHECK_STR(fx->params[1].annotations[0].text, "Light.pmx");
    CHECK_EQ_INT(fx->params[1].loc.line, 9);
    CHECK_STR(fx->params[2].init, "(( 2) * ( 2))");
    CHECK_STR(fx->params[3].name, "ID");
    CHECK_STR(fx->params[4].init, "SELF + 1");
    REQUIRE(fx->code_count == 1);
    CHECK_STR(fx->code[0].text, "float f(float a, float b) { return 0; }");
    mmd_fx_free(fx);
}

TEST(conditionals_choose)
{
    mmd_fx *fx = parse("#define A 2\n"
                       "#if A * 3 == 6 && defined(A) && !defined B\nint one;\n#else\nint no1;\n#endif\n"
                       "#if 0\n#error not here\n#elif (A << 2) > 7 ? 1 : 0\nint two;\n#elif 1\nint no2;\n#endif\n"
                       "#ifndef B\n#if 0\n#else\nint three;\n#endif\n#endif\n"
                       "#if UNDEFINED_NAME || 0x10 % 3 != 1\nint no3;\n#endif\n"
                       "#pragma warning(disable: 1234)\n"
                       "#line 100 \"other.fx\"\nint four;\n"
                       "#line 7 \"other.fx\"\n#line 200\nint five;\n");
    REQUIRE(fx);
    REQUIRE(fx->param_count == 5);
    CHECK_STR(fx->params[0].name, "one");
    CHECK_STR(fx->params[1].name, "two");
    CHECK_STR(fx->params[2].name, "three");
    CHECK_STR(fx->params[3].name, "four");
    CHECK_EQ_INT(fx->params[3].loc.line, 100);
    CHECK_STR(fx->params[3].loc.file, "other.fx");
    CHECK_EQ_INT(fx->params[4].loc.line, 200);
    CHECK_STR(fx->params[4].loc.file, "other.fx");
    CHECK_EQ_INT(fx->file_count, 1); /* #line names are not files read */
    mmd_fx_free(fx);
}

TEST(includes_are_relative_and_located)
{
    memfs fs = {{"sub/common.fxsub", "sub/inner.fxsub"},
                {"#include \"inner.fxsub\"\nfloat4 Common : DIFFUSE;\n", "\n\nfloat Inner;\n"}};
    mmd_error err = {0};
    mmd_fx *fx = parse_with("#include \"sub\\common.fxsub\"\nfloat Root;\n", &fs, &err);
    REQUIRE(fx);
    REQUIRE(fx->param_count == 3);
    CHECK_STR(fx->params[0].name, "Inner");
    CHECK_STR(fx->params[0].loc.file, "sub/inner.fxsub");
    CHECK_EQ_INT(fx->params[0].loc.line, 3);
    CHECK_STR(fx->params[1].loc.file, "sub/common.fxsub");
    CHECK_EQ_INT(fx->params[1].loc.line, 2);
    CHECK_STR(fx->params[2].loc.file, "t.fx");
    CHECK_EQ_INT(fx->file_count, 3);
    mmd_fx_free(fx);
}

TEST(errors_name_file_line_and_what)
{
    CHECK_FAILS("float a;\n/* never closed\n", NULL, MMD_E_BAD_STRUCTURE, 2, "t.fx:2: unterminated comment");
    CHECK_FAILS("float a;\nstring s = \"open;\n", NULL, MMD_E_BAD_STRUCTURE, 2, "unterminated string");
    CHECK_FAILS("float4 PS() : COLOR {\n  if (1) {\n  return 0;\n}\n", NULL, MMD_E_BAD_STRUCTURE, 1,
                "expected } to close the function body");
    CHECK_FAILS("float a < string x \"v\"; >;\n", NULL, MMD_E_BAD_STRUCTURE, 1, "expected = after the annotation");
    CHECK_FAILS("float a < string x = \"v\" >;\n", NULL, MMD_E_BAD_STRUCTURE, 1, "expected ; after the annotation");
    CHECK_FAILS("\n\nfloat a : ;\n", NULL, MMD_E_BAD_STRUCTURE, 3, "expected a semantic after :, got ';'");
    CHECK_FAILS("technique T { pas P { } }\n", NULL, MMD_E_BAD_STRUCTURE, 1, "expected pass or } in the technique");
    CHECK_FAILS("technique T {\n pass P {\n  ZEnable TRUE;\n }\n}\n", NULL, MMD_E_BAD_STRUCTURE, 3,
                "expected = after the state's name, got 'TRUE'");
    CHECK_FAILS("float a\n", NULL, MMD_E_BAD_STRUCTURE, 1, "expected ; after the declaration, got the end");
    CHECK_FAILS("#if 1\nfloat a;\n", NULL, MMD_E_BAD_STRUCTURE, 1, "#if without #endif");
    CHECK_FAILS("\n#endif\n", NULL, MMD_E_BAD_STRUCTURE, 2, "#endif without #if");
    CHECK_FAILS("#if 1 +\n#endif\n", NULL, MMD_E_BAD_STRUCTURE, 1, "#if: expected a number");
    CHECK_FAILS("#if 1 / 0\n#endif\n", NULL, MMD_E_BAD_STRUCTURE, 1, "division by zero");
    CHECK_FAILS("#define F(a, b) a\nfloat x = F(1);\n", NULL, MMD_E_BAD_STRUCTURE, 2, "macro F expects 2");
    CHECK_FAILS("#define F(a) a\nfloat x = F(1;\n", NULL, MMD_E_BAD_STRUCTURE, 2, "unterminated call of macro F");
    CHECK_FAILS("\n#error Needs MME 0.3\n", NULL, MMD_E_BAD_STRUCTURE, 2, "#error Needs MME 0.3");
    CHECK_FAILS("#foo\n", NULL, MMD_E_BAD_STRUCTURE, 1, "unknown directive, got 'foo'");
    CHECK_FAILS("#include \"a.fxsub\"\n", NULL, MMD_E_UNSUPPORTED, 1, "no loader");
    memfs fs = {{"a.fxsub", "b.fxsub"}, {"float a;\n#include \"b.fxsub\"\n", "\n#include \"A.fxsub\"\n"}};
    CHECK_FAILS("#include \"a.fxsub\"\n", &fs, MMD_E_BAD_STRUCTURE, 2, "b.fxsub:2: #include cycle: A.fxsub");
    CHECK_FAILS("#include \"missing.fxsub\"\n", &fs, MMD_E_IO, 1, "\"missing.fxsub\": no such file");
}

TEST(macro_bomb_is_refused)
{
    char src[4096] = "#define a0 x x\n";
    for (int i = 1; i < 40; i++) {
        char line[64];
        snprintf(line, sizeof line, "#define a%d a%d a%d\n", i, i - 1, i - 1);
        strcat(src, line);
    }
    strcat(src, "\n\nfloat v = a39;\n");
    clock_t c0 = clock();
    CHECK_FAILS(src, NULL, MMD_E_LIMIT, 43, "macro bomb");
    double s = (double)(clock() - c0) / CLOCKS_PER_SEC;
    printf("# macro bomb refused in %.3f s (a figure, not asserted: the token cap bounds the work)\n", s);
    /* nested arguments: f(f(f(...))) doubling each level */
    char src2[4096] = "#define f(x) x x\nfloat v = ";
    for (int i = 0; i < 40; i++)
        strcat(src2, "f(");
    strcat(src2, "1");
    for (int i = 0; i < 40; i++)
        strcat(src2, ")");
    strcat(src2, ";\n");
    CHECK_FAILS(src2, NULL, MMD_E_LIMIT, 2, "macro bomb");
}

TEST(shift_jis_text_is_decoded)
{
    /* "\x83\x65\x83\x58\x83\x67" is テスト in Shift-JIS */
    mmd_fx *fx = parse("// \x83\x65\x83\x58\x83\x67\nfloat a < string UIName = \"\x83\x65\x83\x58\x83\x67\"; >;\n");
    REQUIRE(fx);
    CHECK_STR(fx->params[0].annotations[0].text, "\xe3\x83\x86\xe3\x82\xb9\xe3\x83\x88");
    mmd_fx_free(fx);
}

TEST(one_megabyte_parses)
{
#define UNIT "float4 Color%d : CONTROLOBJECT < string name = \"(self)\"; string item = \"Tr\"; >;\n" \
             "float4 Func%d(float2 uv : TEXCOORD0) : COLOR { return float4(uv, %d, 1); }\n"
    size_t cap = (1u << 20) + 256, n = 0;
    char *src = malloc(cap);
    REQUIRE(src);
    int count = 0;
    while (n + 200 < cap - 256)
        n += (size_t)snprintf(src + n, cap - n, UNIT, count, count, count), count++;
    n += (size_t)snprintf(src + n, cap - n, "technique T { pass P { PixelShader = compile ps_3_0 Func0(); } }\n");
    mmd_fx *fx = NULL;
    mmd_error err;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    mmd_status st = mmd_fx_load(src, n, "big.fx", NULL, &fx, &err);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
    printf("# %zu bytes parsed in %.3f s (a figure, not asserted)\n", n, s);
    REQUIRE(st == MMD_OK);
    CHECK_EQ_INT(fx->param_count, count);
    CHECK_EQ_INT(fx->code_count, count);
    mmd_fx_free(fx);
    free(src);
}

TEST(every_prefix_is_handled)
{
    size_t n = strlen(k_effect);
    unsigned ok = 0;
    for (size_t i = 0; i <= n; i++) {
        mmd_fx *fx = NULL;
        mmd_error err = {0};
        mmd_status st = mmd_fx_load(k_effect, i, "t.fx", NULL, &fx, &err);
        if (st == MMD_OK)
            ok++;
        else
            CHECK(err.item >= 1 && err.item <= 31 && strstr(err.msg, "t.fx:") == err.msg);
        mmd_fx_free(fx);
    }
    CHECK(ok > 10); /* the cut lands between declarations often enough */
}

/* ---- ../shared effects ---- */

static mmd_status load_path(const char *path, mmd_fx **fx, mmd_error *err)
{
    void *data = NULL;
    size_t size = 0;
    mmd_status st = mmd_file_read(path, &data, &size, err);
    mmd_fx_loader ld = {disk_read, NULL};
    if (st == MMD_OK)
        st = mmd_fx_load(data, size, path, &ld, fx, err);
    free(data);
    return st;
}

TEST(shared_effects_all_parse)
{
    static char files[256][512];
    int count = 0;
    fx_files_find(MMD_SHARED_ASSETS "/fx", files, &count, 256);
    if (count == 0)
        SKIP("skipped: no ../shared");
    int ok = 0;
    for (int i = 0; i < count; i++) {
        mmd_fx *fx = NULL;
        mmd_error err = {0};
        if (load_path(files[i], &fx, &err) == MMD_OK)
            ok++;
        else
            printf("# %s\n", err.msg);
        mmd_fx_free(fx);
    }
    printf("# shared effects: %d of %d parse (%.1f %%)\n", ok, count, 100.0 * ok / count);
    CHECK_EQ_INT(ok, count);
}

TEST(shared_light_bloom_values)
{
    mmd_fx *fx = NULL;
    mmd_error err = {0};
    mmd_status st = load_path(MMD_SHARED_ASSETS "/fx/mikumikushaders/LightBloom/LightBloom.fx", &fx, &err);
    if (st == MMD_E_IO)
        SKIP("skipped: no ../shared");
    REQUIRE(st == MMD_OK);
    REQUIRE(fx->param_count > 30);
    CHECK_STR(fx->params[0].name, "dirtIntensityParams");
    CHECK_STR(fx->params[1].name, "ViewportSize");
    CHECK_STR(fx->params[1].semantic, "VIEWPORTPIXELSIZE");
    CHECK_STR(fx->params[2].semantic, "CONTROLOBJECT");
    CHECK_STR(mmd_fx_annotation_find(fx->params[2].annotations, fx->params[2].annotation_count, "name")->text,
              "LightBloomController.pmx");
    CHECK_STR(mmd_fx_annotation_find(fx->params[2].annotations, fx->params[2].annotation_count, "item")->text,
              "BloomRadius+");
    const mmd_fx_param *g = NULL, *scn = NULL;
    for (uint32_t i = 0; i < fx->param_count; i++)
        if (fx->params[i].semantic && strcmp(fx->params[i].semantic, "STANDARDSGLOBAL") == 0)
            g = &fx->params[i];
    REQUIRE(g);
    CHECK_STR(g->name, "Script");
    CHECK_STR(g->init, "0.8");
    CHECK_STR(mmd_fx_annotation_find(g->annotations, g->annotation_count, "ScriptOrder")->text, "postprocess");
    CHECK_EQ_INT(mmd_fx_script_order(fx), MMD_FX_ORDER_POSTPROCESS);
    for (uint32_t i = 0; i < fx->sampler_count; i++)
        if (strcmp(fx->samplers[i].name, "ScnSamp") == 0)
            scn = &fx->samplers[i];
    REQUIRE(scn && scn->state_count == 6);
    CHECK_STR(scn->states[0].value, "ScnMap");
    CHECK(scn->states[0].ref);
    CHECK_STR(scn->states[2].name, "MagFilter");
    CHECK_STR(scn->states[2].value, "POINT");
    CHECK_STR(scn->states[5].value, "CLAMP");
    CHECK(strstr(scn->loc.file, "LightBloom.fxsub") != NULL);
    CHECK_EQ_INT(scn->loc.line, 82);
    REQUIRE(fx->technique_count == 1);
    const mmd_fx_technique *t = &fx->techniques[0];
    CHECK_STR(t->name, "FimicGrain");
    REQUIRE(t->pass_count == 20);
    CHECK_STR(t->passes[0].name, "HDRInverse");
    const mmd_fx_pass *last = &t->passes[19];
    CHECK_STR(last->name, "HDRTonemapping");
    CHECK_STR(last->annotations[0].text, "Draw=Buffer;");
    CHECK_STR(last->vs.profile, "vs_3_0");
    CHECK_STR(last->vs.entry, "ScreenSpaceQuadOffsetVS");
    CHECK_STR(last->vs.args, "ViewportOffset");
    CHECK_STR(last->ps.entry, "HDRTonemappingPS");
    CHECK_STR(last->ps.args, "ScnSamp");
    CHECK_EQ_INT(last->state_count, 4);
    const char *script = mmd_fx_annotation_find(t->annotations, t->annotation_count, "Script")->text;
    mmd_fx_script_cmd *cmds = NULL;
    uint32_t nc = 0;
    REQUIRE(mmd_fx_script_parse(script, fx->arena, &cmds, &nc, &err) == MMD_OK);
    REQUIRE(nc > 3);
    CHECK_STR(cmds[0].name, "RenderColorTarget0");
    CHECK_STR(cmds[0].value, "");
    CHECK_STR(cmds[1].value, "ClearColor");
    mmd_fx_free(fx);
}

int main(void)
{
    RUN(parses_every_construct);
    RUN(code_text_keeps_its_lines);
    RUN(hlsl_keeps_declaration_order);
    RUN(static_initializers_calling_functions_are_deferred);
    RUN(written_globals_become_static_copies);
    RUN(stateblock_states_and_shaders_apply_to_passes);
    RUN(script_commands_split);
    RUN(script_order_classifies);
    RUN(sampler_registers);
    RUN(macros_expand);
    RUN(conditionals_choose);
    RUN(includes_are_relative_and_located);
    RUN(errors_name_file_line_and_what);
    RUN(macro_bomb_is_refused);
    RUN(shift_jis_text_is_decoded);
    RUN(one_megabyte_parses);
    RUN(array_sizes_and_casts_are_written_out);
    RUN(every_prefix_is_handled);
    RUN(shared_effects_all_parse);
    RUN(shared_light_bloom_values);
    return test_finish();
}
