/* core/pmd.c - PMD 1.0 reader: fills the same mmd_model as PMX, converted the
 * way PMX editors convert PMD.
 *
 * Layout (little-endian, packed): "Pmd" + f32 version 1.0, name[20],
 * comment[256]; vertices (u32 n, 38 bytes: pos, normal, uv, u16 bone x2,
 * u8 weight 0..100, u8 no-edge flag); faces (u32 index count, u16 each);
 * materials (u32 n, 70 bytes: diffuse rgb + alpha, power, specular, ambient,
 * u8 toon (0xFF none), u8 edge, u32 index count, texture[20]); bones (u16 n,
 * 39 bytes: name[20], u16 parent, u16 tail, u8 type, u16 ik/source, pos);
 * IK (u16 n: u16 bone, u16 target, u8 links, u16 iterations, f32 control
 * weight, u16 link x n); skins (u16 n: name[20], u32 n, u8 panel, n x
 * (u32 index, f32 x3)); skin display (u8 n, u16 each); bone frame names
 * (u8 n, [50]); bone display (u32 n, u16 bone + u8 frame 1-based).
 * Optional trailing sections, each may be absent at EOF: English names
 * (u8 flag, name[20], comment[256], bone names[20], skin names[20] without
 * the base, frame names[50]); toon textures (10 x [100]); rigid bodies (u32 n,
 * 83 bytes, position relative to the bone); joints (u32 n, 124 bytes).
 *
 * Conversion choices (documented, follow PMX Editor / babylon-mmd):
 *  - weight 100 or equal bones -> BDEF1 of bone 0, weight 0 -> BDEF1 of bone 1,
 *    else BDEF2; vertex edge_scale = no-edge flag ? 0 : 1 (babylon-mmd reads
 *    the flag the other way round; the PMD spec names it "edge disabled").
 *  - materials are named "材質N"; every material casts the ground shadow (as in
 *    MMD 9.31's own frames of a PMD room whose materials have no edge flag: the
 *    whole floor comes out in the shadow colour, where nanoem ties it to the
 *    edge flag; issue 25); edge flag -> EDGE; alpha
 *    != 0.98 -> CAST | RECEIVE_SHADOW; alpha < 1 -> DOUBLE_SIDED; edge black, size 1.
 *  - "tex.bmp*sphere.sph" splits at '*'; a lone .sph/.spa is a sphere map;
 *    .spa adds, anything else multiplies. Textures are deduplicated.
 *  - toon index 0..9: with the toon list, "toon01.bmp".."toon10.bmp" -> shared
 *    toon 0..9, any other name -> a texture entry; without it -> shared index.
 *  - bone types: 1 movable; 2 (and any bone an IK record names) IK + movable,
 *    layer 1, propagated to descendants (PMD evaluates IK after the FK pass);
 *    5 (rotation-influenced) -> append rotate from the IK/source field, ratio 1,
 *    hidden; 9 (rotation link) -> append rotate from the tail bone, ratio =
 *    (signed) IK field / 100, hidden; 8 (twist) -> fixed axis towards the tail;
 *    6 (IK tip) and 7 (hidden) -> not visible. Tail 0 means none.
 *  - a second IK record on the same bone becomes an extra bone "<name>+"
 *    (child of it, same position) appended after the file's bones.
 *  - IK unit angle = control weight x 4 (radians); links whose name contains
 *    "ひざ" get X limits [-pi, -0.5 deg] (the PMX "knee" fix).
 *  - skins: the first ("base", type 0) holds absolute positions of the morphed
 *    vertices; it is not emitted. Every other skin becomes a vertex morph whose
 *    indices are resolved through the base list. morph i = skin i + 1.
 *  - display frames: "Root" (special, bone 0), "表情" (special, the skin
 *    display list), then one frame per bone frame name.
 *  - rigid bodies: position += bone position (bone 0 when the body has none).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/model_internal.h"

enum { VERTEX_REC = 38, MATERIAL_REC = 70, BONE_REC = 39, IK_MIN = 11, SKIN_MIN = 25, SKIN_ELEM = 16,
       RIGID_REC = 83, JOINT_REC = 124 };

typedef struct pmd_ik {
    uint16_t bone, target;
    uint16_t iterations;
    float weight;
    uint8_t link_count;
    uint16_t *links;
    size_t offset;
} pmd_ik;

typedef struct pmd_bone_raw {
    uint16_t tail, source;
    uint8_t type;
} pmd_bone_raw;

typedef struct pmd_ctx {
    mmd_reader r;
    mmd_model *m;
    mmd_text *t;
    mmd_arena *a;
    unsigned bad;
    uint32_t file_bones;      /* bones in the file (m->bone_count may add IK extras) */
    uint32_t skin_count;      /* skins in the file including the base */
    uint32_t texture_cap;
    uint32_t *tex_slots;      /* open-addressing set of texture indices + 1, tex_mask + 1 slots */
    uint32_t tex_mask;
    uint8_t *toon_raw;        /* per material: file toon byte */
    size_t vertex_start;
    uint32_t frame_name_count;
} pmd_ctx;

static bool ok(pmd_ctx *c) { return mmd_rd_ok(&c->r); }

static char *sjis(pmd_ctx *c, const uint8_t *s, size_t n)
{
    if (!s)
        return NULL;
    char *u = mmd_text_sjis(c->t, c->a, s, n, &c->bad);
    if (!u)
        mmd_rd_fail(&c->r, MMD_E_NOMEM, "cannot convert text");
    return u;
}

static char *read_name(pmd_ctx *c, size_t n) { return sjis(c, mmd_rd_bytes(&c->r, n), n); }

/* Count of `width` bytes; records that cannot fit are MMD_E_TRUNCATED. */
static uint32_t read_count(pmd_ctx *c, int width, size_t rec, uint32_t max, const char *what)
{
    mmd_reader *r = &c->r;
    size_t at = r->pos;
    uint32_t n = width == 1 ? mmd_rd_u8(r) : width == 2 ? mmd_rd_u16(r) : mmd_rd_u32(r);
    if (!ok(c))
        return 0;
    if (n > max) {
        mmd_rd_fail_at(r, at, MMD_E_LIMIT, "%u %s exceed the limit %u", n, what, max);
        return 0;
    }
    if (rec && (size_t)n > mmd_rd_left(r) / rec) {
        mmd_rd_fail_at(r, at, MMD_E_TRUNCATED, "%u %s need at least %zu bytes, %zu left", n, what,
                       (size_t)n * rec, mmd_rd_left(r));
        return 0;
    }
    return n;
}

