/* core/pmx.c - PMX 2.0/2.1 reader (structure only; semantics in validate.c).
 *
 * Layout follows the PmxEditor specification (PMX 2.0 plus the 2.1 additions:
 * QDEF, flip/impulse morphs, joint types, material point/line/vertex-colour flags,
 * soft bodies). Every count is checked against the bytes left before allocating,
 * every header field where it is read, every reference where the referenced
 * section's size is already known. Vertex bone indices and impulse morph rigid
 * bodies refer to later sections: mmd_model_validate checks them.
 */
#include <math.h>
#include <string.h>

#include "core/model_internal.h"

typedef struct px {
    mmd_reader r;
    mmd_model *m;
    mmd_text *t;
    char *empty;
    int utf8;
    int vsz, tsz, msz, bsz, morsz, rsz; /* index widths */
} px;

static bool ok(const px *p) { return mmd_rd_ok(&p->r); }

static void nomem(px *p) { mmd_rd_fail(&p->r, MMD_E_NOMEM, "out of memory"); }
/* A repair (docs/compat.md) in the current section and element. */
static void warn(px *p, int64_t offset, const char *what)
{
    mmd_rd_warn(&p->r, &p->m->warning_list, &p->m->warnings, offset, what);
}

static char *rd_text(px *p)
{
    mmd_reader *r = &p->r;
    size_t at = r->pos;
    int32_t n = mmd_rd_i32(r);
    if (!mmd_rd_ok(r))
        return p->empty;
    if (n < 0) {
        mmd_rd_fail_at(r, at, MMD_E_BAD_STRING, "negative text length %d", n);
        return p->empty;
    }
    if ((uint32_t)n > MMD_MAX_TEXT_BYTES) {
        mmd_rd_fail_at(r, at, MMD_E_LIMIT, "text length %d exceeds limit %u", n, MMD_MAX_TEXT_BYTES);
        return p->empty;
    }
    const uint8_t *b = mmd_rd_bytes(r, (size_t)n);
    if (!b)
        return p->empty;
    if (n == 0)
        return p->empty;
    unsigned bad = 0;
    char *s = p->utf8 ? mmd_text_utf8(p->t, p->m->arena, b, (size_t)n, &bad)
                      : mmd_text_utf16le(p->t, p->m->arena, b, (size_t)n, &bad);
    if (!s) {
        nomem(p);
        return p->empty;
    }
    if (bad || (!p->utf8 && (n & 1)))
        warn(p, (int64_t)(p->r.pos - (size_t)n), p->utf8 ? "text that is not valid UTF-8: characters replaced"
                                                          : "text that is not valid UTF-16LE: characters replaced");
    return s;
}

static void *alloc_array(px *p, size_t n, size_t size)
{
    void *a = mmd_arena_array(p->m->arena, n, size);
    if (!a)
        nomem(p);
    return a;
}

/* Floats whose NaN/Inf is damage we repair: read as stored, mmd_model_validate
 * replaces non-finite values with neutral ones and counts a warning (docs/compat.md). */
static void rd_f(px *p, float *out, int n) { mmd_rd_f32v(&p->r, out, n, false); }
/* Floats that must be finite (vertex positions, bone weights, bone positions):
 * NaN/Inf is MMD_E_BAD_VALUE at its byte offset. */
static void rd_strict(px *p, float *out, int n) { mmd_rd_f32v(&p->r, out, n, true); }

/* Cosmetic reference (tail bone, rigid-body bone, joint body): anything but -1 or
 * [0, limit) reads as -1 with a warning (`what`, a static sentence) instead of
 * failing the load. */
static int32_t rd_idx_loose(px *p, int width, int32_t limit, const char *what)
{
    size_t at = p->r.pos;
    int32_t v;
    switch (width) {
    case 1: v = (int8_t)mmd_rd_u8(&p->r); break;
    case 2: v = (int16_t)mmd_rd_u16(&p->r); break;
    default: v = mmd_rd_i32(&p->r); break;
    }
    if (!ok(p) || v == -1)
        return -1;
    if (v < 0 || v >= limit) {
        warn(p, (int64_t)at, what);
        return -1;
    }
    return v;
}

/* Offset table for n elements of a section (model.h: mmd_model_offsets). A
 * failed allocation only loses the offsets, never the load. */
static uint32_t *offset_table(px *p, uint32_t n, uint32_t **tab, uint32_t *count)
{
    *tab = n ? mmd_arena_array(p->m->arena, n, sizeof **tab) : NULL;
    *count = *tab ? n : 0;
    return *tab;
}

