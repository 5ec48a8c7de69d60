/* tests/unit/test_fx_select.c - MME's technique choice (renderer/fx/select.h)
 * on our own effects (tests/fx/object_passes.fx and inline ones) and on the
 * shared fixtures (nanoem's main.fx, MikuMikuShaders' Hatching.fxsub): a case
 * per rule of nanoem's Effect::findTechnique (docs/effects.md "Passes of a
 * drawable"). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/fx.h"
#include "renderer/fx/select.h"
#include "tests/util/fx_files.h"
#include "tests/util/test.h"

TEST_STATE_DEFINE

static mmd_fx *parse(const char *src)
{
    mmd_error err = {0};
    mmd_fx *fx = NULL;
    if (mmd_fx_load(src, strlen(src), "t.fx", NULL, &fx, &err) != MMD_OK)
        printf("#   t.fx: %s\n", err.msg);
    return fx;
}

/* The choice for material 0 of 1 with these uses. */
static int pick(const mmd_fx *fx, mmd_fx_pass_kind k, bool tex, bool sphere, bool toon, bool ss)
{
    mmd_fx_select_query q = {k, {tex, sphere, toon, ss}, 0, 1, false};
    return mmd_fx_select_technique(fx, &q);
}

/* The choice for a model's material (toon) of count, nothing else used. */
static int pick_material(const mmd_fx *fx, mmd_fx_pass_kind k, uint32_t material, uint32_t count)
{
    mmd_fx_select_query q = {k, {.toon = true}, material, count, false};
    return mmd_fx_select_technique(fx, &q);
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
    mmd_fx *fx = fx_file_load("tests/fx/object_passes.fx");
    REQUIRE(fx && fx->technique_count == 5);
    CHECK_EQ_INT(pick(fx, MMD_FX_PASS_OBJECT, true, false, true, false), 0);  /* UseTexture = true */
    CHECK_EQ_INT(pick(fx, MMD_FX_PASS_OBJECT, false, false, true, false), 1);
    CHECK_EQ_INT(pick(fx, MMD_FX_PASS_OBJECT, false, true, false, true), 1);
    CHECK_EQ_INT(pick(fx, MMD_FX_PASS_OBJECT_SS, true, false, true, true), 2); /* UseToon = true */
    CHECK_EQ_INT(pick(fx, MMD_FX_PASS_OBJECT_SS, true, false, false, true), 0); /* an accessory: object's */
    CHECK_EQ_INT(pick(fx, MMD_FX_PASS_OBJECT_SS, false, false, false, true), 1);
    CHECK_EQ_INT(pick(fx, MMD_FX_PASS_EDGE, false, false, true, false), 3);
    CHECK_EQ_INT(pick(fx, MMD_FX_PASS_SHADOW, false, false, true, false), 4);
    CHECK_EQ_INT((int)fx->techniques[4].pass_count, 0); /* chosen, draws nothing */
    CHECK_EQ_INT(pick(fx, MMD_FX_PASS_ZPLOT, false, false, true, false), -1);
    CHECK_EQ_INT(mmd_fx_select_technique(fx, NULL), MMD_FX_SELECT_BUILTIN);
    CHECK_EQ_INT(mmd_fx_select_technique(NULL, &(mmd_fx_select_query){.material_count = 1}), -1);
    mmd_fx_free(fx);
}

/* File order decides between two of a candidate that match; each Use* is
 * checked; an unknown MMDPass (or a non-string one) is never chosen. */
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
    CHECK_EQ_INT(pick(fx, MMD_FX_PASS_OBJECT, true, true, false, true), 2);   /* A wants no sphere: C (any case) */
    CHECK_EQ_INT(pick(fx, MMD_FX_PASS_ZPLOT, false, false, false, false), 5); /* a number 0 is false */
    CHECK_EQ_INT(pick(fx, MMD_FX_PASS_ZPLOT, true, false, false, true), -1);  /* F wants no texture; B is object's */
    CHECK_EQ_INT(pick(fx, MMD_FX_PASS_ZPLOT, true, false, false, false), -1); /* B wants self-shadow */
    CHECK_EQ_INT(pick(fx, MMD_FX_PASS_EDGE, false, false, false, false), -1); /* D, E never */
    mmd_fx_free(fx);
    fx = parse("float4 x;\n"); /* no technique at all: every pass built-in */
    REQUIRE(fx);
    for (int k = 0; k < MMD_FX_PASS_COUNT; k++)
        CHECK_EQ_INT(pick(fx, (mmd_fx_pass_kind)k, true, true, true, true), -1);
    mmd_fx_free(fx);
}