/* A repair (docs/compat.md) in the current section and element. */
static void warn(pmd_ctx *c, size_t offset, const char *what)
{
    mmd_rd_warn(&c->r, &c->m->warning_list, &c->m->warnings, (int64_t)offset, what);
}

/* A repair found while converting bone i after the IK records were read. */
static void warn_bone(pmd_ctx *c, uint32_t i, size_t offset, const char *what)
{
    mmd_warn(&c->m->warning_list, &c->m->warnings, "pmd.bone", i, (int64_t)offset, what);
}

static void *alloc_array(pmd_ctx *c, size_t n, size_t size)
{
    void *p = mmd_arena_array(c->a, n, size);
    if (!p)
        mmd_rd_fail(&c->r, MMD_E_NOMEM, "cannot allocate %zu x %zu bytes", n, size);
    return p;
}

/* Offset table (model.h: mmd_model_offsets); filled only when the section
 * loads whole (the count is set last), a failed allocation loses the offsets only. */
static uint32_t *offset_table(pmd_ctx *c, uint32_t n)
{
    return ok(c) && n ? mmd_arena_array(c->a, n, sizeof(uint32_t)) : NULL;
}

static uint32_t off32(size_t at) { return at < UINT32_MAX ? (uint32_t)at : UINT32_MAX; }

static void set_table(uint32_t *tab, uint32_t n, uint32_t **field, uint32_t *count)
{
    *field = tab;
    *count = tab ? n : 0;
}

static uint32_t hash_str(const char *s)
{
    uint32_t h = 2166136261u; /* FNV-1a */
    for (; *s; s++)
        h = (h ^ (uint8_t)*s) * 16777619u;
    return h;
}

/* Index of path in the texture list, added when new. Deduplicated through a
 * hash set so 65,536 materials with distinct names stay linear (issue 13). */
static int32_t add_texture(pmd_ctx *c, const char *path)
{
    mmd_model *m = c->m;
    uint32_t h = hash_str(path) & c->tex_mask;
    for (; c->tex_slots[h]; h = (h + 1) & c->tex_mask)
        if (!strcmp(m->textures[c->tex_slots[h] - 1], path))
            return (int32_t)c->tex_slots[h] - 1;
    if (m->texture_count >= c->texture_cap) {
        mmd_rd_fail(&c->r, MMD_E_LIMIT, "too many textures");
        return -1;
    }
    char *s = mmd_arena_strdup(c->a, path);
    if (!s) {
        mmd_rd_fail(&c->r, MMD_E_NOMEM, "texture path");
        return -1;
    }
    m->textures[m->texture_count] = s;
    c->tex_slots[h] = m->texture_count + 1;
    return (int32_t)m->texture_count++;
}

static bool ends_with_ci(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    if (k > n)
        return false;
    for (size_t i = 0; i < k; i++) {
        char a = s[n - k + i], b = suffix[i];
        if (a >= 'A' && a <= 'Z')
            a = (char)(a - 'A' + 'a');
        if (a != b)
            return false;
    }
    return true;
}

static bool is_sphere_name(const char *s) { return ends_with_ci(s, ".sph") || ends_with_ci(s, ".spa"); }

static void vec_sub(float out[3], const float a[3], const float b[3])
{
    for (int i = 0; i < 3; i++)
        out[i] = a[i] - b[i];
}

/* ------------------------------------------------------------------ */

static void parse_header(pmd_ctx *c)
{
    mmd_reader *r = &c->r;
    mmd_model *m = c->m;
    r->section = "pmd.header";
    const uint8_t *magic = mmd_rd_bytes(r, 3);
    if (!magic)
        return;
    if (memcmp(magic, "Pmd", 3) != 0) {
        mmd_rd_fail_at(r, 0, MMD_E_BAD_MAGIC, "not a PMD file (no \"Pmd\" signature)");
        return;
    }
    size_t at = r->pos;
    float version = mmd_rd_f32(r);
    if (ok(c) && version != 1.0f) {
        mmd_rd_fail_at(r, at, MMD_E_BAD_VERSION, "PMD version %g, expected 1.0", (double)version);
        return;
    }
    m->format = MMD_FORMAT_PMD;
    m->version = 1.0f;
    m->encoding = MMD_ENC_SJIS;
    m->additional_uv_count = 0;
    static const uint8_t sizes[6] = {2, 4, 4, 2, 2, 4};
    memcpy(m->index_size, sizes, 6);
    m->name = read_name(c, 20);
    m->comment = read_name(c, 256);
}

static void parse_vertices(pmd_ctx *c)
{
    mmd_reader *r = &c->r;
    mmd_model *m = c->m;
    r->section = "pmd.vertex";
    uint32_t n = read_count(c, 4, VERTEX_REC, MMD_MAX_VERTICES, "vertices");
    c->vertex_start = r->pos;
    m->vertices = alloc_array(c, n, sizeof *m->vertices);
    uint32_t *offs = offset_table(c, n);
    for (uint32_t i = 0; i < n && ok(c); i++) {
        r->item = i;
        if (offs)
            offs[i] = off32(r->pos);
        mmd_vertex *v = &m->vertices[i];
        mmd_rd_f32v(r, v->position, 3, true);
        /* non-finite normals/UVs are repaired by mmd_model_validate (docs/compat.md) */
        mmd_rd_f32v(r, v->normal, 3, false);
        mmd_rd_f32v(r, v->uv, 2, false);
        uint16_t b0 = mmd_rd_u16(r), b1 = mmd_rd_u16(r);
        size_t at = r->pos;
        uint8_t w = mmd_rd_u8(r);
        uint8_t no_edge = mmd_rd_u8(r);
        if (!ok(c))
            break;
        if (w > 100) {
            mmd_rd_fail_at(r, at, MMD_E_BAD_VALUE, "bone weight %u > 100", w);
            break;
        }
        v->bones[0] = v->bones[1] = v->bones[2] = v->bones[3] = -1;
        if (w == 100 || b0 == b1) {
            v->weight_type = MMD_WEIGHT_BDEF1;
            v->bones[0] = b0;
            v->weights[0] = 1.0f;
        } else if (w == 0) {
            v->weight_type = MMD_WEIGHT_BDEF1;
            v->bones[0] = b1;
            v->weights[0] = 1.0f;
        } else {
            v->weight_type = MMD_WEIGHT_BDEF2;
            v->bones[0] = b0;
            v->bones[1] = b1;
            v->weights[0] = (float)w / 100.0f;
            v->weights[1] = 1.0f - v->weights[0];
        }
        v->edge_scale = no_edge ? 0.0f : 1.0f;
    }
    r->item = -1;
    if (ok(c)) {
        m->vertex_count = n;
        set_table(offs, n, &m->file_offsets.vertex, &m->file_offsets.vertex_count);
    }
}