static void note_offset(const px *p, uint32_t *tab, uint32_t i)
{
    if (tab)
        tab[i] = p->r.pos < UINT32_MAX ? (uint32_t)p->r.pos : UINT32_MAX;
}

static int32_t rd_idx(px *p, int width, int32_t limit, bool none, const char *what)
{
    return mmd_rd_index(&p->r, width, limit, none, what);
}

static uint8_t rd_enum(px *p, uint8_t max, const char *what)
{
    size_t at = p->r.pos;
    uint8_t v = mmd_rd_u8(&p->r);
    if (ok(p) && v > max)
        mmd_rd_fail_at(&p->r, at, MMD_E_BAD_VALUE, "%s %u out of range (0..%u)", what, v, max);
    return v;
}

/* Appearance-only enum (docs/compat.md): a value above max becomes `repaired`
 * with a warning (`what`, a static sentence) instead of failing the load. */
static uint8_t rd_enum_loose(px *p, uint8_t max, uint8_t repaired, const char *what)
{
    size_t at = p->r.pos;
    uint8_t v = mmd_rd_u8(&p->r);
    if (ok(p) && v > max) {
        warn(p, (int64_t)at, what);
        v = repaired;
    }
    return v;
}

static void begin(px *p, const char *section)
{
    p->r.section = section;
    p->r.item = -1;
}

/* ---- header ---- */

static void parse_header(px *p)
{
    mmd_reader *r = &p->r;
    mmd_model *m = p->m;
    begin(p, "pmx.header");
    const uint8_t *magic = mmd_rd_bytes(r, 4);
    if (!magic)
        return;
    if (memcmp(magic, "PMX ", 4) != 0) {
        mmd_rd_fail_at(r, 0, MMD_E_BAD_MAGIC, "not a PMX file (magic is not \"PMX \")");
        return;
    }
    size_t at = r->pos;
    float ver = mmd_rd_f32(r);
    if (!ok(p))
        return;
    if (ver == 2.0f)
        m->version = 2.0f;
    else if (ver == 2.1f)
        m->version = 2.1f;
    else {
        mmd_rd_fail_at(r, at, MMD_E_BAD_VERSION, "PMX version %g is not 2.0 or 2.1", (double)ver);
        return;
    }
    at = r->pos;
    uint8_t nglob = mmd_rd_u8(r);
    if (ok(p) && nglob < 8) {
        mmd_rd_fail_at(r, at, MMD_E_BAD_HEADER, "globals byte count %u < 8", nglob);
        return;
    }
    const uint8_t *g = mmd_rd_bytes(r, nglob);
    if (!g)
        return;
    size_t gat = at + 1;
    if (g[0] > 1) {
        mmd_rd_fail_at(r, gat, MMD_E_BAD_HEADER, "text encoding %u is not 0 (UTF-16LE) or 1 (UTF-8)", g[0]);
        return;
    }
    if (g[1] > 4) {
        mmd_rd_fail_at(r, gat + 1, MMD_E_BAD_HEADER, "additional UV count %u > 4", g[1]);
        return;
    }
    static const char *const names[6] = {"vertex", "texture", "material", "bone", "morph", "rigid body"};
    for (int i = 0; i < 6; i++) {
        uint8_t w = g[2 + i];
        if (w != 1 && w != 2 && w != 4) {
            mmd_rd_fail_at(r, gat + 2 + (size_t)i, MMD_E_BAD_HEADER, "%s index size %u is not 1, 2 or 4",
                           names[i], w);
            return;
        }
        m->index_size[i] = w;
    }
    m->encoding = g[0] ? MMD_ENC_UTF8 : MMD_ENC_UTF16LE;
    p->utf8 = g[0];
    m->additional_uv_count = g[1];
    p->vsz = g[2];
    p->tsz = g[3];
    p->msz = g[4];
    p->bsz = g[5];
    p->morsz = g[6];
    p->rsz = g[7];

    begin(p, "pmx.info");
    m->name = rd_text(p);
    m->name_en = rd_text(p);
    m->comment = rd_text(p);
    m->comment_en = rd_text(p);
}

/* ---- vertices / faces / textures ---- */

