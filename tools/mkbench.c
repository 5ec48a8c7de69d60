/* tools/mkbench.c - the bench scene of issue 17: a textured room stage and a
 * dancer of a real MMD model's size, made by our own code (no licensed data).
 *
 *     build/tools/mkdemo DIR && build/tools/mkbench DIR
 *
 * Reads DIR/character.pmx (mkdemo's character) and writes into DIR:
 *  - stage.pmd: a room (floor, four walls, ceiling, rug, pillars, tables,
 *    sofas, shelves, pictures, windows with alpha, lamps): 12 textures
 *    (1024 px walls and floor), about 3.2k faces covering the whole frame;
 *  - dancer.pmx: the character grown to ~26k vertices, ~41k faces, 30
 *    materials, 8k SDEF vertices and 107 rigid bodies: every material split in
 *    two, a lace over-layer (alpha texture) on every part, and 8 physics
 *    hair chains of alpha-textured cards (9 bodies each);
 *  - dancer_x<dx>.pmx: the dancer moved along X (for 2 and 4 dancers);
 *  - bench.ini, bench2.ini, bench4.ini: the stage, 1/2/4 dancers, the demo
 *    dance and camera (dance.vmd, camera.vmd from mkdemo).
 * Deterministic: the same bytes every run.
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/model.h"
#include "core/pmx_write.h"
#include "renderer/image/png.h"
#include "tests/util/hash.h"
#include "tests/util/pmd_writer.h"

#define PI 3.14159265358979323846

static int save_png(const char *dir, const char *name, const uint8_t *px, int w, int h, bool alpha)
{
    char path[1024];
    mmd_error err;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if (mmd_png_write_file(path, px, w, h, (size_t)w * 4, alpha, -1, &err) != MMD_OK) {
        fprintf(stderr, "mkbench: %s\n", err.msg);
        return -1;
    }
    return 0;
}

static int save_file(const char *dir, const char *name, const void *data, size_t n)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    bool ok = f && fwrite(data, 1, n, f) == n;
    if (f && fclose(f) != 0)
        ok = false;
    if (!ok)
        fprintf(stderr, "mkbench: cannot write %s: %s\n", path, strerror(errno));
    return ok ? 0 : -1;
}

/* ---- textures: kind picks the pattern, base the colour --------------------- */

enum { TX_PLANKS, TX_PLASTER, TX_STRIPES, TX_TILES, TX_NOISE, TX_WEAVE, TX_PAINTING, TX_GLASS, TX_LACE, TX_CARD };

static void texel(int kind, const uint8_t base[3], int x, int y, int n, uint8_t out[4])
{
    uint32_t h = mmd_hash32((uint32_t)(y * n + x) * 2654435761u + (uint32_t)kind);
    int v = (int)(h % 17) - 8, a = 255;
    switch (kind) {
    case TX_PLANKS: { /* boards 1/8 wide, staggered joints, grain along y */
        int board = x / (n / 8), off = (int)(mmd_hash32((uint32_t)board) % (uint32_t)n);
        bool joint = x % (n / 8) < 2 || (y + off) % (n / 2) < 2;
        v += (int)(mmd_hash32((uint32_t)board * 977u) % 30) - 15 + (int)(8 * sin((double)x * 0.9 + board));
        if (joint)
            v -= 60;
        break;
    }
    case TX_PLASTER: v += (int)(mmd_hash32((uint32_t)(x / 4 + (y / 4) * n)) % 9); break;
    case TX_STRIPES: v += (x / (n / 16)) % 2 ? 18 : -6; break;
    case TX_TILES: v += (x % (n / 8) < 3 || y % (n / 8) < 3) ? -50 : ((x / (n / 8) + y / (n / 8)) % 2) * 20; break;
    case TX_NOISE: v += (int)(20 * sin(x * 0.05 + 3 * sin(y * 0.03))); break;
    case TX_WEAVE: v += ((x / 3 + y / 3) % 2) ? 12 : -12; break;
    case TX_PAINTING: { /* hills under a sky, a frame at the border */
        double hill = n * (0.55 + 0.1 * sin(x * 0.02) + 0.05 * sin(x * 0.07));
        bool frame = x < n / 16 || y < n / 16 || x >= n - n / 16 || y >= n - n / 16;
        int r = frame ? 120 : y > hill ? 60 : 150, g = frame ? 90 : y > hill ? 140 : 190,
            b = frame ? 40 : y > hill ? 60 : 235;
        out[0] = (uint8_t)(r + v), out[1] = (uint8_t)(g + v), out[2] = (uint8_t)(b + v), out[3] = 255;
        return;
    }
    case TX_GLASS: { /* panes: frame bars opaque, glass 35% */
        bool bar = x % (n / 2) < n / 20 || y % (n / 2) < n / 20 || x > n - n / 20 || y > n - n / 20;
        a = bar ? 255 : 90;
        v = bar ? -40 : v;
        break;
    }
    case TX_LACE: { /* large round holes on a grid */
        int cx = x % 32 - 16, cy = y % 32 - 16;
        a = cx * cx + cy * cy < 180 ? 0 : 200; /* a thin web */
        break;
    }
    case TX_CARD: { /* hair strands: alpha fades to the tip (v = y) and between strands */
        int strand = (int)(mmd_hash32((uint32_t)x / 3u) % 60);
        a = (int)(255.0 * (1.0 - pow((double)y / n, 3))) - strand;
        a = a < 0 ? 0 : a;
        v -= strand / 3;
        break;
    }
    default: break;
    }
    for (int c = 0; c < 3; c++) {
        int q = base[c] + v;
        out[c] = (uint8_t)(q < 0 ? 0 : q > 255 ? 255 : q);
    }
    out[3] = (uint8_t)a;
}

