/* tests/unit/test_fx_semantics.c - the values the effect runtime binds
 * (renderer/fx/semantics.h): the table of semantics on a frame of known
 * values, initializers, and nanoem's parameter fixtures (../shared) bound
 * as their names say. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/file.h"
#include "core/fx.h"
#include "renderer/fx/semantics.h"
#include "tests/util/test.h"

TEST_STATE_DEFINE

static mmd_fx *load(const char *text)
{
    mmd_fx *fx = NULL;
    mmd_error err = {0};
    if (mmd_fx_load(text, strlen(text), "t.fx", NULL, &fx, &err) != MMD_OK)
        printf("#   %s\n", err.msg);
    return fx;
}

static const mmd_fx_param *param(const mmd_fx *fx, const char *name)
{
    for (uint32_t i = 0; i < fx->param_count; i++)
        if (!strcmp(fx->params[i].name, name))
            return &fx->params[i];
    return NULL;
}

static unsigned g_item_calls;

static unsigned item(void *user, const char *object, const char *it, const char *type, float out[16])
{
    (void)user;
    (void)type;
    g_item_calls++;
    if (strcmp(object, "ctl.pmx"))
        return 0;
    if (it && !strcmp(it, "Morph")) {
        out[0] = 0.25f;
        return 1;
    }
    return 0;
}

static void frame(mmd_fx_frame *f)
{
    memset(f, 0, sizeof *f);
    f->width = 640;
    f->height = 360;
    f->time = 2.5;
    f->elapsed = 1.0 / 30.0;
    for (int i = 0; i < 16; i++) {
        f->view[i] = i % 5 == 0 ? 1.0f : 0.0f;
        f->projection[i] = i % 5 == 0 ? 2.0f : 0.0f;
    }
    f->view[12] = 3.0f; /* a translation: D3D's row 3 */
    memcpy(f->camera_position, (float[3]){1, 2, 3}, sizeof f->camera_position);
    memcpy(f->camera_direction, (float[3]){0, 0, 1}, sizeof f->camera_direction);
    memcpy(f->light_position, (float[3]){-5, 10, 5}, sizeof f->light_position);
    memcpy(f->light_direction, (float[3]){0.5f, -1, -0.5f}, sizeof f->light_direction);
    memcpy(f->light_color, (float[3]){0.6f, 0.6f, 0.6f}, sizeof f->light_color);
    f->self = (mmd_fx_control){.found = true, .visible = true, .si = 1.5f, .tr = 0.75f,
                               .position = {4, 5, 6}, .rotation = {0.1f, 0.2f, 0.3f}};
    f->self_name = "FXAA.x";
    f->item = item;
}

