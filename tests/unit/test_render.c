/* tests/unit/test_render.c - the GL renderer on synthetic scenes: golden images
 * of a cube with each MMD feature on/off, backend equality, determinism,
 * orientation, straight alpha.
 *
 * Goldens live in tests/golden/<name>.png. They compare exactly when the GL
 * version string contains tests/golden/MESA_VERSION, else with a tolerance
 * (<= 1% of pixels off by more than 4/255). MMD_GOLDEN_UPDATE=1 rewrites those that differ.
 * On failure the actual image and a diff go to <build>/test-out/.
 */
#include <cglm/cglm.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/file.h"
#include "core/fx.h"
#include "renderer/fx/select.h"
#include "renderer/gl/context.h"
#include "renderer/gl/fx_object.h"
#include "renderer/gl/render.h"
#include "renderer/gl/render_internal.h"
#include "renderer/gl/shader.h"
#include "renderer/image/decode.h"
#include "tests/util/fx_files.h"
#include "tests/util/test.h"
#include "tests/unit/anim_fixture.h"
#include "tests/unit/render_golden.h"

TEST_STATE_DEFINE

/* Same list as tests/lsan.supp: Mesa's own leaks only (read by LeakSanitizer
 * in sanitizer builds, unused otherwise). */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void) { return "leak:libOSMesa.so\n"; }

#define W 160
#define H 120

static char g_assets[1100];

/* ---------------------------------------------------------------- scene helpers */

typedef struct cube_model {
    mmd_model m;
    mmd_vertex v[24 + 4];
    uint32_t idx[36 + 6];
    mmd_material mat[2];
    char *tex[4];
    mmd_bone bones[2];
} cube_model;

/* Cube of side 10 resting on y = 0, faces wound clockwise seen from outside
 * (MMD/D3D front faces), UV (0,0) at each face's top-left seen from outside.
 * With `floor`, a second material: a 60x60 quad at y = 0. */
static void cube_build(cube_model *c, bool floor)
{
    memset(c, 0, sizeof *c);
    static const float normals[6][3] = {{0, 0, -1}, {1, 0, 0}, {0, 0, 1}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}};
    uint32_t nv = 0, ni = 0;
    for (int f = 0; f < 6; f++) {
        const float *n = normals[f];
        float up[3] = {0, 1, 0};
        if (n[1] > 0.5f) { up[0] = 0; up[1] = 0; up[2] = 1; }
        if (n[1] < -0.5f) { up[0] = 0; up[1] = 0; up[2] = -1; }
        float fwd[3] = {-n[0], -n[1], -n[2]}, right[3];
        /* LH: right = up x forward */
        right[0] = up[1] * fwd[2] - up[2] * fwd[1];
        right[1] = up[2] * fwd[0] - up[0] * fwd[2];
        right[2] = up[0] * fwd[1] - up[1] * fwd[0];
        static const int corners[4][2] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}}; /* TL TR BR BL */
        for (int k = 0; k < 4; k++) {
            mmd_vertex *v = &c->v[nv + (uint32_t)k];
            float a = (float)corners[k][0], b = (float)corners[k][1];
            for (int i = 0; i < 3; i++)
                v->position[i] = 5 * n[i] + 5 * a * right[i] - 5 * b * up[i] + (i == 1 ? 5.0f : 0.0f);
            memcpy(v->normal, n, sizeof v->normal);
            v->uv[0] = (a + 1) / 2;
            v->uv[1] = (b + 1) / 2;
            v->weight_type = MMD_WEIGHT_BDEF1;
            v->bones[0] = 0;
            v->bones[1] = v->bones[2] = v->bones[3] = -1;
            v->weights[0] = 1;
            v->edge_scale = 1;
        }
        const uint32_t tri[6] = {0, 1, 2, 0, 2, 3};
        for (int k = 0; k < 6; k++)
            c->idx[ni++] = nv + tri[k];
        nv += 4;
    }
    mmd_material *mt = &c->mat[0];
    mt->name = mt->name_en = mt->memo = "";
    const float diffuse[4] = {0.8f, 0.5f, 0.3f, 1.0f}, ambient[3] = {0.4f, 0.25f, 0.15f};
    memcpy(mt->diffuse, diffuse, sizeof diffuse);
    memcpy(mt->ambient, ambient, sizeof ambient);
    mt->specular_power = 0;
    mt->edge_color[3] = 1;
    mt->edge_size = 1;
    mt->texture = mt->sphere_texture = mt->toon = -1;
    mt->toon_shared = true;
    mt->index_count = 36;
    c->m.material_count = 1;
    if (floor) {
        for (int k = 0; k < 4; k++) {
            mmd_vertex *v = &c->v[nv + (uint32_t)k];
            v->position[0] = (k == 1 || k == 2) ? 30.0f : -30.0f;
            v->position[2] = (k >= 2) ? -30.0f : 30.0f; /* TL,TR far (+z); BR,BL near */
            v->normal[1] = 1;
            v->bones[0] = 0;
            v->bones[1] = v->bones[2] = v->bones[3] = -1;
            v->weights[0] = 1;
        }
        const uint32_t tri[6] = {0, 1, 2, 0, 2, 3};
        for (int k = 0; k < 6; k++)
            c->idx[ni++] = nv + tri[k];
        nv += 4;
        mmd_material *fl = &c->mat[1];
        *fl = *mt;
        const float fd[4] = {0.5f, 0.7f, 0.5f, 1.0f}, fa[3] = {0.3f, 0.4f, 0.3f};
        memcpy(fl->diffuse, fd, sizeof fd);
        memcpy(fl->ambient, fa, sizeof fa);
        fl->index_count = 6;
        c->m.material_count = 2;
    }
    c->bones[0].name = c->bones[0].name_en = "root";
    c->bones[0].parent = -1;
    c->bones[0].tail_bone = -1;
    c->bones[0].append_parent = -1;
    c->bones[0].ik_target = -1;
    c->m.format = MMD_FORMAT_PMX;
    c->m.version = 2.0f;
    c->m.name = c->m.name_en = c->m.comment = c->m.comment_en = "cube";
    c->m.vertices = c->v;
    c->m.vertex_count = nv;
    c->m.indices = c->idx;
    c->m.index_count = ni;
    c->m.materials = c->mat;
    c->m.textures = c->tex;
    c->m.bones = c->bones;
    c->m.bone_count = 1;
}