static int make_texture(const char *dir, const char *name, int kind, int n, uint8_t r, uint8_t g, uint8_t b)
{
    uint8_t *px = malloc((size_t)n * (size_t)n * 4);
    if (!px)
        return -1;
    const uint8_t base[3] = {r, g, b};
    bool alpha = kind == TX_GLASS || kind == TX_LACE || kind == TX_CARD;
    for (int y = 0; y < n; y++)
        for (int x = 0; x < n; x++)
            texel(kind, base, x, y, n, px + ((size_t)y * (size_t)n + (size_t)x) * 4);
    int rc = save_png(dir, name, px, n, n, alpha);
    free(px);
    return rc;
}

/* ---- the stage (PMD) ------------------------------------------------------- */

typedef struct svtx {
    float pos[3], nrm[3], uv[2];
} svtx;

typedef struct stage {
    svtx v[8192];
    uint16_t idx[24576];
    uint32_t nv, ni;
    uint32_t mat_first[16]; /* first index of each material */
    int nmat;
} stage;

static void st_material(stage *s) { s->mat_first[s->nmat++] = s->ni; }

static uint16_t st_v(stage *s, const float p[3], const float n[3], float u, float v)
{
    svtx *x = &s->v[s->nv];
    memcpy(x->pos, p, sizeof x->pos);
    memcpy(x->nrm, n, sizeof x->nrm);
    x->uv[0] = u;
    x->uv[1] = v;
    return (uint16_t)s->nv++;
}

/* Triangle a b c facing n (MMD winding: cross(b - a, c - a) along the normal). */
static void st_tri(stage *s, uint16_t a, uint16_t b, uint16_t c, const float n[3])
{
    const float *pa = s->v[a].pos, *pb = s->v[b].pos, *pc = s->v[c].pos;
    float e1[3] = {pb[0] - pa[0], pb[1] - pa[1], pb[2] - pa[2]}, e2[3] = {pc[0] - pa[0], pc[1] - pa[1], pc[2] - pa[2]};
    float cr[3] = {e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]};
    bool flip = cr[0] * n[0] + cr[1] * n[1] + cr[2] * n[2] < 0;
    s->idx[s->ni++] = a;
    s->idx[s->ni++] = flip ? c : b;
    s->idx[s->ni++] = flip ? b : c;
}

/* nu x nv quads from o along eu and ev (whole edges), facing n; uv repeats `rep` times. */
static void st_grid(stage *s, const float o[3], const float eu[3], const float ev[3], int nu, int nv,
                    const float n[3], float rep)
{
    uint16_t first = (uint16_t)s->nv;
    for (int j = 0; j <= nv; j++)
        for (int i = 0; i <= nu; i++) {
            float fu = (float)i / (float)nu, fv = (float)j / (float)nv, p[3];
            for (int k = 0; k < 3; k++)
                p[k] = o[k] + eu[k] * fu + ev[k] * fv;
            st_v(s, p, n, fu * rep, fv * rep);
        }
    for (int j = 0; j < nv; j++)
        for (int i = 0; i < nu; i++) {
            uint16_t a = (uint16_t)(first + j * (nu + 1) + i), b = (uint16_t)(a + 1), c = (uint16_t)(a + nu + 1),
                     d = (uint16_t)(c + 1);
            st_tri(s, a, b, c, n);
            st_tri(s, b, d, c, n);
        }
}

/* Axis-aligned box centred at (x, y0 + h/2, z), one quad per side. */
static void st_box(stage *s, float x, float y0, float z, float w, float h, float d)
{
    float lo[3] = {x - w / 2, y0, z - d / 2};
    for (int axis = 0; axis < 3; axis++)
        for (int side = 0; side < 2; side++) {
            float o[3] = {lo[0], lo[1], lo[2]}, eu[3] = {0, 0, 0}, ev[3] = {0, 0, 0}, n[3] = {0, 0, 0};
            const float size[3] = {w, h, d};
            int a1 = (axis + 1) % 3, a2 = (axis + 2) % 3;
            o[axis] += side ? size[axis] : 0;
            eu[a1] = size[a1];
            ev[a2] = size[a2];
            n[axis] = side ? 1.0f : -1.0f;
            st_grid(s, o, eu, ev, 1, 1, n, 1);
        }
}

