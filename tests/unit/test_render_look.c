/* tests/unit/test_render_look.c - MMD's per-model display switches and the
 * project-wide appearance a .pmm carries (issue 16): edge width, add-blend,
 * self-shadow off, ground-shadow brightness and translucency, the background
 * image. Goldens tests/golden/look_*.png (looked at; tests/golden/README.md),
 * and the pixel values each switch must give. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cglm/cglm.h>

#include "core/model.h"
#include "core/pmx_write.h"
#include "renderer/gl/render.h"
#include "tests/unit/render_golden.h"
#include "tests/util/test.h"

TEST_STATE_DEFINE

const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void) { return "leak:libOSMesa.so\n"; }

#define W 160
#define H 120

static char g_assets[1100];

/* A box centred at (cx, h, cz) with half sizes (hx, h, hz) resting on y = 0
 * (floor: a flat slab at y = 0), corner normals (one closed hull for edges),
 * faces clockwise from outside, edge size 10 and every shadow flag. */
static mmd_model *box_model(float cx, float cz, float hx, float h, float hz, float r, float g, float b)
{
    mmd_model *m = mmd_model_new();
    mmd_bone *bone = mmd_model_add_bones(m, 1);
    bone->name = mmd_model_str(m, "root");
    mmd_vertex *v = mmd_model_add_vertices(m, 8);
    uint32_t *ix = mmd_model_add_indices(m, 36);
    mmd_material *mt = mmd_model_add_materials(m, 1);
    for (int i = 0; i < 8; i++) {
        float sx = (i & 1) ? 1.0f : -1.0f, sy = (i & 2) ? 1.0f : -1.0f, sz = (i & 4) ? 1.0f : -1.0f;
        v[i].position[0] = cx + sx * hx;
        v[i].position[1] = h + sy * h;
        v[i].position[2] = cz + sz * hz;
        float l = sqrtf(3.0f);
        v[i].normal[0] = sx / l, v[i].normal[1] = sy / l, v[i].normal[2] = sz / l;
        v[i].edge_scale = 1;
    }
    /* quads (a, b, c, d) clockwise seen from outside (LH, D3D) */
    static const uint32_t q[6][4] = {{0, 2, 3, 1}, {5, 7, 6, 4}, {4, 6, 2, 0}, {1, 3, 7, 5}, {2, 6, 7, 3}, {4, 0, 1, 5}};
    for (int f = 0; f < 6; f++) {
        const uint32_t t[6] = {q[f][0], q[f][1], q[f][2], q[f][0], q[f][2], q[f][3]};
        memcpy(ix + f * 6, t, sizeof t);
    }
    mt->diffuse[0] = r, mt->diffuse[1] = g, mt->diffuse[2] = b, mt->diffuse[3] = 1;
    mt->ambient[0] = r * 0.5f, mt->ambient[1] = g * 0.5f, mt->ambient[2] = b * 0.5f;
    mt->edge_color[3] = 1;
    mt->edge_size = 10;
    mt->flags = MMD_MAT_EDGE | MMD_MAT_GROUND_SHADOW | MMD_MAT_CAST_SHADOW | MMD_MAT_RECEIVE_SHADOW;
    mt->index_count = 36;
    mt->toon_shared = true; /* toon01: MMD's self-shadow darkens by the toon's shadow row */
    mt->toon = 0;
    mmd_error err;
    if (mmd_model_validate(m, &err) != MMD_OK)
        printf("#   validate: %s\n", err.msg);
    return m;
}

typedef struct look_scene {
    mmd_model *models[3];
    mmd_model_look looks[3];
    int count;
    bool ground;
    float brightness;
    bool translucent;
    bool dark; /* a dark blue-grey background instead of white */
    const float *pmd_edge; /* the project's edge colour for PMD models, NULL none */
    const mmd_shadow_state *shadow;
    const char *background; /* file in g_assets, NULL none */
    int bg_offset[2];
    float bg_scale;
} look_scene;

static void scene_init(look_scene *s)
{
    memset(s, 0, sizeof *s);
    for (int i = 0; i < 3; i++)
        s->looks[i] = mmd_model_look_default();
    s->brightness = 1;
    s->bg_scale = 1;
}