static void parse_faces(pmd_ctx *c)
{
    mmd_reader *r = &c->r;
    mmd_model *m = c->m;
    r->section = "pmd.face";
    size_t at = r->pos;
    uint32_t n = read_count(c, 4, 2, MMD_MAX_INDICES, "face indices");
    if (ok(c) && n % 3 != 0) {
        mmd_rd_fail_at(r, at, MMD_E_BAD_COUNT, "index count %u is not a multiple of 3", n);
        return;
    }
    m->indices = alloc_array(c, n, sizeof *m->indices);
    for (uint32_t i = 0; i < n && ok(c); i++) {
        r->item = i;
        size_t p = r->pos;
        uint16_t v = mmd_rd_u16(r);
        if (ok(c) && v >= m->vertex_count)
            mmd_rd_fail_at(r, p, MMD_E_BAD_INDEX, "vertex index %u out of range (%u vertices)", v, m->vertex_count);
        m->indices[i] = v;
    }
    r->item = -1;
    if (ok(c)) {
        m->index_count = n;
        m->file_offsets.face = off32(at + 4);
        m->file_offsets.face_index_size = 2;
    }
}

static void parse_materials(pmd_ctx *c)
{
    mmd_reader *r = &c->r;
    mmd_model *m = c->m;
    r->section = "pmd.material";
    size_t sec_at = r->pos;
    uint32_t n = read_count(c, 4, MATERIAL_REC, MMD_MAX_MATERIALS, "materials");
    uint32_t *offs = offset_table(c, n);
    m->materials = alloc_array(c, n, sizeof *m->materials);
    c->toon_raw = alloc_array(c, n, 1);
    c->texture_cap = n * 3 + 1;
    m->textures = alloc_array(c, c->texture_cap, sizeof *m->textures);
    uint32_t slots = 16;
    while (slots < 2 * c->texture_cap)
        slots *= 2; /* load factor <= 1/2 */
    c->tex_slots = alloc_array(c, slots, sizeof *c->tex_slots);
    c->tex_mask = slots - 1;
    uint64_t sum = 0;
    for (uint32_t i = 0; i < n && ok(c); i++) {
        r->item = i;
        if (offs)
            offs[i] = off32(r->pos);
        mmd_material *mt = &m->materials[i];
        char name[32];
        snprintf(name, sizeof name, "材質%u", i + 1);
        mt->name = mmd_arena_strdup(c->a, name);
        mt->name_en = mmd_arena_strdup(c->a, "");
        mt->memo = mt->name_en;
        mmd_rd_f32v(r, mt->diffuse, 4, false);
        mmd_rd_f32v(r, &mt->specular_power, 1, false);
        mmd_rd_f32v(r, mt->specular, 3, false);
        mmd_rd_f32v(r, mt->ambient, 3, false);
        uint8_t toon = mmd_rd_u8(r);
        uint8_t edge = mmd_rd_u8(r);
        mt->index_count = mmd_rd_u32(r);
        char *tex = read_name(c, 20);
        if (!ok(c) || !tex || !mt->name)
            break;
        if (toon != 0xFF && toon >= 10) {
            /* no such toon slot (some converters write 10..254): no toon, warning */
            toon = 0xFF;
            warn(c, r->pos - MATERIAL_REC + 44, "toon index 10..254 (no such toon): no toon");
        }
        c->toon_raw[i] = toon;
        mt->toon_shared = toon != 0xFF;
        mt->toon = toon == 0xFF ? -1 : toon;
        mt->flags = MMD_MAT_GROUND_SHADOW;
        if (edge)
            mt->flags |= MMD_MAT_EDGE;
        if (mt->diffuse[3] != 0.98f)
            mt->flags |= MMD_MAT_CAST_SHADOW | MMD_MAT_RECEIVE_SHADOW;
        if (mt->diffuse[3] < 1.0f)
            mt->flags |= MMD_MAT_DOUBLE_SIDED;
        mt->edge_color[3] = 1.0f;
        mt->edge_size = 1.0f;
        mt->texture = mt->sphere_texture = -1;
        mt->sphere_mode = MMD_SPHERE_NONE;
        char *star = strchr(tex, '*');
        const char *main_tex = tex, *sphere = NULL;
        if (star) {
            *star = 0;
            sphere = star + 1;
        } else if (is_sphere_name(tex)) {
            main_tex = "";
            sphere = tex;
        }
        if (main_tex[0])
            mt->texture = add_texture(c, main_tex);
        if (sphere && sphere[0]) {
            mt->sphere_texture = add_texture(c, sphere);
            mt->sphere_mode = ends_with_ci(sphere, ".spa") ? MMD_SPHERE_ADD : MMD_SPHERE_MUL;
        }
        sum += mt->index_count;
    }
    r->item = -1;
    if (ok(c) && sum != m->index_count) {
        mmd_rd_fail(r, MMD_E_BAD_STRUCTURE, "materials draw %llu indices, the model has %u",
                    (unsigned long long)sum, m->index_count);
        return;
    }
    if (ok(c)) {
        m->material_count = n;
        set_table(offs, n, &m->file_offsets.material, &m->file_offsets.material_count);
        m->file_offsets.material_section = off32(sec_at);
    }
}

/* Each bone's layer becomes the largest layer on its way to the root, in
 * O(n): a bone is settled once; an unsettled ancestry is walked up to the
 * first settled (or root) bone, then written back down. A parent loop stops
 * the walk (mmd_model_validate refuses it later). */