static void parse_vertices(px *p)
{
    mmd_model *m = p->m;
    mmd_reader *r = &p->r;
    begin(p, "pmx.vertex");
    int nuv = m->additional_uv_count;
    size_t minrec = 32 + 16 * (size_t)nuv + 1 + (size_t)p->bsz + 4;
    uint32_t n = mmd_rd_count(r, minrec, MMD_MAX_VERTICES);
    if (!ok(p))
        return;
    m->vertices = alloc_array(p, n, sizeof *m->vertices);
    if (!m->vertices)
        return;
    m->vertex_count = n;
    mmd_model_offsets *fo = &m->file_offsets;
    uint32_t *offs = offset_table(p, n, &fo->vertex, &fo->vertex_count);
    const int32_t lim = INT32_MAX; /* bones not read yet: validate checks */
    for (uint32_t i = 0; i < n && ok(p); i++) {
        r->item = i;
        note_offset(p, offs, i);
        mmd_vertex *v = &m->vertices[i];
        rd_strict(p, v->position, 3);
        rd_f(p, v->normal, 3);
        rd_f(p, v->uv, 2);
        for (int k = 0; k < nuv; k++)
            rd_f(p, v->add_uv[k], 4);
        v->weight_type = rd_enum(p, MMD_WEIGHT_QDEF, "weight type");
        v->bones[0] = v->bones[1] = v->bones[2] = v->bones[3] = -1;
        switch (v->weight_type) {
        case MMD_WEIGHT_BDEF1:
            v->bones[0] = rd_idx(p, p->bsz, lim, true, "bone");
            v->weights[0] = 1.0f;
            break;
        case MMD_WEIGHT_BDEF2:
        case MMD_WEIGHT_SDEF:
            v->bones[0] = rd_idx(p, p->bsz, lim, true, "bone");
            v->bones[1] = rd_idx(p, p->bsz, lim, true, "bone");
            rd_strict(p, v->weights, 1);
            v->weights[1] = 1.0f - v->weights[0];
            if (v->weight_type == MMD_WEIGHT_SDEF) {
                rd_f(p, v->sdef_c, 3);
                rd_f(p, v->sdef_r0, 3);
                rd_f(p, v->sdef_r1, 3);
            }
            break;
        default: /* BDEF4, QDEF */
            for (int k = 0; k < 4; k++)
                v->bones[k] = rd_idx(p, p->bsz, lim, true, "bone");
            rd_strict(p, v->weights, 4);
            break;
        }
        rd_f(p, &v->edge_scale, 1);
    }
    r->item = -1;
}

static void parse_faces(px *p)
{
    mmd_model *m = p->m;
    mmd_reader *r = &p->r;
    begin(p, "pmx.face");
    uint32_t n = mmd_rd_count(r, (size_t)p->vsz, MMD_MAX_INDICES);
    if (!ok(p))
        return;
    m->indices = alloc_array(p, n, sizeof *m->indices);
    if (!m->indices)
        return;
    m->index_count = n;
    const uint8_t *b = mmd_rd_bytes(r, (size_t)n * (size_t)p->vsz);
    if (!b)
        return;
    size_t base = r->pos - (size_t)n * (size_t)p->vsz;
    if (base < UINT32_MAX) {
        m->file_offsets.face = (uint32_t)base;
        m->file_offsets.face_index_size = (uint8_t)p->vsz;
    }
    uint32_t vc = m->vertex_count;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t v;
        switch (p->vsz) {
        case 1: v = b[i]; break;
        case 2: v = (uint32_t)b[2 * i] | ((uint32_t)b[2 * i + 1] << 8); break;
        default:
            v = (uint32_t)b[4 * i] | ((uint32_t)b[4 * i + 1] << 8) | ((uint32_t)b[4 * i + 2] << 16) |
                ((uint32_t)b[4 * i + 3] << 24);
            break;
        }
        if (v >= vc) {
            r->item = i / 3;
            if (p->vsz == 4 && (int32_t)v < 0)
                mmd_rd_fail_at(r, base + (size_t)i * (size_t)p->vsz, MMD_E_BAD_INDEX,
                               "vertex index %d is negative", (int32_t)v);
            else
                mmd_rd_fail_at(r, base + (size_t)i * (size_t)p->vsz, MMD_E_BAD_INDEX,
                               "vertex index %u out of range (%u vertices)", v, vc);
            return;
        }
        m->indices[i] = v;
    }
}

static void parse_textures(px *p)
{
    mmd_model *m = p->m;
    mmd_reader *r = &p->r;
    begin(p, "pmx.texture");
    uint32_t n = mmd_rd_count(r, 4, MMD_MAX_TEXTURES);
    if (!ok(p))
        return;
    m->textures = alloc_array(p, n, sizeof *m->textures);
    if (!m->textures)
        return;
    m->texture_count = n;
    for (uint32_t i = 0; i < n && ok(p); i++) {
        r->item = i;
        m->textures[i] = rd_text(p);
    }
    r->item = -1;
}

/* ---- materials ---- */