static void smooth_normals(cube_model *c)
{
    for (uint32_t i = 0; i < 24; i++) {
        float *p = c->v[i].position, *n = c->v[i].normal;
        float d[3] = {p[0], p[1] - 5, p[2]};
        float l = sqrtf(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
        for (int k = 0; k < 3; k++)
            n[k] = d[k] / l;
    }
}

static int add_texture(cube_model *c, const char *name)
{
    c->tex[c->m.texture_count] = (char *)name;
    return (int)c->m.texture_count++;
}

/* Test camera in LH world: eye and target, fov 30, GL matrices like
 * DESIGN A.6 (mirror z, RH look-at, GL perspective). */
static void view_make(mmd_render_view *v, const float eye[3], const float target[3], float fov, float aspect)
{
    vec3 e = {eye[0], eye[1], -eye[2]}, t = {target[0], target[1], -target[2]}, up = {0, 1, 0};
    mat4 view, proj;
    glm_lookat(e, t, up, view);
    glm_perspective(glm_rad(fov), aspect, 1.0f, 10000.0f, proj);
    memcpy(v->view, view, sizeof v->view);
    memcpy(v->proj, proj, sizeof v->proj);
    memcpy(v->eye, eye, sizeof v->eye);
    memcpy(v->target, target, sizeof v->target);
    v->fov = fov;
}

static void default_view(mmd_render_view *v, float scale)
{
    const float eye[3] = {-25 * scale, 5 + 20 * scale, -35 * scale}, target[3] = {0, 5, 0};
    view_make(v, eye, target, 30, (float)W / H);
}

static void write_assets(void)
{
    snprintf(g_assets, sizeof g_assets, "%s/render_assets", g_out);
    mkdir(g_out, 0777);
    mkdir(g_assets, 0777);
    char p[1200];
    /* 64x64: top half red, bottom half blue, green 16x16 square top-left */
    uint8_t img[64 * 64 * 4];
    for (int y = 0; y < 64; y++)
        for (int x = 0; x < 64; x++) {
            uint8_t *q = img + (y * 64 + x) * 4;
            bool green = x < 16 && y < 16;
            q[0] = green ? 40 : (y < 32 ? 230 : 40);
            q[1] = green ? 220 : 40;
            q[2] = green ? 40 : (y < 32 ? 40 : 230);
            q[3] = 255;
        }
    snprintf(p, sizeof p, "%s/quads.png", g_assets);
    golden_write(p, img, 64, 64);
    /* toon 32x32: rows 0-15 white, 16-31 (120,130,170) */
    uint8_t toon[32 * 32 * 4];
    for (int y = 0; y < 32; y++)
        for (int x = 0; x < 32; x++) {
            uint8_t *q = toon + (y * 32 + x) * 4;
            q[0] = y < 16 ? 255 : 120;
            q[1] = y < 16 ? 255 : 130;
            q[2] = y < 16 ? 255 : 170;
            q[3] = 255;
        }
    snprintf(p, sizeof p, "%s/toon.png", g_assets);
    golden_write(p, toon, 32, 32);
    /* sphere 64x64: radial, bright centre-top-left highlight */
    uint8_t sph[64 * 64 * 4];
    for (int y = 0; y < 64; y++)
        for (int x = 0; x < 64; x++) {
            uint8_t *q = sph + (y * 64 + x) * 4;
            float dx = (x - 24) / 32.0f, dy = (y - 24) / 32.0f;
            float d = sqrtf(dx * dx + dy * dy);
            float k = d > 1 ? 0 : 1 - d;
            q[0] = (uint8_t)(60 + 190 * k);
            q[1] = (uint8_t)(80 + 170 * k);
            q[2] = (uint8_t)(140 + 110 * k);
            q[3] = 255;
        }
    snprintf(p, sizeof p, "%s/sphere.png", g_assets);
    golden_write(p, sph, 64, 64);
}

static mmd_renderer *make_renderer(int samples, mmd_gl_backend backend, bool transparent)
{
    mmd_render_options o;
    mmd_render_options_default(&o);
    o.width = W;
    o.height = H;
    o.samples = samples;
    o.backend = backend;
    o.transparent = transparent;
    o.threads = 2;
    o.shadow_map_size = 1024;
    mmd_renderer *r = NULL;
    mmd_error err;
    if (mmd_renderer_create(&o, &r, &err) != MMD_OK) {
        printf("#   renderer: %s\n", err.msg);
        return NULL;
    }
    return r;
}

/* The cube at rest as a posed instance (pos/nrm: 28 x 3 floats each). */
static void cube_instance(const cube_model *c, float *pos, float *nrm, mmd_render_instance *in)
{
    for (uint32_t i = 0; i < c->m.vertex_count; i++) {
        memcpy(pos + i * 3, c->v[i].position, 12);
        memcpy(nrm + i * 3, c->v[i].normal, 12);
    }
    memset(in, 0, sizeof *in);
    in->positions = pos;
    in->normals = nrm;
}

static int render_cube(mmd_renderer *r, cube_model *c, const mmd_render_view *v, const mmd_shadow_state *sh,
                       uint8_t *rgba)
{
    mmd_error err;
    if (mmd_renderer_add_model(r, &c->m, g_assets, &err) != MMD_OK) {
        printf("#   add_model: %s\n", err.msg);
        return -1;
    }
    float pos[28 * 3], nrm[28 * 3];
    mmd_render_instance in;
    cube_instance(c, pos, nrm, &in);
    if (mmd_renderer_draw(r, &in, 1, v, NULL, sh, rgba, &err) != MMD_OK) {
        printf("#   draw: %s\n", err.msg);
        return -1;
    }
    return 0;
}

/* Render a cube variant and compare it to its golden (shadow map `sm` texels). */
static void cube_golden_sm(const char *name, cube_model *c, float dist_scale, const mmd_shadow_state *sh,
                           bool ground, int sm)
{
    mmd_render_options o;
    mmd_render_options_default(&o);
    o.width = W;
    o.height = H;
    o.threads = 2;
    o.shadow_map_size = sm;
    o.ground_shadow = ground;
    mmd_renderer *r = NULL;
    mmd_error err;
    if (mmd_renderer_create(&o, &r, &err) != MMD_OK) {
        printf("#   renderer: %s\n", err.msg);
        CHECK(!"renderer");
        return;
    }
    mmd_render_view v;
    default_view(&v, dist_scale);
    uint8_t *rgba = malloc((size_t)W * H * 4);
    if (render_cube(r, c, &v, sh, rgba) == 0)
        golden_check(name, rgba, W, H, mmd_renderer_gl_version(r));
    else
        CHECK(!"render");
    free(rgba);
    mmd_renderer_free(r);
}

static void cube_golden(const char *name, cube_model *c, float dist_scale, const mmd_shadow_state *sh,
                        bool ground)
{
    cube_golden_sm(name, c, dist_scale, sh, ground, 1024);
}

static const uint8_t *px(const uint8_t *rgba, int x, int y) { return rgba + ((size_t)y * W + (size_t)x) * 4; }

/* ---------------------------------------------------------------- tests */

TEST(golden_plain)
{
    cube_model c;
    cube_build(&c, false);
    cube_golden("cube_plain", &c, 1, NULL, false);
}

TEST(golden_texture)
{
    cube_model c;
    cube_build(&c, false);
    c.mat[0].texture = add_texture(&c, "quads.png");
    cube_golden("cube_texture", &c, 1, NULL, false);
}

TEST(golden_toon)
{
    cube_model c;
    cube_build(&c, false);
    c.mat[0].toon_shared = false;
    c.mat[0].toon = add_texture(&c, "toon.png");
    cube_golden("cube_toon", &c, 1, NULL, false);
}

TEST(golden_sphere_mul_add)
{
    cube_model c;
    cube_build(&c, false);
    c.mat[0].sphere_texture = add_texture(&c, "sphere.png");
    c.mat[0].sphere_mode = MMD_SPHERE_MUL;
    cube_golden("cube_sphere_mul", &c, 1, NULL, false);
    c.mat[0].sphere_mode = MMD_SPHERE_ADD;
    const float dark[4] = {0.3f, 0.2f, 0.1f, 1.0f}, amb[3] = {0.1f, 0.05f, 0.05f};
    memcpy(c.mat[0].diffuse, dark, sizeof dark);
    memcpy(c.mat[0].ambient, amb, sizeof amb);
    cube_golden("cube_sphere_add", &c, 1, NULL, false);
}

TEST(golden_specular)
{
    cube_model c;
    cube_build(&c, false);
    const float spec[3] = {0.6f, 0.6f, 0.6f};
    memcpy(c.mat[0].specular, spec, sizeof spec);
    c.mat[0].specular_power = 5;
    cube_golden("cube_specular", &c, 1, NULL, false);
}

TEST(golden_edges_two_distances)
{
    cube_model c;
    cube_build(&c, false);
    /* Smooth (corner) normals so the hull is one closed shell; with no toon
     * ramp and no specular the faces still shade flat. Edge size 10 at
     * 160x120 is about 2 px at both distances (the width rule keeps it). */
    smooth_normals(&c);
    c.mat[0].flags = MMD_MAT_EDGE;
    c.mat[0].edge_size = 10;
    cube_golden("cube_edge_near", &c, 1, NULL, false);
    cube_golden("cube_edge_far", &c, 2, NULL, false);
}

TEST(golden_ground_shadow)
{
    cube_model c;
    cube_build(&c, false);
    c.mat[0].flags = MMD_MAT_GROUND_SHADOW | MMD_MAT_EDGE;
    cube_golden("cube_ground_shadow", &c, 1.3f, NULL, true);
}

TEST(golden_self_shadow)
{
    cube_model c;
    cube_build(&c, true);
    c.mat[0].flags = MMD_MAT_CAST_SHADOW | MMD_MAT_RECEIVE_SHADOW;
    c.mat[1].flags = MMD_MAT_RECEIVE_SHADOW;
    int toon = add_texture(&c, "toon.png");
    c.mat[0].toon_shared = c.mat[1].toon_shared = false;
    c.mat[0].toon = c.mat[1].toon = toon;
    mmd_shadow_state sh = {1, 0.01125f};
    cube_golden("cube_self_shadow", &c, 1.3f, &sh, false);
    sh.mode = 0; /* mode 0: no self-shadow, toon path */
    cube_golden("cube_self_shadow_off", &c, 1.3f, &sh, false);
}

TEST(texture_is_upright)
{
    /* Front face (-z) straight on: top half red, bottom blue, green top-left. */
    cube_model c;
    cube_build(&c, false);
    c.mat[0].texture = add_texture(&c, "quads.png");
    const float white[4] = {1, 1, 1, 1}, amb[3] = {1, 1, 1};
    memcpy(c.mat[0].diffuse, white, sizeof white);
    memcpy(c.mat[0].ambient, amb, sizeof amb);
    mmd_renderer *r = make_renderer(1, mmd_gl_default_backend(), false);
    REQUIRE(r);
    mmd_render_view v;
    const float eye[3] = {0, 5, -40}, target[3] = {0, 5, 0};
    view_make(&v, eye, target, 30, (float)W / H);
    uint8_t *rgba = malloc((size_t)W * H * 4);
    REQUIRE(render_cube(r, &c, &v, NULL, rgba) == 0);
    /* face spans about +-5 units at distance 35: ~ +-40 px around (80,60) */
    const uint8_t *top = px(rgba, 90, 45), *bottom = px(rgba, 80, 80), *tl = px(rgba, 60, 38);
    printf("#   top %d,%d,%d bottom %d,%d,%d top-left %d,%d,%d\n", top[0], top[1], top[2], bottom[0],
           bottom[1], bottom[2], tl[0], tl[1], tl[2]);
    CHECK(top[0] > 200 && top[2] < 80);
    CHECK(bottom[2] > 200 && bottom[0] < 80);
    CHECK(tl[1] > 200 && tl[0] < 80);
    free(rgba);
    mmd_renderer_free(r);
}

/* One 64x64 file named by four texture entries of two models (and as a
 * clamp-wrapped sphere map) is decoded once per wrap mode: the renderer holds
 * its bytes twice (repeat with mips, clamp without), not four times. A 4 KiB
 * budget halves it until it fits (64x64 RGBA with mips is 21,844 bytes). */
TEST(texture_cache_and_budget)
{
    cube_model c;
    cube_build(&c, false);
    for (int i = 0; i < 4; i++)
        add_texture(&c, "quads.png");
    c.mat[0].texture = 3;
    c.mat[0].sphere_texture = 1;
    c.mat[0].sphere_mode = 1;
    mmd_renderer *r = make_renderer(1, mmd_gl_default_backend(), false);
    REQUIRE(r);
    mmd_error err;
    REQUIRE(mmd_renderer_add_model(r, &c.m, g_assets, &err) == MMD_OK);
    REQUIRE(mmd_renderer_add_model(r, &c.m, g_assets, &err) == MMD_OK);
    size_t n = 0, bytes = mmd_renderer_texture_bytes(r, &n);
    printf("#   2 models x 4 entries of quads.png: %zu textures, %zu bytes\n", n, bytes);
    CHECK_EQ_INT((int)n, 2);
    CHECK(bytes == 64 * 64 * 4 + 64 * 64 * 4 / 3 + 64 * 64 * 4);
    mmd_renderer_free(r);

    mmd_render_options o;
    mmd_render_options_default(&o);
    o.width = W;
    o.height = H;
    o.samples = 1;
    o.shadow_map_size = 1024;
    o.texture_budget = 4096;
    REQUIRE(mmd_renderer_create(&o, &r, &err) == MMD_OK);
    c.mat[0].sphere_texture = -1;
    REQUIRE(mmd_renderer_add_model(r, &c.m, g_assets, &err) == MMD_OK);
    bytes = mmd_renderer_texture_bytes(r, &n);
    printf("#   4 KiB budget: %zu textures, %zu bytes\n", n, bytes);
    CHECK_EQ_INT((int)n, 1);
    CHECK(bytes <= 4096 && bytes == 16 * 16 * 4 + 16 * 16 * 4 / 3); /* halved twice */
    mmd_renderer_free(r);
}

TEST(deterministic_and_msaa_options)
{
    cube_model c;
    cube_build(&c, false);
    c.mat[0].flags = MMD_MAT_EDGE;
    mmd_render_view v;
    default_view(&v, 1);
    uint8_t *a = malloc((size_t)W * H * 4), *b = malloc((size_t)W * H * 4);
    int samples[3] = {1, 2, 4};
    for (int s = 0; s < 3; s++) {
        mmd_renderer *r = make_renderer(samples[s], mmd_gl_default_backend(), false);
        REQUIRE(r);
        REQUIRE(render_cube(r, &c, &v, NULL, a) == 0);
        mmd_renderer_free(r);
        r = make_renderer(samples[s], mmd_gl_default_backend(), false);
        REQUIRE(r);
        REQUIRE(render_cube(r, &c, &v, NULL, b) == 0);
        CHECK(memcmp(a, b, (size_t)W * H * 4) == 0);
        /* corner is background white, centre is the cube */
        CHECK(px(a, 0, 0)[0] == 255 && px(a, 0, 0)[3] == 255);
        CHECK(px(a, 80, 60)[0] < 255);
        mmd_renderer_free(r);
    }
    mmd_render_options o;
    mmd_render_options_default(&o);
    o.samples = 3;
    mmd_renderer *bad = NULL;
    mmd_error err;
    CHECK(mmd_renderer_create(&o, &bad, &err) == MMD_E_GL && bad == NULL);
    CHECK(strstr(err.msg, "samples") != NULL);
    free(a);
    free(b);
}

/* The cube drawn by a default MSAA 4 renderer (malloc'd W x H RGBA), NULL on failure. */
static uint8_t *reference_image(cube_model *c, const mmd_render_view *v, const mmd_shadow_state *sh)
{
    uint8_t *a = malloc((size_t)W * H * 4);
    mmd_renderer *r = a ? make_renderer(4, mmd_gl_default_backend(), false) : NULL;
    if (!r || render_cube(r, c, v, sh, a) != 0) {
        free(a);
        a = NULL;
    }
    mmd_renderer_free(r);
    return a;
}

/* Options for a second renderer to compare with reference_image. */
static void small_options(mmd_render_options *o)
{
    mmd_render_options_default(o);
    o->width = W, o->height = H, o->threads = 2, o->shadow_map_size = 1024;
}

/* options.profile (make bench) finishes and times every pass: same pixels, a figure per pass drawn. */
TEST(profile_keeps_pixels)
{
    cube_model c;
    cube_build(&c, true);
    c.mat[0].flags = MMD_MAT_EDGE | MMD_MAT_GROUND_SHADOW | MMD_MAT_CAST_SHADOW;
    c.mat[1].flags = MMD_MAT_RECEIVE_SHADOW;
    mmd_render_view v;
    default_view(&v, 1);
    mmd_shadow_state sh = {1, 0.01125f};
    uint8_t *a = reference_image(&c, &v, &sh), *b = malloc((size_t)W * H * 4);
    REQUIRE(a && b);
    mmd_renderer *r;
    mmd_render_options o;
    small_options(&o);
    o.profile = true;
    mmd_error err;
    REQUIRE(mmd_renderer_create(&o, &r, &err) == MMD_OK);
    REQUIRE(render_cube(r, &c, &v, &sh, b) == 0);
    CHECK(memcmp(a, b, (size_t)W * H * 4) == 0);
    const mmd_render_profile *p = mmd_renderer_profile(r);
    for (int k = 0; k < MMD_PASS_COUNT; k++)
        CHECK(p->cpu_ms[k] >= 0 && p->wall_ms[k] >= 0);
    /* passes that ran took some wall time; skinning did not run (posed geometry) */
    CHECK(p->wall_ms[MMD_PASS_COLOUR] > 0 && p->wall_ms[MMD_PASS_SHADOW_MAP] > 0 && p->wall_ms[MMD_PASS_RESOLVE] > 0);
    CHECK(p->wall_ms[MMD_PASS_SKIN] == 0);
    CHECK(mmd_renderer_profile_material(r, 0, 0) >= 0 && mmd_renderer_profile_material(r, 0, 99) == 0);
    CHECK(mmd_renderer_profile_material(r, 5, 0) == 0);
    mmd_renderer_free(r);
    free(a);
    free(b);
}

/* options.cancel (the CLI's signal flag): a frame drawn while it is set stops
 * between material draws with MMD_E_INTERRUPTED; cleared, the same renderer
 * draws what a fresh one draws. */
TEST(cancel_stops_a_frame)
{
    cube_model c;
    cube_build(&c, true);
    c.mat[0].flags = MMD_MAT_EDGE | MMD_MAT_CAST_SHADOW;
    mmd_render_view v;
    default_view(&v, 1);
    mmd_shadow_state sh = {1, 0.01125f};
    uint8_t *a = reference_image(&c, &v, &sh), *b = malloc((size_t)W * H * 4);
    REQUIRE(a && b);
    volatile sig_atomic_t stop = 1;
    mmd_render_options o;
    small_options(&o);
    o.cancel = &stop;
    mmd_renderer *r;
    mmd_error err;
    REQUIRE(mmd_renderer_create(&o, &r, &err) == MMD_OK);
    REQUIRE(mmd_renderer_add_model(r, &c.m, g_assets, &err) == MMD_OK);
    float pos[28 * 3], nrm[28 * 3];
    mmd_render_instance in;
    cube_instance(&c, pos, nrm, &in);
    CHECK_EQ_INT(mmd_renderer_draw(r, &in, 1, &v, NULL, &sh, b, &err), MMD_E_INTERRUPTED);
    stop = 0;
    CHECK_EQ_INT(mmd_renderer_draw(r, &in, 1, &v, NULL, &sh, b, &err), MMD_OK);
    CHECK(memcmp(a, b, (size_t)W * H * 4) == 0);
    mmd_renderer_free(r);
    free(a);
    free(b);
}

TEST(egl_matches_osmesa)
{
    cube_model c;
    cube_build(&c, true);
    c.mat[0].flags = MMD_MAT_EDGE | MMD_MAT_CAST_SHADOW | MMD_MAT_GROUND_SHADOW;
    c.mat[1].flags = MMD_MAT_RECEIVE_SHADOW;
    c.mat[0].texture = add_texture(&c, "quads.png");
    mmd_render_view v;
    default_view(&v, 1.3f);
    mmd_shadow_state sh = {1, 0.01125f};
    mmd_render_options o;
    mmd_render_options_default(&o);
    o.width = W;
    o.height = H;
    o.backend = MMD_GL_EGL;
    if (mmd_gl_default_backend() != MMD_GL_OSMESA)
        SKIP("skipped: built without OSMesa (GL=egl): every render test runs on EGL");
    mmd_renderer *re = NULL;
    mmd_error err;
    if (mmd_renderer_create(&o, &re, &err) != MMD_OK) {
        printf("#   EGL backend unavailable here: %s\n", err.msg);
        SKIP("skipped: EGL init failed");
    }
    printf("#   EGL: %s\n", mmd_renderer_gl_version(re));
    uint8_t *a = malloc((size_t)W * H * 4), *b = malloc((size_t)W * H * 4);
    REQUIRE(render_cube(re, &c, &v, &sh, a) == 0);
    mmd_renderer_free(re);
    mmd_renderer *ro = make_renderer(4, MMD_GL_OSMESA, false);
    REQUIRE(ro);
    printf("#   OSMesa: %s\n", mmd_renderer_gl_version(ro));
    REQUIRE(render_cube(ro, &c, &v, &sh, b) == 0);
    mmd_renderer_free(ro);
    CHECK(memcmp(a, b, (size_t)W * H * 4) == 0);
    free(a);
    free(b);
}

TEST(transparent_background_straight_alpha)
{
    cube_model c;
    cube_build(&c, false);
    c.mat[0].diffuse[3] = 0.5f;
    const float white[3] = {1, 1, 1};
    memcpy(c.mat[0].ambient, white, sizeof white); /* colour saturates to white */
    mmd_renderer *r = make_renderer(1, mmd_gl_default_backend(), true);
    REQUIRE(r);
    mmd_render_view v;
    const float eye[3] = {0, 5, -40}, target[3] = {0, 5, 0};
    view_make(&v, eye, target, 30, (float)W / H);
    uint8_t *rgba = malloc((size_t)W * H * 4);
    REQUIRE(render_cube(r, &c, &v, NULL, rgba) == 0);
    const uint8_t *bg = px(rgba, 2, 2), *mid = px(rgba, 80, 60);
    CHECK(bg[3] == 0);
    /* front face over the (culled) rest: one layer of alpha 0.5, colour white */
    printf("#   centre %d,%d,%d,%d\n", mid[0], mid[1], mid[2], mid[3]);
    CHECK(mid[3] >= 127 && mid[3] <= 128);
    CHECK(mid[0] >= 254 && mid[1] >= 254 && mid[2] >= 254);
    free(rgba);
    mmd_renderer_free(r);
}

TEST(hidden_and_zero_alpha_materials_draw_nothing)
{
    cube_model c;
    cube_build(&c, false);
    c.mat[0].diffuse[3] = 0.0f;
    c.mat[0].flags = MMD_MAT_EDGE;
    mmd_renderer *r = make_renderer(1, mmd_gl_default_backend(), false);
    REQUIRE(r);
    mmd_render_view v;
    default_view(&v, 1);
    uint8_t *rgba = malloc((size_t)W * H * 4);
    REQUIRE(render_cube(r, &c, &v, NULL, rgba) == 0);
    size_t non_white = 0;
    for (size_t i = 0; i < (size_t)W * H * 4; i++)
        non_white += rgba[i] != 255;
    CHECK_EQ_INT(non_white, 0);
    free(rgba);
    mmd_renderer_free(r);
}

/* Model 0: the cube casting a ground shadow onto its floor; model 1: a translucent
 * floor 0.5 above it (its cube hidden). Ground shadow on or off; pixels in rgba. */
static int two_model_frame(bool ground, uint8_t *rgba)
{
    cube_model a, b;
    cube_build(&a, true);
    cube_build(&b, true);
    a.mat[0].flags = MMD_MAT_GROUND_SHADOW;
    b.mat[0].diffuse[3] = 0.0f;
    b.mat[1].diffuse[3] = 0.5f;
    for (uint32_t i = 24; i < 28; i++)
        b.v[i].position[1] = 0.5f;
    mmd_render_options o;
    small_options(&o);
    o.ground_shadow = ground;
    mmd_renderer *r = NULL;
    mmd_error err;
    int rc = -1;
    if (mmd_renderer_create(&o, &r, &err) == MMD_OK && mmd_renderer_add_model(r, &a.m, g_assets, &err) == MMD_OK &&
        mmd_renderer_add_model(r, &b.m, g_assets, &err) == MMD_OK) {
        float pos[2][28 * 3], nrm[2][28 * 3];
        mmd_render_instance in[2];
        cube_instance(&a, pos[0], nrm[0], &in[0]);
        cube_instance(&b, pos[1], nrm[1], &in[1]);
        mmd_render_view v;
        default_view(&v, 1.3f);
        rc = mmd_renderer_draw(r, in, 2, &v, NULL, NULL, rgba, &err) == MMD_OK ? 0 : -1;
    }
    if (rc)
        printf("#   %s\n", err.msg);
    mmd_renderer_free(r);
    return rc;
}

/* MMD draws a model's ground shadow right after the model (MMD's own frames, issue
 * 25): a later model's translucent surface blends over it. Drawn after every model,
 * the shadow would be hidden by the translucent floor's depth. */
TEST(ground_shadow_before_the_next_model)
{
    uint8_t *on = malloc((size_t)W * H * 4), *off = malloc((size_t)W * H * 4);
    REQUIRE(on && off);
    REQUIRE(two_model_frame(true, on) == 0);
    REQUIRE(two_model_frame(false, off) == 0);
    size_t darker = 0;
    for (size_t i = 0; i < (size_t)W * H; i++)
        darker += on[i * 4] + 8 < off[i * 4];
    printf("#   %zu pixels darkened by the shadow under the translucent floor\n", darker);
    CHECK(darker >= 60); /* 79 on llvmpipe (the cube hides most of its shadow here); 0 drawn after both */
    free(on);
    free(off);
}

/* ---------------------------------------------------------------- PMX 2.1 and more features */

TEST(golden_self_shadow_mode2)
{
    /* Same scene as cube_self_shadow in mode 2 (the projection scales 3·D and
     * the depth test sharpens towards the camera, K = 8000·(1 - v)): the same
     * shadow from a tighter light camera. At the default 2048 map: with 1024
     * texels mode 2's steep K turns the map's texel steps into acne stripes on
     * the lit faces (mode 1's K = 1500 tolerates them), as in MMD. */
    cube_model c;
    cube_build(&c, true);
    c.mat[0].flags = MMD_MAT_CAST_SHADOW | MMD_MAT_RECEIVE_SHADOW;
    c.mat[1].flags = MMD_MAT_RECEIVE_SHADOW;
    int toon = add_texture(&c, "toon.png");
    c.mat[0].toon_shared = c.mat[1].toon_shared = false;
    c.mat[0].toon = c.mat[1].toon = toon;
    mmd_shadow_state sh = {2, 0.01125f};
    cube_golden_sm("cube_self_shadow_mode2", &c, 1.3f, &sh, false, 2048);
}

TEST(golden_sphere_sub_texture)
{
    /* Sphere mode 3: the sphere texture is a second texture read at additional
     * UV1 (multiplied). UV1 = (1 - u, v): quads.png mirrored left-right, so the
     * green square sits at each face's top-RIGHT corner (the view-normal UV of
     * modes 1/2 would give one flat colour per face). */
    cube_model c;
    cube_build(&c, false);
    c.m.version = 2.1f;
    c.m.additional_uv_count = 1;
    for (uint32_t i = 0; i < 24; i++) {
        c.v[i].add_uv[0][0] = 1.0f - c.v[i].uv[0];
        c.v[i].add_uv[0][1] = c.v[i].uv[1];
    }
    const float white[4] = {1, 1, 1, 1}, amb[3] = {0.5f, 0.5f, 0.5f};
    memcpy(c.mat[0].diffuse, white, sizeof white);
    memcpy(c.mat[0].ambient, amb, sizeof amb);
    c.mat[0].sphere_texture = add_texture(&c, "quads.png");
    c.mat[0].sphere_mode = MMD_SPHERE_SUB_TEXTURE;
    mmd_renderer *r = make_renderer(1, mmd_gl_default_backend(), false);
    REQUIRE(r);
    mmd_render_view v;
    const float eye[3] = {0, 5, -40}, target[3] = {0, 5, 0};
    view_make(&v, eye, target, 30, (float)W / H);
    uint8_t *rgba = malloc((size_t)W * H * 4);
    REQUIRE(render_cube(r, &c, &v, NULL, rgba) == 0);
    const uint8_t *tr = px(rgba, 100, 38), *tl = px(rgba, 60, 38), *bottom = px(rgba, 80, 80);
    printf("#   front face: top-right %d,%d,%d top-left %d,%d,%d bottom %d,%d,%d\n", tr[0], tr[1], tr[2], tl[0],
           tl[1], tl[2], bottom[0], bottom[1], bottom[2]);
    CHECK(tr[1] > 200 && tr[0] < 80);  /* green, mirrored to the right */
    CHECK(tl[0] > 200 && tl[1] < 80);  /* red */
    CHECK(bottom[2] > 200 && bottom[0] < 80);
    free(rgba);
    mmd_renderer_free(r);
    cube_golden("cube_sphere_sub_texture", &c, 1, NULL, false);
}

TEST(golden_vertex_color)
{
    /* Flag 0x20: additional UV1 is an RGBA colour multiplying the material
     * colour. Colour = position mapped to RGB ((x+5)/10, y/10, (z+5)/10). */
    cube_model c;
    cube_build(&c, false);
    c.m.version = 2.1f;
    c.m.additional_uv_count = 1;
    for (uint32_t i = 0; i < 24; i++) {
        const float *p = c.v[i].position;
        c.v[i].add_uv[0][0] = (p[0] + 5) / 10;
        c.v[i].add_uv[0][1] = p[1] / 10;
        c.v[i].add_uv[0][2] = (p[2] + 5) / 10;
        c.v[i].add_uv[0][3] = 1;
    }
    const float white[4] = {1, 1, 1, 1}, amb[3] = {0.5f, 0.5f, 0.5f};
    memcpy(c.mat[0].diffuse, white, sizeof white);
    memcpy(c.mat[0].ambient, amb, sizeof amb);
    c.mat[0].flags = MMD_MAT_VERTEX_COLOR;
    mmd_renderer *r = make_renderer(1, mmd_gl_default_backend(), false);
    REQUIRE(r);
    mmd_render_view v;
    const float eye[3] = {0, 5, -40}, target[3] = {0, 5, 0};
    view_make(&v, eye, target, 30, (float)W / H);
    uint8_t *rgba = malloc((size_t)W * H * 4);
    REQUIRE(render_cube(r, &c, &v, NULL, rgba) == 0);
    /* front face z = -5 (blue 0), x 48..112 and y 28..92 on screen:
     * bottom-left near black, top-right near yellow */
    const uint8_t *lb = px(rgba, 52, 88), *rt = px(rgba, 108, 32);
    printf("#   front face: bottom-left %d,%d,%d top-right %d,%d,%d\n", lb[0], lb[1], lb[2], rt[0], rt[1], rt[2]);
    CHECK(lb[0] < 40 && lb[1] < 40 && lb[2] < 10);
    CHECK(rt[0] > 200 && rt[1] > 200 && rt[2] < 10);
    free(rgba);
    mmd_renderer_free(r);
    cube_golden("cube_vertex_color", &c, 1, NULL, false);
}

/* Count of pixels that differ from the white background. */
static size_t non_background(const uint8_t *rgba)
{
    size_t n = 0;
    for (size_t i = 0; i < (size_t)W * H; i++)
        n += rgba[i * 4] != 255 || rgba[i * 4 + 1] != 255 || rgba[i * 4 + 2] != 255;
    return n;
}

/* Render c at the default view (MSAA 4, like the goldens) into a new buffer. */
static uint8_t *render_default(cube_model *c)
{
    mmd_renderer *r = make_renderer(4, mmd_gl_default_backend(), false);
    if (!r)
        return NULL;
    mmd_render_view v;
    default_view(&v, 1);
    uint8_t *rgba = malloc((size_t)W * H * 4);
    if (rgba && render_cube(r, c, &v, NULL, rgba)) {
        free(rgba);
        rgba = NULL;
    }
    mmd_renderer_free(r);
    return rgba;
}

TEST(golden_points_and_lines)
{
    /* Flags 0x40 / 0x80: the material's index list drawn as a point list /
     * line list (points win when both are set), 1 px, no edge hull. Lines:
     * per face (TL,TR) (BR,TL) (BR,BL) of the 0 1 2 0 2 3 index pairs. */
    cube_model c;
    cube_build(&c, false);
    c.m.version = 2.1f;
    const float dark[4] = {0.1f, 0.1f, 0.4f, 1}, amb[3] = {0.05f, 0.05f, 0.2f};
    memcpy(c.mat[0].diffuse, dark, sizeof dark);
    memcpy(c.mat[0].ambient, amb, sizeof amb);
    c.mat[0].edge_size = 10;
    c.mat[0].flags = MMD_MAT_LINES;
    uint8_t *lines = render_default(&c);
    c.mat[0].flags = MMD_MAT_LINES | MMD_MAT_EDGE; /* the edge flag adds no hull */
    uint8_t *lines_edge = render_default(&c);
    c.mat[0].flags = MMD_MAT_POINTS | MMD_MAT_LINES; /* points win */
    uint8_t *points_both = render_default(&c);
    c.mat[0].flags = MMD_MAT_POINTS | MMD_MAT_EDGE;
    uint8_t *points = render_default(&c);
    REQUIRE(lines && lines_edge && points && points_both);
    size_t nl = non_background(lines), np = non_background(points);
    printf("#   non-background pixels: lines %zu, points %zu\n", nl, np);
    CHECK(memcmp(lines, lines_edge, (size_t)W * H * 4) == 0);
    CHECK(memcmp(points, points_both, (size_t)W * H * 4) == 0);
    /* a filled cube covers ~3000 px; 15 visible 1-px segments some hundreds;
     * 8 corner points (MSAA-smeared) a few dozen */
    CHECK(nl > 200 && nl < 1500);
    CHECK(np >= 8 && np < 80);
    free(lines);
    free(lines_edge);
    free(points);
    free(points_both);
    c.mat[0].flags = MMD_MAT_LINES | MMD_MAT_EDGE;
    cube_golden("cube_lines", &c, 1, NULL, false);
    c.mat[0].flags = MMD_MAT_POINTS | MMD_MAT_EDGE;
    cube_golden("cube_points", &c, 1, NULL, false);
}

/* ---- DDS: 64x64, quads.png's layout in RGB565-exact colours (so a DXT1
 * block decodes to exactly the PNG's bytes), mip levels 64..8 (each 4x4
 * block holds at most two colours, indices 0/1 only: no interpolation). */

static const uint16_t C565_RED = (28u << 11) | (9u << 5) | 5u;   /* 231,36,41 */
static const uint16_t C565_GREEN = (5u << 11) | (55u << 5) | 5u; /* 41,223,41 */
static const uint16_t C565_BLUE = (5u << 11) | (9u << 5) | 28u;  /* 41,36,231 */
#define DDS_LEVELS 4

static void rgb565(uint16_t c, uint8_t out[3])
{
    unsigned r = c >> 11, g = (c >> 5) & 63, b = c & 31;
    out[0] = (uint8_t)(r << 3 | r >> 2);
    out[1] = (uint8_t)(g << 2 | g >> 4);
    out[2] = (uint8_t)(b << 3 | b >> 2);
}

/* Texel (x, y) of level `l` (size 64 >> l): colour and alpha (window: the
 * bottom-right 16x16 of level 0 has alpha 96 when `window`). */
static uint16_t dds_texel(int l, int x, int y, bool window, uint8_t *alpha)
{
    int s = 64 >> l, q = 16 >> l;
    *alpha = window && x >= s - q && y >= s - q ? 96 : 255;
    if (x < q && y < q)
        return C565_GREEN;
    return y < s / 2 ? C565_RED : C565_BLUE;
}

static void put16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)v, p[1] = (uint8_t)(v >> 8); }
static void put32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