TEST(table)
{
    mmd_fx *fx = load("float2 vp : VIEWPORTPIXELSIZE; float t : TIME; float dt : ELAPSEDTIME;\n"
                      "float3 cp : POSITION < string Object = \"Camera\"; >;\n"
                      "float4 lp : POSITION < string Object = \"Light\"; >;\n"
                      "float3 ld : DIRECTION < string Object = \"Light\"; >;\n"
                      "float3 lc : DIFFUSE < string Object = \"Light\"; >;\n"
                      "float tr : CONTROLOBJECT < string name = \"(self)\"; string item = \"Tr\"; >;\n"
                      "float si : CONTROLOBJECT < string name = \"fxaa.x\"; string item = \"Si\"; >;\n"
                      "float3 rxyz : CONTROLOBJECT < string name = \"(self)\"; string item = \"Rxyz\"; >;\n"
                      "bool vis : CONTROLOBJECT < string name = \"(self)\"; >;\n"
                      "float scale : CONTROLOBJECT < string name = \"(self)\"; >;\n"
                      "float morph : CONTROLOBJECT < string name = \"ctl.pmx\"; string item = \"Morph\"; >;\n"
                      "float none : CONTROLOBJECT < string name = \"absent.pmx\"; string item = \"Morph\"; >;\n"
                      "float4x4 v : VIEW; float4x4 vp2 : VIEWPROJECTION; float4x4 vt : VIEWTRANSPOSE;\n"
                      "float4x4 vi : VIEWINVERSE; float4x4 w : WORLD;\n"
                      "float4 c = float4(0.5, 1, 2.0f, -3); float k = 2; bool b = true; float u : UNKNOWNSEM = 7;\n");
    REQUIRE(fx);
    mmd_fx_frame f;
    frame(&f);
    float v[16];
    CHECK_EQ_INT(mmd_fx_param_value(param(fx, "vp"), &f, v), 2);
    CHECK(v[0] == 640 && v[1] == 360);
    mmd_fx_param_value(param(fx, "t"), &f, v);
    CHECK_NEAR(v[0], 2.5, 1e-6);
    mmd_fx_param_value(param(fx, "dt"), &f, v);
    CHECK_NEAR(v[0], 1.0 / 30, 1e-6);
    mmd_fx_param_value(param(fx, "cp"), &f, v);
    CHECK(v[0] == 1 && v[1] == 2 && v[2] == 3);
    mmd_fx_param_value(param(fx, "lp"), &f, v);
    CHECK(v[0] == -5 && v[1] == 10 && v[2] == 5 && v[3] == 1);
    mmd_fx_param_value(param(fx, "ld"), &f, v);
    CHECK(v[0] == 0.5f && v[1] == -1 && v[3] == 0);
    mmd_fx_param_value(param(fx, "lc"), &f, v);
    CHECK_NEAR(v[0], 0.6, 1e-6);
    mmd_fx_param_value(param(fx, "tr"), &f, v);
    CHECK_NEAR(v[0], 0.75, 1e-6);
    mmd_fx_param_value(param(fx, "si"), &f, v); /* the controller by its file name, any case */
    CHECK_NEAR(v[0], 1.5, 1e-6);
    mmd_fx_param_value(param(fx, "rxyz"), &f, v);
    CHECK_NEAR(v[2], 0.3, 1e-6);
    mmd_fx_param_value(param(fx, "vis"), &f, v);
    CHECK(v[0] == 1);
    mmd_fx_param_value(param(fx, "scale"), &f, v);
    CHECK_NEAR(v[0], 1.5, 1e-6);
    mmd_fx_param_value(param(fx, "morph"), &f, v);
    CHECK_NEAR(v[0], 0.25, 1e-6);
    CHECK_EQ_INT(mmd_fx_param_value(param(fx, "none"), &f, v), 0);
    CHECK(v[0] == 0);
    CHECK_EQ_INT(mmd_fx_param_value(param(fx, "v"), &f, v), 16);
    CHECK(v[12] == 3 && v[0] == 1);
    mmd_fx_param_value(param(fx, "vp2"), &f, v); /* row vectors: view then projection */
    CHECK(v[0] == 2 && v[12] == 6 && v[15] == 2);
    mmd_fx_param_value(param(fx, "vt"), &f, v);
    CHECK(v[3] == 3 && v[12] == 0);
    mmd_fx_param_value(param(fx, "vi"), &f, v);
    CHECK_NEAR(v[12], -3, 1e-6);
    mmd_fx_param_value(param(fx, "w"), &f, v); /* a post effect's world: the identity */
    CHECK(v[0] == 1 && v[5] == 1 && v[12] == 0);
    CHECK_EQ_INT(mmd_fx_param_value(param(fx, "c"), &f, v), 4);
    CHECK(v[0] == 0.5f && v[1] == 1 && v[2] == 2 && v[3] == -3);
    mmd_fx_param_value(param(fx, "k"), &f, v);
    CHECK(v[0] == 2);
    mmd_fx_param_value(param(fx, "b"), &f, v);
    CHECK(v[0] == 1);
    mmd_fx_param_value(param(fx, "u"), &f, v); /* a semantic we do not know: its initializer */
    CHECK(v[0] == 7);
    CHECK(mmd_fx_semantic_known("viewportpixelsize") && mmd_fx_semantic_known("WORLDVIEWPROJECTIONINVERSE"));
    CHECK(!mmd_fx_semantic_known("MOUSEPOSITION") && !mmd_fx_semantic_known(NULL));
    mmd_fx_free(fx);
    /* no controller: zero and false */
    frame(&f);
    f.self.found = false;
    fx = load("float tr : CONTROLOBJECT < string name = \"(self)\"; string item = \"Tr\"; >;\n");
    REQUIRE(fx);
    CHECK_EQ_INT(mmd_fx_param_value(&fx->params[0], &f, v), 0);
    mmd_fx_free(fx);
}

