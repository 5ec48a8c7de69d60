/* tests/unit/test_render_accessory.c - accessories drawn by the renderer:
 * goldens (tests/golden/acc_*.png, looked at; see tests/golden/README.md),
 * identical frames from the three .x encodings, sphere multiply/add, opacity,
 * add-blend, after-models order, the shadow flag, screen.bmp and an accessory
 * carried by a dancing model's hand bone. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cglm/cglm.h>

#include "core/accessory.h"
#include "core/xfile.h"
#include "core/model.h"
#include "core/pmx_write.h"
#include "renderer/gl/fx_object.h"
#include "renderer/gl/render.h"
#include "renderer/image/diff.h"
#include "tests/unit/render_golden.h"
#include "tests/util/fx_files.h"
#include "tests/util/test.h"
#include "tests/unit/anim_fixture.h"
#include "tests/util/x_fixture.h"

TEST_STATE_DEFINE

#define W 160
#define H 120

static char g_assets[1100];
static char g_glver[128]; /* of the last renderer, for golden_check */

/* Sphere map 32x32: a radial gradient, orange at the centre to dark blue. */
static void write_assets(void)
{
    snprintf(g_assets, sizeof g_assets, "%s/acc_assets", g_out);
    mkdir(g_assets, 0777);
    uint8_t img[32 * 32 * 4];
    for (int y = 0; y < 32; y++)
        for (int x = 0; x < 32; x++) {
            float d = sqrtf((float)((x - 16) * (x - 16) + (y - 16) * (y - 16))) / 16.0f;
            d = d > 1 ? 1 : d;
            uint8_t *q = img + (y * 32 + x) * 4;
            q[0] = (uint8_t)(250 - 220 * d);
            q[1] = (uint8_t)(160 - 120 * d);
            q[2] = (uint8_t)(40 + 120 * d);
            q[3] = 255;
        }
    char p[1200];
    uint8_t chk[16 * 16 * 4]; /* 16x16 checker of 4x4 cells: cream and teal */
    for (int y = 0; y < 16; y++)
        for (int x = 0; x < 16; x++) {
            bool a = ((x / 4) + (y / 4)) & 1;
            uint8_t *q = chk + (y * 16 + x) * 4;
            q[0] = a ? 240 : 30, q[1] = a ? 230 : 150, q[2] = a ? 200 : 160, q[3] = 255;
        }
    snprintf(p, sizeof p, "%s/checker.png", g_assets);
    golden_write(p, chk, 16, 16);
    snprintf(p, sizeof p, "%s/env.sph", g_assets);
    golden_write(p, img, 32, 32);
    snprintf(p, sizeof p, "%s/env.spa", g_assets);
    golden_write(p, img, 32, 32);
}

/* A lit box (file units: 1 wide, on y = 0) and a floor slab below it. */
static mmd_xmesh *box(float r, float g, float b)
{
    mmd_xmesh *x = x_fixture_box(0, 0.5f, 0, 0.5f, 0.5f, 0.5f);
    mmd_accessory_material *m = &x->mesh.materials[0];
    m->diffuse[0] = r, m->diffuse[1] = g, m->diffuse[2] = b;
    m->power = 12;
    m->specular[0] = m->specular[1] = m->specular[2] = 0.4f;
    m->emissive[0] = m->emissive[1] = m->emissive[2] = 0.1f;
    return x;
}

static mmd_xmesh *floor_slab(void)
{
    mmd_xmesh *x = x_fixture_box(0, -0.05f, 0, 2.0f, 0.05f, 2.0f);
    x->mesh.materials[0].diffuse[0] = 0.6f, x->mesh.materials[0].diffuse[1] = 0.65f, x->mesh.materials[0].diffuse[2] = 0.7f;
    return x;
}

typedef struct acc_item {
    mmd_xmesh *x;
    mmd_render_accessory a;
} acc_item;

static acc_item item(mmd_xmesh *x, float px, float py, float pz, float scale)
{
    acc_item it = {x, {.parent_slot = -1, .parent_bone = -1}};
    mmd_accessory_place_default(&it.a.place);
    it.a.place.position[0] = px, it.a.place.position[1] = py, it.a.place.position[2] = pz;
    it.a.place.scale = scale;
    return it;
}