static void parse_materials(px *p)
{
    mmd_model *m = p->m;
    mmd_reader *r = &p->r;
    begin(p, "pmx.material");
    size_t sec_at = r->pos;
    uint32_t n = mmd_rd_count(r, 84 + 2 * (size_t)p->tsz, MMD_MAX_MATERIALS);
    if (!ok(p))
        return;
    m->materials = alloc_array(p, n, sizeof *m->materials);
    if (!m->materials)
        return;
    m->material_count = n;
    mmd_model_offsets *fo = &m->file_offsets;
    uint32_t *offs = offset_table(p, n, &fo->material, &fo->material_count);
    fo->material_section = sec_at < UINT32_MAX ? (uint32_t)sec_at : UINT32_MAX;
    int32_t tc = (int32_t)m->texture_count;
    for (uint32_t i = 0; i < n && ok(p); i++) {
        r->item = i;
        note_offset(p, offs, i);
        mmd_material *mt = &m->materials[i];
        mt->name = rd_text(p);
        mt->name_en = rd_text(p);
        rd_f(p, mt->diffuse, 4);
        rd_f(p, mt->specular, 3);
        rd_f(p, &mt->specular_power, 1);
        rd_f(p, mt->ambient, 3);
        size_t flags_at = r->pos;
        mt->flags = mmd_rd_u8(r);
        if (ok(p) && m->version < 2.1f && (mt->flags & 0xE0)) {
            /* 0x20 vertex colour, 0x40 points, 0x80 lines exist in PMX 2.1 only */
            mt->flags &= 0x1F;
            warn(p, (int64_t)flags_at, "PMX 2.1 draw flags (vertex colour/points/lines) in a 2.0 file: ignored");
        }
        rd_f(p, mt->edge_color, 4);
        rd_f(p, &mt->edge_size, 1);
        mt->texture = rd_idx(p, p->tsz, tc, true, "texture");
        mt->sphere_texture = rd_idx(p, p->tsz, tc, true, "texture");
        mt->sphere_mode = rd_enum_loose(p, MMD_SPHERE_SUB_TEXTURE, MMD_SPHERE_NONE,
                                        "sphere mode out of range (0..3): no sphere");
        uint8_t shared = rd_enum(p, 1, "shared toon flag");
        mt->toon_shared = shared != 0;
        if (shared) {
            uint8_t tv = mmd_rd_u8(r);
            /* 0..9 = toon01..toon10; 0xFF = none (as PMD's toon index). Some exporters
             * write 10..254: no such shared toon exists, so it reads as none (warning). */
            if (ok(p) && tv > 9 && tv != 0xFF)
                warn(p, (int64_t)r->pos - 1, "shared toon index 10..254 (no such toon): no toon");
            mt->toon = tv > 9 ? -1 : tv;
        } else {
            mt->toon = rd_idx(p, p->tsz, tc, true, "texture");
        }
        mt->memo = rd_text(p);
        size_t at = r->pos;
        int32_t ic = mmd_rd_i32(r);
        if (ok(p) && ic < 0)
            mmd_rd_fail_at(r, at, MMD_E_BAD_COUNT, "negative face index count %d", ic);
        mt->index_count = (uint32_t)ic;
    }
    r->item = -1;
}

/* ---- bones ---- */