static bool propagate_layers(pmd_ctx *c, mmd_bone *bones, uint32_t n)
{
    if (n == 0)
        return true;
    uint8_t *done = alloc_array(c, n, 1);
    uint32_t *path = alloc_array(c, n, sizeof *path);
    if (!ok(c))
        return false;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t len = 0;
        int32_t b = (int32_t)i;
        while (b >= 0 && !done[b] && len < n) {
            done[b] = 2; /* on the current path */
            path[len++] = (uint32_t)b;
            b = bones[b].parent;
        }
        int32_t layer = (b >= 0 && done[b] == 1) ? bones[b].layer : INT32_MIN;
        while (len > 0) {
            mmd_bone *x = &bones[path[--len]];
            if (x->layer < layer)
                x->layer = layer;
            layer = x->layer;
            done[path[len]] = 1;
        }
    }
    return true;
}

/* Bones and IK together: IK records may add bones. */
/* File bone i's PMD type (0..9) as PMX flags, append and fixed axis (DESIGN I.1). */
static void convert_bone(pmd_ctx *c, const mmd_bone *tmp, const pmd_bone_raw *raw, uint32_t i, size_t bone_start)
{
    mmd_model *m = c->m;
    mmd_bone *b = &m->bones[i];
    const pmd_bone_raw *rb = &raw[i];
    b->flags = MMD_BONE_ROTATABLE | MMD_BONE_VISIBLE | MMD_BONE_OPERABLE | MMD_BONE_TAIL_IS_BONE;
    b->tail_bone = (rb->tail == 0 || rb->tail == 0xFFFF) ? -1 : rb->tail;
    b->append_parent = -1;
    b->ik_target = -1;
    b->external_key = -1;
    switch (rb->type) {
    case 1:
        b->flags |= MMD_BONE_MOVABLE;
        break;
    case 2:
        b->flags |= MMD_BONE_MOVABLE | MMD_BONE_IK;
        b->layer = 1;
        break;
    case 5:
        b->flags |= MMD_BONE_APPEND_ROTATE;
        b->flags &= (uint16_t)~MMD_BONE_VISIBLE;
        b->append_parent = rb->source;
        b->append_ratio = 1.0f;
        break;
    case 6:
    case 7:
        b->flags &= (uint16_t)~MMD_BONE_VISIBLE;
        break;
    case 8: {
        float axis[3];
        const mmd_bone *tb = &tmp[b->tail_bone >= 0 ? b->tail_bone : 0];
        vec_sub(axis, tb->position, b->position);
        float len = sqrtf(axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]);
        if (len > 1e-6f && isfinite(len)) {
            b->flags |= MMD_BONE_FIXED_AXIS;
            for (int k = 0; k < 3; k++)
                b->fixed_axis[k] = axis[k] / len;
        } else {
            warn_bone(c, i, bone_start + (size_t)i * BONE_REC, "twist bone (type 8) without a usable axis: free rotation");
        }
        break;
    }
    case 9:
        /* rotation link (回転連動, MMDAgent PMDBone FOLLOW_ROTATE, nanoem): the
         * source is the tail (child) bone, the IK field a signed ratio in
         * percent; negative = the inverse rotation, which slerp(I, q, -r)
         * gives. Tail 0 is bone 0 here (both peers follow it); 0xFFFF or
         * the bone itself is no source: a plain bone, warning. */
        if (rb->tail == 0xFFFF || rb->tail == i) {
            warn_bone(c, i, bone_start + (size_t)i * BONE_REC + 22,
                      "rotation link bone (type 9) without a tail bone: plain bone");
            break;
        }
        b->flags |= MMD_BONE_APPEND_ROTATE;
        b->flags &= (uint16_t)~MMD_BONE_VISIBLE;
        b->append_parent = rb->tail;
        b->append_ratio = (float)(int16_t)rb->source * 0.01f;
        break;
    default:
        break;
    }
}

/* The IK records onto the bones: a bone's first record makes it an IK bone,
 * each further one a new bone "<name>+" after the file's (nb onwards). */
static void attach_iks(pmd_ctx *c, const pmd_ik *iks, uint32_t nik, uint32_t nb, uint32_t *ik_of_bone,
                       uint32_t *boffs)
{
    mmd_reader *r = &c->r;
    mmd_model *m = c->m;
    uint32_t next_extra = nb;
    for (uint32_t i = 0; i < nb; i++)
        ik_of_bone[i] = 0;
    for (uint32_t i = 0; i < nik; i++) {
        const pmd_ik *k = &iks[i];
        uint32_t bi = k->bone;
        if (ik_of_bone[k->bone]++ > 0) {
            bi = next_extra++;
            if (boffs)
                boffs[bi] = off32(k->offset); /* the extra bone comes from this IK record */
            mmd_bone *src = &m->bones[k->bone];
            mmd_bone *b = &m->bones[bi];
            *b = *src;
            char *nm = mmd_arena_alloc(c->a, strlen(src->name) + 2);
            if (!nm) {
                mmd_rd_fail(r, MMD_E_NOMEM, "bone name");
                return;
            }
            strcpy(nm, src->name);
            strcat(nm, "+");
            b->name = nm;
            b->parent = k->bone;
            b->flags &= (uint16_t)~(MMD_BONE_VISIBLE | MMD_BONE_TAIL_IS_BONE);
            b->tail_bone = -1;
            memset(b->tail_offset, 0, sizeof b->tail_offset);
        }
        mmd_bone *b = &m->bones[bi];
        b->flags |= MMD_BONE_IK | MMD_BONE_MOVABLE;
        b->layer = 1;
        b->ik_target = k->target;
        b->ik_loop = k->iterations;
        b->ik_limit_angle = k->weight * 4.0f;
        b->ik_link_count = k->link_count;
        b->ik_links = alloc_array(c, k->link_count, sizeof *b->ik_links);
        if (!ok(c))
            return;
        for (uint32_t j = 0; j < k->link_count; j++) {
            mmd_ik_link *l = &b->ik_links[j];
            l->bone = k->links[j];
            const char *ln = m->bones[l->bone].name;
            if (ln && strstr(ln, "ひざ")) {
                l->has_limit = true;
                l->lower[0] = (float)-M_PI;
                l->upper[0] = (float)(-0.5 * M_PI / 180.0);
            }
        }
    }
}

