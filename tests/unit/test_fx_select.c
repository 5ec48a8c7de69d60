/* tests/unit/test_fx_select.c - MME's technique choice (renderer/fx/select.h)
 * on our own effects (tests/fx/object_passes.fx and inline ones) and on the
 * shared fixtures (nanoem's main.fx, MikuMikuShaders' Hatching.fxsub). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/file.h"
#include "core/fx.h"
#include "renderer/fx/select.h"
#include "renderer/image/texpath.h"
#include "tests/util/test.h"

TEST_STATE_DEFINE

static mmd_status disk_read(void *user, const char *dir, const char *name, void **data, size_t *size, mmd_error *err)
{
    (void)user;
    char path[1024];
    mmd_status st = mmd_texpath_resolve(dir, name, true, path, sizeof path, err);
    return st == MMD_OK ? mmd_file_read(path, data, size, err) : st;
}

static mmd_fx *load(const char *path)
{
    void *data = NULL;
    size_t size = 0;
    mmd_error err = {0};
    mmd_fx *fx = NULL;
    mmd_fx_loader ld = {disk_read, NULL};
    if (mmd_file_read(path, &data, &size, &err) != MMD_OK || mmd_fx_load(data, size, path, &ld, &fx, &err) != MMD_OK)
        printf("#   %s: %s\n", path, err.msg);
    free(data);
    return fx;
}

static mmd_fx *parse(const char *src)
{
    mmd_error err = {0};
    mmd_fx *fx = NULL;
    if (mmd_fx_load(src, strlen(src), "t.fx", NULL, &fx, &err) != MMD_OK)
        printf("#   t.fx: %s\n", err.msg);
    return fx;
}

static int pick(const mmd_fx *fx, mmd_fx_pass_kind k, bool tex, bool sphere, bool toon, bool ss)
{
    mmd_fx_material_use u = {tex, sphere, toon, ss};
    return mmd_fx_select_technique(fx, k, &u);
}

TEST(kind_names)
{
    CHECK_STR(mmd_fx_pass_kind_name(MMD_FX_PASS_OBJECT_SS), "object_ss");
    CHECK_STR(mmd_fx_pass_kind_name(MMD_FX_PASS_ZPLOT), "zplot");
    CHECK_STR(mmd_fx_pass_kind_name(MMD_FX_PASS_COUNT), "");
    mmd_fx_pass_kind k = MMD_FX_PASS_COUNT;
    CHECK(mmd_fx_pass_kind_parse("Edge", &k) && k == MMD_FX_PASS_EDGE);
    CHECK(mmd_fx_pass_kind_parse("shadow", &k) && k == MMD_FX_PASS_SHADOW);
    CHECK(!mmd_fx_pass_kind_parse("object_s", &k) && k == MMD_FX_PASS_SHADOW);
    CHECK(!mmd_fx_pass_kind_parse(NULL, &k));
    for (int i = 0; i < MMD_FX_PASS_COUNT; i++) /* each name parses back to its kind */
        CHECK(mmd_fx_pass_kind_parse(mmd_fx_pass_kind_name((mmd_fx_pass_kind)i), &k) && (int)k == i);
}

/* Our object effect: one technique per kind and material case. */
TEST(our_object_effect)
{
    mmd_fx *fx = load("tests/fx/object_passes.fx");
    REQUIRE(fx && fx->technique_count == 5);
    CHECK_EQ_INT(pick(fx, MMD_FX_PASS_OBJECT, true, false, true, false), 0);  /* UseTexture = true */
    CHECK_EQ_INT(pick(fx, MMD_FX_PASS_OBJECT, false, false, true, false), 1); /* MMDPass absent: object */
    CHECK_EQ_INT(pick(fx, MMD_FX_PASS_OBJECT, false, true, false, true), 1);
    CHECK_EQ_INT(pick(fx, MMD_FX_PASS_OBJECT_SS, true, false, true, true), 2);  /* UseToon = true */
    CHECK_EQ_INT(pick(fx, MMD_FX_PASS_OBJECT_SS, true, false, false, true), -1); /* an accessory: built-in */
    CHECK_EQ_INT(pick(fx, MMD_FX_PASS_EDGE, false, false, true, false), 3);
    CHECK_EQ_INT(pick(fx, MMD_FX_PASS_SHADOW, false, false, true, false), 4);
    CHECK_EQ_INT((int)fx->techniques[4].pass_count, 0); /* chosen, draws nothing */
    CHECK_EQ_INT(pick(fx, MMD_FX_PASS_ZPLOT, false, false, true, false), -1);
    CHECK_EQ_INT(mmd_fx_select_technique(fx, MMD_FX_PASS_OBJECT, NULL), 1); /* NULL: a material with nothing */
    CHECK_EQ_INT(mmd_fx_select_technique(NULL, MMD_FX_PASS_OBJECT, NULL), -1);
    mmd_fx_free(fx);
}

