/* tests/unit/test_effects.c - the effects of issue 18 on generated scenes:
 * AutoLuminous glow (marked material glows, ordinary one does not, LightOff
 * turns it off, per-vertex marks), soft self-shadow (penumbra, no acne, still
 * attached) on a face-like head, Diffusion, SSAA and FXAA against a 4x-size
 * reference, determinism, and "off = the frame without effects".
 * Goldens (tests/golden/fx_*.png) compare like test_render's.
 */
#include <cglm/cglm.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/anim.h"
#include "core/camera.h"
#include "renderer/gl/render.h"
#include "tests/unit/render_golden.h"
#include "tests/util/test.h"

TEST_STATE_DEFINE

const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void) { return "leak:libOSMesa.so\n"; }

#ifndef W
#define W 160
#endif
#ifndef H
#define H 120
#endif
#define MAXV 4096
#define MAXI 16384

/* ---------------------------------------------------------------- generated models */

typedef struct scene_model {
    mmd_model m;
    mmd_vertex v[MAXV];
    uint32_t idx[MAXI];
    mmd_material mat[4];
    mmd_morph morph[1];
    mmd_bone bone;
    uint32_t nv, ni;
} scene_model;

static void model_init(scene_model *s)
{
    memset(s, 0, sizeof *s);
    s->bone.name = s->bone.name_en = "root";
    s->bone.parent = s->bone.tail_bone = s->bone.append_parent = s->bone.ik_target = -1;
    s->m.format = MMD_FORMAT_PMX;
    s->m.version = 2.0f;
    s->m.name = s->m.name_en = s->m.comment = s->m.comment_en = "fx";
    s->m.vertices = s->v;
    s->m.indices = s->idx;
    s->m.materials = s->mat;
    s->m.bones = &s->bone;
    s->m.bone_count = 1;
    s->morph[0].name = s->morph[0].name_en = "LightOff";
    s->morph[0].type = MMD_MORPH_MATERIAL;
    s->m.morphs = s->morph;
    s->m.morph_count = 1;
}

static mmd_material *material_add(scene_model *s, float r, float g, float b, uint8_t flags)
{
    mmd_material *mt = &s->mat[s->m.material_count++];
    mt->name = mt->name_en = mt->memo = "";
    mt->diffuse[0] = r, mt->diffuse[1] = g, mt->diffuse[2] = b, mt->diffuse[3] = 1;
    mt->ambient[0] = r * 0.5f, mt->ambient[1] = g * 0.5f, mt->ambient[2] = b * 0.5f;
    mt->edge_color[3] = 1;
    mt->edge_size = 1;
    mt->texture = mt->sphere_texture = -1;
    mt->toon = 2; /* shared toon03: a clearly darker shadow row */
    mt->toon_shared = true;
    mt->flags = flags;
    return mt;
}

static void vertex_add(scene_model *s, const float p[3], const float n[3])
{
    mmd_vertex *v = &s->v[s->nv++];
    memcpy(v->position, p, 12);
    memcpy(v->normal, n, 12);
    v->weight_type = MMD_WEIGHT_BDEF1;
    v->bones[1] = v->bones[2] = v->bones[3] = -1;
    v->weights[0] = 1;
    v->edge_scale = 1;
}

/* Box of half extents e around c, faces clockwise from outside (MMD fronts). */
static void box_add(scene_model *s, const float c[3], const float e[3])
{
    static const float normals[6][3] = {{0, 0, -1}, {1, 0, 0}, {0, 0, 1}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}};
    for (int f = 0; f < 6; f++) {
        const float *n = normals[f];
        float up[3] = {0, 1, 0};
        if (fabsf(n[1]) > 0.5f)
            up[1] = 0, up[2] = n[1] > 0 ? 1.0f : -1.0f;
        float fwd[3] = {-n[0], -n[1], -n[2]}, right[3] = {up[1] * fwd[2] - up[2] * fwd[1],
                                                          up[2] * fwd[0] - up[0] * fwd[2],
                                                          up[0] * fwd[1] - up[1] * fwd[0]};
        static const int corners[4][2] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};
        uint32_t base = s->nv;
        for (int k = 0; k < 4; k++) {
            float p[3];
            for (int i = 0; i < 3; i++)
                p[i] = c[i] + e[i] * (n[i] + (float)corners[k][0] * right[i] - (float)corners[k][1] * up[i]);
            vertex_add(s, p, n);
        }
        const uint32_t tri[6] = {0, 1, 2, 0, 2, 3};
        for (int k = 0; k < 6; k++)
            s->idx[s->ni++] = base + tri[k];
    }
}

