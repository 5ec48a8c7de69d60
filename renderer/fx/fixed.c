/* renderer/fx/fixed.c - the vertex shader of a pass that sets only a pixel
 * shader: Direct3D 9 then runs its fixed-function vertex processing
 * (renderer/fx/translate_internal.h, docs/effects.md "Translator"). */
#include <stdio.h>
#include <string.h>

#include "renderer/fx/select.h"
#include "renderer/fx/translate_internal.h"

#define OBJECT(what) (mmd_fx_annotation[]){{"string", "Object", what, MMD_FX_VALUE_STRING, {0}, 0}}

/* The globals the generated shader reads, with the semantics the runtime
 * binds them by (renderer/fx/semantics.c): the one list both the HLSL
 * declarations and mmd_fx_fixed_param come from. */
static const mmd_fx_param k_params[] = {
    {.type = "float4x4", .name = "mmd_ff_WorldViewProj", .semantic = "WORLDVIEWPROJECTION"},
    {.type = "float4x4", .name = "mmd_ff_World", .semantic = "WORLD"},
    {.type = "float3", .name = "mmd_ff_LightDirection", .semantic = "DIRECTION",
     .annotations = OBJECT("Light"), .annotation_count = 1},
    {.type = "float4", .name = "mmd_ff_MaterialDiffuse", .semantic = "DIFFUSE",
     .annotations = OBJECT("Geometry"), .annotation_count = 1},
    {.type = "float3", .name = "mmd_ff_MaterialAmbient", .semantic = "AMBIENT",
     .annotations = OBJECT("Geometry"), .annotation_count = 1},
    {.type = "float3", .name = "mmd_ff_MaterialEmissive", .semantic = "EMISSIVE",
     .annotations = OBJECT("Geometry"), .annotation_count = 1},
    {.type = "float3", .name = "mmd_ff_LightDiffuse", .semantic = "DIFFUSE",
     .annotations = OBJECT("Light"), .annotation_count = 1},
    {.type = "float3", .name = "mmd_ff_LightAmbient", .semantic = "AMBIENT",
     .annotations = OBJECT("Light"), .annotation_count = 1},
};
#define N_PARAMS (sizeof k_params / sizeof k_params[0])

const mmd_fx_param *mmd_fx_fixed_param(const char *name)
{
    for (size_t i = 0; name && i < N_PARAMS; i++)
        if (!strcmp(k_params[i].name, name))
            return &k_params[i];
    return NULL;
}

/* Whether the pass draws MME's screen quad (Draw=Buffer) rather than the
 * object: its own Script says so, else a post effect's passes do (as the
 * runtime's default script, renderer/gl/fx_runtime.c). */
static bool draws_buffer(const mmd_fx *fx, const mmd_fx_pass *pass)
{
    const mmd_fx_annotation *a = mmd_fx_annotation_find(pass->annotations, pass->annotation_count, "Script");
    if (a && a->kind == MMD_FX_VALUE_STRING) {
        if (strstr(a->text, "Draw=Buffer"))
            return true;
        if (strstr(a->text, "Draw=Geometry"))
            return false;
    }
    return mmd_fx_is_post_effect(fx);
}

void mmd_fx_fixed_vs(const mmd_fx *fx, const mmd_fx_pass *pass, mmd_fx_text *t)
{
    bool buffer = draws_buffer(fx, pass);
    mmd_fx_text_printf(t, "\n#line %d \"", (int)pass->loc.line);
    mmd_fx_text_add(t, pass->loc.file, strlen(pass->loc.file));
    mmd_fx_text_add(t, "\"\n", 2);
    for (size_t i = 0; !buffer && i < N_PARAMS; i++)
        mmd_fx_text_printf(t, "%s %s : %s;\n", k_params[i].type, k_params[i].name, k_params[i].semantic);
    static const char head[] =
        "struct mmd_ff_out { float4 pos : POSITION; float4 colour : COLOR0; float4 specular : COLOR1;"
        " float4 tex : TEXCOORD0; };\n"
        "mmd_ff_out " MMD_FX_FIXED_VS "(float4 pos : POSITION, float3 normal : NORMAL, float2 tex : TEXCOORD0) {\n"
        "    mmd_ff_out o;\n"
        "    o.specular = float4(0, 0, 0, 0);\n"
        "    o.tex = float4(tex, 0, 1);\n";
    /* An object is transformed and lit as D3D9's lighting does with MMD's
     * material and light (emissive and ambient plus diffuse by N.L, alpha the
     * material's: full.fx's Basic_VS); the screen quad comes in clip space,
     * unlit (white, D3D9's colour without lighting or vertex colours). */
    static const char object[] =
        "    o.pos = mul(pos, mmd_ff_WorldViewProj);\n"
        "    float3 n = normalize(mul(normal, (float3x3)mmd_ff_World));\n"
        "    o.colour.rgb = saturate(mmd_ff_MaterialEmissive + mmd_ff_MaterialAmbient * mmd_ff_LightAmbient +"
        " mmd_ff_MaterialDiffuse.rgb * mmd_ff_LightDiffuse * max(0, dot(n, -mmd_ff_LightDirection)));\n"
        "    o.colour.a = saturate(mmd_ff_MaterialDiffuse.a);\n"
        "    return o;\n"
        "}\n";
    static const char quad[] = "    o.pos = pos;\n    o.colour = float4(1, 1, 1, 1);\n    return o;\n}\n";
    mmd_fx_text_add(t, head, sizeof head - 1);
    if (buffer)
        mmd_fx_text_add(t, quad, sizeof quad - 1);
    else
        mmd_fx_text_add(t, object, sizeof object - 1);
}