TEST(init_numbers)
{
    float v[8];
    CHECK_EQ_INT(mmd_fx_init_numbers("{1.0, -2, .5, 3e2}", v, 8), 4);
    CHECK(v[0] == 1 && v[1] == -2 && v[2] == 0.5f && v[3] == 300);
    CHECK_EQ_INT(mmd_fx_init_numbers("float3(1,2,3)", v, 8), 3);
    CHECK(v[2] == 3);
    CHECK_EQ_INT(mmd_fx_init_numbers("float2(0.5h, 1.f)", v, 8), 2);
    CHECK(v[0] == 0.5f && v[1] == 1);
    CHECK_EQ_INT(mmd_fx_init_numbers("false", v, 8), 1);
    CHECK(v[0] == 0);
    CHECK_EQ_INT(mmd_fx_init_numbers("{1,2,3,4,5}", v, 2), 2); /* at most max */
    CHECK_EQ_INT(mmd_fx_init_numbers("", v, 8), 0);
}

/* nanoem's fixture of an accessory's CONTROLOBJECT items, with the frame's
 * controller named test.x: each value as its name says (MME's meaning). */
TEST(nanoem_accessory_fixture)
{
    const char *path = "../shared/assets/fx/nanoem/emapp/test/fixtures/effects/parameters/controlobjects/accessory.fx";
    void *data = NULL;
    size_t size = 0;
    mmd_error err = {0};
    if (mmd_file_read(path, &data, &size, &err) != MMD_OK)
        SKIP("skipped: no ../shared");
    /* the fixture #includes its shaders: what we check are its globals, so the include is cut */
    char *text = malloc(size + 1);
    REQUIRE(text);
    memcpy(text, data, size);
    text[size] = 0;
    free(data);
    char *inc = strstr(text, "#include");
    if (inc)
        *inc = 0;
    mmd_fx *fx = load(text);
    free(text);
    REQUIRE(fx);
    mmd_fx_frame f;
    frame(&f);
    f.self_name = "test.x";
    static const struct { const char *name; unsigned n; float v[3]; } k_want[] = {
        {"accessory_visible", 1, {1}},     {"accessory_scaling", 1, {1.5f}},
        {"accessory_offset_3", 4, {4, 5, 6}}, {"accessory_x", 1, {4}},
        {"accessory_y", 1, {5}},           {"accessory_z", 1, {6}},
        {"accessory_xyz", 4, {4, 5, 6}},   {"accessory_rx", 1, {0.1f}},
        {"accessory_ry", 1, {0.2f}},       {"accessory_rz", 1, {0.3f}},
        {"accessory_rxyz", 4, {0.1f, 0.2f, 0.3f}}, {"accessory_si", 1, {1.5f}},
        {"accessory_tr", 1, {0.75f}},      {"model_morph", 0, {0}}, /* an accessory has no morphs */
    };
    for (size_t i = 0; i < sizeof k_want / sizeof k_want[0]; i++) {
        const mmd_fx_param *p = param(fx, k_want[i].name);
        REQUIRE(p);
        float v[16];
        unsigned n = mmd_fx_param_value(p, &f, v);
        CHECK_EQ_INT(n, k_want[i].n);
        for (unsigned k = 0; k < (n < 3 ? n : 3); k++)
            CHECK_NEAR(v[k], k_want[i].v[k], 1e-6);
    }
    mmd_fx_free(fx);
}

int main(void)
{
    RUN(table);
    RUN(init_numbers);
    RUN(nanoem_accessory_fixture);
    return test_finish();
}