/* The candidates: the kind, for object_ss then object, then (object and
 * object_ss only) a technique without MMDPass (or MMDPass ""), whatever its
 * place in the file. */
TEST(candidates_in_order)
{
    mmd_fx *fx = parse("technique Any < bool UseToon = true; > { }\n"
                       "technique Obj < string MMDPass = \"object\"; > { }\n"
                       "technique Empty < string MMDPass = \"\"; > { }\n"
                       "technique Edge < string MMDPass = \"edge\"; bool UseToon = true; > { }\n");
    REQUIRE(fx && fx->technique_count == 4);
    CHECK_EQ_INT(pick(fx, MMD_FX_PASS_OBJECT, false, false, true, false), 1);   /* the kind before the unnamed */
    CHECK_EQ_INT(pick(fx, MMD_FX_PASS_OBJECT_SS, false, false, true, true), 1); /* only object: it draws */
    CHECK_EQ_INT(pick(fx, MMD_FX_PASS_EDGE, false, false, true, false), 3);
    CHECK_EQ_INT(pick(fx, MMD_FX_PASS_EDGE, false, false, false, false), -1); /* Edge wants toon: built-in */
    CHECK_EQ_INT(pick(fx, MMD_FX_PASS_SHADOW, false, false, true, false), -1); /* unnamed is no shadow's */
    CHECK_EQ_INT(pick(fx, MMD_FX_PASS_ZPLOT, false, false, false, false), -1);
    mmd_fx_free(fx);
    fx = parse("technique SS < string MMDPass = \"object_ss\"; bool UseTexture = true; > { }\n"
               "technique Obj < string MMDPass = \"object\"; bool UseTexture = false; > { }\n");
    REQUIRE(fx);
    CHECK_EQ_INT(pick(fx, MMD_FX_PASS_OBJECT_SS, true, false, true, true), 0);
    CHECK_EQ_INT(pick(fx, MMD_FX_PASS_OBJECT_SS, false, false, true, true), 1); /* SS wants a texture: object's */
    CHECK_EQ_INT(pick(fx, MMD_FX_PASS_OBJECT, true, false, true, false), -1);   /* object never takes object_ss */
    CHECK_EQ_INT(pick(fx, MMD_FX_PASS_EDGE, true, false, true, false), -1);     /* none, no unnamed: built-in */
    mmd_fx_free(fx);
    fx = parse("technique U < bool UseToon = true; > { pass P { } }\n"
               "technique E < string MMDPass = \"edge\"; > { }\n");
    REQUIRE(fx);
    CHECK_EQ_INT(pick(fx, MMD_FX_PASS_OBJECT, false, false, true, false), 0);   /* unnamed: an object technique */
    CHECK_EQ_INT(pick(fx, MMD_FX_PASS_OBJECT_SS, false, false, true, true), 0); /* and so object_ss's too */
    CHECK_EQ_INT(pick(fx, MMD_FX_PASS_OBJECT, false, false, false, false), -1); /* U wants toon */
    CHECK_EQ_INT(pick(fx, MMD_FX_PASS_EDGE, false, false, true, false), 1);
    CHECK_EQ_INT(pick(fx, MMD_FX_PASS_SHADOW, false, false, true, false), -1);  /* never the unnamed */
    CHECK_EQ_INT(pick(fx, MMD_FX_PASS_ZPLOT, false, false, true, false), -1);
    mmd_fx_free(fx);
}

/* No technique at all for a hidden material, nor (an effect with a
 * ScriptExternal command) for a material after the first; zplot never for a
 * ScriptClass "scene" effect. */