/* A model: one quad (alpha a) facing the camera at z = zq, 12 units wide. */
static mmd_model *quad_model(float a, float zq)
{
    mmd_model *m = mmd_model_new();
    mmd_vertex *v = mmd_model_add_vertices(m, 4);
    const float p[4][3] = {{-6, 0, zq}, {-6, 12, zq}, {6, 12, zq}, {6, 0, zq}};
    for (int i = 0; i < 4; i++) {
        memcpy(v[i].position, p[i], sizeof p[i]);
        v[i].normal[1] = 0, v[i].normal[2] = -1;
    }
    uint32_t *ix = mmd_model_add_indices(m, 6);
    const uint32_t q[6] = {0, 1, 2, 0, 2, 3};
    memcpy(ix, q, sizeof q);
    mmd_material *mt = mmd_model_add_materials(m, 1);
    mt->diffuse[0] = 0.2f, mt->diffuse[1] = 0.8f, mt->diffuse[2] = 0.3f, mt->diffuse[3] = a;
    mt->ambient[0] = mt->ambient[1] = mt->ambient[2] = 0.3f;
    mt->flags = MMD_MAT_DOUBLE_SIDED;
    mt->index_count = 6;
    mmd_error err;
    mmd_model_validate(m, &err);
    return m;
}

typedef struct frame_opts {
    bool ground;
    const mmd_shadow_state *shadow;
    const mmd_model *model; /* drawn as slot 0 */
    int frames;             /* render this many frames, keep the last */
    bool blue;              /* a blue-grey background instead of white */
    size_t texture_budget;  /* 0: the default */
    const mmd_fx *fx;       /* accessory fx_slot's object effect (gl/fx_object.h); NULL: none */
    int fx_slot;
} frame_opts;

/* fo's object effect on its accessory, drawn through the pass hook; *out NULL without one. */
static int effect_hook(mmd_renderer *r, const acc_item *items, const frame_opts *fo, const mmd_render_view *v,
                       mmd_fx_objects **out, mmd_error *err)
{
    *out = NULL;
    if (!fo->fx)
        return 0;
    mmd_fx_effect_config cfg = {.gl = mmd_renderer_api(r), .width = W, .height = H};
    if (mmd_fx_objects_create(NULL, out, err) != MMD_OK ||
        mmd_fx_objects_add_accessory(*out, r, (size_t)fo->fx_slot, &items[fo->fx_slot].x->mesh, false, fo->fx, &cfg,
                                     err) != MMD_OK)
        return -1;
    mmd_renderer_set_pass_hook(r, mmd_fx_objects_hook, *out);
    mmd_fx_frame f;
    memset(&f, 0, sizeof f);
    f.width = W, f.height = H;
    mmd_fx_frame_camera(&f, v->view, v->proj);
    mmd_fx_objects_frame(*out, &f);
    return 0;
}

static int render(const acc_item *items, int n, const frame_opts *fo, uint8_t *rgba)
{
    mmd_render_options o;
    mmd_render_options_default(&o);
    o.width = W;
    o.height = H;
    o.threads = 2;
    o.samples = 1;
    o.shadow_map_size = 1024;
    o.ground_shadow = fo->ground;
    if (fo->texture_budget)
        o.texture_budget = fo->texture_budget;
    if (fo->blue)
        o.background[0] = 0.45f, o.background[1] = 0.55f, o.background[2] = 0.7f;
    mmd_renderer *r = NULL;
    mmd_error err;
    if (mmd_renderer_create(&o, &r, &err) != MMD_OK) {
        printf("#   renderer: %s\n", err.msg);
        return -1;
    }
    snprintf(g_glver, sizeof g_glver, "%s", mmd_renderer_gl_version(r));
    mmd_render_accessory place[8];
    int rc = 0;
    for (int i = 0; i < n && !rc; i++) {
        place[i] = items[i].a;
        rc = mmd_renderer_add_accessory(r, &items[i].x->mesh, g_assets, "test", &err) != MMD_OK;
    }
    mmd_renderer_place_accessories(r, place, (size_t)n);
    mmd_render_instance in;
    memset(&in, 0, sizeof in);
    if (!rc && fo->model) {
        rc = mmd_renderer_add_model(r, fo->model, g_assets, &err) != MMD_OK;
        static float pos[64 * 3], nrm[64 * 3];
        for (uint32_t i = 0; i < fo->model->vertex_count && i < 64; i++) {
            memcpy(pos + i * 3, fo->model->vertices[i].position, 12);
            memcpy(nrm + i * 3, fo->model->vertices[i].normal, 12);
        }
        in.positions = pos;
        in.normals = nrm;
    }
    mmd_render_view v;
    golden_view(&v, W, H);
    mmd_fx_objects *objs = NULL;
    if (!rc)
        rc = effect_hook(r, items, fo, &v, &objs, &err);
    for (int f = 0; f < (fo->frames ? fo->frames : 1) && !rc; f++)
        rc = mmd_renderer_draw(r, &in, fo->model ? 1 : 0, &v, NULL, fo->shadow, rgba, &err) != MMD_OK;
    if (!rc && objs)
        rc = mmd_fx_objects_status(objs, &err) != MMD_OK;
    if (rc)
        printf("#   %s\n", err.msg);
    mmd_fx_objects_free(objs);
    mmd_renderer_free(r);
    return rc;
}

