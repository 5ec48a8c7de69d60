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
                      "float selfmorph : CONTROLOBJECT < string name = \"(self)\"; string item = \"Morph\"; >;\n"
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
    f.self_model = "ctl.pmx"; /* a model's object effect: "(self)" is the model, by its file name */
    CHECK_EQ_INT(mmd_fx_param_value(param(fx, "selfmorph"), &f, v), 1);
    CHECK_NEAR(v[0], 0.25, 1e-6);
    f.self_model = NULL;
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

/* A nanoem fixture without its #include of shaders (its globals are what is checked). */
static mmd_fx *load_fixture(const char *rel)
{
    char path[512];
    snprintf(path, sizeof path, "../shared/assets/fx/nanoem/emapp/test/fixtures/effects/parameters/%s", rel);
    void *data = NULL;
    size_t size = 0;
    if (mmd_file_read(path, &data, &size, NULL) != MMD_OK)
        return NULL;
    char *text = malloc(size + 1);
    if (!text) {
        free(data);
        return NULL;
    }
    memcpy(text, data, size);
    text[size] = 0;
    free(data);
    char *inc = strstr(text, "#include");
    if (inc)
        *inc = 0;
    mmd_fx *fx = load(text);
    free(text);
    return fx;
}

/* nanoem's fixture of an accessory's CONTROLOBJECT items, with the frame's
 * controller named test.x: each value as its name says (MME's meaning). */