/* Vertical cylinder with caps: seg sides, radius r, from y0 to y1. */
static void st_cylinder(stage *s, float x, float z, float r, float y0, float y1, int seg)
{
    for (int i = 0; i < seg; i++) {
        double a0 = 2 * PI * i / seg, a1 = 2 * PI * (i + 1) / seg, am = (a0 + a1) / 2;
        float n[3] = {(float)cos(am), 0, (float)sin(am)};
        float p00[3] = {x + r * (float)cos(a0), y0, z + r * (float)sin(a0)};
        float p10[3] = {x + r * (float)cos(a1), y0, z + r * (float)sin(a1)};
        float eu[3] = {p10[0] - p00[0], 0, p10[2] - p00[2]}, ev[3] = {0, y1 - y0, 0};
        st_grid(s, p00, eu, ev, 1, 1, n, 1);
        for (int cap = 0; cap < 2; cap++) {
            float cn[3] = {0, cap ? 1.0f : -1.0f, 0}, y = cap ? y1 : y0;
            float c[3] = {x, y, z}, q0[3] = {p00[0], y, p00[2]}, q1[3] = {p10[0], y, p10[2]};
            uint16_t ic = st_v(s, c, cn, 0.5f, 0.5f), i0 = st_v(s, q0, cn, 0, 0), i1 = st_v(s, q1, cn, 1, 0);
            st_tri(s, ic, i0, i1, cn);
        }
    }
}

static const struct {
    const char *tex;
    int kind, size;
    uint8_t rgb[3];
    float alpha;
} k_stage_mats[12] = {
    {"floor.png", TX_PLANKS, 1024, {150, 105, 70}, 1},  {"rug.png", TX_WEAVE, 512, {150, 40, 50}, 1},
    {"wall_a.png", TX_PLASTER, 1024, {225, 215, 195}, 1}, {"wall_b.png", TX_STRIPES, 1024, {190, 205, 215}, 1},
    {"ceiling.png", TX_TILES, 512, {235, 235, 230}, 1},  {"marble.png", TX_NOISE, 512, {220, 220, 225}, 1},
    {"table.png", TX_PLANKS, 512, {90, 60, 40}, 1},     {"sofa.png", TX_WEAVE, 512, {60, 90, 130}, 1},
    {"shelf.png", TX_PLANKS, 512, {170, 140, 100}, 1},  {"painting.png", TX_PAINTING, 512, {0, 0, 0}, 1},
    {"window.png", TX_GLASS, 512, {200, 230, 255}, 1},  {"lamp.png", TX_NOISE, 256, {250, 240, 200}, 1},
};

enum { ROOM = 80, ROOM_H = 60 }; /* half width and height, MMD units */

static void stage_geometry(stage *s)
{
    const float up[3] = {0, 1, 0}, down[3] = {0, -1, 0};
    st_material(s); /* floor */
    st_grid(s, (const float[3]){-ROOM, 0, -ROOM}, (const float[3]){2 * ROOM, 0, 0}, (const float[3]){0, 0, 2 * ROOM},
            24, 24, up, 8);
    st_material(s); /* rug */
    st_grid(s, (const float[3]){-25, 0.02f, -18}, (const float[3]){50, 0, 0}, (const float[3]){0, 0, 36}, 4, 4, up, 2);
    st_material(s); /* walls along X (front and back) */
    for (int side = -1; side <= 1; side += 2) {
        float n[3] = {0, 0, (float)-side};
        st_grid(s, (const float[3]){-ROOM, 0, (float)(side * ROOM)}, (const float[3]){2 * ROOM, 0, 0},
                (const float[3]){0, ROOM_H, 0}, 16, 8, n, 4);
    }
    st_material(s); /* walls along Z (left and right) */
    for (int side = -1; side <= 1; side += 2) {
        float n[3] = {(float)-side, 0, 0};
        st_grid(s, (const float[3]){(float)(side * ROOM), 0, -ROOM}, (const float[3]){0, 0, 2 * ROOM},
                (const float[3]){0, ROOM_H, 0}, 16, 8, n, 4);
    }
    st_material(s); /* ceiling */
    st_grid(s, (const float[3]){-ROOM, ROOM_H, -ROOM}, (const float[3]){2 * ROOM, 0, 0},
            (const float[3]){0, 0, 2 * ROOM}, 12, 12, down, 6);
    st_material(s); /* pillars */
    for (int k = 0; k < 4; k++)
        st_cylinder(s, k % 2 ? 55.0f : -55.0f, k / 2 ? 55.0f : -55.0f, 2.5f, 0, ROOM_H, 24);
    st_material(s); /* two tables: a top and four legs */
    for (int t = 0; t < 2; t++) {
        float x = t ? 62.0f : -62.0f, z = 20;
        st_box(s, x, 5.5f, z, 10, 0.6f, 6);
        for (int l = 0; l < 4; l++)
            st_box(s, x + (l % 2 ? 4.4f : -4.4f), 0, z + (l / 2 ? 2.4f : -2.4f), 0.6f, 5.5f, 0.6f);
    }
    st_material(s); /* two sofas: seat, back, arms */
    for (int t = 0; t < 2; t++) {
        float x = t ? 66.0f : -66.0f, z = -15, sx = t ? 1.0f : -1.0f;
        st_box(s, x, 0, z, 8, 4, 16);
        st_box(s, x + sx * 5, 0, z, 2, 9, 16);
        st_box(s, x, 0, z - 8.5f, 8, 6, 1);
    }
    st_material(s); /* shelves on the back wall */
    st_box(s, -30, 0, 76, 16, 24, 5);
    st_box(s, 30, 0, 76, 16, 24, 5);
    st_material(s); /* pictures */
    for (int k = 0; k < 4; k++) {
        float x = k % 2 ? 79.8f : -79.8f, z = k / 2 ? 30.0f : -30.0f, n[3] = {x > 0 ? -1.0f : 1.0f, 0, 0};
        st_grid(s, (const float[3]){x, 22, z - 8}, (const float[3]){0, 0, 16}, (const float[3]){0, 12, 0}, 1, 1, n, 1);
    }
    st_material(s); /* windows on the back wall */
    for (int k = 0; k < 2; k++) {
        const float n[3] = {0, 0, -1};
        st_grid(s, (const float[3]){k ? 40.0f : -56.0f, 28, 79.8f}, (const float[3]){16, 0, 0},
                (const float[3]){0, 20, 0}, 1, 1, n, 1);
    }
    st_material(s); /* floor lamps */
    for (int k = 0; k < 2; k++) {
        float x = k ? 70.0f : -70.0f;
        st_cylinder(s, x, 60, 0.4f, 0, 14, 12);
        st_cylinder(s, x, 60, 2.5f, 14, 18, 12);
    }
}

