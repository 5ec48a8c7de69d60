/* tests/unit/test_fx_rewrite.c - constructs of real effects (issue 27's
 * held-out corpus, docs/effects.md) that glslang 12.0 gets wrong unless the
 * translator rewrites them (renderer/fx/rewrite.c): the rewritten text, and
 * our fixtures tests/fx/rw_*.fx translating and linking on Mesa. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/file.h"
#include "core/fx.h"
#include "renderer/fx/translate.h"
#include "renderer/fx/translate_internal.h"
#include "renderer/gl/context.h"
#include "renderer/gl/fx_program.h"
#include "tests/util/test.h"

TEST_STATE_DEFINE

/* hlsl through the rewrite; a malloc'd string. */
static char *rewritten(const char *hlsl)
{
    mmd_fx_text t = {0};
    mmd_fx_hlsl_rewrite(&t, hlsl);
    mmd_fx_text_add(&t, "", 1);
    return t.p;
}

static void expect_rewrite(const char *in, const char *want)
{
    char *got = rewritten(in);
    CHECK_STR(got, want);
    free(got);
}

TEST(matrix_swizzles_become_rows_or_elements)
{
    expect_rewrite("float3 p = W._41_42_43;", "float3 p = W[3].xyz;");
    expect_rewrite("x = length(M._11_12_13) + M._m30_m31.y;", "x = length(M[0].xyz) + M[3].xy.y;");
    expect_rewrite("v = (A)._43_42_41;", "v = (A)[3].zyx;");
    expect_rewrite("v = B[2]._41_42;", "v = B[2][3].xy;");
    expect_rewrite("n = mul(m._12_22_32, R);", "n = mul(float3(m[0].y, m[1].y, m[2].y), R);");
    expect_rewrite("n = In.Mat._11_22;", "n = float2(In.Mat[0].x, In.Mat[1].y);");
    expect_rewrite("m._41_42_43 = p; m._41_42_43 += p;", "m[3].xyz = p; m[3].xyz += p;");
    expect_rewrite("p._11_22 *= s * f(1, 2);", "p._11_22 = float2(p[0].x, p[1].y) * ( s * f(1, 2));");
}

TEST(other_text_is_kept)
{
    const char *same[] = {
        "float4 r = W._41_42_43_44;",     /* a whole row in order: glslang is right */
        "float a = W._41 + W._m22;",      /* one element */
        "m._11_22 = v;",                  /* elements of several rows, assigned */
        "f(x)._11_22;",                   /* of several rows after a call */
        "float a = s._1x; b = s._55_66;", /* no matrix swizzle */
        "float c = 1._11;",
        "#line 3 \"dir/x._41_42.fx\"\nfloat d = 2;",
    };
    for (size_t i = 0; i < sizeof same / sizeof *same; i++)
        expect_rewrite(same[i], same[i]);
}

static mmd_status disk_read(void *user, const char *dir, const char *name, void **data, size_t *size, mmd_error *err)
{
    (void)user;
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return mmd_file_read(path, data, size, err);
}

/* Every pass of tests/fx/NAME translates and links (without a context:
 * translates, and the test says so). */
static void fixture_links(const char *name, const mmd_gl *gl)
{
    char path[256];
    snprintf(path, sizeof path, "tests/fx/%s", name);
    void *data = NULL;
    size_t size = 0;
    mmd_error err = {0};
    REQUIRE(mmd_file_read(path, &data, &size, &err) == MMD_OK);
    mmd_fx_loader ld = {disk_read, NULL};
    mmd_fx *fx = NULL;
    mmd_status st = mmd_fx_load(data, size, path, &ld, &fx, &err);
    free(data);
    REQUIRE(st == MMD_OK);
    for (uint32_t t = 0; t < fx->technique_count; t++)
        for (uint32_t k = 0; k < fx->techniques[t].pass_count; k++) {
            mmd_fx_program *p = NULL;
            st = mmd_fx_translate(fx, &fx->techniques[t].passes[k], NULL, &p, &err);
            if (st != MMD_OK)
                printf("# %s\n", err.msg);
            CHECK(st == MMD_OK);
            GLuint prog = 0;
            if (st == MMD_OK && gl) {
                st = mmd_gl_fx_program_link(gl, p->vs, p->fs, &prog, &err);
                if (st != MMD_OK)
                    printf("# %s: %s\n", path, err.msg);
                CHECK(st == MMD_OK);
                gl->DeleteProgram(prog);
            }
            mmd_fx_program_free(p);
        }
    mmd_fx_free(fx);
}

/* A global the code writes keeps its effect name in the reflection (the
 * runtime binds by it); its GLSL is core's uniform copy. */
TEST(written_global_keeps_its_name)
{
    mmd_fx *fx = NULL;
    mmd_error err = {0};
    const char src[] = "float3 WorldPos : CONTROLOBJECT < string name = \"(self)\"; >;\n"
                       "float4 VS(float4 Pos : POSITION) : POSITION { WorldPos.x *= -1; return Pos + WorldPos.xyzz; }\n"
                       "float4 PS() : COLOR { return 1; }\n"
                       "technique T { pass P { VertexShader = compile vs_3_0 VS(); PixelShader = compile ps_3_0 PS(); } }\n";
    REQUIRE(mmd_fx_load(src, sizeof src - 1, "t.fx", NULL, &fx, &err) == MMD_OK);
    mmd_fx_program *p = NULL;
    REQUIRE(mmd_fx_translate(fx, &fx->techniques[0].passes[0], NULL, &p, &err) == MMD_OK);
    const mmd_fx_uniform *u = NULL;
    for (uint32_t i = 0; i < p->uniform_count; i++)
        if (p->uniforms[i].stage == MMD_FX_STAGE_VERTEX && !strcmp(p->uniforms[i].name, "WorldPos"))
            u = &p->uniforms[i];
    REQUIRE(u != NULL);
    CHECK_STR(u->glsl, "mmd_vs." MMD_FX_WRITTEN_PREFIX "WorldPos");
    CHECK_STR(u->type, "float3");
    CHECK_STR(u->semantic, "CONTROLOBJECT");
    mmd_fx_program_free(p);
    mmd_fx_free(fx);
}

TEST(fixtures_translate_and_link)
{
    mmd_gl_context *ctx = NULL;
    mmd_error err = {0};
    if (mmd_gl_context_create(mmd_gl_default_backend(), 1, &ctx, &err) != MMD_OK) {
        printf("# no GL context (%s): translated only\n", err.msg);
        ctx = NULL;
    }
    const mmd_gl *gl = ctx ? mmd_gl_context_api(ctx) : NULL;
    static const char *const fixtures[] = {"rw_matrix_swizzle.fx", "rw_static_init.fx", "rw_written_global.fx", "rw_stateblock.fx",
                                            "rw_array_cast.fx"};
    for (size_t i = 0; i < sizeof fixtures / sizeof *fixtures; i++)
        fixture_links(fixtures[i], gl);
    mmd_gl_context_free(ctx);
}

int main(void)
{
    RUN(matrix_swizzles_become_rows_or_elements);
    RUN(other_text_is_kept);
    RUN(written_global_keeps_its_name);
    RUN(fixtures_translate_and_link);
    return test_finish();
}