/* Write quads565.png (RGBA, level 0) and a DXT1 or DXT5 .dds of the same
 * texels; returns 0 on success. */
static int write_dds(const char *name, bool dxt5)
{
    size_t block = dxt5 ? 16 : 8, total = 128;
    for (int l = 0; l < DDS_LEVELS; l++)
        total += (size_t)((64 >> l) / 4) * ((64 >> l) / 4) * block;
    uint8_t *d = calloc(1, total);
    if (!d)
        return -1;
    memcpy(d, "DDS ", 4);
    put32(d + 4, 124);
    put32(d + 8, 0x1u | 0x2u | 0x4u | 0x1000u | 0x20000u | 0x80000u);
    put32(d + 12, 64);
    put32(d + 16, 64);
    put32(d + 20, (uint32_t)(16 * 16 * block));
    put32(d + 28, DDS_LEVELS);
    put32(d + 76, 32);
    put32(d + 80, 0x4u); /* DDPF_FOURCC */
    memcpy(d + 84, dxt5 ? "DXT5" : "DXT1", 4);
    put32(d + 108, 0x1000u | 0x400000u | 0x8u);
    uint8_t *o = d + 128;
    for (int l = 0; l < DDS_LEVELS; l++) {
        int bs = (64 >> l) / 4;
        for (int by = 0; by < bs; by++)
            for (int bx = 0; bx < bs; bx++, o += block) {
                uint16_t c0 = 0, c1 = 0;
                uint8_t a0 = 0, a1 = 0, a;
                bool have0 = false, have1 = false, ahave0 = false;
                uint32_t idx = 0;
                uint64_t aidx = 0;
                for (int k = 0; k < 16; k++) { /* row-major texels, 2 bits each */
                    uint16_t c = dds_texel(l, bx * 4 + k % 4, by * 4 + k / 4, dxt5, &a);
                    if (!have0 || c == c0) {
                        c0 = c, have0 = true;
                    } else {
                        c1 = c, have1 = true;
                        idx |= 1u << (2 * k);
                    }
                    if (!ahave0 || a == a0) {
                        a0 = a, ahave0 = true;
                    } else {
                        a1 = a;
                        aidx |= (uint64_t)1 << (3 * k);
                    }
                }
                if (!have1)
                    c1 = c0;
                uint8_t *cb = dxt5 ? o + 8 : o;
                if (dxt5) {
                    o[0] = a0, o[1] = a1;
                    for (int i = 0; i < 6; i++)
                        o[2 + i] = (uint8_t)(aidx >> (8 * i));
                }
                put16(cb, c0);
                put16(cb + 2, c1);
                put32(cb + 4, idx);
            }
    }
    char p[1200];
    snprintf(p, sizeof p, "%s/%s", g_assets, name);
    FILE *f = fopen(p, "wb");
    int rc = f && fwrite(d, 1, total, f) == total ? 0 : -1;
    if (f)
        fclose(f);
    free(d);
    /* the uncompressed twin */
    uint8_t img[64 * 64 * 4];
    for (int y = 0; y < 64; y++)
        for (int x = 0; x < 64; x++) {
            uint8_t *q = img + (y * 64 + x) * 4;
            rgb565(dds_texel(0, x, y, dxt5, &q[3]), q);
        }
    snprintf(p, sizeof p, "%s/%s.png", g_assets, name);
    return rc ? rc : golden_write(p, img, 64, 64);
}