static void scene_free(look_scene *s)
{
    for (int i = 0; i < s->count; i++)
        mmd_model_free(s->models[i]);
}

static int render(const look_scene *s, uint8_t *rgba, char *glver, size_t glver_size)
{
    mmd_render_options o;
    mmd_render_options_default(&o);
    o.width = W;
    o.height = H;
    o.threads = 2;
    o.shadow_map_size = 1024;
    o.ground_shadow = s->ground;
    o.ground_shadow_brightness = s->brightness;
    o.ground_shadow_translucent = s->translucent;
    if (s->pmd_edge) {
        o.pmd_edge_color_set = true;
        memcpy(o.pmd_edge_color, s->pmd_edge, sizeof o.pmd_edge_color);
    }
    if (s->dark)
        o.background[0] = 0.1f, o.background[1] = 0.12f, o.background[2] = 0.2f;
    mmd_renderer *r = NULL;
    mmd_error err;
    if (mmd_renderer_create(&o, &r, &err) != MMD_OK) {
        printf("#   renderer: %s\n", err.msg);
        return -1;
    }
    snprintf(glver, glver_size, "%s", mmd_renderer_gl_version(r));
    mmd_render_instance in[3];
    memset(in, 0, sizeof in);
    static float pos[3][8 * 3], nrm[3][8 * 3];
    int rc = 0;
    for (int i = 0; i < s->count && !rc; i++) {
        const mmd_model *m = s->models[i];
        rc = mmd_renderer_add_model(r, m, g_assets, &err) != MMD_OK;
        mmd_renderer_set_look(r, (size_t)i, &s->looks[i]);
        for (uint32_t k = 0; k < m->vertex_count; k++) {
            memcpy(pos[i] + k * 3, m->vertices[k].position, 12);
            memcpy(nrm[i] + k * 3, m->vertices[k].normal, 12);
        }
        in[i].positions = pos[i];
        in[i].normals = nrm[i];
        in[i].edge_origin[1] = 5;
    }
    if (!rc && s->background) {
        char p[1200];
        snprintf(p, sizeof p, "%s/%s", g_assets, s->background);
        rc = mmd_renderer_set_background(r, p, s->bg_offset, s->bg_scale, &err) != MMD_OK;
    }
    mmd_render_view v;
    golden_view(&v, W, H);
    if (!rc)
        rc = mmd_renderer_draw(r, in, (size_t)s->count, &v, NULL, s->shadow, rgba, &err) != MMD_OK;
    if (rc)
        printf("#   %s\n", err.msg);
    mmd_renderer_free(r);
    return rc;
}

static uint8_t *golden(const char *name, const look_scene *s)
{
    uint8_t *rgba = malloc((size_t)W * H * 4);
    char glver[128];
    if (render(s, rgba, glver, sizeof glver) != 0) {
        CHECK(!"render");
        return rgba;
    }
    if (name)
        golden_check(name, rgba, W, H, glver);
    return rgba;
}

static const uint8_t *px(const uint8_t *rgba, int x, int y) { return rgba + ((size_t)y * W + (size_t)x) * 4; }

static long differing(const uint8_t *a, const uint8_t *b)
{
    long n = 0;
    for (size_t i = 0; i < (size_t)W * H; i++)
        n += memcmp(a + i * 4, b + i * 4, 4) != 0;
    return n;
}