TEST(nothing_hidden_external_scene)
{
    mmd_fx *fx = parse("technique T < string MMDPass = \"object\"; > { }\n");
    REQUIRE(fx);
    mmd_fx_select_query q = {MMD_FX_PASS_OBJECT, {0}, 1, 3, false};
    CHECK_EQ_INT(mmd_fx_select_technique(fx, &q), 0);
    q.hidden = true;
    CHECK_EQ_INT(mmd_fx_select_technique(fx, &q), MMD_FX_SELECT_NOTHING);
    q.kind = MMD_FX_PASS_EDGE, q.material = 0; /* whatever the kind and material */
    CHECK_EQ_INT(mmd_fx_select_technique(fx, &q), MMD_FX_SELECT_NOTHING);
    mmd_fx_free(fx);
    fx = parse("float Script : STANDARDSGLOBAL < string ScriptClass = \"sceneorobject\"; > = 0.8;\n"
               "technique T < string MMDPass = \"object\";\n"
               "    string Script = \"RenderColorTarget0=;\" \"ScriptExternal = Color;\" \"Pass=P;\"; > { }\n");
    REQUIRE(fx);
    CHECK_EQ_INT(pick_material(fx, MMD_FX_PASS_OBJECT, 0, 3), 0);
    CHECK_EQ_INT(pick_material(fx, MMD_FX_PASS_OBJECT, 1, 3), MMD_FX_SELECT_NOTHING);
    CHECK_EQ_INT(pick_material(fx, MMD_FX_PASS_EDGE, 2, 3), MMD_FX_SELECT_NOTHING);
    mmd_fx_free(fx);
    fx = parse("technique T < string MMDPass = \"object\"; string Script = \"Pass=P; Clear=Color;\"; > { }\n"
               "technique U < string MMDPass = \"edge\";\n"
               "    string Script = \"RenderColorTarget0=ScriptExternal;\"; > { }\n");
    REQUIRE(fx); /* no ScriptExternal command (a target of that name is none): every material */
    CHECK_EQ_INT(pick_material(fx, MMD_FX_PASS_OBJECT, 2, 3), 0);
    mmd_fx_free(fx);
    const char *zplot = "technique Z < string MMDPass = \"zplot\"; > { }\n"
                        "technique S < string MMDPass = \"shadow\"; > { }\n";
    char src[512];
    snprintf(src, sizeof src, "float Script : STANDARDSGLOBAL < string ScriptClass = \"scene\"; > = 0.8;\n%s", zplot);
    fx = parse(src);
    REQUIRE(fx);
    CHECK_EQ_INT(pick_material(fx, MMD_FX_PASS_ZPLOT, 0, 1), MMD_FX_SELECT_BUILTIN);
    CHECK_EQ_INT(pick_material(fx, MMD_FX_PASS_SHADOW, 0, 1), 1);
    mmd_fx_free(fx);
    fx = parse(zplot); /* the same without ScriptClass "scene" */
    REQUIRE(fx);
    CHECK_EQ_INT(pick_material(fx, MMD_FX_PASS_ZPLOT, 0, 1), 0);
    mmd_fx_free(fx);
}