static void golden(const char *name, const acc_item *items, int n, const frame_opts *fo)
{
    uint8_t *rgba = malloc((size_t)W * H * 4);
    if (render(items, n, fo, rgba) == 0)
        golden_check(name, rgba, W, H, g_glver);
    else
        CHECK(!"render");
    free(rgba);
}

static mmd_xmesh *reload(const mmd_xmesh *x, int enc, int bits)
{
    size_t n;
    uint8_t *b = x_fixture_bytes(x, enc, bits, true, NULL, &n);
    mmd_xmesh *y = NULL;
    mmd_error err;
    if (mmd_x_load(b, n, &y, &err) != MMD_OK)
        printf("#   reload: %s\n", err.msg);
    free(b);
    return y;
}

TEST(encodings_give_identical_frames)
{
    mmd_xmesh *src = box(0.9f, 0.5f, 0.3f), *fl = floor_slab();
    static const int enc[3][2] = {{MMD_X_TEXT, 32}, {MMD_X_BINARY, 32}, {MMD_X_BZIP, 64}};
    uint8_t *first = NULL;
    for (int e = 0; e < 3; e++) {
        mmd_xmesh *x = reload(src, enc[e][0], enc[e][1]), *f = reload(fl, enc[e][0], enc[e][1]);
        REQUIRE(x && f);
        acc_item it[2] = {item(f, 0, 0, 0, 1), item(x, 0, 0, 0, 1)};
        it[0].a.place.shadow = false;
        frame_opts fo = {.ground = true};
        uint8_t *rgba = malloc((size_t)W * H * 4);
        REQUIRE(render(it, 2, &fo, rgba) == 0);
        if (!first) {
            first = rgba;
            golden_check("acc_box", rgba, W, H, g_glver);
        } else {
            CHECK(memcmp(first, rgba, (size_t)W * H * 4) == 0);
            free(rgba);
        }
        mmd_x_free(x);
        mmd_x_free(f);
    }
    free(first);
    mmd_x_free(src);
    mmd_x_free(fl);
}

TEST(sphere_multiply_and_add)
{
    mmd_xmesh *x = box(0.8f, 0.8f, 0.8f);
    x->mesh.materials[0].sphere = mmd_x_str(x, "env.sph");
    x->mesh.materials[0].sphere_mode = MMD_SPHERE_MUL;
    acc_item it = item(x, 0, 0, 0, 1);
    frame_opts fo = {0};
    golden("acc_sphere_mul", &it, 1, &fo);
    x->mesh.materials[0].sphere = mmd_x_str(x, "env.spa");
    x->mesh.materials[0].sphere_mode = MMD_SPHERE_ADD;
    x->mesh.materials[0].diffuse[0] = x->mesh.materials[0].diffuse[1] = x->mesh.materials[0].diffuse[2] = 0.3f;
    golden("acc_sphere_add", &it, 1, &fo);
    mmd_x_free(x);
}