static void parse_bones(px *p)
{
    mmd_model *m = p->m;
    mmd_reader *r = &p->r;
    begin(p, "pmx.bone");
    uint32_t n = mmd_rd_count(r, 26 + 2 * (size_t)p->bsz, MMD_MAX_BONES);
    if (!ok(p))
        return;
    m->bones = alloc_array(p, n, sizeof *m->bones);
    if (!m->bones)
        return;
    m->bone_count = n;
    int32_t bc = (int32_t)n;
    uint32_t *offs = offset_table(p, n, &m->file_offsets.bone, &m->file_offsets.bone_count);
    for (uint32_t i = 0; i < n && ok(p); i++) {
        r->item = i;
        note_offset(p, offs, i);
        mmd_bone *b = &m->bones[i];
        b->name = rd_text(p);
        b->name_en = rd_text(p);
        rd_strict(p, b->position, 3);
        b->parent = rd_idx(p, p->bsz, bc, true, "bone");
        b->layer = mmd_rd_i32(r);
        b->flags = mmd_rd_u16(r);
        b->tail_bone = -1;
        b->append_parent = -1;
        b->ik_target = -1;
        if (b->flags & MMD_BONE_TAIL_IS_BONE)
            b->tail_bone = rd_idx_loose(p, p->bsz, bc, "tail bone out of range: no tail (display only)");
        else
            rd_f(p, b->tail_offset, 3);
        if (b->flags & (MMD_BONE_APPEND_ROTATE | MMD_BONE_APPEND_TRANSLATE)) {
            b->append_parent = rd_idx(p, p->bsz, bc, true, "bone");
            rd_f(p, &b->append_ratio, 1);
        }
        if (b->flags & MMD_BONE_FIXED_AXIS)
            rd_f(p, b->fixed_axis, 3);
        if (b->flags & MMD_BONE_LOCAL_AXES) {
            rd_f(p, b->local_x, 3);
            rd_f(p, b->local_z, 3);
        }
        if (b->flags & MMD_BONE_EXTERNAL_PARENT)
            b->external_key = mmd_rd_i32(r);
        if (b->flags & MMD_BONE_IK) {
            b->ik_target = rd_idx(p, p->bsz, bc, false, "bone");
            size_t at = r->pos;
            b->ik_loop = mmd_rd_i32(r);
            if (ok(p) && (b->ik_loop < 0 || b->ik_loop > MMD_MAX_IK_LOOPS))
                mmd_rd_fail_at(r, at, MMD_E_BAD_VALUE, "IK loop count %d out of range (0..%d)", b->ik_loop,
                               MMD_MAX_IK_LOOPS);
            rd_f(p, &b->ik_limit_angle, 1);
            uint32_t nl = mmd_rd_count(r, (size_t)p->bsz + 1, MMD_MAX_IK_LINKS);
            if (!ok(p))
                break;
            b->ik_links = alloc_array(p, nl, sizeof *b->ik_links);
            if (!b->ik_links)
                break;
            b->ik_link_count = nl;
            for (uint32_t k = 0; k < nl && ok(p); k++) {
                mmd_ik_link *l = &b->ik_links[k];
                l->bone = rd_idx(p, p->bsz, bc, false, "bone");
                l->has_limit = rd_enum(p, 1, "IK link limit flag") != 0;
                if (l->has_limit) {
                    rd_f(p, l->lower, 3);
                    rd_f(p, l->upper, 3);
                }
            }
        }
    }
    r->item = -1;
}

/* ---- morphs ---- */

static size_t morph_record_size(const px *p, int type)
{
    switch (type) {
    case MMD_MORPH_GROUP:
    case MMD_MORPH_FLIP: return (size_t)p->morsz + 4;
    case MMD_MORPH_VERTEX: return (size_t)p->vsz + 12;
    case MMD_MORPH_BONE: return (size_t)p->bsz + 28;
    case MMD_MORPH_MATERIAL: return (size_t)p->msz + 113;
    case MMD_MORPH_IMPULSE: return (size_t)p->rsz + 25;
    default: return (size_t)p->vsz + 16; /* UV, add UV */
    }
}