/* The nb bone records into tmp (name, parent, position) and raw (tail, type, source). */
static void read_bones(pmd_ctx *c, uint32_t nb, mmd_bone *tmp, pmd_bone_raw *raw)
{
    mmd_reader *r = &c->r;
    for (uint32_t i = 0; i < nb && ok(c); i++) {
        r->item = i;
        mmd_bone *b = &tmp[i];
        b->name = read_name(c, 20);
        b->name_en = mmd_arena_strdup(c->a, "");
        size_t at = r->pos;
        uint16_t parent = mmd_rd_u16(r);
        raw[i].tail = mmd_rd_u16(r);
        raw[i].type = mmd_rd_u8(r);
        raw[i].source = mmd_rd_u16(r);
        mmd_rd_f32v(r, b->position, 3, true);
        if (!ok(c))
            break;
        if (parent != 0xFFFF && parent >= nb) {
            mmd_rd_fail_at(r, at, MMD_E_BAD_INDEX, "parent %u out of range (%u bones)", parent, nb);
            break;
        }
        if (raw[i].tail != 0xFFFF && raw[i].tail >= nb) {
            mmd_rd_fail_at(r, at + 2, MMD_E_BAD_INDEX, "tail %u out of range (%u bones)", raw[i].tail, nb);
            break;
        }
        if (raw[i].type == 5 && raw[i].source >= nb) {
            mmd_rd_fail_at(r, at + 5, MMD_E_BAD_INDEX, "rotation source %u out of range (%u bones)",
                           raw[i].source, nb);
            break;
        }
        if (raw[i].type > 9) {
            warn(c, at + 4, "unknown bone type (> 9): plain rotatable bone");
            raw[i].type = 0;
        }
        b->parent = parent == 0xFFFF ? -1 : parent;
        if (!b->name_en)
            mmd_rd_fail(r, MMD_E_NOMEM, "bone name");
    }
    r->item = -1;
}

/* The nik IK records into iks, counting them per bone in ik_of_bone.
 * Returns the bones to add: one per further record on a bone. */
static uint32_t read_iks(pmd_ctx *c, uint32_t nb, pmd_ik *iks, uint32_t nik, uint32_t *ik_of_bone)
{
    mmd_reader *r = &c->r;
    uint32_t extra = 0;
    for (uint32_t i = 0; i < nik && ok(c); i++) {
        r->item = i;
        pmd_ik *k = &iks[i];
        k->offset = r->pos;
        k->bone = mmd_rd_u16(r);
        k->target = mmd_rd_u16(r);
        k->link_count = mmd_rd_u8(r);
        k->iterations = mmd_rd_u16(r);
        mmd_rd_f32v(r, &k->weight, 1, false);
        if (!ok(c))
            break;
        if (k->bone >= nb || k->target >= nb) {
            mmd_rd_fail_at(r, k->offset, MMD_E_BAD_INDEX, "IK bone %u / target %u out of range (%u bones)",
                           k->bone, k->target, nb);
            break;
        }
        k->links = alloc_array(c, k->link_count, sizeof *k->links);
        for (uint32_t j = 0; j < k->link_count && ok(c); j++) {
            size_t at = r->pos;
            k->links[j] = mmd_rd_u16(r);
            if (ok(c) && k->links[j] >= nb)
                mmd_rd_fail_at(r, at, MMD_E_BAD_INDEX, "IK link %u: bone %u out of range (%u bones)", j,
                               k->links[j], nb);
        }
        if (ok(c) && ik_of_bone[k->bone]++ > 0)
            extra++;
    }
    r->item = -1;
    return extra;
}

/* Vertex bone indices, read before the bones, against the file's nb bones. */
static void check_vertex_bones(pmd_ctx *c, uint32_t nb)
{
    mmd_reader *r = &c->r;
    const mmd_model *m = c->m;
    r->section = "pmd.vertex";
    for (uint32_t i = 0; i < m->vertex_count; i++) {
        const mmd_vertex *v = &m->vertices[i];
        for (int k = 0; k < 2; k++) {
            if (v->bones[k] >= (int32_t)nb) {
                r->item = i;
                mmd_rd_fail_at(r, c->vertex_start + (size_t)i * VERTEX_REC + 32 + 2 * (size_t)k, MMD_E_BAD_INDEX,
                               "bone %d out of range (%u bones)", v->bones[k], nb);
                r->item = -1;
                return;
            }
        }
    }
}

static void parse_bones_and_ik(pmd_ctx *c)
{
    mmd_reader *r = &c->r;
    mmd_model *m = c->m;
    r->section = "pmd.bone";
    uint32_t nb = read_count(c, 2, BONE_REC, MMD_MAX_BONES, "bones");
    size_t bone_start = r->pos;
    pmd_bone_raw *raw = alloc_array(c, nb, sizeof *raw);
    mmd_bone *tmp = alloc_array(c, nb, sizeof *tmp);
    read_bones(c, nb, tmp, raw);
    if (!ok(c))
        return;

    r->section = "pmd.ik";
    uint32_t nik = read_count(c, 2, IK_MIN, 65535, "IK records");
    pmd_ik *iks = alloc_array(c, nik, sizeof *iks);
    uint32_t *ik_of_bone = alloc_array(c, nb, sizeof *ik_of_bone); /* IK records per bone */
    uint32_t extra = read_iks(c, nb, iks, nik, ik_of_bone);
    if (!ok(c))
        return;

    /* Final bones: file bones + one extra per additional IK record on a bone. */
    uint32_t total = nb + extra;
    if (total > MMD_MAX_BONES) {
        mmd_rd_fail(r, MMD_E_LIMIT, "%u bones exceed the limit", total);
        return;
    }
    m->bones = alloc_array(c, total, sizeof *m->bones);
    uint32_t *boffs = offset_table(c, total);
    if (!ok(c))
        return;
    if (boffs)
        for (uint32_t i = 0; i < nb; i++)
            boffs[i] = off32(bone_start + (size_t)i * BONE_REC);
    memcpy(m->bones, tmp, (size_t)nb * sizeof *tmp);
    for (uint32_t i = 0; i < nb; i++)
        convert_bone(c, tmp, raw, i, bone_start);
    attach_iks(c, iks, nik, nb, ik_of_bone, boffs);
    if (!ok(c))
        return;
    /* IK layer reaches the descendants (a child is never evaluated before its parent). */
    if (!propagate_layers(c, m->bones, total))
        return;
    m->bone_count = total;
    set_table(boffs, total, &m->file_offsets.bone, &m->file_offsets.bone_count);
    c->file_bones = nb;
    check_vertex_bones(c, nb);
}