static int make_stage(const char *dir)
{
    int rc = 0;
    for (int i = 0; i < 12; i++)
        rc |= make_texture(dir, k_stage_mats[i].tex, k_stage_mats[i].kind, k_stage_mats[i].size,
                           k_stage_mats[i].rgb[0], k_stage_mats[i].rgb[1], k_stage_mats[i].rgb[2]);
    stage *s = calloc(1, sizeof *s);
    if (!s)
        return -1;
    stage_geometry(s);
    tbuf b = {0};
    tb_bytes(&b, "Pmd", 3);
    tb_f32(&b, 1.0f);
    tb_sjis(&b, "ベンチ部屋", 20);
    tb_sjis(&b, "mmdrender tools/mkbench.c", 256);
    tb_u32(&b, s->nv);
    for (uint32_t i = 0; i < s->nv; i++) {
        tb_f32v(&b, s->v[i].pos, 3);
        tb_f32v(&b, s->v[i].nrm, 3);
        tb_f32v(&b, s->v[i].uv, 2);
        tb_u16(&b, 0);
        tb_u16(&b, 0);
        tb_u8(&b, 100);
        tb_u8(&b, 1); /* no edge */
    }
    tb_u32(&b, s->ni);
    for (uint32_t i = 0; i < s->ni; i++)
        tb_u16(&b, s->idx[i]);
    tb_u32(&b, (uint32_t)s->nmat);
    for (int i = 0; i < s->nmat; i++) {
        uint32_t end = i + 1 < s->nmat ? s->mat_first[i + 1] : s->ni;
        const float diffuse[4] = {0.8f, 0.8f, 0.8f, k_stage_mats[i].alpha}, spec[3] = {0.1f, 0.1f, 0.1f},
                    amb[3] = {0.5f, 0.5f, 0.5f};
        tb_f32v(&b, diffuse, 4);
        tb_f32(&b, 10);
        tb_f32v(&b, spec, 3);
        tb_f32v(&b, amb, 3);
        tb_u8(&b, 0xFF); /* no toon */
        tb_u8(&b, 0);    /* no edge, no ground shadow */
        tb_u32(&b, end - s->mat_first[i]);
        tb_sjis(&b, k_stage_mats[i].tex, 20);
    }
    tb_u16(&b, 1); /* bones: センター */
    tb_sjis(&b, "センター", 20);
    tb_u16(&b, 0xFFFF);
    tb_u16(&b, 0xFFFF);
    tb_u8(&b, 1);
    tb_u16(&b, 0);
    tb_f32v(&b, (const float[3]){0, 0, 0}, 3);
    tb_u16(&b, 0); /* IK */
    tb_u16(&b, 0); /* skins */
    tb_u8(&b, 0);  /* skin display list */
    tb_u8(&b, 0);  /* bone display names */
    tb_u32(&b, 0); /* bone display list */
    rc |= save_file(dir, "stage.pmd", b.p, b.n);
    printf("stage.pmd: %u vertices, %u faces, %d materials, 12 textures\n", s->nv, s->ni / 3, s->nmat);
    free(b.p);
    free(s);
    return rc;
}

/* ---- the dancer ------------------------------------------------------------ */

enum {
    CHAINS = 8,       /* hair chains, 9 rigid bodies each (+ 1 neck body = 73 added) */
    CHAIN_BONES = 9,  /* root (follows the head) + 8 physics segments */
    STRIPS = 43,      /* cards per chain */
    CARD_MATS = 6,
    SDEF_TARGET = 8000,
};