TEST(edge_width)
{
    look_scene s;
    scene_init(&s);
    s.models[0] = box_model(0, 0, 5, 5, 5, 0.8f, 0.5f, 0.3f);
    s.count = 1;
    s.looks[0].edge_width = 0;
    uint8_t *none = golden("look_edge_0", &s);
    s.looks[0].edge_width = 1;
    uint8_t *one = golden(NULL, &s);
    s.looks[0].edge_width = 2;
    uint8_t *two = golden("look_edge_2", &s);
    /* the hull is black: every pixel a wider edge covers is darker or the same */
    long d01 = differing(none, one), d12 = differing(one, two);
    printf("#   pixels changed: width 0 -> 1 %ld, 1 -> 2 %ld\n", d01, d12);
    CHECK(d01 > 50 && d12 > 50);
    long darker = 0;
    for (size_t i = 0; i < (size_t)W * H; i++)
        darker += two[i * 4] + two[i * 4 + 1] + two[i * 4 + 2] < none[i * 4] + none[i * 4 + 1] + none[i * 4 + 2];
    CHECK(darker >= d01);
    /* width 0 is exactly the model drawn with its edge flag off */
    s.models[0]->materials[0].flags &= (uint8_t)~MMD_MAT_EDGE;
    s.looks[0].edge_width = 1;
    uint8_t *flagless = golden(NULL, &s);
    CHECK(memcmp(flagless, none, (size_t)W * H * 4) == 0);
    free(none);
    free(one);
    free(two);
    free(flagless);
    scene_free(&s);
}

TEST(pmd_edge_color)
{
    /* the project's edge colour paints PMD edges; a PMX keeps its material's */
    look_scene s;
    scene_init(&s);
    s.models[0] = box_model(0, 0, 5, 5, 5, 0.8f, 0.5f, 0.3f);
    s.count = 1;
    s.looks[0].edge_width = 2;
    static const float red[3] = {1, 0, 0};
    s.pmd_edge = red;
    uint8_t *pmx = golden(NULL, &s);
    s.models[0]->format = MMD_FORMAT_PMD;
    uint8_t *pmd = golden("look_edge_pmd_red", &s);
    s.pmd_edge = NULL;
    uint8_t *black = golden(NULL, &s);
    long reds = 0;
    for (size_t i = 0; i < (size_t)W * H; i++)
        reds += pmd[i * 4] > 200 && pmd[i * 4 + 1] < 40 && pmd[i * 4 + 2] < 40;
    printf("#   PMD edge pixels in the project's red: %ld\n", reds);
    CHECK(reds > 300);
    CHECK(memcmp(pmx, black, (size_t)W * H * 4) == 0); /* PMX: untouched; PMD without the key: black */
    free(pmx);
    free(pmd);
    free(black);
    scene_free(&s);
}

TEST(add_blend)
{
    /* a red box behind a blue one; added, the blue box shows the red through it */
    look_scene s;
    scene_init(&s);
    s.models[0] = box_model(4, 8, 4, 5, 4, 0.9f, 0.15f, 0.1f);
    s.models[1] = box_model(-3, -4, 4, 4, 4, 0.1f, 0.2f, 0.8f);
    s.count = 2;
    s.dark = true; /* over white an added colour is white */
    uint8_t *plain = golden(NULL, &s);
    s.looks[1].add_blend = true;
    uint8_t *add = golden("look_add_blend", &s);
    long brighter = 0, changed = differing(plain, add);
    for (size_t i = 0; i < (size_t)W * H; i++)
        brighter += add[i * 4] > plain[i * 4];
    printf("#   add-blend: %ld pixels changed, %ld with more red\n", changed, brighter);
    CHECK(changed > 500 && brighter > 500);
    free(plain);
    free(add);
    scene_free(&s);
}

TEST(self_shadow_off)
{
    /* a floor slab and a box floating over it; self-shadow mode 1 */
    look_scene s;
    scene_init(&s);
    s.models[0] = box_model(0, 0, 30, 0.05f, 30, 0.5f, 0.7f, 0.5f);
    s.models[1] = box_model(0, 0, 4, 4, 4, 0.8f, 0.8f, 0.8f);
    for (uint32_t k = 0; k < 8; k++)
        s.models[1]->vertices[k].position[1] += 6;
    s.models[0]->materials[0].flags &= (uint8_t)~MMD_MAT_EDGE;
    s.models[1]->materials[0].flags &= (uint8_t)~MMD_MAT_EDGE;
    s.count = 2;
    mmd_shadow_state sh = {1, 0.01125f};
    s.shadow = &sh;
    uint8_t *on = golden("look_self_shadow_on", &s);
    s.looks[1].self_shadow = false; /* the box casts nothing */
    uint8_t *off = golden("look_self_shadow_off", &s);
    s.looks[1].self_shadow = true;
    s.looks[0].self_shadow = false; /* the floor receives nothing */
    uint8_t *floor_off = golden(NULL, &s);
    /* the box's shadow on the floor: (50, 76) in this view */
    const uint8_t *a = px(on, 50, 76), *b = px(off, 50, 76), *c = px(floor_off, 50, 76);
    printf("#   floor under the box: shadow on %d %d %d, caster off %d %d %d, receiver off %d %d %d\n", a[0], a[1],
           a[2], b[0], b[1], b[2], c[0], c[1], c[2]);
    CHECK(a[1] + 20 < b[1] && a[1] + 20 < c[1]);
    CHECK(differing(off, floor_off) > 0); /* the box still receives its own shadow in one of them */
    free(on);
    free(off);
    free(floor_off);
    scene_free(&s);
}