static void dds_case(const char *dds, const char *golden, bool dxt5)
{
    REQUIRE(write_dds(dds, dxt5) == 0);
    char png[64];
    snprintf(png, sizeof png, "%s.png", dds);
    cube_model c;
    cube_build(&c, false);
    const float white[4] = {1, 1, 1, 1}, amb[3] = {0.5f, 0.5f, 0.5f}; /* colour saturates: texels as stored */
    memcpy(c.mat[0].diffuse, white, sizeof white);
    memcpy(c.mat[0].ambient, amb, sizeof amb);
    c.mat[0].texture = add_texture(&c, dds);
    uint8_t *a = render_default(&c);
    c.tex[0] = png;
    uint8_t *b = render_default(&c);
    REQUIRE(a && b);
    mmd_imgdiff_result d;
    mmd_imgdiff_compare(b, a, W, H, 0, &d);
    printf("#   %s vs %s: max %d, %lld px differ\n", dds, png, d.max_error, d.pixels_over);
    CHECK(d.max_error == 0);
    /* the cube is textured at all: red and blue both present */
    size_t red = 0, blue = 0, see_through = 0;
    for (size_t i = 0; i < (size_t)W * H; i++) {
        const uint8_t *q = a + i * 4;
        red += q[0] > 100 && q[2] < 60;
        blue += q[2] > 100 && q[0] < 60;
        see_through += q[0] > 150 && q[1] > 150 && q[2] > 150 && q[0] < 250; /* white through alpha 96 */
    }
    printf("#   red %zu, blue %zu, light see-through %zu px\n", red, blue, see_through);
    CHECK(red > 200 && blue > 200);
    if (dxt5)
        CHECK(see_through > 150); /* DXT1 (opaque): ~60 anti-aliased border pixels */
    free(a);
    free(b);
    c.tex[0] = (char *)dds;
    cube_golden(golden, &c, 1, NULL, false);
}