typedef struct grow_state {
    mmd_model *m;
    uint32_t v0, f0, b0, rb0, j0, mat0; /* counts of the source model */
    mmd_vertex *v;
    uint32_t *idx;
    uint32_t nv, ni;
} grow_state;

static void chain_point(int c, int k, float out[3])
{
    /* around the back of the head (phi 200..340 deg seen from above), hanging down and out */
    double phi = (200.0 + 140.0 * c / (CHAINS - 1)) * PI / 180.0, t = (double)k / (CHAIN_BONES - 1);
    double r = 1.8 + 1.2 * t;
    out[0] = (float)(r * cos(phi));
    out[1] = (float)(18.6 - 8.0 * t);
    out[2] = (float)(-r * sin(phi) + 0.3);
}

/* Cards of chain c into material slot mat: strip s is a ribbon down the chain. */
static void chain_cards(grow_state *g, int c, int s, int32_t first_bone)
{
    float ofs = ((float)s / STRIPS - 0.5f) * 1.6f;
    uint32_t base = g->nv;
    for (int k = 0; k < CHAIN_BONES; k++) {
        float p[3], tan[3];
        chain_point(c, k, p);
        double phi = atan2(-(p[2] - 0.3), p[0]);
        tan[0] = (float)-sin(phi), tan[1] = 0, tan[2] = (float)-cos(phi);
        for (int e = 0; e < 2; e++) {
            mmd_vertex *v = &g->v[g->nv++];
            memset(v, 0, sizeof *v);
            float w = ofs + (e ? 1.0f : -1.0f) * (1.6f / STRIPS); /* neighbours overlap twice, as hair cards do */
            float outw = 0.05f * (float)((s % 5) - 2);
            for (int i = 0; i < 3; i++)
                v->position[i] = p[i] + tan[i] * w;
            v->position[0] += (float)cos(phi) * outw;
            v->position[2] -= (float)sin(phi) * outw;
            v->normal[0] = (float)cos(phi), v->normal[2] = (float)-sin(phi);
            v->uv[0] = (float)e;
            v->uv[1] = (float)k / (CHAIN_BONES - 1);
            v->edge_scale = 1;
            v->bones[1] = v->bones[2] = v->bones[3] = -1;
            if (k == 0 || k == CHAIN_BONES - 1) {
                v->weight_type = MMD_WEIGHT_BDEF1;
                v->bones[0] = first_bone + (k == 0 ? 0 : k - 1);
                v->weights[0] = 1;
            } else { /* halfway between the segments that meet here */
                v->weight_type = MMD_WEIGHT_BDEF2;
                v->bones[0] = first_bone + k - 1;
                v->bones[1] = first_bone + k;
                v->weights[0] = v->weights[1] = 0.5f;
            }
        }
    }
    for (int k = 0; k + 1 < CHAIN_BONES; k++) {
        uint32_t i0 = base + 2 * (uint32_t)k, i1 = i0 + 1, j0 = i0 + 2, j1 = i0 + 3;
        uint32_t t[6] = {i0, j0, i1, i1, j0, j1};
        memcpy(g->idx + g->ni, t, sizeof t);
        g->ni += 6;
    }
}