TEST(opacity_and_add_blend)
{
    mmd_xmesh *back = box(0.9f, 0.2f, 0.2f), *front = box(0.2f, 0.3f, 0.9f);
    acc_item it[2] = {item(back, 4, 0, 6, 1), item(front, -2, 0, -4, 1)};
    it[1].a.place.opacity = 0.5f;
    frame_opts fo = {0};
    golden("acc_opacity", it, 2, &fo);
    it[1].a.place.opacity = 1.0f;
    it[1].a.place.add_blend = true;
    golden("acc_add_blend", it, 2, &fo);
    mmd_x_free(back);
    mmd_x_free(front);
}

TEST(after_models_order)
{
    /* a half-transparent quad model in front of the box: drawn before the
     * model the box shows through it; drawn after, the quad's depth hides it */
    mmd_model *m = quad_model(0.5f, -8);
    mmd_xmesh *x = box(0.9f, 0.6f, 0.2f);
    acc_item it = item(x, 0, 0, 0, 1);
    frame_opts fo = {.model = m};
    uint8_t *before = malloc((size_t)W * H * 4), *after = malloc((size_t)W * H * 4);
    REQUIRE(render(&it, 1, &fo, before) == 0);
    golden_check("acc_before_models", before, W, H, g_glver);
    it.a.place.after_models = true;
    REQUIRE(render(&it, 1, &fo, after) == 0);
    golden_check("acc_after_models", after, W, H, g_glver);
    CHECK(memcmp(before, after, (size_t)W * H * 4) != 0);
    free(before);
    free(after);
    mmd_x_free(x);
    mmd_model_free(m);
}

TEST(shadow_flag)
{
    mmd_xmesh *x = box(0.9f, 0.9f, 0.9f), *fl = floor_slab();
    acc_item it[2] = {item(fl, 0, 0, 0, 1), item(x, 0, 4, 0, 1)};
    it[0].a.place.shadow = false;
    mmd_shadow_state sh = {.mode = 1, .distance = 0.01125f};
    frame_opts fo = {.ground = true};
    golden("acc_shadow_ground", it, 2, &fo);
    fo.ground = false;
    fo.shadow = &sh;
    golden("acc_shadow_self", it, 2, &fo);
    it[1].a.place.shadow = false;
    fo.ground = true;
    golden("acc_shadow_off", it, 2, &fo);
    mmd_x_free(x);
    mmd_x_free(fl);
}

/* An accessory's object effect in the self-shadow map (MME's zplot): an
 * empty zplot technique (tests/fx/zplot_none.fx) makes the box cast nothing,
 * the bytes of the box with its shadow flag off; full.fx's z-plot
 * (tests/fx/self_shadow_zplot.fx) casts it again: the floor as with the
 * built-in caster (the box itself is its receiver technique's green and blue). */
TEST(accessory_zplot)
{
    mmd_xmesh *x = box(0.9f, 0.9f, 0.9f), *fl = floor_slab();
    mmd_fx *none = fx_file_load("tests/fx/zplot_none.fx"), *plot = fx_file_load("tests/fx/self_shadow_zplot.fx");
    REQUIRE(none && plot);
    acc_item it[2] = {item(fl, 0, 0, 0, 1), item(x, 0, 4, 0, 1)};
    it[0].a.place.shadow = false;
    mmd_shadow_state sh = {.mode = 1, .distance = 0.01125f};
    frame_opts fo = {.shadow = &sh, .fx_slot = 1};
    size_t n = (size_t)W * H * 4;
    uint8_t *cast = malloc(n), *no_cast = malloc(n), *a = malloc(n), *b = malloc(n);
    REQUIRE(cast && no_cast && a && b);
    REQUIRE(render(it, 2, &fo, cast) == 0);
    fo.fx = none;
    REQUIRE(render(it, 2, &fo, a) == 0);
    fo.fx = plot;
    REQUIRE(render(it, 2, &fo, b) == 0);
    fo.fx = NULL;
    it[1].a.place.shadow = false;
    REQUIRE(render(it, 2, &fo, no_cast) == 0);
    size_t shadow = 0, differ = 0;
    for (size_t i = 0; i < (size_t)W * H; i++) {
        shadow += memcmp(cast + i * 4, no_cast + i * 4, 4) != 0;
        const uint8_t *p = b + i * 4;
        bool box = p[0] == 0 && ((p[1] == 255 && p[2] == 0) || (p[1] == 0 && p[2] == 255));
        differ += !box && memcmp(cast + i * 4, p, 4) != 0;
    }
    printf("#   the box's self-shadow: %zu pixels; with the effect's z-plot %zu floor pixels differ\n", shadow,
           differ);
    CHECK(shadow > 100);
    CHECK(memcmp(a, no_cast, n) == 0);
    CHECK(differ == 0); /* a closed box: the effect's back-face culling (D3D's default) changes nothing */
    free(cast);
    free(no_cast);
    free(a);
    free(b);
    mmd_fx_free(none);
    mmd_fx_free(plot);
    mmd_x_free(x);
    mmd_x_free(fl);
}