/* File order decides between two that match; each Use* is checked; an
 * unknown MMDPass (or a non-string one) is never chosen. */
TEST(first_match_and_annotations)
{
    mmd_fx *fx = parse("technique A < string MMDPass = \"object\"; bool UseSphereMap = false; > { }\n"
                       "technique B < bool UseSelfShadow = true; > { }\n"
                       "technique C < string MMDPass = \"Object\"; > { }\n"
                       "technique D < string MMDPass = \"postprocess\"; > { }\n"
                       "technique E < int MMDPass = 3; > { }\n"
                       "technique F < string MMDPass = \"zplot\"; int UseTexture = 0; > { }\n");
    REQUIRE(fx && fx->technique_count == 6);
    CHECK_EQ_INT(pick(fx, MMD_FX_PASS_OBJECT, true, false, false, true), 0);  /* A first */
    CHECK_EQ_INT(pick(fx, MMD_FX_PASS_OBJECT, true, true, false, true), 1);   /* A wants no sphere: B */
    CHECK_EQ_INT(pick(fx, MMD_FX_PASS_OBJECT, true, true, false, false), 2);  /* B wants self-shadow: C (any case) */
    CHECK_EQ_INT(pick(fx, MMD_FX_PASS_ZPLOT, false, false, false, false), 5); /* a number 0 is false */
    CHECK_EQ_INT(pick(fx, MMD_FX_PASS_ZPLOT, true, false, false, false), -1);
    CHECK_EQ_INT(pick(fx, MMD_FX_PASS_EDGE, false, false, false, false), -1);
    mmd_fx_free(fx);
    fx = parse("float4 x;\n"); /* no technique at all: every pass built-in */
    REQUIRE(fx);
    for (int k = 0; k < MMD_FX_PASS_COUNT; k++)
        CHECK_EQ_INT(pick(fx, (mmd_fx_pass_kind)k, true, true, true, true), -1);
    mmd_fx_free(fx);
}

/* The shared fixtures: nanoem's main.fx (one technique, MMDPass object) and
 * Hatching's object effect (object, object_ss, and empty edge, zplot and
 * shadow techniques: the effect suppresses MMD's edge and shadows). */
TEST(shared_fixtures)
{
    mmd_fx *fx = load(MMD_SHARED_ASSETS "/fx/nanoem/emapp/test/fixtures/effects/main.fx");
    if (!fx)
        SKIP("skipped: no ../shared");
    CHECK_EQ_INT(pick(fx, MMD_FX_PASS_OBJECT, true, true, true, true), 0);
    CHECK_EQ_INT(pick(fx, MMD_FX_PASS_OBJECT_SS, true, true, true, true), -1);
    CHECK_EQ_INT(pick(fx, MMD_FX_PASS_EDGE, true, true, true, true), -1);
    mmd_fx_free(fx);
    fx = load(MMD_SHARED_ASSETS "/fx/mikumikushaders/Hatching/Shader/Hatching.fxsub");
    REQUIRE(fx);
    int obj = pick(fx, MMD_FX_PASS_OBJECT, true, false, true, false);
    REQUIRE(obj >= 0);
    CHECK_STR(fx->techniques[obj].name, "MainTec0");
    int ss = pick(fx, MMD_FX_PASS_OBJECT_SS, true, false, true, true);
    REQUIRE(ss >= 0);
    CHECK_STR(fx->techniques[ss].name, "MainTecBS0");
    static const mmd_fx_pass_kind empty[] = {MMD_FX_PASS_EDGE, MMD_FX_PASS_ZPLOT, MMD_FX_PASS_SHADOW};
    static const char *const names[] = {"EdgeTec", "ZplotTec", "ShadowTech"};
    for (int i = 0; i < 3; i++) {
        int t = pick(fx, empty[i], true, false, true, true);
        REQUIRE(t >= 0);
        CHECK_STR(fx->techniques[t].name, names[i]);
        CHECK_EQ_INT((int)fx->techniques[t].pass_count, 0);
    }
    mmd_fx_free(fx);
}

int main(void)
{
    RUN(kind_names);
    RUN(our_object_effect);
    RUN(first_match_and_annotations);
    RUN(shared_fixtures);
    return test_finish();
}