static void parse_morphs(px *p)
{
    mmd_model *m = p->m;
    mmd_reader *r = &p->r;
    begin(p, "pmx.morph");
    uint32_t n = mmd_rd_count(r, 14, MMD_MAX_MORPHS);
    if (!ok(p))
        return;
    m->morphs = alloc_array(p, n, sizeof *m->morphs);
    if (!m->morphs)
        return;
    m->morph_count = n;
    uint64_t total = 0;
    int32_t bc = (int32_t)m->bone_count, mc = (int32_t)m->material_count, nc = (int32_t)n;
    uint32_t vc = m->vertex_count;
    uint32_t *offs = offset_table(p, n, &m->file_offsets.morph, &m->file_offsets.morph_count);
    for (uint32_t i = 0; i < n && ok(p); i++) {
        r->item = i;
        note_offset(p, offs, i);
        mmd_morph *mo = &m->morphs[i];
        mo->name = rd_text(p);
        mo->name_en = rd_text(p);
        mo->panel = rd_enum_loose(p, 4, 4, "morph panel out of range (0..4): filed under \"other\"");
        mo->type = rd_enum(p, MMD_MORPH_IMPULSE, "morph type");
        if (!ok(p))
            break;
        size_t at = r->pos;
        uint32_t c = mmd_rd_count(r, morph_record_size(p, mo->type), MMD_MAX_MORPH_OFFSETS);
        if (!ok(p))
            break;
        total += c;
        if (total > MMD_MAX_MORPH_OFFSETS) {
            mmd_rd_fail_at(r, at, MMD_E_LIMIT, "total morph offsets exceed limit %u", MMD_MAX_MORPH_OFFSETS);
            break;
        }
        mo->offset_count = c;
        switch (mo->type) {
        case MMD_MORPH_GROUP:
        case MMD_MORPH_FLIP:
            mo->u.group = alloc_array(p, c, sizeof *mo->u.group);
            for (uint32_t k = 0; k < c && ok(p); k++) {
                mo->u.group[k].morph = rd_idx(p, p->morsz, nc, false, "morph");
                rd_f(p, &mo->u.group[k].weight, 1);
            }
            break;
        case MMD_MORPH_VERTEX:
            mo->u.vertex = alloc_array(p, c, sizeof *mo->u.vertex);
            for (uint32_t k = 0; k < c && ok(p); k++) {
                mo->u.vertex[k].vertex = mmd_rd_vertex_index(r, p->vsz, vc);
                rd_f(p, mo->u.vertex[k].offset, 3);
            }
            break;
        case MMD_MORPH_BONE:
            mo->u.bone = alloc_array(p, c, sizeof *mo->u.bone);
            for (uint32_t k = 0; k < c && ok(p); k++) {
                mo->u.bone[k].bone = rd_idx(p, p->bsz, bc, false, "bone");
                rd_f(p, mo->u.bone[k].translation, 3);
                rd_f(p, mo->u.bone[k].rotation, 4);
            }
            break;
        case MMD_MORPH_MATERIAL:
            mo->u.material = alloc_array(p, c, sizeof *mo->u.material);
            for (uint32_t k = 0; k < c && ok(p); k++) {
                mmd_morph_material *mm = &mo->u.material[k];
                mm->material = rd_idx(p, p->msz, mc, true, "material");
                size_t op_at = r->pos;
                mm->op = mmd_rd_u8(r);
                rd_f(p, mm->diffuse, 4);
                rd_f(p, mm->specular, 3);
                rd_f(p, &mm->specular_power, 1);
                rd_f(p, mm->ambient, 3);
                rd_f(p, mm->edge_color, 4);
                rd_f(p, &mm->edge_size, 1);
                rd_f(p, mm->texture_tint, 4);
                rd_f(p, mm->sphere_tint, 4);
                rd_f(p, mm->toon_tint, 4);
                if (ok(p) && mm->op > 1) {
                    /* no such operation: the offset becomes a neutral add (no effect) */
                    memset(mm, 0, sizeof *mm);
                    mm->material = -1;
                    mm->op = 1;
                    warn(p, (int64_t)op_at, "material morph operation out of range (0..1): offset has no effect");
                }
            }
            break;
        case MMD_MORPH_IMPULSE:
            mo->u.impulse = alloc_array(p, c, sizeof *mo->u.impulse);
            for (uint32_t k = 0; k < c && ok(p); k++) {
                mmd_morph_impulse *im = &mo->u.impulse[k];
                /* rigid bodies come later: validate checks the range */
                im->rigid_body = rd_idx(p, p->rsz, INT32_MAX, false, "rigid body");
                im->local = rd_enum_loose(p, 1, 1, "impulse local flag > 1: read as local") != 0;
                rd_f(p, im->velocity, 3);
                rd_f(p, im->torque, 3);
            }
            break;
        default: /* UV, add UV1..4 */
            mo->u.uv = alloc_array(p, c, sizeof *mo->u.uv);
            for (uint32_t k = 0; k < c && ok(p); k++) {
                mo->u.uv[k].vertex = mmd_rd_vertex_index(r, p->vsz, vc);
                rd_f(p, mo->u.uv[k].offset, 4);
            }
            break;
        }
    }
    r->item = -1;
}

/* ---- display frames ---- */

static void parse_frames(px *p)
{
    mmd_model *m = p->m;
    mmd_reader *r = &p->r;
    begin(p, "pmx.display_frame");
    uint32_t n = mmd_rd_count(r, 13, MMD_MAX_BONES + MMD_MAX_MORPHS);
    if (!ok(p))
        return;
    m->display_frames = alloc_array(p, n, sizeof *m->display_frames);
    if (!m->display_frames)
        return;
    m->display_frame_count = n;
    int32_t bc = (int32_t)m->bone_count, mc = (int32_t)m->morph_count;
    size_t minel = 1 + (size_t)(p->bsz < p->morsz ? p->bsz : p->morsz);
    uint32_t *offs = offset_table(p, n, &m->file_offsets.display_frame, &m->file_offsets.display_frame_count);
    for (uint32_t i = 0; i < n && ok(p); i++) {
        r->item = i;
        note_offset(p, offs, i);
        mmd_display_frame *f = &m->display_frames[i];
        f->name = rd_text(p);
        f->name_en = rd_text(p);
        f->special = rd_enum_loose(p, 1, 1, "special frame flag > 1: read as special") != 0;
        uint32_t c = mmd_rd_count(r, minel, MMD_MAX_BONES + MMD_MAX_MORPHS);
        if (!ok(p))
            break;
        f->elements = alloc_array(p, c, sizeof *f->elements);
        if (!f->elements)
            break;
        uint32_t kept = 0;
        for (uint32_t k = 0; k < c && ok(p); k++) {
            mmd_frame_element *e = &f->elements[kept];
            e->is_morph = rd_enum(p, 1, "frame element type");
            /* display frames only drive the editor's UI: a stale entry (out of
             * range or -1) is dropped with a warning */
            static const char dropped[] = "display frame element out of range or -1: dropped";
            size_t at = r->pos;
            unsigned w0 = m->warnings;
            e->index = e->is_morph ? rd_idx_loose(p, p->morsz, mc, dropped) : rd_idx_loose(p, p->bsz, bc, dropped);
            if (e->index >= 0)
                kept++;
            else if (ok(p) && m->warnings == w0)
                warn(p, (int64_t)at, dropped);
        }
        f->element_count = kept;
    }
    r->item = -1;
}

