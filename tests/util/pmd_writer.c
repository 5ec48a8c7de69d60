/* tests/util/pmd_writer.c - PMD fixtures for tests (see pmd_writer.h). */
#include "tests/util/pmd_writer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/text.h"

void tb_bytes(tbuf *b, const void *s, size_t n)
{
    if (b->n + n > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->n + n)
            cap *= 2;
        uint8_t *p = realloc(b->p, cap);
        if (!p)
            abort();
        b->p = p;
        b->cap = cap;
    }
    memcpy(b->p + b->n, s, n);
    b->n += n;
}

void tb_u8(tbuf *b, uint8_t v) { tb_bytes(b, &v, 1); }
void tb_u16(tbuf *b, uint16_t v)
{
    uint8_t x[2] = {(uint8_t)v, (uint8_t)(v >> 8)};
    tb_bytes(b, x, 2);
}
void tb_u32(tbuf *b, uint32_t v)
{
    uint8_t x[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    tb_bytes(b, x, 4);
}
void tb_f32(tbuf *b, float v)
{
    uint32_t u;
    memcpy(&u, &v, 4);
    tb_u32(b, u);
}
void tb_f32v(tbuf *b, const float *v, int n)
{
    for (int i = 0; i < n; i++)
        tb_f32(b, v[i]);
}
void tb_sjis(tbuf *b, const char *utf8, size_t width)
{
    uint8_t buf[256] = {0};
    mmd_text *t = mmd_text_create();
    mmd_text_to_sjis(t, utf8, buf, width < sizeof buf ? width : sizeof buf);
    mmd_text_destroy(t);
    tb_bytes(b, buf, width);
}

static void vertex(tbuf *b, float x, float y, float z, uint16_t b0, uint16_t b1, uint8_t w, uint8_t no_edge)
{
    float p[8] = {x, y, z, 0, 0, -1, x * 0.1f, y * 0.1f};
    tb_f32v(b, p, 8);
    tb_u16(b, b0);
    tb_u16(b, b1);
    tb_u8(b, w);
    tb_u8(b, no_edge);
}

static void material(tbuf *b, const float diffuse[4], float power, uint8_t toon, uint8_t edge, uint32_t count,
                     const char *tex)
{
    static const float spec[3] = {0.1f, 0.2f, 0.3f}, amb[3] = {0.4f, 0.5f, 0.6f};
    tb_f32v(b, diffuse, 4);
    tb_f32(b, power);
    tb_f32v(b, spec, 3);
    tb_f32v(b, amb, 3);
    tb_u8(b, toon);
    tb_u8(b, edge);
    tb_u32(b, count);
    tb_sjis(b, tex, 20);
}

static void bone(tbuf *b, const char *name, uint16_t parent, uint16_t tail, uint8_t type, uint16_t src, float x,
                 float y, float z)
{
    tb_sjis(b, name, 20);
    tb_u16(b, parent);
    tb_u16(b, tail);
    tb_u8(b, type);
    tb_u16(b, src);
    float p[3] = {x, y, z};
    tb_f32v(b, p, 3);
}

static void rigid(tbuf *b, const char *name, uint16_t bone_index, uint8_t group, uint16_t mask, uint8_t shape,
                  float y, uint8_t mode)
{
    tb_sjis(b, name, 20);
    tb_u16(b, bone_index);
    tb_u8(b, group);
    tb_u16(b, mask);
    tb_u8(b, shape);
    float size[3] = {1, 2, 3}, pos[3] = {0, y, 0.5f}, rot[3] = {0.1f, 0.2f, 0.3f};
    tb_f32v(b, size, 3);
    tb_f32v(b, pos, 3);
    tb_f32v(b, rot, 3);
    float phys[5] = {1.5f, 0.5f, 0.25f, 0.125f, 0.75f};
    tb_f32v(b, phys, 5);
    tb_u8(b, mode);
}

uint8_t *mmd_test_pmd_fixture(int parts, size_t *size, size_t boundaries[5])
{
    tbuf b = {0};
    size_t bnd[5] = {0};
    tb_bytes(&b, "Pmd", 3);
    tb_f32(&b, 1.0f);
    tb_sjis(&b, "テスト", 20);
    tb_sjis(&b, "コメント", 256);

    /* vertices */
    tb_u32(&b, 4);
    vertex(&b, 0, 0, 0, 0, 1, 100, 0); /* BDEF1 bone 0, edge */
    vertex(&b, 1, 0, 0, 1, 2, 40, 1);  /* BDEF2 0.4, no edge */
    vertex(&b, 1, 1, 0, 2, 2, 50, 0);  /* same bones: BDEF1 bone 2 */
    vertex(&b, 0, 1, 0, 0, 3, 0, 0);   /* weight 0: BDEF1 bone 3 */
    /* faces */
    tb_u32(&b, 6);
    static const uint16_t idx[6] = {0, 1, 2, 0, 2, 3};
    for (int i = 0; i < 6; i++)
        tb_u16(&b, idx[i]);
    /* materials */
    tb_u32(&b, 3);
    static const float d0[4] = {1.0f, 0.5f, 0.25f, 1.0f}, d1[4] = {0.5f, 0.5f, 0.5f, 0.98f},
                       d2[4] = {0.2f, 0.2f, 0.2f, 0.5f};
    material(&b, d0, 5.0f, 0, 1, 3, "tex.bmp*sphere.sph");
    material(&b, d1, 10.0f, 1, 0, 3, "tex.bmp*env.spa");
    material(&b, d2, 1.0f, 0xFF, 0, 0, "only.sph");
    /* bones */
    tb_u16(&b, 9);
    bone(&b, "センター", 0xFFFF, 1, 1, 0, 0, 8, 0);       /* 0 */
    bone(&b, "左足", 0, 2, 0, 0, 1, 7, 0);               /* 1 */
    bone(&b, "左ひざ", 1, 3, 0, 0, 1, 4, 0);             /* 2 */
    bone(&b, "左足首", 2, 0, 0, 0, 1, 1, 0);             /* 3 */
    bone(&b, "左足ＩＫ", 0xFFFF, 5, 2, 0, 1, 1, 0);      /* 4 */
    bone(&b, "左つま先", 4, 0, 6, 0, 1, 0, -1);          /* 5 IK tip, child of IK */
    bone(&b, "捩", 0, 1, 8, 0, 0, 8, 0);                 /* 6 twist towards bone 1 */
    bone(&b, "回転", 0, 1, 9, 50, 0, 9, 0);              /* 7 rotation link: tail bone 1 at 50% */
    bone(&b, "影響", 0, 0, 5, 2, 0, 9, 1);               /* 8 influenced by bone 2 */
    /* IK: two records on bone 4 */
    tb_u16(&b, 2);
    tb_u16(&b, 4);
    tb_u16(&b, 3);
    tb_u8(&b, 2);
    tb_u16(&b, 40);
    tb_f32(&b, 0.5f);
    tb_u16(&b, 2);
    tb_u16(&b, 1);
    tb_u16(&b, 4);
    tb_u16(&b, 3);
    tb_u8(&b, 1);
    tb_u16(&b, 7);
    tb_f32(&b, 0.25f);
    tb_u16(&b, 1);
    /* skins: base (vertices 1, 2) + 2 */
    tb_u16(&b, 3);
    tb_sjis(&b, "base", 20);
    tb_u32(&b, 2);
    tb_u8(&b, 0);
    tb_u32(&b, 1);
    tb_f32v(&b, (const float[3]){1, 0, 0}, 3);
    tb_u32(&b, 2);
    tb_f32v(&b, (const float[3]){1, 1, 0}, 3);
    tb_sjis(&b, "あ", 20);
    tb_u32(&b, 2);
    tb_u8(&b, 3);
    tb_u32(&b, 1);
    tb_f32v(&b, (const float[3]){0, 1, 0}, 3);
    tb_u32(&b, 0);
    tb_f32v(&b, (const float[3]){0, 0, 1}, 3);
    tb_sjis(&b, "まばたき", 20);
    tb_u32(&b, 1);
    tb_u8(&b, 2);
    tb_u32(&b, 0);
    tb_f32v(&b, (const float[3]){1, 0, 0}, 3);
    /* skin display: skins 2, 1 */
    tb_u8(&b, 2);
    tb_u16(&b, 2);
    tb_u16(&b, 1);
    /* bone frame names */
    tb_u8(&b, 2);
    tb_sjis(&b, "足\n", 50);
    tb_sjis(&b, "その他\n", 50);
    /* bone display */
    tb_u32(&b, 3);
    tb_u16(&b, 1);
    tb_u8(&b, 1);
    tb_u16(&b, 2);
    tb_u8(&b, 1);
    tb_u16(&b, 6);
    tb_u8(&b, 2);
    bnd[0] = b.n;
    if (parts >= 1) {
        tb_u8(&b, 1);
        tb_sjis(&b, "Test", 20);
        tb_sjis(&b, "English comment", 256);
        static const char *const bn[9] = {"center", "leg_L", "knee_L", "ankle_L", "leg IK_L",
                                          "toe_L", "twist", "follow", "influenced"};
        for (int i = 0; i < 9; i++)
            tb_sjis(&b, bn[i], 20);
        tb_sjis(&b, "a", 20);
        tb_sjis(&b, "blink", 20);
        tb_sjis(&b, "Legs", 50);
        tb_sjis(&b, "Other", 50);
    }
    bnd[1] = b.n;
    if (parts >= 2) {
        tb_sjis(&b, "toon03.bmp", 100);
        tb_sjis(&b, "mytoon.bmp", 100);
        for (int i = 2; i < 10; i++) {
            char nm[32];
            snprintf(nm, sizeof nm, "toon%02d.bmp", i + 1);
            tb_sjis(&b, nm, 100);
        }
    }
    bnd[2] = b.n;
    if (parts >= 3) {
        tb_u32(&b, 2);
        rigid(&b, "頭", 0, 1, 0xFFFE, 0, 1.0f, 0);
        rigid(&b, "髪", 0xFFFF, 2, 0xFFFF, 1, 2.0f, 1);
    }
    bnd[3] = b.n;
    if (parts >= 4) {
        tb_u32(&b, 1);
        tb_sjis(&b, "髪J", 20);
        tb_u32(&b, 0);
        tb_u32(&b, 1);
        float v[24];
        for (int i = 0; i < 24; i++)
            v[i] = (float)i * 0.5f;
        tb_f32v(&b, v, 24);
    }
    bnd[4] = b.n;
    if (boundaries)
        memcpy(boundaries, bnd, sizeof bnd);
    *size = b.n;
    return b.p;
}

/* Header, no vertices or faces, `materials` materials drawing nothing, each
 * with its own texture and sphere map ("0000.png*0000s.sph", ...). */
static void head(tbuf *b, uint32_t materials)
{
    tb_bytes(b, "Pmd", 3);
    tb_f32(b, 1.0f);
    tb_sjis(b, "skeleton", 20);
    tb_sjis(b, "", 256);
    tb_u32(b, 0); /* vertices */
    tb_u32(b, 0); /* face indices */
    tb_u32(b, materials);
    static const float d[4] = {1, 1, 1, 1};
    for (uint32_t i = 0; i < materials; i++) {
        char tex[24];
        snprintf(tex, sizeof tex, "%04x.png*%04xs.sph", i & 0xFFFF, i & 0xFFFF);
        material(b, d, 1.0f, 0xFF, 0, 0, tex);
    }
}

uint8_t *mmd_test_pmd_textures(uint32_t n, size_t *size)
{
    tbuf b = {0};
    head(&b, n);
    tb_u16(&b, 0); /* bones */
    tb_u16(&b, 0); /* IK */
    tb_u16(&b, 0); /* skins */
    tb_u8(&b, 0);
    tb_u8(&b, 0);
    tb_u32(&b, 0);
    *size = b.n;
    return b.p;
}

uint8_t *mmd_test_pmd_skeleton(const mmd_test_pmd_bone *bones, uint32_t bone_count, const mmd_test_pmd_ik *iks,
                               uint32_t ik_count, size_t *size)
{
    tbuf b = {0};
    head(&b, 0);
    tb_u16(&b, (uint16_t)bone_count);
    for (uint32_t i = 0; i < bone_count; i++) {
        const mmd_test_pmd_bone *x = &bones[i];
        char name[16];
        snprintf(name, sizeof name, "b%u", i);
        bone(&b, x->name ? x->name : name, x->parent, x->tail, x->type, x->ik, x->pos[0], x->pos[1], x->pos[2]);
    }
    tb_u16(&b, (uint16_t)ik_count);
    for (uint32_t i = 0; i < ik_count; i++) {
        const mmd_test_pmd_ik *k = &iks[i];
        tb_u16(&b, k->bone);
        tb_u16(&b, k->target);
        tb_u8(&b, k->link_count);
        tb_u16(&b, k->iterations);
        tb_f32(&b, k->weight);
        for (uint8_t j = 0; j < k->link_count; j++)
            tb_u16(&b, k->links[j]);
    }
    tb_u16(&b, 0); /* skins */
    tb_u8(&b, 0);  /* skin display */
    tb_u8(&b, 0);  /* bone frame names */
    tb_u32(&b, 0); /* bone display */
    *size = b.n;
    return b.p;
}

uint8_t *mmd_test_pmd_chain(uint32_t n, size_t *size)
{
    if (n < 2 || n > 65535)
        return NULL;
    mmd_test_pmd_bone *bones = calloc(n, sizeof *bones);
    uint16_t links[255];
    if (!bones)
        return NULL;
    for (uint32_t i = 0; i < n; i++) {
        bones[i].parent = i ? (uint16_t)(i - 1) : 0xFFFF;
        bones[i].tail = i + 1 < n ? (uint16_t)(i + 1) : 0;
        bones[i].type = i == 0 ? 2 : 0;
        bones[i].pos[1] = (float)i * 0.01f;
    }
    uint8_t nl = 0;
    for (uint32_t i = n - 2; i >= 1 && nl < 255; i--)
        links[nl++] = (uint16_t)i;
    mmd_test_pmd_ik ik = {0, (uint16_t)(n - 1), 40, 0.5f, links, nl};
    uint8_t *p = mmd_test_pmd_skeleton(bones, n, &ik, 1, size);
    free(bones);
    return p;
}