TEST(screen_shows_previous_frame)
{
    /* a screen-textured slab faces the camera; a box beside it */
    mmd_xmesh *scr = x_fixture_box(0, 1, 0, 1.2f, 0.9f, 0.05f), *x = box(0.9f, 0.3f, 0.3f);
    scr->mesh.materials[0].texture = mmd_x_str(scr, "screen.bmp");
    scr->mesh.materials[0].emissive[0] = scr->mesh.materials[0].emissive[1] = scr->mesh.materials[0].emissive[2] = 1;
    acc_item it[2] = {item(scr, 2, 0, 8, 1), item(x, -12, 0, 0, 0.6f)};
    uint8_t *one = malloc((size_t)W * H * 4), *two = malloc((size_t)W * H * 4);
    frame_opts fo = {.frames = 1, .blue = true};
    REQUIRE(render(it, 2, &fo, one) == 0);
    fo.frames = 2;
    REQUIRE(render(it, 2, &fo, two) == 0);
    /* first frame: the screen is black; second: it shows the first frame */
    const uint8_t *c1 = one + ((size_t)(H / 2 - 10) * W + W / 2 + 8) * 4, *c2 = two + ((size_t)(H / 2 - 10) * W + W / 2 + 8) * 4;
    printf("#   screen centre: frame 1 %d %d %d, frame 2 %d %d %d\n", c1[0], c1[1], c1[2], c2[0], c2[1], c2[2]);
    CHECK(c1[0] < 40 && c1[1] < 40 && c1[2] < 40);
    CHECK(c2[0] + c2[1] + c2[2] > 3 * 100);
    golden_check("acc_screen_frame2", two, W, H, g_glver);
    /* the screen is a frame-sized texture: over the texture budget (what --max-memory
     * leaves) there is none, and the slab is drawn white, lit by its emissive */
    fo.frames = 1;
    fo.texture_budget = (size_t)W * H * 4 - 1;
    REQUIRE(render(it, 2, &fo, one) == 0);
    printf("#   screen centre over the budget: %d %d %d\n", c1[0], c1[1], c1[2]);
    CHECK(c1[0] > 200 && c1[1] > 200 && c1[2] > 200);
    fo.texture_budget = (size_t)W * H * 4; /* exactly fits: black on the first frame again */
    REQUIRE(render(it, 2, &fo, one) == 0);
    CHECK(c1[0] < 40 && c1[1] < 40 && c1[2] < 40);
    free(one);
    free(two);
    mmd_x_free(scr);
    mmd_x_free(x);
}

/* The PMX twin of an accessory mesh: vertices x10, one material whose ambient
 * is the accessory's emissive, no toon, edge or shadow flags. */
static mmd_model *pmx_twin(const mmd_xmesh *x)
{
    mmd_model *m = mmd_model_new();
    mmd_vertex *v = mmd_model_add_vertices(m, x->mesh.vertex_count);
    for (uint32_t i = 0; i < x->mesh.vertex_count; i++) {
        for (int k = 0; k < 3; k++) {
            v[i].position[k] = x->mesh.vertices[i].position[k] * 10;
            v[i].normal[k] = x->mesh.vertices[i].normal[k];
        }
        memcpy(v[i].uv, x->mesh.vertices[i].uv, sizeof v[i].uv);
    }
    memcpy(mmd_model_add_indices(m, x->mesh.index_count), x->mesh.indices, x->mesh.index_count * 4);
    char **t = mmd_model_add_textures(m, 1);
    t[0] = mmd_model_str(m, x->mesh.materials[0].texture);
    mmd_material *mt = mmd_model_add_materials(m, 1);
    memcpy(mt->diffuse, x->mesh.materials[0].diffuse, sizeof mt->diffuse);
    memcpy(mt->ambient, x->mesh.materials[0].emissive, sizeof mt->ambient);
    mt->specular_power = 0;
    mt->texture = 0;
    mt->toon = -1;
    mt->index_count = x->mesh.index_count;
    mmd_error err;
    mmd_model_validate(m, &err);
    return m;
}