TEST(golden_dds_dxt1) { dds_case("quads_dxt1.dds", "cube_dds_dxt1", false); }
TEST(golden_dds_dxt5) { dds_case("quads_dxt5.dds", "cube_dds_dxt5", true); }

/* Cube whose material 0 has morph "red" (multiply diffuse/ambient by
 * (1, .15, .15)) and morph "tint" (texture tint multiply (.25, 1, 1, 1)),
 * evaluated through mmd_anim with the given weights at frame 0. */
static void morph_case(const char *golden, float w_red, float w_tint, bool textured)
{
    cube_model c;
    cube_build(&c, false);
    if (textured) { /* white material: the texels as stored, then tinted */
        const float white[4] = {1, 1, 1, 1}, amb[3] = {0.5f, 0.5f, 0.5f};
        memcpy(c.mat[0].diffuse, white, sizeof white);
        memcpy(c.mat[0].ambient, amb, sizeof amb);
        c.mat[0].texture = add_texture(&c, "quads.png");
    }
    mmd_morph morphs[2];
    mmd_morph_material mm[2];
    memset(morphs, 0, sizeof morphs);
    memset(mm, 0, sizeof mm);
    const char *names[2] = {"red", "tint"};
    for (int i = 0; i < 2; i++) {
        morphs[i].name = (char *)names[i];
        morphs[i].name_en = (char *)"";
        morphs[i].panel = 4;
        morphs[i].type = MMD_MORPH_MATERIAL;
        morphs[i].offset_count = 1;
        morphs[i].u.material = &mm[i];
        mm[i].material = 0;
        mm[i].op = 0;
        for (int k = 0; k < 4; k++)
            mm[i].diffuse[k] = mm[i].edge_color[k] = mm[i].texture_tint[k] = mm[i].sphere_tint[k] =
                mm[i].toon_tint[k] = 1;
        for (int k = 0; k < 3; k++)
            mm[i].specular[k] = mm[i].ambient[k] = 1;
        mm[i].specular_power = mm[i].edge_size = 1;
    }
    mm[0].diffuse[1] = mm[0].diffuse[2] = mm[0].ambient[1] = mm[0].ambient[2] = 0.15f;
    mm[1].texture_tint[0] = 0.25f;
    c.m.morphs = morphs;
    c.m.morph_count = 2;
    mmd_motion *mo = fx_motion(0, 2);
    fx_morph_key(mo, 0, "red", 0, w_red);
    fx_morph_key(mo, 1, "tint", 0, w_tint);
    const mmd_motion *mos[1] = {mo};
    mmd_anim *an = NULL;
    mmd_error err;
    REQUIRE(mmd_anim_create(&c.m, mos, 1, &an, &err) == MMD_OK);
    mmd_anim_evaluate(an, 0);
    const mmd_material_state *ms = mmd_anim_materials(an);
    printf("#   %s: diffuse %.3f %.3f %.3f, texture mul %.3f %.3f %.3f %.3f\n", golden, ms[0].diffuse[0],
           ms[0].diffuse[1], ms[0].diffuse[2], ms[0].texture_mul[0], ms[0].texture_mul[1], ms[0].texture_mul[2],
           ms[0].texture_mul[3]);
    CHECK(fabsf(ms[0].diffuse[1] - c.mat[0].diffuse[1] * (1 - 0.85f * w_red)) < 1e-5f);
    CHECK(fabsf(ms[0].texture_mul[0] - (1 - 0.75f * w_tint)) < 1e-5f);

    mmd_renderer *r = make_renderer(4, mmd_gl_default_backend(), false);
    REQUIRE(r);
    REQUIRE(mmd_renderer_add_model(r, &c.m, g_assets, &err) == MMD_OK);
    float pos[28 * 3], nrm[28 * 3];
    mmd_render_instance in;
    cube_instance(&c, pos, nrm, &in);
    in.materials = ms;
    mmd_render_view v;
    default_view(&v, 1);
    uint8_t *rgba = malloc((size_t)W * H * 4);
    REQUIRE(mmd_renderer_draw(r, &in, 1, &v, NULL, NULL, rgba, &err) == MMD_OK);
    if (w_red == 0 && w_tint == 0) { /* weight 0 = the unmorphed cube, byte for byte */
        uint8_t *plain = render_default(&c);
        REQUIRE(plain);
        CHECK(memcmp(plain, rgba, (size_t)W * H * 4) == 0);
        free(plain);
    } else {
        golden_check(golden, rgba, W, H, mmd_renderer_gl_version(r));
    }
    free(rgba);
    mmd_renderer_free(r);
    mmd_anim_free(an);
    fx_free_motion(mo);
}

TEST(golden_material_morph)
{
    morph_case("cube_morph_zero", 0, 0, false);
    morph_case("cube_morph_red", 1, 0, false);
    morph_case("cube_morph_red_half", 0.5f, 0, false);
    morph_case("cube_morph_texture_tint", 0, 1, true);
}

/* The mip levels textures.c builds on the CPU (image/decode.h
 * mmd_image_mip_next) are byte for byte what llvmpipe's glGenerateMipmap
 * makes, for power-of-two sizes square and not: read back level by level. */
TEST(cpu_mips_match_gl)
{
    mmd_error err;
    mmd_gl_context *c;
    REQUIRE(mmd_gl_context_create(MMD_GL_OSMESA, 1, &c, &err) == MMD_OK ||
            mmd_gl_context_create(MMD_GL_EGL, 1, &c, &err) == MMD_OK);
    const mmd_gl *gl = mmd_gl_context_api(c);
    if (!strstr((const char *)gl->GetString(GL_RENDERER), "llvmpipe")) {
        mmd_gl_context_free(c);
        SKIP("skipped: not llvmpipe (the rounding is llvmpipe's)");
    }
    static const int sizes[][2] = {{64, 64}, {128, 8}, {1, 32}, {16, 2}};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        int w = sizes[k][0], h = sizes[k][1];
        uint8_t *a = malloc((size_t)w * h * 4), *b = malloc((size_t)w * h * 4), *g = malloc((size_t)w * h * 4);
        REQUIRE(a && b && g);
        for (size_t i = 0; i < (size_t)w * h * 4; i++)
            a[i] = (uint8_t)((i * 2654435761u) >> 13);
        GLuint t, fb;
        gl->GenTextures(1, &t);
        gl->BindTexture(GL_TEXTURE_2D, t);
        gl->PixelStorei(GL_UNPACK_ALIGNMENT, 1);
        gl->PixelStorei(GL_PACK_ALIGNMENT, 1);
        gl->TexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, w, h, 0, GL_RGBA, GL_UNSIGNED_BYTE, a);
        gl->GenerateMipmap(GL_TEXTURE_2D);
        gl->GenFramebuffers(1, &fb);
        gl->BindFramebuffer(GL_FRAMEBUFFER, fb);
        int differ = 0;
        for (int level = 1; w > 1 || h > 1; level++) {
            mmd_image_mip_next(a, w, h, b);
            w = w > 1 ? w / 2 : 1;
            h = h > 1 ? h / 2 : 1;
            gl->FramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, t, level);
            gl->ReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, g);
            differ += memcmp(b, g, (size_t)w * h * 4) != 0;
            memcpy(a, b, (size_t)w * h * 4);
        }
        printf("#   %dx%d: %d levels differ\n", sizes[k][0], sizes[k][1], differ);
        CHECK_EQ_INT(differ, 0);
        CHECK_EQ_INT(gl->GetError(), GL_NO_ERROR);
        gl->DeleteFramebuffers(1, &fb);
        gl->DeleteTextures(1, &t);
        free(a);
        free(b);
        free(g);
    }
    mmd_gl_context_free(c);
}

/* The program builder speaks mmd_status (issue 26): a shader that is not
 * embedded, and one that does not compile, are MMD_E_GL with their sentence;
 * the output is left alone on failure and set on success. */
TEST(program_build_status)
{
    mmd_error err;
    mmd_gl_context *c;
    REQUIRE(mmd_gl_context_create(MMD_GL_OSMESA, 1, &c, &err) == MMD_OK ||
            mmd_gl_context_create(MMD_GL_EGL, 1, &c, &err) == MMD_OK);
    const mmd_gl *gl = mmd_gl_context_api(c);
    GLuint p = 7;
    CHECK_EQ_INT(mmd_gl_program_build(gl, "no_such_vs", "flat_fs", NULL, &p, &err), MMD_E_GL);
    CHECK_EQ_INT(err.status, MMD_E_GL);
    CHECK(!strcmp(err.msg, "shader no_such_vs not embedded"));
    CHECK_EQ_INT((int)p, 7);
    CHECK_EQ_INT(mmd_gl_program_build(gl, "flat_vs", "flat_fs", "#define POSITION_ONLY )\n", &p, &err), MMD_E_GL);
    CHECK(!strncmp(err.msg, "shader flat_vs: ", 16));
    CHECK_EQ_INT((int)p, 7);
    CHECK_EQ_INT(mmd_gl_program_build(gl, "flat_vs", "flat_fs", NULL, &p, NULL), MMD_OK);
    CHECK(p != 7 && p != 0);
    gl->DeleteProgram(p);
    CHECK_EQ_INT(mmd_gl_context_make_current(c, &err), MMD_OK);
    mmd_gl_context_free(c);
}

/* The variant keys and the #define text the shaders read come from one list
 * each (render_internal.h): the layout below is the one the programs were
 * built with before the lists, so the same key still compiles the same text. */