/* Bones and bodies of the 8 chains, appended after the source's. */
static int add_chains(grow_state *g, int32_t head, int32_t neck)
{
    mmd_model *m = g->m;
    uint32_t nb = g->b0 + CHAINS * CHAIN_BONES, nrb = g->rb0 + CHAINS * CHAIN_BONES + 1,
             nj = g->j0 + CHAINS * (CHAIN_BONES - 1);
    mmd_bone *ob = m->bones;
    mmd_rigid_body *orb = m->rigid_bodies;
    mmd_joint *oj = m->joints;
    mmd_bone *bones = malloc(sizeof *bones * g->b0);
    mmd_rigid_body *rbs = malloc(sizeof *rbs * g->rb0);
    mmd_joint *js = malloc(sizeof *js * g->j0);
    if (!bones || !rbs || !js)
        return -1;
    memcpy(bones, ob, sizeof *bones * g->b0);
    memcpy(rbs, orb, sizeof *rbs * g->rb0);
    memcpy(js, oj, sizeof *js * g->j0);
    ob = mmd_model_add_bones(m, nb);
    orb = mmd_model_add_rigid_bodies(m, nrb);
    oj = mmd_model_add_joints(m, nj);
    if (!ob || !orb || !oj)
        return -1;
    memcpy(ob, bones, sizeof *bones * g->b0);
    memcpy(orb, rbs, sizeof *rbs * g->rb0);
    memcpy(oj, js, sizeof *js * g->j0);
    /* hair bodies take the group and mask of the source's first physics body (its hair) */
    uint8_t group = 1;
    uint16_t mask = 1;
    for (uint32_t i = 0; i < g->rb0; i++)
        if (rbs[i].mode == MMD_BODY_PHYSICS) {
            group = rbs[i].group, mask = rbs[i].no_collide_mask;
            break;
        }
    free(bones), free(rbs), free(js);
    char name[64];
    uint32_t rb = g->rb0, j = g->j0;
    for (int c = 0; c < CHAINS; c++)
        for (int k = 0; k < CHAIN_BONES; k++) {
            uint32_t bi = g->b0 + (uint32_t)(c * CHAIN_BONES + k);
            mmd_bone *b = &ob[bi];
            snprintf(name, sizeof name, "後髪%d_%d", c + 1, k);
            b->name = mmd_model_str(m, name);
            snprintf(name, sizeof name, "back hair %d_%d", c + 1, k);
            b->name_en = mmd_model_str(m, name);
            chain_point(c, k, b->position);
            b->parent = k ? (int32_t)bi - 1 : head;
            b->flags = MMD_BONE_ROTATABLE | MMD_BONE_VISIBLE | MMD_BONE_OPERABLE;
            b->tail_bone = -1;
            float nx[3];
            chain_point(c, k + 1, nx);
            for (int i = 0; i < 3; i++)
                b->tail_offset[i] = nx[i] - b->position[i];
            /* a capsule along the segment k -> k+1, hanging straight down (radius 0.35) */
            mmd_rigid_body *r = &orb[rb];
            r->name = b->name;
            r->name_en = b->name_en;
            r->bone = (int32_t)bi;
            r->group = group;
            r->no_collide_mask = mask;
            r->shape = MMD_SHAPE_CAPSULE;
            r->size[0] = 0.35f;
            r->size[1] = 0.4f;
            for (int i = 0; i < 3; i++)
                r->position[i] = (b->position[i] + nx[i]) / 2;
            r->mass = k ? 0.5f : 0;
            r->mode = k ? MMD_BODY_PHYSICS : MMD_BODY_FOLLOW_BONE;
            r->linear_damping = 0.5f;
            r->angular_damping = 0.9f;
            r->friction = 0.5f;
            if (k) {
                mmd_joint *jt = &oj[j++];
                jt->name = b->name;
                jt->name_en = b->name_en;
                jt->type = MMD_JOINT_SPRING_6DOF;
                jt->body_a = (int32_t)rb - 1;
                jt->body_b = (int32_t)rb;
                memcpy(jt->position, b->position, sizeof jt->position);
                for (int i = 0; i < 3; i++) {
                    jt->angular_lower[i] = i == 1 ? -0.05f : -0.2f;
                    jt->angular_upper[i] = i == 1 ? 0.05f : 0.2f;
                    jt->spring_angular[i] = 50;
                }
            }
            rb++;
        }
    /* a neck collider the chains fall against */
    mmd_rigid_body *r = &orb[rb];
    r->name = mmd_model_str(m, "首");
    r->name_en = mmd_model_str(m, "neck");
    r->bone = neck;
    r->group = 0;
    r->no_collide_mask = (uint16_t)~1u;
    r->shape = MMD_SHAPE_SPHERE;
    r->size[0] = 0.9f;
    r->position[1] = 15.6f;
    r->mode = MMD_BODY_FOLLOW_BONE;
    return 0;
}

/* SDEF centre of a two-bone vertex: the joint where the child's segment starts
 * (R0 = R1 = C, so the weighted mean of R0 and R1 is C as PMX editors keep it). */
static void sdef_from_bdef2(const mmd_model *m, mmd_vertex *v)
{
    const mmd_bone *b0 = &m->bones[v->bones[0]], *b1 = &m->bones[v->bones[1]];
    for (int i = 0; i < 3; i++) {
        float c = b1->parent == v->bones[0] ? b1->position[i]
                  : b0->parent == v->bones[1] ? b0->position[i]
                                              : v->weights[0] * b0->position[i] + v->weights[1] * b1->position[i];
        v->sdef_c[i] = v->sdef_r0[i] = v->sdef_r1[i] = c;
    }
    v->weight_type = MMD_WEIGHT_SDEF;
}