/* Where the two shading models agree (diffuse black: the accessory's
 * D x (light - 0.3) and D x N.L terms vanish and PMX's toon is white, so both
 * give texture x emissive/ambient), a .x renders as its PMX twin. They differ
 * whenever the diffuse colour is not black: MMD lights PMX materials with a
 * flat diffuse x light + ambient and a toon ramp, accessories per vertex. */
TEST(x_matches_its_pmx_twin_where_shading_agrees)
{
    mmd_xmesh *x = x_fixture_box(0, 0.5f, 0, 0.5f, 0.5f, 0.5f);
    mmd_accessory_material *xm = &x->mesh.materials[0];
    xm->diffuse[0] = xm->diffuse[1] = xm->diffuse[2] = 0;
    xm->emissive[0] = 0.9f, xm->emissive[1] = 0.8f, xm->emissive[2] = 0.7f;
    xm->texture = mmd_x_str(x, "checker.png");
    mmd_model *m = pmx_twin(x);
    uint8_t *a = malloc((size_t)W * H * 4), *b = malloc((size_t)W * H * 4);
    acc_item it = item(x, 0, 0, 0, 1);
    it.a.place.shadow = false;
    frame_opts fo = {0};
    REQUIRE(render(&it, 1, &fo, a) == 0);
    frame_opts fm = {.model = m};
    REQUIRE(render(NULL, 0, &fm, b) == 0);
    mmd_imgdiff_result d;
    mmd_imgdiff_compare(a, b, W, H, MMD_IMGDIFF_TOLERANT_THRESHOLD, &d);
    printf("#   .x vs PMX twin: max error %d, %lld pixels over 4 (%.4f%%)\n", d.max_error, d.pixels_over,
           d.fraction_over * 100);
    CHECK(d.fraction_over <= MMD_IMGDIFF_TOLERANT_MAX_FRACTION);
    golden_check("acc_pmx_twin", a, W, H, g_glver);
    free(a);
    free(b);
    mmd_model_free(m);
    mmd_x_free(x);
}

/* A two-bone "arm": root b0 at the origin, hand b1 one unit up; one small
 * quad on the root so the model draws something that does not move. The hand
 * swings 10 units sideways and 6 up between frames 0 and 30. */
static mmd_model *arm_model(void)
{
    mmd_model *m = fx_model(2, 4, 0, 1);
    const float p[4][3] = {{-14, 0, 6}, {-14, 2, 6}, {-12, 2, 6}, {-12, 0, 6}};
    for (int i = 0; i < 4; i++)
        memcpy(m->vertices[i].position, p[i], sizeof p[i]);
    static const uint32_t q[6] = {0, 1, 2, 0, 2, 3};
    m->index_count = 6;
    m->indices = mmd_arena_array(m->arena, 6, sizeof *m->indices);
    memcpy(m->indices, q, sizeof q);
    m->materials[0].index_count = 6;
    m->materials[0].flags = MMD_MAT_DOUBLE_SIDED;
    return m;
}