/* Ellipsoid (radii r) around c, `seg` segments, clockwise from outside. */
static void ellipsoid_add(scene_model *s, const float c[3], const float r[3], int seg)
{
    uint32_t base = s->nv;
    for (int i = 0; i <= seg; i++) {
        float th = (float)M_PI * (float)i / (float)seg; /* from the top */
        for (int j = 0; j <= seg * 2; j++) {
            float ph = (float)M_PI * (float)j / (float)seg;
            float d[3] = {sinf(th) * cosf(ph), cosf(th), sinf(th) * sinf(ph)};
            float p[3] = {c[0] + r[0] * d[0], c[1] + r[1] * d[1], c[2] + r[2] * d[2]};
            float n[3] = {d[0] / r[0], d[1] / r[1], d[2] / r[2]};
            float l = sqrtf(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
            n[0] /= l, n[1] /= l, n[2] /= l;
            vertex_add(s, p, n);
        }
    }
    int row = seg * 2 + 1;
    for (int i = 0; i < seg; i++)
        for (int j = 0; j < seg * 2; j++) {
            uint32_t a = base + (uint32_t)(i * row + j), b = a + 1, cc = a + (uint32_t)row, d = cc + 1;
            const uint32_t t[6] = {a, b, cc, b, d, cc}; /* clockwise seen from outside (LH) */
            for (int k = 0; k < 6; k++)
                s->idx[s->ni++] = t[k];
        }
}

static void material_close(scene_model *s, uint32_t first_index)
{
    s->mat[s->m.material_count - 1].index_count = s->ni - first_index;
    s->m.vertex_count = s->nv;
    s->m.index_count = s->ni;
}

/* ---------------------------------------------------------------- drawing */

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

typedef struct shot {
    const scene_model *s;
    float eye[3], target[3], fov;
    int w, h, samples, threads;
    bool gl_pixel_centres;
    float bg[3];
    const mmd_shadow_state *shadow;
    const float *weights;
    double time_s;
} shot;

/* Render one frame of s with effects e into a new buffer (free it); NULL on failure. */
static uint8_t *render(const shot *sh, const mmd_effects *e, char *ver, size_t ver_size)
{
    mmd_render_options o;
    mmd_render_options_default(&o);
    o.width = sh->w;
    o.height = sh->h;
    o.samples = sh->samples;
    o.threads = sh->threads ? sh->threads : 2;
    o.shadow_map_size = 1024;
    o.gl_pixel_centres = sh->gl_pixel_centres;
    o.background[0] = sh->bg[0], o.background[1] = sh->bg[1], o.background[2] = sh->bg[2];
    if (e)
        o.effects = *e;
    mmd_renderer *r = NULL;
    mmd_error err;
    if (mmd_renderer_create(&o, &r, &err) != MMD_OK) {
        printf("#   renderer: %s\n", err.msg);
        return NULL;
    }
    uint8_t *rgba = malloc((size_t)sh->w * (size_t)sh->h * 4);
    float *pos = malloc(sh->s->nv * 12), *nrm = malloc(sh->s->nv * 12);
    int rc = mmd_renderer_add_model(r, &sh->s->m, ".", &err) != MMD_OK ? -1 : 0;
    if (!rc) {
        for (uint32_t i = 0; i < sh->s->nv; i++) {
            memcpy(pos + i * 3, sh->s->v[i].position, 12);
            memcpy(nrm + i * 3, sh->s->v[i].normal, 12);
        }
        mmd_render_instance in;
        memset(&in, 0, sizeof in);
        in.positions = pos;
        in.normals = nrm;
        in.morph_weights = sh->weights;
        mmd_render_view v;
        view_make(&v, sh->eye, sh->target, sh->fov ? sh->fov : 30, (float)sh->w / (float)sh->h);
        mmd_renderer_set_time(r, sh->time_s);
        rc = mmd_renderer_draw(r, &in, 1, &v, NULL, sh->shadow, rgba, &err) != MMD_OK ? -1 : 0;
    }
    if (rc)
        printf("#   draw: %s\n", err.msg);
    if (ver)
        snprintf(ver, ver_size, "%s", mmd_renderer_gl_version(r));
    free(pos);
    free(nrm);
    mmd_renderer_free(r);
    if (rc) {
        free(rgba);
        return NULL;
    }
    return rgba;
}

static const uint8_t *px(const uint8_t *rgba, int w, int x, int y) { return rgba + ((size_t)y * (size_t)w + (size_t)x) * 4; }
static int luma(const uint8_t *p) { return (299 * p[0] + 587 * p[1] + 114 * p[2]) / 1000; }

/* Sum of luma over the rectangle [x0,x1) x [y0,y1). */
static long area_luma(const uint8_t *rgba, int w, int x0, int y0, int x1, int y1)
{
    long s = 0;
    for (int y = y0; y < y1; y++)
        for (int x = x0; x < x1; x++)
            s += luma(px(rgba, w, x, y));
    return s;
}

/* ---------------------------------------------------------------- glow */

/* Left cube AutoLuminous-marked (specular black, power 120), right cube
 * ordinary (same colours, power 120 with a real specular colour), a dark
 * background so a halo shows. */
static void glow_scene(scene_model *s)
{
    model_init(s);
    uint32_t at = s->ni;
    mmd_material *al = material_add(s, 1.0f, 0.55f, 0.1f, 0);
    al->specular_power = 120;
    box_add(s, (float[3]){-9, 5, 0}, (float[3]){4, 4, 4});
    material_close(s, at);
    at = s->ni;
    mmd_material *plain = material_add(s, 1.0f, 0.55f, 0.1f, 0);
    plain->specular_power = 120;
    plain->specular[0] = plain->specular[1] = plain->specular[2] = 0.3f;
    box_add(s, (float[3]){9, 5, 0}, (float[3]){4, 4, 4});
    material_close(s, at);
}

static shot glow_shot(const scene_model *s)
{
    shot sh = {.s = s, .eye = {0, 12, -45}, .target = {0, 5, 0}, .w = W, .h = H, .samples = 4,
               .bg = {0.08f, 0.08f, 0.12f}};
    return sh;
}

static int diff_count(const uint8_t *a, const uint8_t *b, int w, int x0, int y0, int x1, int y1, int tol)
{
    int n = 0;
    for (int y = y0; y < y1; y++)
        for (int x = x0; x < x1; x++)
            for (int c = 0; c < 4; c++)
                if (abs(px(a, w, x, y)[c] - px(b, w, x, y)[c]) > tol) {
                    n++;
                    break;
                }
    return n;
}

TEST(glow_marked_material_only)
{
    static scene_model s;
    glow_scene(&s);
    shot sh = glow_shot(&s);
    mmd_effects e;
    mmd_effects_default(&e);
    char ver[256];
    uint8_t *off = render(&sh, &e, ver, sizeof ver);
    e.glow = true;
    uint8_t *on = render(&sh, &e, NULL, 0);
    REQUIRE(off && on);
    golden_check("fx_glow_off", off, W, H, ver);
    golden_check("fx_glow", on, W, H, ver);
    /* the marked cube (left half) and its halo brighten; the ordinary cube's
     * own pixels (right third, away from the halo) stay as they were */
    long left_off = area_luma(off, W, 0, 0, W / 2, H), left_on = area_luma(on, W, 0, 0, W / 2, H);
    printf("#   left half luma %ld -> %ld\n", left_off, left_on);
    CHECK(left_on > left_off + left_off / 4);
    int right = diff_count(off, on, W, W * 3 / 4, 0, W, H, 2);
    printf("#   right quarter: %d pixels changed\n", right);
    CHECK(right == 0);
    /* halo: background just left of the marked cube lights up */
    int hx = 12, hy = 60;
    printf("#   halo pixel (%d,%d): %d -> %d\n", hx, hy, luma(px(off, W, hx, hy)), luma(px(on, W, hx, hy)));
    CHECK(luma(px(on, W, hx, hy)) > luma(px(off, W, hx, hy)) + 10);
    free(off);
    free(on);
}

TEST(glow_light_off_morph)
{
    static scene_model s;
    glow_scene(&s);
    shot sh = glow_shot(&s);
    mmd_effects e;
    mmd_effects_default(&e);
    uint8_t *off = render(&sh, &e, NULL, 0);
    e.glow = true;
    float w1 = 1.0f, wh = 0.5f;
    sh.weights = &w1; /* LightOff = 1: no glow at all, the frame without glow */
    uint8_t *dark = render(&sh, &e, NULL, 0);
    sh.weights = &wh;
    uint8_t *half = render(&sh, &e, NULL, 0);
    sh.weights = NULL;
    uint8_t *full = render(&sh, &e, NULL, 0);
    REQUIRE(off && dark && half && full);
    CHECK(memcmp(off, dark, (size_t)W * H * 4) == 0);
    long l_off = area_luma(off, W, 0, 0, W / 2, H), l_half = area_luma(half, W, 0, 0, W / 2, H),
         l_full = area_luma(full, W, 0, 0, W / 2, H);
    printf("#   left luma: LightOff 1 %ld, 0.5 %ld, 0 %ld\n", l_off, l_half, l_full);
    CHECK(l_off < l_half && l_half < l_full);
    free(off);
    free(dark);
    free(half);
    free(full);
}

TEST(glow_vertex_marks)
{
    /* the ordinary cube with additional UV1 = (0.2, 0.7) on its vertices glows
     * in its material colour; unmarked it does not */
    static scene_model s;
    glow_scene(&s);
    s.m.additional_uv_count = 1;
    shot sh = glow_shot(&s);
    mmd_effects e;
    mmd_effects_default(&e);
    e.glow = true;
    s.mat[0].specular_power = 50; /* left cube no longer marked */
    uint8_t *none = render(&sh, &e, NULL, 0);
    for (uint32_t i = 24; i < 48; i++)
        s.v[i].add_uv[0][0] = 0.2f, s.v[i].add_uv[0][1] = 0.7f;
    uint8_t *marked = render(&sh, &e, NULL, 0);
    REQUIRE(none && marked);
    long r_none = area_luma(none, W, W / 2, 0, W, H), r_marked = area_luma(marked, W, W / 2, 0, W, H);
    printf("#   right half luma %ld -> %ld\n", r_none, r_marked);
    CHECK(r_marked > r_none + r_none / 4);
    CHECK(diff_count(none, marked, W, 0, 0, W / 8, H, 2) == 0); /* far left unchanged */
    free(none);
    free(marked);
}

/* ---------------------------------------------------------------- soft shadow */

/* A face-like head: an ellipsoid head with a nose and brow ridge over a neck
 * and shoulders, every part casting and receiving the self-shadow. */
static void face_scene(scene_model *s)
{
    model_init(s);
    uint32_t at = s->ni;
    material_add(s, 1.0f, 0.85f, 0.75f, MMD_MAT_CAST_SHADOW | MMD_MAT_RECEIVE_SHADOW);
    ellipsoid_add(s, (float[3]){0, 16, 0}, (float[3]){5, 6.2f, 5.2f}, 24);   /* head */
    ellipsoid_add(s, (float[3]){0, 15.5f, -5.0f}, (float[3]){0.9f, 1.6f, 1.2f}, 10); /* nose */
    ellipsoid_add(s, (float[3]){0, 18.2f, -4.2f}, (float[3]){3.8f, 0.9f, 1.1f}, 12); /* brow */
    ellipsoid_add(s, (float[3]){0, 8.5f, 0.5f}, (float[3]){2.4f, 4.5f, 2.4f}, 16);   /* neck */
    box_add(s, (float[3]){0, 3, 0.5f}, (float[3]){8, 3, 3});                        /* shoulders */
    material_close(s, at);
}

static shot face_shot(const scene_model *s, const mmd_shadow_state *sh_state)
{
    shot sh = {.s = s, .eye = {6, 17, -30}, .target = {0, 13, 0}, .w = W, .h = H, .samples = 4,
               .bg = {1, 1, 1}, .shadow = sh_state, .fov = 30};
    return sh;
}

/* Widest run of intermediate shades along row y (between the lit and the
 * shadowed value of that row): the penumbra width in pixels. */
static int penumbra_width(const uint8_t *rgba, int w, int x0, int x1, int y)
{
    int lo = 255, hi = 0;
    for (int x = x0; x < x1; x++) {
        if (px(rgba, w, x, y)[1] <= px(rgba, w, x, y)[2] + 20)
            continue;
        int l = luma(px(rgba, w, x, y));
        lo = l < lo ? l : lo;
        hi = l > hi ? l : hi;
    }
    int best = 0, run = 0, margin = (hi - lo) / 8;
    for (int x = x0; x < x1; x++) {
        const uint8_t *q = px(rgba, w, x, y);
        int l = luma(q);
        bool floor = q[1] > q[2] + 20; /* the green floor, not the blue boxes */
        run = floor && l > lo + margin && l < hi - margin ? run + 1 : 0;
        best = run > best ? run : best;
    }
    return best;
}

TEST(soft_shadow_face)
{
    static scene_model s;
    face_scene(&s);
    mmd_shadow_state st = {1, 0.01125f};
    shot sh = face_shot(&s, &st);
    mmd_effects e;
    mmd_effects_default(&e);
    char ver[256];
    uint8_t *hard = render(&sh, &e, ver, sizeof ver);
    e.soft_shadow = true;
    uint8_t *soft = render(&sh, &e, NULL, 0);
    e.soft_shadow_mode = MMD_SOFT_SHADOW_CONTACT;
    uint8_t *contact = render(&sh, &e, NULL, 0);
    /* the same frame with nothing casting: every pixel's lit value */
    for (uint32_t k = 0; k < s.m.material_count; k++)
        s.mat[k].flags &= (uint8_t)~MMD_MAT_CAST_SHADOW;
    mmd_effects_default(&e);
    e.soft_shadow = true;
    uint8_t *lit = render(&sh, &e, NULL, 0);
    REQUIRE(hard && soft && contact && lit);
    golden_check("fx_soft_shadow_off", hard, W, H, ver);
    golden_check("fx_soft_shadow", soft, W, H, ver);
    golden_check("fx_soft_shadow_contact", contact, W, H, ver);
    /* acne: where nothing can shadow (the forehead above the brow), the soft
     * frame is the no-caster frame (within 2 levels: the brow's penumbra) */
    int acne = diff_count(soft, lit, W, W * 38 / 100, H * 4 / 100, W * 62 / 100, H * 9 / 100, 2);
    printf("#   forehead pixels darker than unshadowed: %d\n", acne);
    CHECK(acne == 0);
    free(hard);
    free(soft);
    free(contact);
    free(lit);
}

TEST(soft_shadow_penumbra_attached)
{
    /* a box hovering low over a floor and another standing on it: the soft
     * shadow edge is several pixels wide where MMD's is 1-2, and the standing
     * box's shadow still starts at its foot */
    static scene_model s;
    model_init(&s);
    uint32_t at = s.ni;
    material_add(&s, 0.55f, 0.65f, 0.5f, MMD_MAT_CAST_SHADOW | MMD_MAT_RECEIVE_SHADOW);
    box_add(&s, (float[3]){0, -0.5f, 0}, (float[3]){30, 0.5f, 30});
    material_close(&s, at);
    at = s.ni;
    material_add(&s, 0.35f, 0.45f, 0.8f, MMD_MAT_CAST_SHADOW | MMD_MAT_RECEIVE_SHADOW);
    box_add(&s, (float[3]){-6, 6, 0}, (float[3]){3, 0.5f, 3});
    box_add(&s, (float[3]){6, 3, 0}, (float[3]){2, 3, 2});
    material_close(&s, at);
    mmd_shadow_state st = {1, 0.01125f};
    shot sh = {.s = &s, .eye = {0, 30, -30}, .target = {0, 0, 0}, .w = W, .h = H, .samples = 4,
               .bg = {1, 1, 1}, .shadow = &st};
    mmd_effects e;
    mmd_effects_default(&e);
    char ver[256];
    uint8_t *hard = render(&sh, &e, ver, sizeof ver);
    e.soft_shadow = true;
    e.soft_shadow_radius = 3;
    uint8_t *soft = render(&sh, &e, NULL, 0);
    REQUIRE(hard && soft);
    golden_check("fx_soft_shadow_floor_off", hard, W, H, ver);
    golden_check("fx_soft_shadow_floor", soft, W, H, ver);
    int wh = 0, ws = 0;
    for (int y = H / 6; y < H * 5 / 6; y += H / 30) {
        int a = penumbra_width(hard, W, 0, W / 2, y), b = penumbra_width(soft, W, 0, W / 2, y);
        wh = a > wh ? a : wh;
        ws = b > ws ? b : ws;
    }
    printf("#   widest penumbra: hard %d px, soft %d px\n", wh, ws);
    CHECK(ws >= wh + 2);
    /* neither detached nor leaking: the shadowed area (darker than the lit
     * floor by over half the shadow's contrast) stays within 15% of MMD's */
    int lit = luma(px(hard, W, W / 2, H - 4)), dark = 255;
    for (int i = 0; i < W * H; i++)
        dark = luma(hard + i * 4) < dark ? luma(hard + i * 4) : dark;
    int ah = 0, as = 0;
    for (int i = 0; i < W * H; i++) {
        ah += luma(hard + i * 4) < (lit + dark) / 2;
        as += luma(soft + i * 4) < (lit + dark) / 2;
    }
    printf("#   shadowed pixels: hard %d, soft %d (lit %d, darkest %d)\n", ah, as, lit, dark);
    CHECK(ah > 100);
    CHECK(abs(as - ah) * 100 <= ah * 15);
    free(hard);
    free(soft);
}

/* Gene_light's head and shoulders, rest pose, MMD's light, self-shadow mode 1. */
#define GENE_W 256
#define GENE_H 256
static uint8_t *render_gene(mmd_model *m, const mmd_effects *e, char *ver, size_t ver_size)
{
    mmd_render_options o;
    mmd_render_options_default(&o);
    o.width = GENE_W;
    o.height = GENE_H;
    o.threads = 2;
    o.effects = *e;
    mmd_renderer *r = NULL;
    mmd_error err;
    mmd_anim *a = NULL;
    uint8_t *rgba = malloc((size_t)GENE_W * GENE_H * 4);
    int rc = -1;
    if (mmd_renderer_create(&o, &r, &err) == MMD_OK &&
        mmd_renderer_add_model(r, m, MMD_SHARED_ASSETS "/gene", &err) == MMD_OK &&
        mmd_anim_create(m, NULL, 0, &a, &err) == MMD_OK) {
        mmd_anim_evaluate(a, 0);
        mmd_camera_state cam;
        memset(&cam, 0, sizeof cam);
        cam.target[1] = 15.5f;
        cam.rotation[1] = -25.0f * (float)M_PI / 180.0f;
        cam.distance = -16;
        cam.fov = 30;
        mmd_light_state light = {{154 / 255.0f, 154 / 255.0f, 154 / 255.0f}, {-0.5f, -1.0f, 0.5f}};
        mmd_shadow_state sh = {1, 0.01125f};
        rc = mmd_renderer_render(r, &a, 1, &cam, &light, &sh, rgba, &err) == MMD_OK ? 0 : -1;
        if (ver)
            snprintf(ver, ver_size, "%s", mmd_renderer_gl_version(r));
    }
    if (rc)
        printf("#   %s\n", err.msg);
    mmd_anim_free(a);
    mmd_renderer_free(r);
    if (rc) {
        free(rgba);
        return NULL;
    }
    return rgba;
}

TEST(soft_shadow_gene)
{
    mmd_model *m = NULL;
    mmd_error err;
    if (mmd_model_load_file(MMD_SHARED_ASSETS "/gene/Gene_light.pmx", &m, &err) != MMD_OK)
        SKIP("skipped: no ../shared (Gene_light.pmx)");
    /* Gene's materials have no toon, and MMD's self-shadow colour is the
     * toon's darkest row: invisible. Shared toon03 on every material makes
     * the map's shadows (and any acne) show, as on most models. */
    for (uint32_t k = 0; k < m->material_count; k++) {
        m->materials[k].toon_shared = true;
        m->materials[k].toon = 2;
    }
    mmd_effects e;
    mmd_effects_default(&e);
    char ver[256];
    uint8_t *hard = render_gene(m, &e, ver, sizeof ver);
    e.soft_shadow = true;
    uint8_t *soft = render_gene(m, &e, NULL, 0);
    for (uint32_t k = 0; k < m->material_count; k++) /* nothing casts: every pixel's lit value */
        m->materials[k].flags &= (uint8_t)~MMD_MAT_CAST_SHADOW;
    uint8_t *lit = render_gene(m, &e, NULL, 0);
    REQUIRE(hard && soft && lit);
    golden_check("fx_gene_soft_shadow_off", hard, GENE_W, GENE_H, ver);
    golden_check("fx_gene_soft_shadow", soft, GENE_W, GENE_H, ver);
    /* acne: soft darker than lit by more than 24 levels where MMD's own map
     * sees no shadow anywhere within 3 pixels (so not a widened penumbra) */
    int acne = 0, shadowed = 0;
    for (int y = 3; y < GENE_H - 3; y++)
        for (int x = 3; x < GENE_W - 3; x++) {
            int l = luma(px(lit, GENE_W, x, y));
            shadowed += luma(px(hard, GENE_W, x, y)) < l - 24;
            bool near_shadow = false;
            for (int dy = -3; dy <= 3 && !near_shadow; dy++)
                for (int dx = -3; dx <= 3; dx++)
                    near_shadow |= luma(px(hard, GENE_W, x + dx, y + dy)) < l - 2;
            acne += !near_shadow && luma(px(soft, GENE_W, x, y)) < l - 24;
        }
    printf("#   Gene: %d pixels shadowed by MMD's map, %d darkened only by the soft filter\n", shadowed, acne);
    CHECK(shadowed > 200);
    CHECK(acne * 200 <= shadowed); /* under 0.5% */
    free(hard);
    free(soft);
    free(lit);
    mmd_model_free(m);
}

/* ---------------------------------------------------------------- diffusion, SSAA, FXAA */

TEST(diffusion_blooms_bright_parts)
{
    static scene_model s;
    glow_scene(&s);
    shot sh = glow_shot(&s);
    mmd_effects e;
    mmd_effects_default(&e);
    char ver[256];
    uint8_t *off = render(&sh, &e, ver, sizeof ver);
    e.diffusion = true;
    e.diffusion_strength = 1.0f;
    e.diffusion_threshold = 0.3f;
    uint8_t *on = render(&sh, &e, NULL, 0);
    REQUIRE(off && on);
    golden_check("fx_diffusion", on, W, H, ver);
    /* both cubes bloom alike (the whole frame, not only marked materials) */
    long l_off = area_luma(off, W, W / 2, 0, W, H), l_on = area_luma(on, W, W / 2, 0, W, H);
    printf("#   right half luma %ld -> %ld\n", l_off, l_on);
    CHECK(l_on > l_off + l_off / 20);
    for (int i = 0; i < W * H * 4; i += 4) /* screen blending never darkens */
        if (on[i] < off[i] || on[i + 1] < off[i + 1] || on[i + 2] < off[i + 2]) {
            CHECK(!"diffusion darkened a pixel");
            break;
        }
    free(off);
    free(on);
}

/* Mean absolute error (x1000) of a W x H frame against a 4x-size one box-filtered down. */
static long error_vs_reference(const uint8_t *img, const uint8_t *ref4)
{
    long err = 0;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            for (int c = 0; c < 3; c++) {
                int s = 0;
                for (int j = 0; j < 4; j++)
                    for (int i = 0; i < 4; i++)
                        s += px(ref4, W * 4, x * 4 + i, y * 4 + j)[c];
                err += labs((long)img[((size_t)y * W + (size_t)x) * 4 + (size_t)c] * 16 - s);
            }
    return err * 1000 / (16L * W * H * 3);
}

TEST(ssaa_and_fxaa_approach_the_reference)
{
    static scene_model s;
    face_scene(&s);
    shot sh = face_shot(&s, NULL);
    sh.samples = 1;
    /* GL's pixel centres: MMD's half-pixel move is half an output pixel for the SSAA
     * renders but half a reference pixel for the 4x reference, which is not their point */
    sh.gl_pixel_centres = true;
    mmd_effects e;
    mmd_effects_default(&e);
    char ver[256];
    uint8_t *aliased = render(&sh, &e, ver, sizeof ver);
    e.fxaa = true;
    uint8_t *fxaa = render(&sh, &e, NULL, 0);
    e.fxaa = false;
    e.ssaa = 2;
    uint8_t *ss2 = render(&sh, &e, NULL, 0);
    e.ssaa = 4;
    uint8_t *ss4 = render(&sh, &e, NULL, 0);
    mmd_effects_default(&e);
    sh.w = W * 4;
    sh.h = H * 4;
    uint8_t *ref = render(&sh, &e, NULL, 0);
    REQUIRE(aliased && fxaa && ss2 && ss4 && ref);
    golden_check("fx_aa_off", aliased, W, H, ver);
    golden_check("fx_ssaa2", ss2, W, H, ver);
    golden_check("fx_fxaa", fxaa, W, H, ver);
    long ea = error_vs_reference(aliased, ref), ef = error_vs_reference(fxaa, ref),
         e2 = error_vs_reference(ss2, ref), e4 = error_vs_reference(ss4, ref);
    printf("#   mean error vs 4x reference (1/1000 of a level): none %ld, fxaa %ld, ssaa2 %ld, ssaa4 %ld\n", ea, ef,
           e2, e4);
    CHECK(e2 < ea * 2 / 3);
    CHECK(e4 < e2);
    CHECK(e4 <= 500); /* the same 4x image filtered on the GPU: rounding only */
    CHECK(ef < ea);
    free(aliased);
    free(fxaa);
    free(ss2);
    free(ss4);
    free(ref);
}

/* ---------------------------------------------------------------- determinism, off */

TEST(effects_deterministic_across_threads)
{
    static scene_model s;
    glow_scene(&s);
    shot sh = glow_shot(&s);
    mmd_shadow_state st = {1, 0.01125f};
    sh.shadow = &st;
    mmd_effects e;
    mmd_effects_default(&e);
    e.glow = e.diffusion = e.fxaa = e.soft_shadow = true;
    e.ssaa = 2;
    sh.threads = 1;
    uint8_t *a = render(&sh, &e, NULL, 0);
    sh.threads = 3;
    uint8_t *b = render(&sh, &e, NULL, 0);
    uint8_t *c = render(&sh, &e, NULL, 0);
    REQUIRE(a && b && c);
    CHECK(memcmp(a, b, (size_t)W * H * 4) == 0);
    CHECK(memcmp(b, c, (size_t)W * H * 4) == 0);
    free(a);
    free(b);
    free(c);
}

TEST(effects_off_is_the_plain_frame)
{
    /* explicit defaults and zero-valued options other than the switches render
     * the bytes of a renderer that never heard of effects */
    static scene_model s;
    face_scene(&s);
    mmd_shadow_state st = {1, 0.01125f};
    shot sh = face_shot(&s, &st);
    uint8_t *a = render(&sh, NULL, NULL, 0);
    mmd_effects e;
    mmd_effects_default(&e);
    e.glow_strength = 3;
    e.soft_shadow_radius = 5;
    e.diffusion_threshold = 0.1f;
    uint8_t *b = render(&sh, &e, NULL, 0);
    REQUIRE(a && b);
    CHECK(memcmp(a, b, (size_t)W * H * 4) == 0);
    free(a);
    free(b);
}

TEST(bad_effect_options)
{
    mmd_render_options o;
    mmd_render_options_default(&o);
    o.width = 8192;
    o.height = 64;
    o.effects.ssaa = 3;
    mmd_renderer *r = NULL;
    mmd_error err;
    CHECK(mmd_renderer_create(&o, &r, &err) != MMD_OK);
    CHECK(strstr(err.msg, "ssaa") != NULL);
    o.width = 64;
    o.effects.ssaa = 5;
    CHECK(mmd_renderer_create(&o, &r, &err) != MMD_OK);
    o.effects.ssaa = 1;
    o.effects.glow_radius = NAN;
    CHECK(mmd_renderer_create(&o, &r, &err) != MMD_OK);
    CHECK(r == NULL);
}

int main(int argc, char **argv)
{
    (void)argc;
    golden_init(argv[0]);
    RUN(glow_marked_material_only);
    RUN(glow_light_off_morph);
    RUN(glow_vertex_marks);
    RUN(soft_shadow_face);
    RUN(soft_shadow_penumbra_attached);
    RUN(soft_shadow_gene);
    RUN(diffusion_blooms_bright_parts);
    RUN(ssaa_and_fxaa_approach_the_reference);
    RUN(effects_deterministic_across_threads);
    RUN(effects_off_is_the_plain_frame);
    RUN(bad_effect_options);
    return test_finish();
}