/* Materials: source i split in two (2i, 2i+1), its lace layer (2*mat0 + i), the card materials. */
static int grow_materials(grow_state *g, const uint32_t card_counts[CARD_MATS], int32_t lace, int32_t card)
{
    mmd_model *m = g->m;
    uint32_t n0 = g->mat0, n = 3 * n0 + CARD_MATS;
    mmd_material *src = malloc(sizeof *src * n0);
    if (!src)
        return -1;
    memcpy(src, m->materials, sizeof *src * n0);
    mmd_material *mt = mmd_model_add_materials(m, n);
    if (!mt) {
        free(src);
        return -1;
    }
    char name[128];
    int32_t hair_toon = src[0].toon;
    bool hair_shared = src[0].toon_shared;
    for (uint32_t i = 0; i < n0; i++) {
        uint32_t tris = src[i].index_count / 3;
        for (int h = 0; h < 2; h++) {
            mt[2 * i + (uint32_t)h] = src[i];
            snprintf(name, sizeof name, "%s%s", src[i].name, h ? "B" : "A");
            mt[2 * i + (uint32_t)h].name = mmd_model_str(m, name);
            mt[2 * i + (uint32_t)h].index_count = 3 * (h ? tris - tris / 2 : tris / 2);
        }
        mmd_material *l = &mt[2 * n0 + i];
        *l = src[i];
        snprintf(name, sizeof name, "%sレース", src[i].name);
        l->name = mmd_model_str(m, name);
        l->texture = lace;
        l->flags = (uint8_t)((l->flags & ~MMD_MAT_EDGE) | MMD_MAT_DOUBLE_SIDED);
        if (src[i].texture >= 0 && strstr(m->textures[src[i].texture], "hair")) {
            hair_toon = src[i].toon;
            hair_shared = src[i].toon_shared;
        }
    }
    static const float tint[CARD_MATS][3] = {{0.75f, 1, 1},    {0.7f, 0.95f, 0.95f}, {0.8f, 1, 0.95f},
                                              {0.7f, 0.9f, 1}, {0.78f, 1, 1},        {0.72f, 0.92f, 0.96f}};
    for (int q = 0; q < CARD_MATS; q++) {
        mmd_material *c = &mt[3 * n0 + (uint32_t)q];
        snprintf(name, sizeof name, "髪カード%d", q + 1);
        c->name = mmd_model_str(m, name);
        c->name_en = mmd_model_str(m, name);
        memcpy(c->diffuse, tint[q], sizeof tint[q]);
        c->diffuse[3] = 1;
        for (int i = 0; i < 3; i++) {
            c->ambient[i] = tint[q][i] * 0.5f;
            c->specular[i] = 0.1f;
        }
        c->specular_power = 20;
        c->flags = MMD_MAT_DOUBLE_SIDED | MMD_MAT_GROUND_SHADOW | MMD_MAT_CAST_SHADOW | MMD_MAT_RECEIVE_SHADOW;
        c->edge_color[3] = 1;
        c->texture = card;
        c->sphere_texture = -1;
        c->toon = hair_toon;
        c->toon_shared = hair_shared;
        c->memo = mmd_model_str(m, "");
        c->index_count = card_counts[q];
    }
    free(src);
    /* material morphs named source material i: now its first half */
    for (uint32_t k = 0; k < m->morph_count; k++)
        if (m->morphs[k].type == MMD_MORPH_MATERIAL)
            for (uint32_t o = 0; o < m->morphs[k].offset_count; o++)
                if (m->morphs[k].u.material[o].material >= 0)
                    m->morphs[k].u.material[o].material *= 2;
    return 0;
}

static int grow_dancer(mmd_model *m)
{
    grow_state g = {m, m->vertex_count, m->index_count, m->bone_count, m->rigid_body_count, m->joint_count,
                    m->material_count, NULL, NULL, 0, 0};
    int32_t head = mmd_model_find_bone(m, "頭"), neck = mmd_model_find_bone(m, "首");
    if (head < 0 || neck < 0) {
        fprintf(stderr, "mkbench: character.pmx has no 頭/首 bone (not mkdemo's?)\n");
        return -1;
    }
    uint32_t cards_v = CHAINS * STRIPS * 2 * CHAIN_BONES, cards_i = CHAINS * STRIPS * (CHAIN_BONES - 1) * 6;
    g.v = malloc(sizeof *g.v * (2 * g.v0 + cards_v));
    g.idx = malloc(sizeof *g.idx * (2 * (size_t)g.f0 + cards_i));
    char **tex = malloc(sizeof *tex * (m->texture_count + 2));
    if (!g.v || !g.idx || !tex || add_chains(&g, head, neck)) {
        free(g.v), free(g.idx), free(tex);
        return -1;
    }
    /* the body, then its lace layer 0.04 out along the normals */
    memcpy(g.v, m->vertices, sizeof *g.v * g.v0);
    memcpy(g.idx, m->indices, sizeof *g.idx * g.f0);
    for (uint32_t i = 0; i < g.v0; i++) {
        g.v[g.v0 + i] = m->vertices[i];
        for (int k = 0; k < 3; k++)
            g.v[g.v0 + i].position[k] += 0.04f * m->vertices[i].normal[k];
    }
    for (uint32_t i = 0; i < g.f0; i++)
        g.idx[g.f0 + i] = m->indices[i] + g.v0;
    g.nv = 2 * g.v0;
    g.ni = 2 * g.f0;
    uint32_t card_counts[CARD_MATS];
    for (int q = 0; q < CARD_MATS; q++) {
        uint32_t before = g.ni;
        for (int c = 0; c < CHAINS; c++)
            for (int s = q; s < STRIPS; s += CARD_MATS)
                chain_cards(&g, c, s, (int32_t)(g.b0 + (uint32_t)(c * CHAIN_BONES)));
        card_counts[q] = g.ni - before;
    }
    uint32_t sdef = 0;
    for (uint32_t i = 0; i < g.nv && sdef < SDEF_TARGET; i++)
        if (g.v[i].weight_type == MMD_WEIGHT_BDEF2) {
            sdef_from_bdef2(m, &g.v[i]);
            sdef++;
        }
    memcpy(tex, m->textures, sizeof *tex * m->texture_count);
    uint32_t nt = m->texture_count;
    tex[nt] = mmd_model_str(m, "tex_lace.png");
    tex[nt + 1] = mmd_model_str(m, "tex_card.png");
    char **t2 = mmd_model_add_textures(m, nt + 2);
    mmd_vertex *v2 = mmd_model_add_vertices(m, g.nv);
    uint32_t *i2 = mmd_model_add_indices(m, g.ni);
    int rc = -1;
    if (t2 && v2 && i2) {
        memcpy(t2, tex, sizeof *tex * (nt + 2));
        memcpy(v2, g.v, sizeof *g.v * g.nv);
        memcpy(i2, g.idx, sizeof *g.idx * g.ni);
        rc = grow_materials(&g, card_counts, (int32_t)nt, (int32_t)nt + 1);
    }
    printf("dancer.pmx: %u vertices (%u SDEF), %u faces, %u materials, %u bones, %u rigid bodies, %u joints\n",
           m->vertex_count, sdef, m->index_count / 3, m->material_count, m->bone_count, m->rigid_body_count,
           m->joint_count);
    free(g.v), free(g.idx), free(tex);
    return rc;
}