static void parse_skins(pmd_ctx *c)
{
    mmd_reader *r = &c->r;
    mmd_model *m = c->m;
    r->section = "pmd.skin";
    uint32_t n = read_count(c, 2, SKIN_MIN, MMD_MAX_MORPHS, "skins");
    if (!ok(c))
        return;
    c->skin_count = n;
    if (n == 0)
        return;
    m->morphs = alloc_array(c, n - 1, sizeof *m->morphs);
    uint32_t *offs = offset_table(c, n - 1);
    uint32_t *base = NULL;
    uint32_t base_count = 0;
    uint64_t total_offsets = 0;
    for (uint32_t i = 0; i < n && ok(c); i++) {
        r->item = i;
        size_t start = r->pos;
        const uint8_t *name_raw = mmd_rd_bytes(r, 20);
        uint32_t count = read_count(c, 4, SKIN_ELEM, MMD_MAX_MORPH_OFFSETS, "skin vertices");
        size_t type_at = r->pos;
        uint8_t type = mmd_rd_u8(r);
        if (!ok(c))
            break;
        total_offsets += count;
        if (total_offsets > MMD_MAX_MORPH_OFFSETS) {
            mmd_rd_fail_at(r, start, MMD_E_LIMIT, "morph offsets exceed the limit");
            break;
        }
        if (i == 0) {
            if (type != 0) {
                mmd_rd_fail_at(r, type_at, MMD_E_BAD_STRUCTURE, "first skin has type %u, expected the base (0)", type);
                break;
            }
            base = alloc_array(c, count, sizeof *base);
            for (uint32_t j = 0; j < count && ok(c); j++) {
                size_t at = r->pos;
                base[j] = mmd_rd_u32(r);
                mmd_rd_skip(r, 12);
                if (ok(c) && base[j] >= m->vertex_count)
                    mmd_rd_fail_at(r, at, MMD_E_BAD_INDEX, "base vertex %u out of range (%u vertices)", base[j],
                                   m->vertex_count);
            }
            base_count = count;
            continue;
        }
        if (type == 0 || type > 4) {
            warn(c, type_at, "misplaced base skin or unknown panel: filed under \"other\"");
            type = 4;
        }
        mmd_morph *mo = &m->morphs[i - 1];
        if (offs)
            offs[i - 1] = off32(start);
        mo->name = sjis(c, name_raw, 20);
        mo->name_en = mmd_arena_strdup(c->a, "");
        mo->panel = type;
        mo->type = MMD_MORPH_VERTEX;
        mo->u.vertex = alloc_array(c, count, sizeof *mo->u.vertex);
        for (uint32_t j = 0; j < count && ok(c); j++) {
            size_t at = r->pos;
            uint32_t bi = mmd_rd_u32(r);
            mmd_rd_f32v(r, mo->u.vertex[j].offset, 3, false);
            if (!ok(c))
                break;
            if (bi >= base_count) {
                mmd_rd_fail_at(r, at, MMD_E_BAD_INDEX, "base index %u out of range (%u base vertices)", bi, base_count);
                break;
            }
            mo->u.vertex[j].vertex = base[bi];
        }
        mo->offset_count = count;
    }
    r->item = -1;
    if (ok(c)) {
        m->morph_count = n - 1;
        set_table(offs, n - 1, &m->file_offsets.morph, &m->file_offsets.morph_count);
    }
}

/* Skin display list, bone frame names and bone display list -> display frames. */
static void parse_display(pmd_ctx *c)
{
    mmd_reader *r = &c->r;
    mmd_model *m = c->m;
    r->section = "pmd.skin_display";
    uint32_t ns = read_count(c, 1, 2, 255, "skin display entries");
    uint16_t *skins = alloc_array(c, ns, sizeof *skins);
    for (uint32_t i = 0; i < ns && ok(c); i++) {
        r->item = i;
        size_t at = r->pos;
        skins[i] = mmd_rd_u16(r);
        if (ok(c) && (skins[i] == 0 || skins[i] >= c->skin_count))
            mmd_rd_fail_at(r, at, MMD_E_BAD_INDEX, "skin %u is not a displayable skin (1..%u)", skins[i],
                           c->skin_count ? c->skin_count - 1 : 0);
    }
    r->item = -1;

    r->section = "pmd.bone_frame_name";
    uint32_t nf = read_count(c, 1, 50, 255, "bone frame names");
    m->display_frames = alloc_array(c, (size_t)nf + 2, sizeof *m->display_frames);
    for (uint32_t i = 0; i < nf && ok(c); i++) {
        r->item = i;
        const uint8_t *s = mmd_rd_bytes(r, 50);
        if (!s)
            break;
        size_t len = mmd_text_fixed_len(s, 50);
        while (len > 0 && (s[len - 1] == '\n' || s[len - 1] == '\r' || s[len - 1] == ' '))
            len--;
        mmd_display_frame *f = &m->display_frames[2 + i];
        f->name = sjis(c, s, len);
        f->name_en = mmd_arena_strdup(c->a, "");
    }
    r->item = -1;
    c->frame_name_count = nf;

    r->section = "pmd.bone_display";
    uint32_t nd = read_count(c, 4, 3, MMD_MAX_BONES * 4u, "bone display entries");
    size_t start = r->pos;
    uint32_t *per_frame = alloc_array(c, (size_t)nf + 2, sizeof *per_frame);
    for (uint32_t i = 0; i < nd && ok(c); i++) {
        r->item = i;
        size_t at = r->pos;
        uint16_t bone = mmd_rd_u16(r);
        uint8_t frame = mmd_rd_u8(r);
        if (!ok(c))
            break;
        if (bone >= c->file_bones)
            mmd_rd_fail_at(r, at, MMD_E_BAD_INDEX, "bone %u out of range (%u bones)", bone, c->file_bones);
        else if (frame == 0 || frame > nf)
            mmd_rd_fail_at(r, at + 2, MMD_E_BAD_INDEX, "frame %u out of range (1..%u)", frame, nf);
        else
            per_frame[1 + frame]++;
    }
    r->item = -1;
    if (!ok(c))
        return;

    /* Build: Root, 表情, then the named frames. */
    mmd_display_frame *root = &m->display_frames[0], *expr = &m->display_frames[1];
    root->name = mmd_arena_strdup(c->a, "Root");
    root->name_en = mmd_arena_strdup(c->a, "Root");
    root->special = true;
    root->element_count = m->bone_count ? 1 : 0;
    root->elements = alloc_array(c, root->element_count, sizeof *root->elements);
    if (root->elements && root->element_count)
        root->elements[0].index = 0;
    expr->name = mmd_arena_strdup(c->a, "表情");
    expr->name_en = mmd_arena_strdup(c->a, "Exp");
    expr->special = true;
    expr->element_count = ns;
    expr->elements = alloc_array(c, ns, sizeof *expr->elements);
    for (uint32_t i = 0; i < ns && expr->elements; i++) {
        expr->elements[i].is_morph = 1;
        expr->elements[i].index = skins[i] - 1;
    }
    for (uint32_t f = 0; f < nf && ok(c); f++) {
        mmd_display_frame *fr = &m->display_frames[2 + f];
        fr->elements = alloc_array(c, per_frame[2 + f], sizeof *fr->elements);
    }
    if (!ok(c) || !root->name || !expr->name)
        return;
    const uint8_t *p = r->base + start;
    for (uint32_t i = 0; i < nd; i++, p += 3) {
        uint16_t bone = (uint16_t)(p[0] | (p[1] << 8));
        mmd_display_frame *fr = &m->display_frames[1 + p[2]];
        fr->elements[fr->element_count].is_morph = 0;
        fr->elements[fr->element_count].index = bone;
        fr->element_count++;
    }
    m->display_frame_count = nf + 2;
}