/* MMD culls the casters of its self-shadow map as it draws them (issue 25, checked on its frames of
 * a room whose ceiling the light sees from behind): one face of the floating box, alone over the
 * floor, casts when it faces the light or is double-sided, and not when it faces away. */
TEST(self_shadow_casters_culled)
{
    look_scene s;
    scene_init(&s);
    s.models[0] = box_model(0, 0, 30, 0.05f, 30, 0.5f, 0.7f, 0.5f);
    s.models[1] = box_model(0, 0, 4, 4, 4, 0.8f, 0.8f, 0.8f);
    mmd_model *q = s.models[1];
    for (uint32_t k = 0; k < 8; k++)
        q->vertices[k].position[1] += 6;
    s.models[0]->materials[0].flags &= (uint8_t)~MMD_MAT_EDGE;
    q->materials[0].flags &= (uint8_t)~(MMD_MAT_EDGE | MMD_MAT_RECEIVE_SHADOW);
    s.count = 2;
    mmd_shadow_state sh = {1, 0.01125f};
    s.shadow = &sh;
    uint32_t all[36];
    memcpy(all, q->indices, sizeof all);
    q->materials[0].index_count = q->index_count = 6;
    memcpy(q->indices, all + 30, 6 * sizeof *all); /* the bottom face: faces away from the light */
    uint8_t *away = golden(NULL, &s);
    q->materials[0].flags |= MMD_MAT_DOUBLE_SIDED;
    uint8_t *both = golden(NULL, &s);
    q->materials[0].flags &= (uint8_t)~MMD_MAT_DOUBLE_SIDED;
    memcpy(q->indices, all + 24, 6 * sizeof *all); /* the top face: faces the light */
    uint8_t *toward = golden(NULL, &s);
    const uint8_t *a = px(away, 50, 76), *b = px(both, 50, 76), *t = px(toward, 50, 76);
    printf("#   floor under one face: facing away %d %d %d, double-sided %d %d %d, facing the light %d %d %d\n",
           a[0], a[1], a[2], b[0], b[1], b[2], t[0], t[1], t[2]);
    CHECK(b[1] + 20 < a[1] && t[1] + 20 < a[1]);
    CHECK(abs(b[1] - t[1]) <= 2);
    free(away);
    free(both);
    free(toward);
    scene_free(&s);
}

TEST(ground_shadow_brightness_and_translucency)
{
    look_scene s;
    scene_init(&s);
    s.models[0] = box_model(0, 0, 5, 5, 5, 0.8f, 0.5f, 0.3f);
    s.models[0]->materials[0].flags &= (uint8_t)~MMD_MAT_EDGE;
    s.count = 1;
    s.ground = true;
    uint8_t *opaque = golden(NULL, &s);
    s.translucent = true;
    uint8_t *half = golden("look_ground_translucent", &s);
    s.translucent = false;
    s.brightness = 0.5f;
    uint8_t *dark = golden("look_ground_dark", &s);
    /* a ground-shadow pixel beside the box (light from (-0.5,-1,0.5): the
     * shadow falls to +x, -z): the light's 154 grey; translucent over white:
     * (154 + 255) / 2; brightness 0.5: 77 */
    int x = 0, y = 0;
    for (int yy = H - 3; yy > 2 && !x; yy--)
        for (int xx = W - 3; xx > 2 && !x; xx--)
            if (px(opaque, xx, yy)[0] == 154 && px(opaque, xx, yy)[2] == 154 && px(opaque, xx - 2, yy - 2)[0] == 154 &&
                px(opaque, xx + 2, yy + 2)[0] == 154 && px(opaque, xx - 2, yy + 2)[0] == 154 &&
                px(opaque, xx + 2, yy - 2)[0] == 154)
                x = xx, y = yy; /* inside the shadow, not at its rim */
    REQUIRE(x > 0);
    printf("#   ground shadow at (%d, %d): opaque %d, translucent %d, brightness 0.5 %d\n", x, y, px(opaque, x, y)[0],
           px(half, x, y)[0], px(dark, x, y)[0]);
    CHECK(abs(px(half, x, y)[0] - 205) <= 1);
    CHECK(abs(px(dark, x, y)[0] - 77) <= 1);
    free(opaque);
    free(half);
    free(dark);
    scene_free(&s);
}