TEST(variant_keys_and_defines)
{
    static const mmd_variant_bit colour[] = {MMD_COLOUR_VARIANT(MMD_X_VARIANT_ROW_CV)};
    static const mmd_variant_bit acc[] = {MMD_ACC_VARIANT(MMD_X_VARIANT_ROW_AV)};
    CHECK_EQ_INT(MAIN_VARIANTS, 128);
    CHECK_EQ_INT(ACC_VARIANTS, 32);
    int key = CV(HAS_TEX, 1) | CV(SPHERE_MODE, 3) | CV(VERTEX_COLOR, 1) | CV(TINT, 1);
    CHECK_EQ_INT(key, 1 | 3 << 1 | 1 << 4 | 1 << 6);
    char d[320];
    int n = mmd_gl_variant_defines(colour, sizeof colour / sizeof colour[0], key, d, sizeof d);
    const char *want = "#define HAS_TEX 1\n#define SPHERE_MODE 3\n#define SELF_SHADOW 0\n#define VERTEX_COLOR 1\n"
                       "#define SPECULAR 0\n#define TINT 1\n";
    CHECK(!strcmp(d, want) && n == (int)strlen(want));
    key = AV(SPHERE_MODE, 2) | AV(SELF_SHADOW, 1) | AV(SPECULAR, 1);
    CHECK_EQ_INT(key, 2 << 1 | 1 << 3 | 1 << 4);
    mmd_gl_variant_defines(acc, sizeof acc / sizeof acc[0], key, d, sizeof d);
    CHECK(!strcmp(d, "#define HAS_TEX 0\n#define SPHERE_MODE 2\n#define SELF_SHADOW 1\n#define SPECULAR 1\n"));
    CHECK_EQ_INT(U_MAIN_COUNT, 24);
    CHECK_EQ_INT(F_COUNT, 4);
    CHECK_EQ_INT(A_COUNT, 16);
}

/* ---------------------------------------------------------------- the per-object pass hook */

/* What the hook saw: each call's drawable, kind and MME's technique choice in
 * our object effect (tests/fx/object_passes.fx); a material to draw itself
 * (red, through mmd_renderer_draw_geometry) or to swallow. */
typedef struct hook_call {
    size_t slot;
    uint32_t material, first, count;
    mmd_fx_pass_kind kind;
    int technique;
    mmd_fx_material_use use;
    int width;
    bool flattened; /* object_world maps every point onto y = 0 (the ground shadow's WORLD) */
} hook_call;
typedef struct hook_rec {
    hook_call calls[16];
    int n;
    const mmd_fx *fx;
    int swallow, red; /* material index, -1 none */
    bool shadow_only; /* swallow / red in the shadow pass alone */
    GLuint prog;
} hook_rec;

static bool recording_hook(void *user, mmd_renderer *r, const mmd_drawable *d, mmd_fx_pass_kind kind,
                           const mmd_material_state *m, const mmd_pass_frame *f)
{
    hook_rec *h = user;
    (void)m;
    const float *ow = f->object_world;
    bool flat = ow && ow[1] == 0 && ow[5] == 0 && ow[9] == 0 && ow[13] == 0; /* row y of a column-major matrix */
    if (h->n < 16)
        h->calls[h->n++] = (hook_call){
            d->model_slot, d->material, d->first_index, d->index_count, kind,
            mmd_fx_select_technique(h->fx, &(mmd_fx_select_query){kind, d->use, d->material, 2, false}), d->use,
            f->width, flat};
    if (kind == MMD_FX_PASS_EDGE || (h->shadow_only && kind != MMD_FX_PASS_SHADOW))
        return false;
    if (kind == MMD_FX_PASS_ZPLOT)
        return false; /* the runtime's tests below draw zplot */
    if ((int)d->material == h->red && h->prog) { /* Draw=Geometry with a program of the hook's own */
        mat4 proj, view, world, vp, mvp;
        memcpy(proj, f->proj, sizeof proj);
        memcpy(view, f->view, sizeof view);
        memcpy(world, f->world, sizeof world);
        if (ow) { /* the accessory's placement, the ground shadow's flattening: LH, before world */
            mat4 obj;
            memcpy(obj, ow, sizeof obj);
            glm_mat4_mul(world, obj, world);
        }
        glm_mat4_mul(proj, view, vp);
        glm_mat4_mul(vp, world, mvp);
        r->gl->UseProgram(h->prog);
        r->gl->UniformMatrix4fv(r->gl->GetUniformLocation(h->prog, "u_mvp"), 1, GL_FALSE, (const float *)mvp);
        mmd_renderer_draw_geometry(r, d);
        return true;
    }
    return (int)d->material == h->swallow;
}

static GLuint red_program(const mmd_gl *gl)
{
    static const char *vs = "#version 330 core\nlayout(location = 0) in vec3 a_POSITION;\nuniform mat4 u_mvp;\n"
                            "void main() { gl_Position = u_mvp * vec4(a_POSITION, 1.0); }\n";
    static const char *fs = "#version 330 core\nout vec4 o_COLOR0;\nvoid main() { o_COLOR0 = vec4(1, 0, 0, 1); }\n";
    GLuint p = gl->CreateProgram(), sh[2] = {gl->CreateShader(GL_VERTEX_SHADER), gl->CreateShader(GL_FRAGMENT_SHADER)};
    const char *src[2] = {vs, fs};
    for (int i = 0; i < 2; i++) {
        gl->ShaderSource(sh[i], 1, &src[i], NULL);
        gl->CompileShader(sh[i]);
        gl->AttachShader(p, sh[i]);
    }
    gl->LinkProgram(p);
    GLint ok = 0;
    gl->GetProgramiv(p, GL_LINK_STATUS, &ok);
    gl->DeleteShader(sh[0]);
    gl->DeleteShader(sh[1]);
    return ok ? p : 0;
}

/* Red pixels (an effect's floor) in a W x H frame. */
static int red_pixels(const uint8_t *rgba)
{
    int n = 0;
    for (size_t i = 0; i < (size_t)W * H; i++)
        n += rgba[i * 4] > 240 && rgba[i * 4 + 1] < 16 && rgba[i * 4 + 2] < 16;
    return n;
}

/* options.pass_hook is asked for each drawable and pass kind in MMD's order
 * (the colour pass per material, object_ss with the self-shadow on, then the
 * edges); a hook that draws nothing changes no pixel; one that returns true
 * replaces the built-in material (swallowed, or drawn by the hook with
 * mmd_renderer_draw_geometry). */
TEST(pass_hook_per_drawable_and_kind)
{
    cube_model c;
    cube_build(&c, true);
    c.mat[0].flags = MMD_MAT_EDGE | MMD_MAT_CAST_SHADOW;
    c.mat[1].flags = MMD_MAT_RECEIVE_SHADOW;
    c.mat[0].texture = add_texture(&c, "quads.png");
    mmd_render_view v;
    default_view(&v, 1);
    mmd_shadow_state sh = {1, 0.01125f};
    uint8_t *a = reference_image(&c, &v, &sh), *b = malloc((size_t)W * H * 4);
    REQUIRE(a && b);
    void *fxdata = NULL;
    size_t fxsize = 0;
    mmd_fx *fx = NULL;
    REQUIRE(mmd_file_read("tests/fx/object_passes.fx", &fxdata, &fxsize, NULL) == MMD_OK);
    REQUIRE(mmd_fx_load(fxdata, fxsize, "tests/fx/object_passes.fx", NULL, &fx, NULL) == MMD_OK);
    free(fxdata);
    hook_rec h = {.fx = fx, .swallow = -1, .red = -1};
    mmd_render_options o;
    small_options(&o);
    o.pass_hook = recording_hook;
    o.pass_hook_user = &h;
    mmd_renderer *r;
    mmd_error err;
    REQUIRE(mmd_renderer_create(&o, &r, &err) == MMD_OK);
    REQUIRE(render_cube(r, &c, &v, &sh, b) == 0);
    CHECK(memcmp(a, b, (size_t)W * H * 4) == 0); /* asked, drew nothing: the very pixels */
    REQUIRE(h.n == 4);
    /* zplot first: the self-shadow map, per casting material (the cube), at the map's size */
    CHECK(h.calls[0].slot == 0 && h.calls[0].material == 0 && h.calls[0].first == 0 && h.calls[0].count == 36);
    CHECK(h.calls[0].kind == MMD_FX_PASS_ZPLOT && h.calls[0].use.self_shadow);
    CHECK_EQ_INT(h.calls[0].technique, -1); /* object_passes.fx has none: the built-in caster */
    CHECK_EQ_INT(h.calls[0].width, 1024);
    const hook_call *k = h.calls + 1;
    CHECK(k[0].slot == 0 && k[0].material == 0 && k[0].first == 0 && k[0].count == 36);
    CHECK(k[0].kind == MMD_FX_PASS_OBJECT_SS && k[0].use.texture && k[0].use.toon && !k[0].use.self_shadow);
    CHECK_EQ_INT(k[0].technique, 2); /* ObjectSS (UseToon) */
    CHECK(k[1].material == 1 && k[1].first == 36 && k[1].count == 6 && k[1].kind == MMD_FX_PASS_OBJECT_SS);
    CHECK(!k[1].use.texture && k[1].use.self_shadow);
    CHECK(k[2].material == 0 && k[2].kind == MMD_FX_PASS_EDGE); /* the floor has no edge */
    CHECK_EQ_INT(k[2].technique, 3);
    CHECK_EQ_INT(k[0].width, W);
    /* without the self-shadow: object, and ObjectTex for the textured material */
    h.n = 0;
    float pos[28 * 3], nrm[28 * 3];
    mmd_render_instance in;
    cube_instance(&c, pos, nrm, &in);
    REQUIRE(mmd_renderer_draw(r, &in, 1, &v, NULL, NULL, b, &err) == MMD_OK);
    REQUIRE(h.n == 3);
    CHECK(h.calls[0].kind == MMD_FX_PASS_OBJECT && h.calls[0].technique == 0);
    CHECK(h.calls[1].kind == MMD_FX_PASS_OBJECT && h.calls[1].technique == 1);
    /* the floor swallowed: another picture, no red */
    h.n = 0, h.swallow = 1;
    REQUIRE(mmd_renderer_draw(r, &in, 1, &v, NULL, &sh, b, &err) == MMD_OK);
    CHECK(memcmp(a, b, (size_t)W * H * 4) != 0);
    CHECK_EQ_INT(red_pixels(b), 0);
    /* the floor drawn red by the hook (Draw=Geometry at the translator's locations) */
    h.n = 0, h.swallow = -1, h.red = 1;
    h.prog = red_program(r->gl);
    REQUIRE(h.prog);
    REQUIRE(mmd_renderer_draw(r, &in, 1, &v, NULL, &sh, b, &err) == MMD_OK);
    int reds = red_pixels(b);
    printf("#   red floor pixels: %d of %d\n", reds, W * H);
    CHECK(reds > W * H / 10);
    r->gl->DeleteProgram(h.prog);
    mmd_renderer_free(r);
    mmd_fx_free(fx);
    free(a);
    free(b);
}

/* The ground-shadow pass asks the hook per ground-shadow material (kind
 * shadow, after the colour pass; MME's choice in tests/fx/object_passes.fx:
 * its empty Shadow technique), its frame's object_world the flattening onto
 * y = 0; swallowed: the frame of a renderer with the ground shadow off, byte
 * for byte; drawn red by the hook with that WORLD: red at exactly the
 * built-in shadow's pixels (MSAA 1). */