TEST(nanoem_accessory_fixture)
{
    mmd_fx *fx = load_fixture("controlobjects/accessory.fx");
    if (!fx)
        SKIP("skipped: no ../shared");
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

static void check_values(const mmd_fx *fx, const mmd_fx_frame *f, const char *name, unsigned n, const float *want)
{
    const mmd_fx_param *p = param(fx, name);
    float v[16];
    unsigned got = p ? mmd_fx_param_value(p, f, v) : 99;
    if (got != n)
        printf("#   %s: %u values, want %u\n", name, got, n);
    CHECK_EQ_INT(got, n);
    for (unsigned k = 0; k < n && got == n; k++)
        if (fabsf(v[k] - want[k]) > 1e-5f) {
            printf("#   %s[%u] = %g, want %g\n", name, k, v[k], want[k]);
            CHECK(0);
        }
}

/* A model's material as an object effect draws it (fx_object.c fills it). */
static void material(mmd_fx_material *m)
{
    memset(m, 0, sizeof *m);
    memcpy(m->diffuse, (float[4]){0.8f, 0.5f, 0.3f, 0.9f}, sizeof m->diffuse);
    memcpy(m->ambient, (float[3]){0.4f, 0.25f, 0.15f}, sizeof m->ambient);
    memcpy(m->specular, (float[3]){0.1f, 0.2f, 0.3f}, sizeof m->specular);
    m->power = 0; /* nanoem: 0 reads as 1 */
    memcpy(m->toon, (float[3]){0.7f, 0.6f, 0.5f}, sizeof m->toon);
    memcpy(m->edge, (float[4]){0, 0, 0.2f, 1}, sizeof m->edge);
    memcpy(m->ground_shadow, (float[4]){0.3f, 0.3f, 0.3f, 0.5f}, sizeof m->ground_shadow);
    memcpy(m->texture_add, (float[4]){0.1f, 0, 0, 0}, sizeof m->texture_add);
    memcpy(m->texture_mul, (float[4]){1, 0.5f, 1, 1}, sizeof m->texture_mul);
    memcpy(m->sphere_add, (float[4]){0, 0.2f, 0, 0}, sizeof m->sphere_add);
    memcpy(m->sphere_mul, (float[4]){1, 1, 0.25f, 1}, sizeof m->sphere_mul);
    m->use_texture = m->use_toon = m->spadd = m->use_spheremap = m->opadd = true;
    m->vertex_count = 28;
    m->subset_count = 2;
}

/* nanoem's material, special-variable and matrix fixtures on a model's
 * material: each value what nanoem's emapp (Effect.cc setMaterialParameters,
 * setLightParameters, setCameraParameters; test/effect/effect_variables.cc)
 * writes for a model: AMBIENT its diffuse colour, EMISSIVE its ambient, the
 * light's AMBIENT its colour and DIFFUSE 0, WORLD x VIEW x PROJECTION. */
TEST(nanoem_model_material_fixtures)
{
    mmd_fx *color = load_fixture("material/color.fx"), *tex = load_fixture("material/textures.fx"),
           *vars = load_fixture("builtin_variables.fx"), *light = load_fixture("light/color.fx"),
           *cam = load_fixture("camera/matrix.fx");
    if (!color) {
        SKIP("skipped: no ../shared");
    }
    REQUIRE(tex && vars && light && cam);
    mmd_fx_frame f;
    frame(&f);
    mmd_fx_material m;
    material(&m);
    f.material = &m;
    check_values(color, &f, "material_diffuse", 4, (float[]){0.8f, 0.5f, 0.3f, 0.9f});
    check_values(color, &f, "material_ambient", 4, (float[]){0.8f, 0.5f, 0.3f, 1});
    check_values(color, &f, "material_emissive", 4, (float[]){0.4f, 0.25f, 0.15f, 1});
    check_values(color, &f, "material_specular", 4, (float[]){0.1f, 0.2f, 0.3f, 1});
    check_values(color, &f, "material_specular_power", 1, (float[]){1});
    check_values(color, &f, "material_toon", 4, (float[]){0.7f, 0.6f, 0.5f, 1});
    check_values(color, &f, "material_edge_color", 4, (float[]){0, 0, 0.2f, 1});
    check_values(color, &f, "material_ground_shadow_color", 4, (float[]){0.3f, 0.3f, 0.3f, 0.5f});
    m.power = 12;
    check_values(color, &f, "material_specular_power", 1, (float[]){12});
    check_values(tex, &f, "material_diffuse_adding_texture", 4, (float[]){0.1f, 0, 0, 0});
    check_values(tex, &f, "material_diffuse_multiplying_texture", 4, (float[]){1, 0.5f, 1, 1});
    check_values(tex, &f, "material_spheremap_adding_texture", 4, (float[]){0, 0.2f, 0, 0});
    check_values(tex, &f, "material_spheremap_multiplying_texture", 4, (float[]){1, 1, 0.25f, 1});
    static const struct { const char *name; float v; } k_vars[] = {
        {"parthf", 0}, {"spadd", 1}, {"transp", 0}, {"use_texture", 1}, {"use_spheremap", 1},
        {"use_subtexture", 0}, {"use_toon", 1}, {"opadd", 1}, {"VertexCount", 28}, {"SubsetCount", 2},
    };
    for (size_t i = 0; i < sizeof k_vars / sizeof k_vars[0]; i++)
        check_values(vars, &f, k_vars[i].name, 1, &k_vars[i].v);
    check_values(light, &f, "light_diffuse", 4, (float[]){0, 0, 0, 0});
    check_values(light, &f, "light_ambient", 4, (float[]){0.6f, 0.6f, 0.6f, 1});
    check_values(light, &f, "light_specular", 4, (float[]){0.6f, 0.6f, 0.6f, 1});
    /* a world of 0.5 (nanoem's kWorldMatrix): WORLD x VIEW x PROJECTION, row vectors */
    float world[16] = {0};
    for (int i = 0; i < 4; i++)
        world[i * 5] = 0.5f;
    f.world = world;
    check_values(cam, &f, "camera_world", 16, world);
    float wv[16], wvp[16];
    memcpy(wv, f.view, sizeof wv);
    for (int i = 0; i < 16; i++) {
        wv[i] *= 0.5f;                            /* 0.5 I x V */
        wvp[i] = wv[i] * 2.0f;                    /* x 2 I */
    }
    check_values(cam, &f, "camera_world_view", 16, wv);
    check_values(cam, &f, "camera_world_view_projection", 16, wvp);
    check_values(cam, &f, "camera_view", 16, f.view); /* VIEW has no world */
    /* without a material (a post effect): 0, and each light colour the light's */
    f.material = NULL;
    check_values(color, &f, "material_diffuse", 0, NULL);
    check_values(vars, &f, "use_toon", 0, NULL);
    check_values(light, &f, "light_diffuse", 4, (float[]){0.6f, 0.6f, 0.6f, 1});
    mmd_fx_free(color);
    mmd_fx_free(tex);
    mmd_fx_free(vars);
    mmd_fx_free(light);
    mmd_fx_free(cam);
}

/* Object = "Light" matrices: the self-shadow map's view-projection when the
 * frame has it (VIEW holds it whole), the camera's otherwise. */
TEST(light_matrices)
{
    mmd_fx *fx = load("float4x4 wvp : WORLDVIEWPROJECTION < string Object = \"Light\"; >;\n"
                      "float4x4 p : PROJECTION < string Object = \"Light\"; >;\n"
                      "float4x4 cam : WORLDVIEWPROJECTION;\n");
    REQUIRE(fx);
    mmd_fx_frame f;
    frame(&f);
    float lvp[16] = {0};
    for (int i = 0; i < 16; i++)
        lvp[i] = (float)(i + 1);
    check_values(fx, &f, "wvp", 16, (float[16]){2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 2, 0, 6, 0, 0, 2}); /* the camera's */
    f.light_matrices = true;
    memcpy(f.light_view_projection, lvp, sizeof lvp);
    check_values(fx, &f, "wvp", 16, lvp);
    check_values(fx, &f, "p", 16, (float[16]){1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1});
    check_values(fx, &f, "cam", 16, (float[16]){2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 2, 0, 6, 0, 0, 2});
    mmd_fx_free(fx);
}

int main(void)
{
    RUN(table);
    RUN(init_numbers);
    RUN(nanoem_accessory_fixture);
    RUN(nanoem_model_material_fixtures);
    RUN(light_matrices);
    return test_finish();
}