/* 32x24 background: quadrants red, green / blue, yellow and a white cross. */
static void write_background(void)
{
    static const uint8_t quad[4][3] = {{220, 40, 40}, {40, 200, 40}, {40, 40, 220}, {220, 200, 40}};
    uint8_t img[32 * 24 * 4];
    for (int y = 0; y < 24; y++)
        for (int x = 0; x < 32; x++) {
            uint8_t *q = img + (y * 32 + x) * 4;
            bool cross = x == 15 || x == 16 || y == 11 || y == 12;
            const uint8_t *c = quad[(y >= 12) * 2 + (x >= 16)];
            for (int k = 0; k < 3; k++)
                q[k] = cross ? 255 : c[k];
            q[3] = 255;
        }
    char p[1200];
    snprintf(p, sizeof p, "%s/bg.png", g_assets);
    golden_write(p, img, 32, 24);
}

TEST(background_image)
{
    write_background();
    look_scene s;
    scene_init(&s);
    s.models[0] = box_model(0, 0, 5, 5, 5, 0.8f, 0.5f, 0.3f);
    s.count = 1;
    s.background = "bg.png";
    uint8_t *full = golden("look_background", &s);
    /* stretched over the frame: the corners show the image's corners */
    const uint8_t *tl = px(full, 2, 2), *br = px(full, W - 3, H - 3);
    printf("#   corners: top-left %d %d %d, bottom-right %d %d %d\n", tl[0], tl[1], tl[2], br[0], br[1], br[2]);
    CHECK(tl[0] > 200 && tl[1] < 60 && tl[2] < 60);   /* red */
    CHECK(br[0] > 200 && br[1] > 180 && br[2] < 60);  /* yellow */
    s.bg_offset[0] = 40, s.bg_offset[1] = 30;
    s.bg_scale = 0.5f;
    uint8_t *moved = golden("look_background_offset", &s);
    /* half size, its centre moved 40 px right and 30 down (x 80..160, y 60..120):
     * the frame's top-left stays white, (85, 115) is the image's blue quadrant */
    const uint8_t *corner = px(moved, 2, 2), *in = px(moved, 85, 115);
    CHECK(corner[0] == 255 && corner[1] == 255 && corner[2] == 255);
    CHECK(in[2] > 200 && in[0] < 60 && in[1] < 60);
    s.background = "missing.png"; /* warns once, renders without it */
    s.bg_offset[0] = s.bg_offset[1] = 0;
    s.bg_scale = 1;
    uint8_t *missing = golden(NULL, &s);
    s.background = NULL;
    uint8_t *none = golden(NULL, &s);
    CHECK(memcmp(missing, none, (size_t)W * H * 4) == 0);
    free(full);
    free(moved);
    free(missing);
    free(none);
    scene_free(&s);
}

int main(int argc, char **argv)
{
    (void)argc;
    golden_init(argv[0]);
    snprintf(g_assets, sizeof g_assets, "%s/look_assets", g_out);
    mkdir(g_assets, 0777);
    RUN(edge_width);
    RUN(pmd_edge_color);
    RUN(add_blend);
    RUN(self_shadow_off);
    RUN(self_shadow_casters_culled);
    RUN(ground_shadow_brightness_and_translucency);
    RUN(background_image);
    return test_finish();
}