TEST(pass_hook_ground_shadow)
{
    cube_model c;
    cube_build(&c, true);
    c.mat[0].flags = MMD_MAT_GROUND_SHADOW;
    mmd_render_view v;
    default_view(&v, 1.3f);
    uint8_t *a = malloc((size_t)W * H * 4), *b = malloc((size_t)W * H * 4), *off = malloc((size_t)W * H * 4);
    REQUIRE(a && b && off);
    mmd_render_options o;
    mmd_renderer *r;
    mmd_error err;
    for (int ground = 0; ground < 2; ground++) { /* MSAA 1: a pixel is in the shadow or not */
        small_options(&o);
        o.samples = 1;
        o.ground_shadow = ground;
        REQUIRE(mmd_renderer_create(&o, &r, &err) == MMD_OK);
        REQUIRE(render_cube(r, &c, &v, NULL, ground ? a : off) == 0);
        mmd_renderer_free(r);
    }
    size_t shadow = 0;
    for (size_t i = 0; i < (size_t)W * H * 4; i += 4)
        shadow += memcmp(a + i, off + i, 4) != 0;
    CHECK(shadow > 100); /* the cube's shadow on its floor */
    void *fxdata = NULL;
    size_t fxsize = 0;
    mmd_fx *fx = NULL;
    REQUIRE(mmd_file_read("tests/fx/object_passes.fx", &fxdata, &fxsize, NULL) == MMD_OK);
    REQUIRE(mmd_fx_load(fxdata, fxsize, "tests/fx/object_passes.fx", NULL, &fx, NULL) == MMD_OK);
    free(fxdata);
    hook_rec h = {.fx = fx, .swallow = -1, .red = -1, .shadow_only = true};
    small_options(&o);
    o.samples = 1;
    o.pass_hook = recording_hook;
    o.pass_hook_user = &h;
    REQUIRE(mmd_renderer_create(&o, &r, &err) == MMD_OK);
    REQUIRE(render_cube(r, &c, &v, NULL, b) == 0);
    CHECK(memcmp(a, b, (size_t)W * H * 4) == 0); /* asked, drew nothing: the very pixels */
    REQUIRE(h.n == 3);
    const hook_call *k = h.calls;
    CHECK(k[0].kind == MMD_FX_PASS_OBJECT && !k[0].flattened && k[1].kind == MMD_FX_PASS_OBJECT);
    CHECK(k[2].kind == MMD_FX_PASS_SHADOW && k[2].material == 0 && k[2].first == 0 && k[2].count == 36);
    CHECK(k[2].flattened && !k[2].use.self_shadow);
    CHECK_EQ_INT(k[2].technique, 4); /* Shadow (empty) */
    float pos[28 * 3], nrm[28 * 3];
    mmd_render_instance in;
    cube_instance(&c, pos, nrm, &in);
    h.n = 0, h.swallow = 0; /* the shadow pass's material 0 swallowed */
    REQUIRE(mmd_renderer_draw(r, &in, 1, &v, NULL, NULL, b, &err) == MMD_OK);
    CHECK(h.n == 3);
    CHECK(memcmp(off, b, (size_t)W * H * 4) == 0);
    h.n = 0, h.swallow = -1, h.red = 0;
    h.prog = red_program(r->gl);
    REQUIRE(h.prog);
    REQUIRE(mmd_renderer_draw(r, &in, 1, &v, NULL, NULL, b, &err) == MMD_OK);
    size_t reds = 0, outside = 0;
    for (size_t i = 0; i < (size_t)W * H; i++) {
        bool red = b[i * 4] > 240 && b[i * 4 + 1] < 16 && b[i * 4 + 2] < 16;
        reds += red;
        outside += red && memcmp(a + i * 4, off + i * 4, 4) == 0;
    }
    printf("#   ground shadow %zu pixels, drawn red by the hook %zu, outside it %zu\n", shadow, reds, outside);
    CHECK(reds == shadow && outside == 0);
    r->gl->DeleteProgram(h.prog);
    mmd_renderer_free(r);
    mmd_fx_free(fx);
    free(a);
    free(b);
    free(off);
}

typedef struct pre_rec {
    mmd_renderer *r;
    int calls;
    bool green;
} pre_rec;

/* A pre hook: counts its calls; green: clears the frame's colour to green. */
static mmd_status green_pre(void *user, mmd_error *err)
{
    (void)err;
    pre_rec *p = user;
    p->calls++;
    if (p->green) {
        p->r->gl->ClearColor(0, 1, 0, 1);
        p->r->gl->Clear(GL_COLOR_BUFFER_BIT);
    }
    return MMD_OK;
}

/* The pre hook (MME's preprocess effects) is called once a frame with the
 * cleared target bound, before the objects: one that draws nothing changes
 * no pixel; one that clears the colour green changes exactly the background
 * pixels (the cube drawn over it as before); removed, the built-in picture. */
TEST(pre_hook_before_the_objects)
{
    cube_model c;
    cube_build(&c, true);
    mmd_render_view v;
    default_view(&v, 1);
    uint8_t *a = reference_image(&c, &v, NULL), *b = malloc((size_t)W * H * 4);
    REQUIRE(a && b);
    mmd_render_options o;
    small_options(&o);
    mmd_renderer *r;
    mmd_error err;
    REQUIRE(mmd_renderer_create(&o, &r, &err) == MMD_OK);
    pre_rec p = {.r = r};
    mmd_renderer_set_pre_hook(r, green_pre, &p);
    REQUIRE(render_cube(r, &c, &v, NULL, b) == 0);
    CHECK(p.calls == 1);
    CHECK(memcmp(a, b, (size_t)W * H * 4) == 0);
    p.green = true;
    float pos[28 * 3], nrm[28 * 3];
    mmd_render_instance in;
    cube_instance(&c, pos, nrm, &in);
    REQUIRE(mmd_renderer_draw(r, &in, 1, &v, NULL, NULL, b, &err) == MMD_OK);
    CHECK(p.calls == 2);
    int bg = 0, edge = 0, bad = 0;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            size_t i = (size_t)y * W + (size_t)x;
            bool background = !memcmp(a + i * 4, a, 4), near = false; /* the corner pixel: background */
            for (int dy = -1; dy <= 1; dy++) /* an MSAA edge pixel blends the background in */
                for (int dx = -1; dx <= 1; dx++) {
                    int nx = x + dx, ny = y + dy;
                    near |= nx >= 0 && ny >= 0 && nx < W && ny < H && !memcmp(a + ((size_t)ny * W + (size_t)nx) * 4, a, 4);
                }
            const uint8_t *q = b + i * 4;
            bool same = !memcmp(q, a + i * 4, 4), green = q[0] == 0 && q[1] == 255 && q[2] == 0;
            bg += background;
            edge += !background && near && !same;
            bad += background ? !green : !same && !near;
        }
    printf("#   background pixels %d (now green), object edge pixels blended with it %d, wrong %d\n", bg, edge, bad);
    CHECK(bg > 0 && bg < W * H && bad == 0);
    mmd_renderer_set_pre_hook(r, NULL, NULL);
    REQUIRE(mmd_renderer_draw(r, &in, 1, &v, NULL, NULL, b, &err) == MMD_OK);
    CHECK(p.calls == 2 && memcmp(a, b, (size_t)W * H * 4) == 0);
    mmd_renderer_free(r);
    free(a);
    free(b);
}

/* Pixels within 1 of rgb (GL's float-to-8-bit rounding of an exact .5). */
static int pixels_near(const uint8_t *rgba, int r, int g, int b)
{
    int n = 0;
    for (size_t i = 0; i < (size_t)W * H; i++) {
        const uint8_t *p = rgba + i * 4;
        n += abs(p[0] - r) <= 1 && abs(p[1] - g) <= 1 && abs(p[2] - b) <= 1;
    }
    return n;
}

/* An object effect drawn by the runtime through the hook (gl/fx_object.h):
 * tests/fx/object_passes.fx's techniques as MME picks them, its uniforms
 * (WORLDVIEWPROJECTION from the camera, DIFFUSE of each material) and
 * MATERIALTEXTURE bound to the material's texture: the floor exactly its
 * diffuse colour, the cube's faces quads.png's texels times its diffuse;
 * the same bytes twice; no hook left: the built-in picture again. */
TEST(object_effect_through_the_runtime)
{
    cube_model c;
    cube_build(&c, true);
    c.mat[0].flags = MMD_MAT_EDGE;
    c.mat[0].texture = add_texture(&c, "quads.png");
    mmd_render_view v;
    default_view(&v, 1);
    void *fxdata = NULL;
    size_t fxsize = 0;
    mmd_fx *fx = NULL;
    REQUIRE(mmd_file_read("tests/fx/object_passes.fx", &fxdata, &fxsize, NULL) == MMD_OK);
    REQUIRE(mmd_fx_load(fxdata, fxsize, "tests/fx/object_passes.fx", NULL, &fx, NULL) == MMD_OK);
    free(fxdata);
    mmd_render_options o;
    small_options(&o);
    o.samples = 1;
    mmd_renderer *r;
    mmd_error err;
    REQUIRE(mmd_renderer_create(&o, &r, &err) == MMD_OK);
    REQUIRE(mmd_renderer_add_model(r, &c.m, g_assets, &err) == MMD_OK);
    float pos[28 * 3], nrm[28 * 3];
    mmd_render_instance in;
    cube_instance(&c, pos, nrm, &in);
    uint8_t *plain = malloc((size_t)W * H * 4), *a = malloc((size_t)W * H * 4), *b = malloc((size_t)W * H * 4);
    REQUIRE(plain && a && b);
    REQUIRE(mmd_renderer_draw(r, &in, 1, &v, NULL, NULL, plain, &err) == MMD_OK);
    mmd_fx_objects *objs = NULL;
    REQUIRE(mmd_fx_objects_create(NULL, &objs, &err) == MMD_OK);
    mmd_fx_effect_config cfg = {.gl = mmd_renderer_api(r), .width = W, .height = H};
    if (mmd_fx_objects_add(objs, r, 0, &c.m, false, "cube.pmx", fx, &cfg, &err) != MMD_OK)
        printf("#   %s\n", err.msg);
    REQUIRE(mmd_fx_objects_any(objs));
    mmd_renderer_set_pass_hook(r, mmd_fx_objects_hook, objs);
    mmd_fx_frame f;
    memset(&f, 0, sizeof f);
    f.width = W, f.height = H;
    mmd_fx_frame_camera(&f, v.view, v.proj);
    mmd_fx_objects_frame(objs, &f);
    REQUIRE(mmd_renderer_draw(r, &in, 1, &v, NULL, NULL, a, &err) == MMD_OK);
    CHECK_EQ_INT(mmd_fx_objects_status(objs, &err), MMD_OK);
    int floor = pixels_near(a, 128, 179, 128), red = pixels_near(a, 184, 20, 12), blue = pixels_near(a, 32, 20, 69);
    printf("#   effect: floor %d, red %d, blue %d pixels; built-in floor-coloured %d\n", floor, red, blue,
           pixels_near(plain, 128, 179, 128));
    CHECK(floor > W * H / 10 && red > 100 && blue > 100);
    CHECK_EQ_INT(pixels_near(plain, 184, 20, 12), 0); /* the built-in look is lit: not these colours */
    REQUIRE(mmd_renderer_draw(r, &in, 1, &v, NULL, NULL, b, &err) == MMD_OK);
    CHECK(memcmp(a, b, (size_t)W * H * 4) == 0);
    mmd_renderer_set_pass_hook(r, NULL, NULL);
    REQUIRE(mmd_renderer_draw(r, &in, 1, &v, NULL, NULL, b, &err) == MMD_OK);
    CHECK(memcmp(plain, b, (size_t)W * H * 4) == 0);
    mmd_fx_objects_free(objs);
    mmd_renderer_free(r);
    mmd_fx_free(fx);
    free(plain);
    free(a);
    free(b);
}

/* ------------------------------------------------- MMD's self-shadow map */

/* golden_self_shadow's scene (the cube's shadow on its toon-shaded floor) drawn
 * once into rgba (W x H, no MSAA) with self-shadow `mode`: the cube's flags
 * `cube`, the floor receiving; fx (NULL: none, no hook) the model's object
 * effect, drawn by the runtime through the pass hook. 0 on success. */