static void parse_english(pmd_ctx *c)
{
    mmd_reader *r = &c->r;
    mmd_model *m = c->m;
    r->section = "pmd.english";
    uint8_t flag = mmd_rd_u8(r);
    if (!ok(c) || flag == 0)
        return;
    m->name_en = read_name(c, 20);
    m->comment_en = read_name(c, 256);
    for (uint32_t i = 0; i < c->file_bones && ok(c); i++) {
        r->item = i;
        m->bones[i].name_en = read_name(c, 20);
    }
    for (uint32_t i = 0; i < m->morph_count && ok(c); i++) {
        r->item = i;
        m->morphs[i].name_en = read_name(c, 20);
    }
    for (uint32_t i = 0; i < c->frame_name_count && ok(c); i++) {
        r->item = i;
        const uint8_t *s = mmd_rd_bytes(r, 50);
        if (!s)
            break;
        size_t len = mmd_text_fixed_len(s, 50);
        while (len > 0 && (s[len - 1] == '\n' || s[len - 1] == '\r' || s[len - 1] == ' '))
            len--;
        m->display_frames[2 + i].name_en = sjis(c, s, len);
    }
    r->item = -1;
    /* extra IK bones share the English name of their source */
    for (uint32_t i = c->file_bones; i < m->bone_count && ok(c); i++)
        m->bones[i].name_en = m->bones[m->bones[i].parent].name_en;
}

/* "toon01.bmp".."toon10.bmp" (any folder, any case) -> 0..9, else -1. */
static int default_toon(const char *s)
{
    const char *base = s;
    for (const char *p = s; *p; p++)
        if (*p == '/' || *p == '\\')
            base = p + 1;
    if (strlen(base) != 10)
        return -1;
    char low[11];
    for (int i = 0; i < 10; i++)
        low[i] = (char)((base[i] >= 'A' && base[i] <= 'Z') ? base[i] - 'A' + 'a' : base[i]);
    low[10] = 0;
    if (memcmp(low, "toon", 4) || strcmp(low + 6, ".bmp") || low[4] < '0' || low[4] > '9' || low[5] < '0' ||
        low[5] > '9')
        return -1;
    int n = (low[4] - '0') * 10 + (low[5] - '0');
    return n >= 1 && n <= 10 ? n - 1 : -1;
}

static void parse_toons(pmd_ctx *c)
{
    mmd_reader *r = &c->r;
    mmd_model *m = c->m;
    r->section = "pmd.toon";
    char *names[10];
    for (int i = 0; i < 10 && ok(c); i++) {
        r->item = i;
        names[i] = read_name(c, 100);
    }
    r->item = -1;
    if (!ok(c))
        return;
    for (uint32_t i = 0; i < m->material_count && ok(c); i++) {
        mmd_material *mt = &m->materials[i];
        uint8_t t = c->toon_raw[i];
        if (t == 0xFF)
            continue;
        int d = default_toon(names[t]);
        if (d >= 0) {
            mt->toon_shared = true;
            mt->toon = d;
        } else if (names[t][0]) {
            mt->toon_shared = false;
            mt->toon = add_texture(c, names[t]);
        } else {
            mt->toon_shared = true; /* empty slot: the default toon of that slot */
            mt->toon = t;
        }
    }
}

static void parse_rigid_bodies(pmd_ctx *c)
{
    mmd_reader *r = &c->r;
    mmd_model *m = c->m;
    r->section = "pmd.rigid_body";
    uint32_t n = read_count(c, 4, RIGID_REC, MMD_MAX_RIGID_BODIES, "rigid bodies");
    m->rigid_bodies = alloc_array(c, n, sizeof *m->rigid_bodies);
    uint32_t *offs = offset_table(c, n);
    for (uint32_t i = 0; i < n && ok(c); i++) {
        r->item = i;
        if (offs)
            offs[i] = off32(r->pos);
        mmd_rigid_body *b = &m->rigid_bodies[i];
        b->name = read_name(c, 20);
        b->name_en = mmd_arena_strdup(c->a, "");
        uint16_t bone = mmd_rd_u16(r);
        size_t group_at = r->pos;
        b->group = mmd_rd_u8(r);
        b->no_collide_mask = mmd_rd_u16(r);
        size_t shape_at = r->pos;
        b->shape = mmd_rd_u8(r);
        mmd_rd_f32v(r, b->size, 3, false);
        mmd_rd_f32v(r, b->position, 3, false);
        mmd_rd_f32v(r, b->rotation, 3, false);
        mmd_rd_f32v(r, &b->mass, 1, false);
        mmd_rd_f32v(r, &b->linear_damping, 1, false);
        mmd_rd_f32v(r, &b->angular_damping, 1, false);
        mmd_rd_f32v(r, &b->restitution, 1, false);
        mmd_rd_f32v(r, &b->friction, 1, false);
        size_t mode_at = r->pos;
        b->mode = mmd_rd_u8(r);
        if (!ok(c))
            break;
        if (bone != 0xFFFF && bone >= c->file_bones) {
            /* as PMX (docs/compat.md): the body loses its bone, the model still loads */
            bone = 0xFFFF;
            warn(c, group_at - 2, "rigid body bone out of range: body placed in model space");
        }
        if (b->group > 15) {
            mmd_rd_fail_at(r, group_at, MMD_E_BAD_VALUE, "collision group %u > 15", b->group);
            break;
        }
        if (b->shape > 2) {
            mmd_rd_fail_at(r, shape_at, MMD_E_BAD_VALUE, "shape %u (0 sphere, 1 box, 2 capsule)", b->shape);
            break;
        }
        if (b->mode > 2) {
            mmd_rd_fail_at(r, mode_at, MMD_E_BAD_VALUE, "physics mode %u (0..2)", b->mode);
            break;
        }
        b->bone = bone == 0xFFFF ? -1 : bone;
        int32_t rel = b->bone >= 0 ? b->bone : (m->bone_count ? 0 : -1);
        if (rel >= 0)
            for (int k = 0; k < 3; k++)
                b->position[k] += m->bones[rel].position[k];
    }
    r->item = -1;
    if (ok(c)) {
        m->rigid_body_count = n;
        set_table(offs, n, &m->file_offsets.rigid_body, &m->file_offsets.rigid_body_count);
    }
}