/* ---- physics ---- */

static void parse_rigid_bodies(px *p)
{
    mmd_model *m = p->m;
    mmd_reader *r = &p->r;
    begin(p, "pmx.rigid_body");
    uint32_t n = mmd_rd_count(r, 69 + (size_t)p->bsz, MMD_MAX_RIGID_BODIES);
    if (!ok(p))
        return;
    m->rigid_bodies = alloc_array(p, n, sizeof *m->rigid_bodies);
    if (!m->rigid_bodies)
        return;
    m->rigid_body_count = n;
    int32_t bc = (int32_t)m->bone_count;
    uint32_t *offs = offset_table(p, n, &m->file_offsets.rigid_body, &m->file_offsets.rigid_body_count);
    for (uint32_t i = 0; i < n && ok(p); i++) {
        r->item = i;
        note_offset(p, offs, i);
        mmd_rigid_body *b = &m->rigid_bodies[i];
        b->name = rd_text(p);
        b->name_en = rd_text(p);
        b->bone = rd_idx_loose(p, p->bsz, bc, "rigid body bone out of range: body placed in model space");
        b->group = rd_enum(p, 15, "collision group");
        b->no_collide_mask = mmd_rd_u16(r);
        b->shape = rd_enum(p, MMD_SHAPE_CAPSULE, "shape");
        rd_f(p, b->size, 3);
        rd_f(p, b->position, 3);
        rd_f(p, b->rotation, 3);
        rd_f(p, &b->mass, 1);
        rd_f(p, &b->linear_damping, 1);
        rd_f(p, &b->angular_damping, 1);
        rd_f(p, &b->restitution, 1);
        rd_f(p, &b->friction, 1);
        b->mode = rd_enum(p, MMD_BODY_PHYSICS_BONE_POS, "physics mode");
    }
    r->item = -1;
}

static void parse_joints(px *p)
{
    mmd_model *m = p->m;
    mmd_reader *r = &p->r;
    begin(p, "pmx.joint");
    uint32_t n = mmd_rd_count(r, 105 + 2 * (size_t)p->rsz, MMD_MAX_JOINTS);
    if (!ok(p))
        return;
    m->joints = alloc_array(p, n, sizeof *m->joints);
    if (!m->joints)
        return;
    m->joint_count = n;
    int32_t rc = (int32_t)m->rigid_body_count;
    uint32_t *offs = offset_table(p, n, &m->file_offsets.joint, &m->file_offsets.joint_count);
    for (uint32_t i = 0; i < n && ok(p); i++) {
        r->item = i;
        note_offset(p, offs, i);
        mmd_joint *j = &m->joints[i];
        j->name = rd_text(p);
        j->name_en = rd_text(p);
        j->type = rd_enum(p, MMD_JOINT_HINGE, "joint type");
        /* a joint missing a body is disabled (physics skips it), as in MMD */
        j->body_a = rd_idx_loose(p, p->rsz, rc, "joint body out of range: joint disabled");
        j->body_b = rd_idx_loose(p, p->rsz, rc, "joint body out of range: joint disabled");
        rd_f(p, j->position, 3);
        rd_f(p, j->rotation, 3);
        rd_f(p, j->linear_lower, 3);
        rd_f(p, j->linear_upper, 3);
        rd_f(p, j->angular_lower, 3);
        rd_f(p, j->angular_upper, 3);
        rd_f(p, j->spring_linear, 3);
        rd_f(p, j->spring_angular, 3);
    }
    r->item = -1;
}