static void translate_x(mmd_model *m, float dx)
{
    for (uint32_t i = 0; i < m->vertex_count; i++) {
        m->vertices[i].position[0] += dx;
        m->vertices[i].sdef_c[0] += dx;
        m->vertices[i].sdef_r0[0] += dx;
        m->vertices[i].sdef_r1[0] += dx;
    }
    for (uint32_t i = 0; i < m->bone_count; i++)
        m->bones[i].position[0] += dx;
    for (uint32_t i = 0; i < m->rigid_body_count; i++)
        m->rigid_bodies[i].position[0] += dx;
    for (uint32_t i = 0; i < m->joint_count; i++)
        m->joints[i].position[0] += dx;
}

static int save_model(const char *dir, const char *name, const mmd_model *m)
{
    uint8_t *buf = NULL;
    size_t n = 0;
    mmd_error err;
    if (mmd_pmx_write(m, &buf, &n, &err) != MMD_OK) {
        fprintf(stderr, "mkbench: writing %s: %s\n", name, err.msg);
        return -1;
    }
    int rc = save_file(dir, name, buf, n);
    free(buf);
    return rc;
}

static const int k_offsets[4] = {-7, 7, -21, 21}; /* dancers 2..5 stand here (X, MMD units) */

static int make_dancers(const char *dir)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/character.pmx", dir);
    mmd_model *m = NULL;
    mmd_error err;
    if (mmd_model_load_file(path, &m, &err) != MMD_OK) {
        fprintf(stderr, "mkbench: %s: %s (run mkdemo %s first)\n", path, err.msg, dir);
        return -1;
    }
    int rc = make_texture(dir, "tex_lace.png", TX_LACE, 256, 240, 250, 255);
    rc |= make_texture(dir, "tex_card.png", TX_CARD, 256, 60, 200, 200);
    rc |= grow_dancer(m);
    rc |= rc ? 0 : save_model(dir, "dancer.pmx", m);
    float at = 0;
    for (int k = 0; k < 4 && rc == 0; k++) {
        char name[64];
        translate_x(m, (float)k_offsets[k] - at);
        at = (float)k_offsets[k];
        snprintf(name, sizeof name, "dancer_x%d.pmx", k_offsets[k]);
        rc |= save_model(dir, name, m);
    }
    mmd_model_free(m);
    return rc;
}

/* bench.ini (1 dancer), bench2.ini, bench4.ini: 1080p MSAA 4 unless the command line says otherwise. */
static int make_scenes(const char *dir)
{
    static const int counts[3] = {1, 2, 4};
    int rc = 0;
    for (int s = 0; s < 3; s++) {
        char text[2048], name[32];
        int n = snprintf(text, sizeof text,
                         "; generated by tools/mkbench.c: the stage and %d dancer(s) (issue 17's bench scene)\n"
                         "[output]\nwidth = 1920\nheight = 1080\nfps = 30\nantialias = 4\n\n"
                         "[camera]\nmotion = camera.vmd\n\n[model:stage]\nfile = stage.pmd\n",
                         counts[s]);
        for (int d = 0; d < counts[s]; d++) {
            char file[40];
            if (d == 0)
                snprintf(file, sizeof file, "dancer.pmx");
            else
                snprintf(file, sizeof file, "dancer_x%d.pmx", k_offsets[d == 1 && counts[s] == 2 ? 1 : d - 1]);
            n += snprintf(text + n, sizeof text - (size_t)n, "\n[model:dancer%d]\nfile = %s\nmotion = dance.vmd\n",
                          d + 1, file);
        }
        snprintf(name, sizeof name, s ? "bench%d.ini" : "bench.ini", counts[s]);
        rc |= save_file(dir, name, text, (size_t)n);
    }
    return rc;
}

int main(int argc, char **argv)
{
    if (argc != 2 || argv[1][0] == '-') {
        fprintf(stderr, "usage: mkbench DIR   (DIR holds mkdemo's output; writes the bench scene there)\n");
        return 1;
    }
    int rc = make_stage(argv[1]);
    rc |= make_dancers(argv[1]);
    rc |= make_scenes(argv[1]);
    return rc ? 1 : 0;
}