/* Renders frame t of the arm with accessory it (its parent as given). */
static int render_arm(const mmd_model *m, const mmd_motion *mo, double t, const acc_item *it, uint8_t *rgba,
                      float hand_world[16])
{
    mmd_render_options o;
    mmd_render_options_default(&o);
    o.width = W, o.height = H, o.threads = 2, o.samples = 1, o.shadow_map_size = 1024;
    mmd_renderer *r = NULL;
    mmd_anim *a = NULL;
    mmd_error err;
    int rc = -1;
    if (mmd_renderer_create(&o, &r, &err) == MMD_OK &&
        mmd_renderer_add_accessory(r, &it->x->mesh, g_assets, "test", &err) == MMD_OK &&
        mmd_renderer_add_model(r, m, g_assets, &err) == MMD_OK && mmd_anim_create(m, &mo, 1, &a, &err) == MMD_OK) {
        snprintf(g_glver, sizeof g_glver, "%s", mmd_renderer_gl_version(r));
        mmd_renderer_place_accessories(r, &it->a, 1);
        mmd_anim_evaluate(a, t);
        memcpy(hand_world, mmd_anim_world(a) + 16, 16 * sizeof(float));
        mmd_camera_state cam;
        memset(&cam, 0, sizeof cam);
        cam.target[1] = 5;
        cam.distance = -45;
        cam.fov = 30;
        rc = mmd_renderer_render(r, &a, 1, &cam, NULL, NULL, rgba, &err) == MMD_OK ? 0 : -1;
    }
    if (rc)
        printf("#   %s\n", err.msg);
    mmd_anim_free(a);
    mmd_renderer_free(r);
    return rc;
}

/* An accessory parented to a dancing hand follows it: at each frame the
 * parented box renders exactly as an unparented twin placed by hand at
 * (hand bone world translation + local position), and it moves between
 * frames. Golden: frame 30, the box up and to the right of the still quad. */
TEST(parented_to_a_dancing_hand)
{
    mmd_model *m = arm_model();
    mmd_motion *mo = fx_motion(2, 0);
    const float p0[3] = {0, 0, 0}, p1[3] = {10, 6, 0}, id[4] = {0, 0, 0, 1};
    fx_bone_key(mo, 0, "b1", 0, p0, id);
    fx_bone_key(mo, 1, "b1", 30, p1, id);
    mmd_xmesh *x = box(0.95f, 0.75f, 0.2f);
    acc_item kid = item(x, 0, 0.5f, 0, 0.4f);
    kid.a.parent_slot = 0, kid.a.parent_bone = 1;
    kid.a.place.shadow = false;
    uint8_t *a = malloc((size_t)W * H * 4), *b = malloc((size_t)W * H * 4), *f0 = malloc((size_t)W * H * 4);
    float hw[16];
    const double frames[2] = {0, 30};
    for (int i = 0; i < 2; i++) {
        REQUIRE(render_arm(m, mo, frames[i], &kid, a, hw) == 0);
        acc_item twin = kid;
        twin.a.parent_slot = -1, twin.a.parent_bone = -1;
        for (int k = 0; k < 3; k++)
            twin.a.place.position[k] = hw[12 + k] + kid.a.place.position[k];
        float unused[16];
        REQUIRE(render_arm(m, mo, frames[i], &twin, b, unused) == 0);
        mmd_imgdiff_result d;
        mmd_imgdiff_compare(a, b, W, H, 1, &d);
        printf("#   frame %.0f: hand at (%.2f %.2f %.2f), parented vs placed twin: max error %d\n", frames[i], hw[12],
               hw[13], hw[14], d.max_error);
        CHECK(d.max_error <= 1);
        if (i == 0)
            memcpy(f0, a, (size_t)W * H * 4);
    }
    CHECK(fabsf(hw[12] - 10) < 1e-4f && fabsf(hw[13] - 7) < 1e-4f);
    mmd_imgdiff_result moved;
    mmd_imgdiff_compare(f0, a, W, H, 4, &moved);
    printf("#   frame 0 vs 30: %lld pixels moved\n", moved.pixels_over);
    CHECK(moved.pixels_over > 200);
    golden_check("acc_parented_hand_f30", a, W, H, g_glver);
    free(a);
    free(b);
    free(f0);
    mmd_x_free(x);
    fx_free_motion(mo);
    fx_free_model(m);
}

int main(int argc, char **argv)
{
    (void)argc;
    golden_init(argv[0]);
    write_assets();
    RUN(encodings_give_identical_frames);
    RUN(sphere_multiply_and_add);
    RUN(opacity_and_add_blend);
    RUN(after_models_order);
    RUN(shadow_flag);
    RUN(accessory_zplot);
    RUN(screen_shows_previous_frame);
    RUN(parented_to_a_dancing_hand);
    RUN(x_matches_its_pmx_twin_where_shading_agrees);
    return test_finish();
}