static int shadow_frame(uint8_t cube, const mmd_fx *fx, int mode, int threads, uint8_t *rgba)
{
    cube_model c;
    cube_build(&c, true);
    c.mat[0].flags = cube;
    c.mat[1].flags = MMD_MAT_RECEIVE_SHADOW;
    int toon = add_texture(&c, "toon.png"); /* a dark shade: a white one shows no shadow */
    c.mat[0].toon_shared = c.mat[1].toon_shared = false;
    c.mat[0].toon = c.mat[1].toon = toon;
    mmd_render_view v;
    default_view(&v, 1.3f);
    mmd_shadow_state sh = {mode, 0.01125f};
    mmd_render_options o;
    small_options(&o);
    o.samples = 1, o.threads = threads;
    mmd_renderer *r = NULL;
    mmd_fx_objects *objs = NULL;
    mmd_error err = {0};
    int rc = -1;
    if (mmd_renderer_create(&o, &r, &err) != MMD_OK || mmd_renderer_add_model(r, &c.m, g_assets, &err) != MMD_OK)
        goto end;
    if (fx) {
        mmd_fx_effect_config cfg = {.gl = mmd_renderer_api(r), .width = W, .height = H};
        if (mmd_fx_objects_create(NULL, &objs, &err) != MMD_OK ||
            mmd_fx_objects_add(objs, r, 0, &c.m, false, "cube.pmx", fx, &cfg, &err) != MMD_OK)
            goto end;
        mmd_renderer_set_pass_hook(r, mmd_fx_objects_hook, objs);
        mmd_fx_frame f;
        memset(&f, 0, sizeof f);
        f.width = W, f.height = H;
        mmd_fx_frame_camera(&f, v.view, v.proj);
        mmd_fx_objects_frame(objs, &f);
    }
    float pos[28 * 3], nrm[28 * 3];
    mmd_render_instance in;
    cube_instance(&c, pos, nrm, &in);
    if (mmd_renderer_draw(r, &in, 1, &v, NULL, &sh, rgba, &err) == MMD_OK &&
        (!objs || mmd_fx_objects_status(objs, &err) == MMD_OK))
        rc = 0;
end:
    if (rc)
        printf("#   shadow_frame: %s\n", err.msg);
    mmd_fx_objects_free(objs);
    mmd_renderer_free(r);
    return rc;
}

static size_t differing(const uint8_t *a, const uint8_t *b)
{
    size_t n = 0;
    for (size_t i = 0; i < (size_t)W * H; i++)
        n += memcmp(a + i * 4, b + i * 4, 4) != 0;
    return n;
}

/* MME's empty zplot technique (tests/fx/zplot_none.fx) turns the object's
 * self-shadow casting off: the very bytes of the cube without its cast flag;
 * the floor's shadowed pixels lit, nothing else changed. */
TEST(empty_zplot_casts_nothing)
{
    mmd_fx *fx = fx_file_load("tests/fx/zplot_none.fx");
    REQUIRE(fx);
    size_t n = (size_t)W * H * 4;
    uint8_t *cast = malloc(n), *none = malloc(n), *fx_px = malloc(n);
    REQUIRE(cast && none && fx_px);
    uint8_t both = MMD_MAT_CAST_SHADOW | MMD_MAT_RECEIVE_SHADOW;
    REQUIRE(shadow_frame(both, NULL, 1, 2, cast) == 0);
    REQUIRE(shadow_frame(MMD_MAT_RECEIVE_SHADOW, NULL, 1, 2, none) == 0);
    REQUIRE(shadow_frame(both, fx, 1, 2, fx_px) == 0);
    size_t shadowed = differing(cast, none);
    printf("#   cube's shadow: %zu pixels; empty zplot vs no cast flag: %zu differ\n", shadowed,
           differing(fx_px, none));
    CHECK(shadowed > 200);
    CHECK(memcmp(fx_px, none, n) == 0);
    free(cast);
    free(none);
    free(fx_px);
    mmd_fx_free(fx);
}

/* Floor pixels (pure green: lit, pure blue: shadowed, tests/fx/self_shadow.fx)
 * that agree with the built-in pass (shadowed = the built-in floor differs
 * from the one without the cube's cast flag). */
static void agreement(const uint8_t *effect, const uint8_t *cast, const uint8_t *none, int counts[4])
{
    memset(counts, 0, 4 * sizeof *counts); /* lit agree, shadowed agree, lit but built-in dark, shadowed but lit */
    for (size_t i = 0; i < (size_t)W * H; i++) {
        const uint8_t *p = effect + i * 4;
        bool green = p[0] == 0 && p[1] == 255 && p[2] == 0, blue = p[0] == 0 && p[1] == 0 && p[2] == 255;
        if (!green && !blue)
            continue;
        bool dark = memcmp(cast + i * 4, none + i * 4, 4) != 0;
        counts[green ? (dark ? 2 : 0) : (dark ? 1 : 3)]++;
    }
}

/* MME binds MMD's self-shadow map to register(s0): tests/fx/self_shadow.fx
 * (full.fx's object_ss shape: ZCalcTex against DefSampler's R, SKII1, or
 * SKII2 x v with parthf) on the floor shadows where the built-in pass does
 * (modes 1 and 2); with its zplot technique (self_shadow_zplot.fx) the cube
 * is drawn into the map by the effect: the same verdicts; the same bytes
 * with 1 or 3 threads. */
TEST(object_ss_reads_the_shadow_map_at_s0)
{
    mmd_fx *fx = fx_file_load("tests/fx/self_shadow.fx"), *fz = fx_file_load("tests/fx/self_shadow_zplot.fx");
    REQUIRE(fx && fz);
    size_t n = (size_t)W * H * 4;
    uint8_t *cast = malloc(n), *none = malloc(n), *e = malloc(n), *z = malloc(n), *z3 = malloc(n);
    REQUIRE(cast && none && e && z && z3);
    for (int mode = 1; mode <= 2; mode++) {
        REQUIRE(shadow_frame(MMD_MAT_CAST_SHADOW, NULL, mode, 2, cast) == 0);
        REQUIRE(shadow_frame(0, NULL, mode, 2, none) == 0);
        REQUIRE(shadow_frame(MMD_MAT_CAST_SHADOW, fx, mode, 2, e) == 0);
        REQUIRE(shadow_frame(MMD_MAT_CAST_SHADOW, fz, mode, 1, z) == 0);
        REQUIRE(shadow_frame(MMD_MAT_CAST_SHADOW, fz, mode, 3, z3) == 0);
        int k[4], kz[4];
        agreement(e, cast, none, k);
        agreement(z, cast, none, kz);
        int floor = k[0] + k[1] + k[2] + k[3];
        printf("#   mode %d: floor %d px: lit %d, shadowed %d agree; lit where built-in dark %d, shadowed where "
               "lit %d; effect's zplot: %d %d %d %d, %zu px differ from the built-in map's\n",
               mode, floor, k[0], k[1], k[2], k[3], kz[0], kz[1], kz[2], kz[3], differing(e, z));
        CHECK(floor > W * H / 4 && k[1] > 200);
        CHECK((k[0] + k[1]) * 100 >= floor * 99); /* >= 99 % of the floor agrees */
        CHECK(k[3] * 1000 <= floor);               /* lit pixels are not darkened */
        CHECK((kz[0] + kz[1]) * 100 >= floor * 99);
        CHECK(memcmp(z, z3, n) == 0);
    }
    free(cast);
    free(none);
    free(e);
    free(z);
    free(z3);
    mmd_fx_free(fx);
    mmd_fx_free(fz);
}

/* mmd_renderer_shadow_map (MME's s0) is asked in the middle of the colour
 * pass: its copy keeps the caller's framebuffers and the active unit's
 * texture (it once left its own bound there, and the next built-in materials
 * drew with it); white while the self-shadow is off; one copy per drawn map. */
TEST(shadow_map_copy_keeps_the_callers_bindings)
{
    cube_model c;
    cube_build(&c, true);
    c.mat[0].flags = MMD_MAT_CAST_SHADOW;
    c.mat[1].flags = MMD_MAT_RECEIVE_SHADOW;
    mmd_render_view v;
    default_view(&v, 1.3f);
    mmd_shadow_state sh = {1, 0.01125f};
    mmd_render_options o;
    small_options(&o);
    mmd_renderer *r;
    mmd_error err;
    REQUIRE(mmd_renderer_create(&o, &r, &err) == MMD_OK);
    uint8_t *rgba = malloc((size_t)W * H * 4);
    REQUIRE(rgba && render_cube(r, &c, &v, &sh, rgba) == 0); /* the map drawn */
    const mmd_gl *gl = r->gl;
    GLuint tex = 0, fbo = 0;
    gl->GenTextures(1, &tex);
    gl->ActiveTexture(GL_TEXTURE0 + 2);
    gl->BindTexture(GL_TEXTURE_2D, tex);
    gl->GenFramebuffers(1, &fbo);
    gl->BindFramebuffer(GL_FRAMEBUFFER, fbo);
    CHECK(mmd_renderer_shadow_map(r, 0) == r->tex_white);
    unsigned map = mmd_renderer_shadow_map(r, 1);
    CHECK(map != 0 && map != r->tex_shadow && map != r->tex_white);
    CHECK(mmd_renderer_shadow_map(r, 2) == map); /* the same copy until the map is drawn again */
    GLint t = -1, draw = -1, read = -1, active = -1;
    gl->GetIntegerv(GL_TEXTURE_BINDING_2D, &t);
    gl->GetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &draw);
    gl->GetIntegerv(GL_READ_FRAMEBUFFER_BINDING, &read);
    gl->GetIntegerv(GL_ACTIVE_TEXTURE, &active);
    CHECK_EQ_INT(t, (int)tex);
    CHECK_EQ_INT(draw, (int)fbo);
    CHECK_EQ_INT(read, (int)fbo);
    CHECK_EQ_INT(active, GL_TEXTURE0 + 2);
    CHECK_EQ_INT((int)gl->GetError(), GL_NO_ERROR);
    gl->BindFramebuffer(GL_FRAMEBUFFER, 0);
    gl->DeleteFramebuffers(1, &fbo);
    gl->DeleteTextures(1, &tex);
    gl->ActiveTexture(GL_TEXTURE0);
    free(rgba);
    mmd_renderer_free(r);
}

int main(int argc, char **argv)
{
    (void)argc;
    golden_init(argv[0]);
    RUN(variant_keys_and_defines);
    write_assets();
    RUN(texture_is_upright);
    RUN(texture_cache_and_budget);
    RUN(cpu_mips_match_gl);
    RUN(program_build_status);
    RUN(golden_plain);
    RUN(golden_texture);
    RUN(golden_toon);
    RUN(golden_sphere_mul_add);
    RUN(golden_specular);
    RUN(golden_edges_two_distances);
    RUN(golden_ground_shadow);
    RUN(golden_self_shadow);
    RUN(golden_self_shadow_mode2);
    RUN(golden_sphere_sub_texture);
    RUN(golden_vertex_color);
    RUN(golden_points_and_lines);
    RUN(golden_dds_dxt1);
    RUN(golden_dds_dxt5);
    RUN(golden_material_morph);
    RUN(deterministic_and_msaa_options);
    RUN(profile_keeps_pixels);
    RUN(cancel_stops_a_frame);
    RUN(egl_matches_osmesa);
    RUN(transparent_background_straight_alpha);
    RUN(hidden_and_zero_alpha_materials_draw_nothing);
    RUN(ground_shadow_before_the_next_model);
    RUN(pass_hook_per_drawable_and_kind);
    RUN(pass_hook_ground_shadow);
    RUN(pre_hook_before_the_objects);
    RUN(object_effect_through_the_runtime);
    RUN(empty_zplot_casts_nothing);
    RUN(object_ss_reads_the_shadow_map_at_s0);
    RUN(shadow_map_copy_keeps_the_callers_bindings);
    return test_finish();
}