static void parse_joints(pmd_ctx *c)
{
    mmd_reader *r = &c->r;
    mmd_model *m = c->m;
    r->section = "pmd.joint";
    uint32_t n = read_count(c, 4, JOINT_REC, MMD_MAX_JOINTS, "joints");
    m->joints = alloc_array(c, n, sizeof *m->joints);
    uint32_t *offs = offset_table(c, n);
    for (uint32_t i = 0; i < n && ok(c); i++) {
        r->item = i;
        if (offs)
            offs[i] = off32(r->pos);
        mmd_joint *j = &m->joints[i];
        j->name = read_name(c, 20);
        j->name_en = mmd_arena_strdup(c->a, "");
        j->type = MMD_JOINT_SPRING_6DOF;
        uint32_t a = mmd_rd_u32(r), b = mmd_rd_u32(r);
        mmd_rd_f32v(r, j->position, 3, false);
        mmd_rd_f32v(r, j->rotation, 3, false);
        mmd_rd_f32v(r, j->linear_lower, 3, false);
        mmd_rd_f32v(r, j->linear_upper, 3, false);
        mmd_rd_f32v(r, j->angular_lower, 3, false);
        mmd_rd_f32v(r, j->angular_upper, 3, false);
        mmd_rd_f32v(r, j->spring_linear, 3, false);
        mmd_rd_f32v(r, j->spring_angular, 3, false);
        if (!ok(c))
            break;
        /* a body out of range (0xFFFFFFFF in some files) disables the joint:
         * physics skips joints with a -1 body (docs/compat.md) */
        if (a >= m->rigid_body_count || b >= m->rigid_body_count)
            warn(c, r->pos - JOINT_REC + 20, "joint body out of range: joint disabled");
        j->body_a = a < m->rigid_body_count ? (int32_t)a : -1;
        j->body_b = b < m->rigid_body_count ? (int32_t)b : -1;
    }
    r->item = -1;
    if (ok(c)) {
        m->joint_count = n;
        set_table(offs, n, &m->file_offsets.joint, &m->file_offsets.joint_count);
    }
}

/* Strings must never be NULL after a load. */
static void fill_empty_strings(pmd_ctx *c)
{
    mmd_model *m = c->m;
    char *e = mmd_arena_strdup(c->a, "");
    if (!e) {
        mmd_rd_fail(&c->r, MMD_E_NOMEM, "out of memory");
        return;
    }
#define FIX(s) do { if (!(s)) (s) = e; } while (0)
    FIX(m->name); FIX(m->name_en); FIX(m->comment); FIX(m->comment_en);
    for (uint32_t i = 0; i < m->material_count; i++) {
        FIX(m->materials[i].name); FIX(m->materials[i].name_en); FIX(m->materials[i].memo);
    }
    for (uint32_t i = 0; i < m->bone_count; i++) {
        FIX(m->bones[i].name); FIX(m->bones[i].name_en);
    }
    for (uint32_t i = 0; i < m->morph_count; i++) {
        FIX(m->morphs[i].name); FIX(m->morphs[i].name_en);
    }
    for (uint32_t i = 0; i < m->display_frame_count; i++) {
        FIX(m->display_frames[i].name); FIX(m->display_frames[i].name_en);
    }
    for (uint32_t i = 0; i < m->rigid_body_count; i++) {
        FIX(m->rigid_bodies[i].name); FIX(m->rigid_bodies[i].name_en);
    }
    for (uint32_t i = 0; i < m->joint_count; i++) {
        FIX(m->joints[i].name); FIX(m->joints[i].name_en);
    }
#undef FIX
}

mmd_status mmd_pmd_parse(const uint8_t *data, size_t size, mmd_model *m, mmd_text *t, mmd_error *err)
{
    pmd_ctx c;
    memset(&c, 0, sizeof c);
    mmd_reader_init(&c.r, data, size, err);
    c.m = m;
    c.t = t;
    c.a = m->arena;
    parse_header(&c);
    if (ok(&c)) parse_vertices(&c);
    if (ok(&c)) parse_faces(&c);
    if (ok(&c)) parse_materials(&c);
    if (ok(&c)) parse_bones_and_ik(&c);
    if (ok(&c)) parse_skins(&c);
    if (ok(&c)) parse_display(&c);
    /* Optional trailing sections: EOF at a boundary ends the file. */
    if (ok(&c) && mmd_rd_left(&c.r) > 0) parse_english(&c);
    if (ok(&c) && mmd_rd_left(&c.r) > 0) parse_toons(&c);
    if (ok(&c) && mmd_rd_left(&c.r) > 0) parse_rigid_bodies(&c);
    if (ok(&c) && mmd_rd_left(&c.r) > 0) parse_joints(&c);
    if (ok(&c) && mmd_rd_left(&c.r) > 0) {
        c.r.section = "pmd";
        c.r.item = -1;
        warn(&c, c.r.pos, "bytes after the last section: ignored");
    }
    if (ok(&c))
        fill_empty_strings(&c);
    if (ok(&c) && c.bad) {
        c.r.section = "pmd";
        c.r.item = -1;
        mmd_rd_warn(&c.r, &m->warning_list, &m->warnings, -1, "text that is not valid Shift-JIS: characters replaced");
    }
    return c.r.err->status;
}