/* Subset as nanoem's parseSubsetString reads it. */
TEST(subset_parse)
{
    static const struct {
        const char *subset;
        uint32_t count;
        const char *holds; /* '1' per material it holds */
    } cases[] = {
        {"0,3-5,10-", 12, "100111000011"},
        {"2", 5, "00100"},
        {" 1 , 3 ", 5, "01010"}, /* spaces around the numbers */
        {"3-99", 5, "00011"},    /* the end clamped to the last material */
        {"4-2", 6, "001110"},    /* swapped ends */
        {"-2", 5, "11100"},      /* no start: 0 */
        {"2-", 4, "0011"},       /* to the last */
        {"1-x", 3, "011"},       /* no number after '-': to the last */
        {"0-0", 3, "100"},
        {"2-0", 4, "1111"},      /* an end of 0 is not swapped: names none, so every material */
        {"7", 5, "11111"},       /* past the end: none named, every material */
        {"9-", 5, "11111"},
        {"7,1", 5, "01000"},     /* the one in range counts */
        {"", 3, "111"},
        {"x", 3, "111"},
        {",", 2, "11"},
        {"0,", 2, "10"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        for (uint32_t m = 0; m < cases[i].count; m++)
            if (mmd_fx_subset_has(cases[i].subset, m, cases[i].count) != (cases[i].holds[m] == '1')) {
                printf("#   Subset \"%s\" of %u, material %u\n", cases[i].subset, cases[i].count, m);
                CHECK(false);
            }
    CHECK(mmd_fx_subset_has(NULL, 3, 4));
    CHECK(mmd_fx_subset_has("1", 0, 0)); /* no materials: nothing to name */
}

/* Subset narrows each candidate before its Use* annotations; the next
 * technique of the candidate, or the next candidate, takes the rest. */
TEST(subset_with_pass_and_use)
{
    mmd_fx *fx = parse("technique A < string MMDPass = \"object\"; string Subset = \"0\"; > { }\n"
                       "technique B < string MMDPass = \"object\"; string Subset = \"1-2\";\n"
                       "    bool UseToon = false; > { }\n"
                       "technique C < string MMDPass = \"object\"; > { }\n"
                       "technique SS < string MMDPass = \"object_ss\"; string Subset = \"3-\"; > { }\n"
                       "technique U < string Subset = \"2\"; > { }\n");
    REQUIRE(fx && fx->technique_count == 5);
    CHECK_EQ_INT(pick_material(fx, MMD_FX_PASS_OBJECT, 0, 5), 0);
    CHECK_EQ_INT(pick_material(fx, MMD_FX_PASS_OBJECT, 1, 5), 2); /* B: a model's material has a toon */
    mmd_fx_select_query q = {MMD_FX_PASS_OBJECT, {0}, 1, 5, false};
    CHECK_EQ_INT(mmd_fx_select_technique(fx, &q), 1); /* an accessory's: B */
    CHECK_EQ_INT(pick_material(fx, MMD_FX_PASS_OBJECT, 4, 5), 2);
    CHECK_EQ_INT(pick_material(fx, MMD_FX_PASS_OBJECT_SS, 3, 5), 3);
    CHECK_EQ_INT(pick_material(fx, MMD_FX_PASS_OBJECT_SS, 0, 5), 0); /* not in SS's subset: object's */
    CHECK_EQ_INT(pick_material(fx, MMD_FX_PASS_EDGE, 2, 5), -1);     /* the unnamed one is object's */
    CHECK_EQ_INT(pick_material(fx, MMD_FX_PASS_EDGE, 1, 5), -1);
    mmd_fx_free(fx);
}

/* The shared fixtures: nanoem's main.fx (one technique, MMDPass object: it
 * draws object_ss too) and Hatching's object effect (object, object_ss, and
 * empty edge, zplot and shadow techniques: the effect suppresses MMD's edge
 * and shadows). */
TEST(shared_fixtures)
{
    mmd_fx *fx = fx_file_load(MMD_SHARED_ASSETS "/fx/nanoem/emapp/test/fixtures/effects/main.fx");
    if (!fx)
        SKIP("skipped: no ../shared");
    CHECK_EQ_INT(pick(fx, MMD_FX_PASS_OBJECT, true, true, true, true), 0);
    CHECK_EQ_INT(pick(fx, MMD_FX_PASS_OBJECT_SS, true, true, true, true), 0); /* object's, with the self-shadow */
    CHECK_EQ_INT(pick(fx, MMD_FX_PASS_EDGE, true, true, true, true), -1);
    mmd_fx_free(fx);
    fx = fx_file_load(MMD_SHARED_ASSETS "/fx/mikumikushaders/Hatching/Shader/Hatching.fxsub");
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
    RUN(candidates_in_order);
    RUN(nothing_hidden_external_scene);
    RUN(subset_parse);
    RUN(subset_with_pass_and_use);
    RUN(shared_fixtures);
    return test_finish();
}