static void parse_soft_bodies(px *p)
{
    mmd_model *m = p->m;
    mmd_reader *r = &p->r;
    begin(p, "pmx.soft_body");
    uint32_t n = mmd_rd_count(r, 141 + (size_t)p->msz, MMD_MAX_RIGID_BODIES);
    if (!ok(p))
        return;
    m->soft_bodies = alloc_array(p, n, sizeof *m->soft_bodies);
    if (!m->soft_bodies)
        return;
    m->soft_body_count = n;
    int32_t rc = (int32_t)m->rigid_body_count, mc = (int32_t)m->material_count;
    uint32_t vc = m->vertex_count;
    uint32_t *offs = offset_table(p, n, &m->file_offsets.soft_body, &m->file_offsets.soft_body_count);
    for (uint32_t i = 0; i < n && ok(p); i++) {
        r->item = i;
        note_offset(p, offs, i);
        mmd_soft_body *s = &m->soft_bodies[i];
        s->name = rd_text(p);
        s->name_en = rd_text(p);
        s->shape = rd_enum(p, 1, "soft body shape");
        s->material = rd_idx(p, p->msz, mc, true, "material");
        s->group = rd_enum(p, 15, "collision group");
        s->no_collide_mask = mmd_rd_u16(r);
        s->flags = mmd_rd_u8(r);
        s->bending_distance = mmd_rd_i32(r);
        s->cluster_count = mmd_rd_i32(r);
        rd_f(p, &s->total_mass, 1);
        rd_f(p, &s->margin, 1);
        s->aero_model = mmd_rd_i32(r);
        rd_f(p, s->config, 12);
        rd_f(p, s->cluster, 6);
        for (int k = 0; k < 4; k++)
            s->iteration[k] = mmd_rd_i32(r);
        rd_f(p, s->material_coef, 3);
        uint32_t na = mmd_rd_count(r, (size_t)p->rsz + (size_t)p->vsz + 1, MMD_MAX_VERTICES);
        if (!ok(p))
            break;
        s->anchors = alloc_array(p, na, sizeof *s->anchors);
        if (!s->anchors)
            break;
        s->anchor_count = na;
        for (uint32_t k = 0; k < na && ok(p); k++) {
            s->anchors[k].rigid_body = rd_idx(p, p->rsz, rc, false, "rigid body");
            s->anchors[k].vertex = mmd_rd_vertex_index(r, p->vsz, vc);
            s->anchors[k].near_mode = rd_enum(p, 1, "anchor near mode") != 0;
        }
        uint32_t np = mmd_rd_count(r, (size_t)p->vsz, MMD_MAX_VERTICES);
        if (!ok(p))
            break;
        s->pins = alloc_array(p, np, sizeof *s->pins);
        if (!s->pins)
            break;
        s->pin_count = np;
        for (uint32_t k = 0; k < np && ok(p); k++)
            s->pins[k] = mmd_rd_vertex_index(r, p->vsz, vc);
    }
    r->item = -1;
}

mmd_status mmd_pmx_parse(const uint8_t *data, size_t size, mmd_model *m, mmd_text *t, mmd_error *err)
{
    px p;
    memset(&p, 0, sizeof p);
    mmd_reader_init(&p.r, data, size, err);
    p.m = m;
    p.t = t;
    m->format = MMD_FORMAT_PMX;
    p.empty = mmd_arena_strdup(m->arena, "");
    if (!p.empty)
        return mmd_error_set(err, MMD_E_NOMEM, "pmx", -1, -1, "out of memory");
    m->name = m->name_en = m->comment = m->comment_en = p.empty;

    parse_header(&p);
    if (ok(&p))
        parse_vertices(&p);
    if (ok(&p))
        parse_faces(&p);
    if (ok(&p))
        parse_textures(&p);
    if (ok(&p))
        parse_materials(&p);
    if (ok(&p))
        parse_bones(&p);
    if (ok(&p))
        parse_morphs(&p);
    if (ok(&p))
        parse_frames(&p);
    if (ok(&p))
        parse_rigid_bodies(&p);
    if (ok(&p))
        parse_joints(&p);
    /* Some exporters write version 2.1 but stop after the joints: EOF at the
     * section boundary means no soft bodies (warning). */
    if (ok(&p) && m->version == 2.1f) {
        if (mmd_rd_left(&p.r) == 0) {
            begin(&p, "pmx.soft_body");
            warn(&p, (int64_t)p.r.pos, "PMX 2.1 file ends after the joints: no soft bodies");
        } else
            parse_soft_bodies(&p);
    }
    /* Trailing bytes after the last section are tolerated (some editors pad). */
    if (ok(&p) && mmd_rd_left(&p.r) > 0) {
        begin(&p, "pmx");
        warn(&p, (int64_t)p.r.pos, "bytes after the last section: ignored");
    }
    return p.r.err->status;
}
