/* core/vmd.c - VMD motions and VPD poses (see motion.h).
 *
 * VMD (DESIGN.md A.1): 30-byte magic, model name (10 bytes in v1, 20 in v2),
 * then bone, morph, camera, light, self-shadow and property sections, each a
 * u32 count and records. A file may end at any section boundary: the missing
 * sections have no keys. A count whose records do not fit in the bytes left
 * is MMD_E_TRUNCATED. Names and interpolation blocks are kept raw.
 *
 * VPD: Shift-JIS text ("Vocaloid Pose Data file"), loaded as keys at frame 0
 * with linear curves.
 */
#include "core/motion.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/file.h"
#include "core/reader.h"
#include "core/sniff.h"
#include "core/text.h"
#include "core/vmd_write.h"

#define VMD_MAGIC_V1 "Vocaloid Motion Data file"
#define VMD_MAGIC_V2 "Vocaloid Motion Data 0002"
#define VMD_MAGIC_LEN 25
#define VPD_MAGIC "Vocaloid Pose Data file"

enum { BONE_REC = 111, MORPH_REC = 23, CAMERA_REC = 61, LIGHT_REC = 28, SHADOW_REC = 9, PROPERTY_MIN = 9 };

void mmd_motion_free(mmd_motion *m)
{
    if (m)
        mmd_arena_destroy(m->arena);
}

/* Section count: EOF at the boundary means an absent section (0, *absent set);
 * records that cannot fit are MMD_E_TRUNCATED. */
static uint32_t section_count(mmd_reader *r, size_t rec, bool *absent)
{
    *absent = false;
    if (!mmd_rd_ok(r))
        return 0;
    if (mmd_rd_left(r) == 0) {
        *absent = true;
        return 0;
    }
    size_t at = r->pos;
    uint32_t c = mmd_rd_u32(r);
    if (!mmd_rd_ok(r))
        return 0;
    if (c > MMD_MAX_MOTION_KEYS) {
        mmd_rd_fail_at(r, at, MMD_E_LIMIT, "%u keys exceed the limit %u", c, MMD_MAX_MOTION_KEYS);
        return 0;
    }
    if ((size_t)c > mmd_rd_left(r) / rec) {
        mmd_rd_fail_at(r, at, MMD_E_TRUNCATED, "%u keys need at least %zu bytes, %zu left", c,
                       (size_t)c * rec, mmd_rd_left(r));
        return 0;
    }
    return c;
}

/* Starts the section named `section`: its key count in *n (see section_count)
 * and an arena array of *n keys of key_size bytes. Returns NULL when the
 * section is absent (*absent set) and, with the reader failed, on error. */
static void *section_begin(mmd_reader *r, mmd_arena *a, const char *section, size_t rec, size_t key_size,
                           const char *what, uint32_t *n, bool *absent)
{
    r->section = section;
    *n = section_count(r, rec, absent);
    if (*absent)
        return NULL;
    void *keys = mmd_arena_array(a, *n, key_size);
    if (!keys)
        mmd_rd_fail(r, MMD_E_NOMEM, "%s", what);
    return keys;
}

/* Ends a section's record loop: true when every record was read. */
static bool section_end(mmd_reader *r)
{
    r->item = -1;
    return mmd_rd_ok(r);
}

static char *sjis_name(mmd_reader *r, mmd_text *t, mmd_arena *a, const uint8_t *s, size_t n, unsigned *bad)
{
    char *u = mmd_text_sjis(t, a, s, n, bad);
    if (!u)
        mmd_rd_fail(r, MMD_E_NOMEM, "cannot convert name");
    return u;
}

/* Bone and morph keys with NaN/Inf (seen in converter output) are repaired as
 * neutral keys: position 0, rotation identity, weight 0, one warning per key.
 * Camera, light and shadow keys stay strict (a NaN camera has no sane repair). */
static bool fix_key_floats(float *v, int n, float def)
{
    bool bad = false;
    for (int i = 0; i < n; i++)
        if (!isfinite(v[i])) {
            v[i] = def;
            bad = true;
        }
    return bad;
}

static void note_frame(mmd_motion *m, uint32_t f)
{
    if (f > m->last_frame)
        m->last_frame = f;
}

/* A section after the bone keys whose records do not fit in the file (a
 * garbage count, records cut short) when complete sections with keys precede it: those
 * are kept, this section and the ones after it are dropped with one warning at
 * the section's offset (docs/compat.md). False when nothing usable precedes it
 * (the error stands). last_frame goes back to what the kept sections set. */
static bool salvage(mmd_reader *r, mmd_motion *m, size_t sec_at, uint32_t last_frame)
{
    mmd_status st = r->err->status;
    if (st != MMD_E_TRUNCATED && st != MMD_E_BAD_COUNT && st != MMD_E_LIMIT)
        return false; /* a bad value (NaN camera) in complete records stays an error */
    if (m->bone_key_count + m->morph_key_count + m->camera_key_count + m->light_key_count +
            m->shadow_key_count == 0)
        return false;
    mmd_error_set(r->err, MMD_OK, NULL, -1, -1, "ok");
    r->item = -1;
    mmd_rd_warn(r, &m->warning_list, &m->warnings, (int64_t)sec_at,
                "optional section cut short or with a garbage count: "
                "it and the sections after it are ignored");
    m->last_frame = last_frame;
    return true;
}

/* Ends an optional section: on failure either salvage (goto done) or fail. */
#define END_OPTIONAL(count_field)                               \
    do {                                                        \
        if (!section_end(r)) {                                  \
            if (!salvage(r, m, sec_at, frame_before))           \
                return r->err->status;                          \
            salvaged = true;                                    \
            goto done;                                          \
        }                                                       \
        m->count_field = n;                                     \
    } while (0)

/* A bone key: name, frame, position, rotation (non-finite values reset), curves. */
/* A bone or morph key's 15-byte name (raw and UTF-8) and frame; false when cut short. */
static bool read_key_head(mmd_reader *r, mmd_motion *m, mmd_text *t, uint8_t raw[16], char **name,
                          uint32_t *frame, unsigned *bad)
{
    const uint8_t *nm = mmd_rd_bytes(r, 15);
    if (!nm)
        return false;
    memcpy(raw, nm, 15);
    *name = sjis_name(r, t, m->arena, nm, 15, bad);
    *frame = mmd_rd_u32(r);
    return true;
}

static void read_bone_key(mmd_reader *r, mmd_motion *m, mmd_text *t, mmd_bone_key *k, unsigned *bad)
{
    if (!read_key_head(r, m, t, k->raw_name, &k->name, &k->frame, bad))
        return;
    mmd_rd_f32v(r, k->position, 3, false);
    mmd_rd_f32v(r, k->rotation, 4, false);
    bool fixed = fix_key_floats(k->position, 3, 0);
    if (fix_key_floats(k->rotation, 4, 0)) {
        k->rotation[0] = k->rotation[1] = k->rotation[2] = 0;
        k->rotation[3] = 1;
        fixed = true;
    }
    if (fixed)
        mmd_rd_warn(r, &m->warning_list, &m->warnings, (int64_t)(r->pos - 47),
                    "non-finite bone key values: position 0, rotation identity");
    const uint8_t *ip = mmd_rd_bytes(r, 64);
    if (ip)
        memcpy(k->interp, ip, 64);
    note_frame(m, k->frame);
}

/* A morph key: name, frame, weight. */
static void read_morph_key(mmd_reader *r, mmd_motion *m, mmd_text *t, mmd_morph_key *k, unsigned *bad)
{
    if (!read_key_head(r, m, t, k->raw_name, &k->name, &k->frame, bad))
        return;
    mmd_rd_f32v(r, &k->weight, 1, false);
    if (fix_key_floats(&k->weight, 1, 0))
        mmd_rd_warn(r, &m->warning_list, &m->warnings, (int64_t)(r->pos - 4), "non-finite morph weight: 0");
    note_frame(m, k->frame);
}

/* A camera key: frame, distance, target, rotation, curves, fov, perspective. */
static void read_camera_key(mmd_reader *r, mmd_motion *m, mmd_camera_key *k)
{
    k->frame = mmd_rd_u32(r);
    mmd_rd_f32v(r, &k->distance, 1, true);
    mmd_rd_f32v(r, k->target, 3, true);
    mmd_rd_f32v(r, k->rotation, 3, true);
    const uint8_t *ip = mmd_rd_bytes(r, 24);
    if (ip)
        memcpy(k->interp, ip, 24);
    k->fov = mmd_rd_u32(r);
    k->perspective = mmd_rd_u8(r);
    note_frame(m, k->frame);
}

/* A light key: frame, colour, direction. */
static void read_light_key(mmd_reader *r, mmd_motion *m, mmd_light_key *k)
{
    k->frame = mmd_rd_u32(r);
    mmd_rd_f32v(r, k->color, 3, true);
    mmd_rd_f32v(r, k->direction, 3, true);
    note_frame(m, k->frame);
}

/* A self-shadow key: frame, mode, distance. */
static void read_shadow_key(mmd_reader *r, mmd_motion *m, mmd_shadow_key *k)
{
    k->frame = mmd_rd_u32(r);
    k->mode = mmd_rd_u8(r);
    mmd_rd_f32v(r, &k->distance, 1, true);
    note_frame(m, k->frame);
}

/* A property key: frame, visible, and its IK states (count bounded by the bytes left). */
static void read_property_key(mmd_reader *r, mmd_motion *m, mmd_text *t, mmd_property_key *k, unsigned *bad)
{
    mmd_arena *a = m->arena;
    k->frame = mmd_rd_u32(r);
    k->visible = mmd_rd_u8(r) != 0;
    size_t at = r->pos;
    uint32_t c = mmd_rd_u32(r);
    if (!mmd_rd_ok(r))
        return;
    if ((size_t)c > mmd_rd_left(r) / 21) {
        mmd_rd_fail_at(r, at, MMD_E_TRUNCATED, "%u IK states need %zu bytes, %zu left", c,
                       (size_t)c * 21, mmd_rd_left(r));
        return;
    }
    k->ik = mmd_arena_array(a, c, sizeof *k->ik);
    if (!k->ik) {
        mmd_rd_fail(r, MMD_E_NOMEM, "IK states");
        return;
    }
    for (uint32_t j = 0; j < c && mmd_rd_ok(r); j++) {
        const uint8_t *nm = mmd_rd_bytes(r, 20);
        if (!nm)
            break;
        memcpy(k->ik[j].raw_name, nm, 20);
        k->ik[j].name = sjis_name(r, t, a, nm, 20, bad);
        k->ik[j].enabled = mmd_rd_u8(r) != 0;
    }
    k->ik_count = c;
    note_frame(m, k->frame);
}

static mmd_status vmd_parse(mmd_reader *r, mmd_motion *m, mmd_text *t)
{
    size_t sec_at = 0;
    uint32_t frame_before = 0;
    bool salvaged = false;
    mmd_arena *a = m->arena;
    unsigned bad = 0;
    bool absent = false;
    uint32_t n = 0;

    r->section = "vmd.header";
    const uint8_t *magic = mmd_rd_bytes(r, 30);
    if (!magic)
        return r->err->status;
    if (!memcmp(magic, VMD_MAGIC_V2, VMD_MAGIC_LEN))
        m->version = 2;
    else if (!memcmp(magic, VMD_MAGIC_V1, VMD_MAGIC_LEN))
        m->version = 1;
    else {
        mmd_rd_fail_at(r, 0, MMD_E_BAD_MAGIC, "not a VMD file (no \"Vocaloid Motion Data\" signature)");
        return r->err->status;
    }
    size_t name_len = m->version == 2 ? 20 : 10;
    const uint8_t *name = mmd_rd_bytes(r, name_len);
    if (!name)
        return r->err->status;
    memcpy(m->raw_model_name, name, name_len);
    m->model_name = sjis_name(r, t, a, name, name_len, &bad);

    /* bones */
    m->bone_keys = section_begin(r, a, "vmd.bone", BONE_REC, sizeof *m->bone_keys, "bone keys", &n, &absent);
    if (absent)
        goto done;
    for (uint32_t i = 0; i < n && mmd_rd_ok(r); i++) {
        r->item = i;
        read_bone_key(r, m, t, &m->bone_keys[i], &bad);
    }
    if (!section_end(r))
        return r->err->status;
    m->bone_key_count = n;

    /* morphs */
    sec_at = r->pos;
    frame_before = m->last_frame;
    m->morph_keys = section_begin(r, a, "vmd.morph", MORPH_REC, sizeof *m->morph_keys, "morph keys", &n, &absent);
    if (absent)
        goto done;
    for (uint32_t i = 0; i < n && mmd_rd_ok(r); i++) {
        r->item = i;
        read_morph_key(r, m, t, &m->morph_keys[i], &bad);
    }
    END_OPTIONAL(morph_key_count);

    /* camera */
    sec_at = r->pos;
    frame_before = m->last_frame;
    m->camera_keys = section_begin(r, a, "vmd.camera", CAMERA_REC, sizeof *m->camera_keys, "camera keys", &n, &absent);
    if (absent)
        goto done;
    for (uint32_t i = 0; i < n && mmd_rd_ok(r); i++) {
        r->item = i;
        read_camera_key(r, m, &m->camera_keys[i]);
    }
    END_OPTIONAL(camera_key_count);

    /* light */
    sec_at = r->pos;
    frame_before = m->last_frame;
    m->light_keys = section_begin(r, a, "vmd.light", LIGHT_REC, sizeof *m->light_keys, "light keys", &n, &absent);
    if (absent)
        goto done;
    for (uint32_t i = 0; i < n && mmd_rd_ok(r); i++) {
        r->item = i;
        read_light_key(r, m, &m->light_keys[i]);
    }
    END_OPTIONAL(light_key_count);

    /* self-shadow */
    sec_at = r->pos;
    frame_before = m->last_frame;
    m->shadow_keys = section_begin(r, a, "vmd.self_shadow", SHADOW_REC, sizeof *m->shadow_keys, "self-shadow keys",
                                   &n, &absent);
    if (absent)
        goto done;
    for (uint32_t i = 0; i < n && mmd_rd_ok(r); i++) {
        r->item = i;
        read_shadow_key(r, m, &m->shadow_keys[i]);
    }
    END_OPTIONAL(shadow_key_count);

    /* property (visible + IK states) */
    sec_at = r->pos;
    frame_before = m->last_frame;
    m->property_keys = section_begin(r, a, "vmd.property", PROPERTY_MIN, sizeof *m->property_keys, "property keys",
                                     &n, &absent);
    if (absent)
        goto done;
    for (uint32_t i = 0; i < n && mmd_rd_ok(r); i++) {
        r->item = i;
        read_property_key(r, m, t, &m->property_keys[i], &bad);
    }
    END_OPTIONAL(property_key_count);

done:
    if (!mmd_rd_ok(r))
        return r->err->status;
    if (!m->model_name)
        return mmd_error_set(r->err, MMD_E_NOMEM, "vmd", -1, -1, "out of memory");
    r->section = "vmd";
    r->item = -1;
    if (bad)
        mmd_rd_warn(r, &m->warning_list, &m->warnings, -1, "names that are not valid Shift-JIS: characters replaced");
    if (!salvaged && mmd_rd_left(r) > 0)
        mmd_rd_warn(r, &m->warning_list, &m->warnings, (int64_t)r->pos, "bytes after the last section: ignored");
    return MMD_OK;
}

mmd_status mmd_vmd_load(const void *data, size_t size, mmd_motion **out, mmd_error *err)
{
    mmd_error local;
    mmd_reader r;
    mmd_reader_init(&r, data, size, err ? err : &local);
    mmd_motion *m = mmd_motion_new("");
    mmd_text *t = mmd_text_create();
    if (!m || !t) {
        mmd_motion_free(m);
        mmd_text_destroy(t);
        return mmd_error_set(err, MMD_E_NOMEM, "vmd", -1, -1, "out of memory");
    }
    m->format = MMD_MOTION_VMD;
    mmd_status st = vmd_parse(&r, m, t);
    mmd_text_destroy(t);
    if (st != MMD_OK) {
        mmd_motion_free(m);
        return st;
    }
    *out = m;
    return MMD_OK;
}

/* ---------------------------------------------------------------- VPD */

typedef struct vpd_line {
    const uint8_t *s; /* content with comment and surrounding blanks removed */
    size_t n;
    size_t offset;    /* byte offset of the line start */
    int number;       /* 1-based */
} vpd_line;

typedef struct vpd_cursor {
    const uint8_t *data;
    size_t size, pos;
    int line;
} vpd_cursor;

static bool is_blank(uint8_t c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v'; }

/* Next line with content; false at EOF. Comments start at "//". */
static bool vpd_next(vpd_cursor *c, vpd_line *l)
{
    while (c->pos < c->size) {
        size_t start = c->pos;
        size_t end = start;
        while (end < c->size && c->data[end] != '\n')
            end++;
        c->pos = end < c->size ? end + 1 : end;
        c->line++;
        size_t e = start;
        while (e + 1 < end && !(c->data[e] == '/' && c->data[e + 1] == '/'))
            e++;
        if (e + 1 >= end)
            e = end;
        size_t b = start;
        while (b < e && is_blank(c->data[b]))
            b++;
        while (e > b && is_blank(c->data[e - 1]))
            e--;
        if (e > b) {
            l->s = c->data + b;
            l->n = e - b;
            l->offset = start;
            l->number = c->line;
            return true;
        }
    }
    return false;
}

/* Like vpd_next, but at EOF leaves an empty line numbered after the last one. */
static bool vpd_expect(vpd_cursor *c, vpd_line *l)
{
    if (vpd_next(c, l))
        return true;
    l->s = NULL;
    l->n = 0;
    l->offset = c->size;
    l->number = c->line + 1;
    return false;
}

static mmd_status vpd_fail(mmd_error *err, const vpd_line *l, const char *what)
{
    return mmd_error_set(err, l->s ? MMD_E_BAD_STRUCTURE : MMD_E_TRUNCATED, "vpd", -1, (int64_t)l->offset,
                         "line %d: %s%s", l->number, what, l->s ? "" : " (end of file)");
}

/* Parse exactly n comma-separated floats ending with ';'. */
static bool vpd_floats(const vpd_line *l, float *out, int n)
{
    char buf[256];
    if (l->n >= sizeof buf)
        return false;
    memcpy(buf, l->s, l->n);
    buf[l->n] = 0;
    char *p = buf;
    for (int i = 0; i < n; i++) {
        char *end;
        double v = strtod(p, &end);
        if (end == p || !(v == v) || v > 3.4e38 || v < -3.4e38)
            return false;
        out[i] = (float)v;
        p = end;
        while (*p == ' ' || *p == '\t')
            p++;
        if (*p != (i + 1 < n ? ',' : ';'))
            return false;
        p++;
        while (*p == ' ' || *p == '\t')
            p++;
    }
    return *p == 0;
}

static mmd_status vpd_parse(const uint8_t *data, size_t size, mmd_motion *m, mmd_text *t, mmd_error *err)
{
    mmd_arena *a = m->arena;
    vpd_cursor c = {data, size, 0, 0};
    vpd_line l;
    unsigned bad = 0;
    if (size >= 3 && data[0] == 0xEF && data[1] == 0xBB && data[2] == 0xBF)
        c.pos = 3;
    if (!vpd_next(&c, &l) || l.n != strlen(VPD_MAGIC) || memcmp(l.s, VPD_MAGIC, l.n) != 0)
        return mmd_error_set(err, MMD_E_BAD_MAGIC, "vpd", -1, 0, "line 1: not a VPD file (no \"%s\")", VPD_MAGIC);
    if (!vpd_expect(&c, &l) || l.s[l.n - 1] != ';')
        return vpd_fail(err, &l, "expected the model file name ending with ';'");
    size_t nlen = l.n - 1;
    if (nlen >= 4 && !memcmp(l.s + nlen - 4, ".osm", 4))
        nlen -= 4;
    size_t raw = nlen < 20 ? nlen : 20;
    memcpy(m->raw_model_name, l.s, raw);
    m->model_name = mmd_text_sjis(t, a, m->raw_model_name, raw, &bad);
    float declared;
    if (!vpd_expect(&c, &l) || !vpd_floats(&l, &declared, 1) || declared < 0)
        return vpd_fail(err, &l, "expected the bone count (\"N;\")");

    /* Upper bound on the keys: one per '{'. */
    size_t braces = 0;
    for (size_t i = 0; i < size; i++)
        braces += data[i] == '{';
    if (braces > MMD_MAX_MOTION_KEYS)
        return mmd_error_set(err, MMD_E_LIMIT, "vpd", -1, -1, "too many entries");
    m->bone_keys = mmd_arena_array(a, braces, sizeof *m->bone_keys);
    m->morph_keys = mmd_arena_array(a, braces, sizeof *m->morph_keys);
    if (!m->bone_keys || !m->morph_keys || !m->model_name)
        return mmd_error_set(err, MMD_E_NOMEM, "vpd", -1, -1, "out of memory");

    while (vpd_next(&c, &l)) {
        const uint8_t *brace = memchr(l.s, '{', l.n);
        bool is_bone = l.n > 4 && !memcmp(l.s, "Bone", 4);
        bool is_morph = l.n > 5 && !memcmp(l.s, "Morph", 5);
        if (!brace || (!is_bone && !is_morph))
            return vpd_fail(err, &l, "expected \"BoneN{name\" or \"MorphN{name\"");
        const uint8_t *nm = brace + 1;
        size_t nn = (size_t)(l.s + l.n - nm);
        while (nn > 0 && is_blank(nm[nn - 1]))
            nn--;
        if (nn == 0)
            return vpd_fail(err, &l, "empty name");
        char *name = mmd_text_sjis(t, a, nm, nn, &bad);
        if (!name)
            return mmd_error_set(err, MMD_E_NOMEM, "vpd", -1, -1, "out of memory");
        size_t cut = nn < 15 ? nn : 15;
        if (is_bone) {
            mmd_bone_key *k = &m->bone_keys[m->bone_key_count];
            k->name = name;
            memcpy(k->raw_name, nm, cut);
            if (!vpd_expect(&c, &l) || !vpd_floats(&l, k->position, 3))
                return vpd_fail(err, &l, "expected the bone position \"x,y,z;\"");
            if (!vpd_expect(&c, &l) || !vpd_floats(&l, k->rotation, 4))
                return vpd_fail(err, &l, "expected the bone rotation \"qx,qy,qz,qw;\"");
            mmd_vmd_linear_bone_interp(k->interp);
            m->bone_key_count++;
        } else {
            mmd_morph_key *k = &m->morph_keys[m->morph_key_count];
            k->name = name;
            memcpy(k->raw_name, nm, cut);
            if (!vpd_expect(&c, &l) || !vpd_floats(&l, &k->weight, 1))
                return vpd_fail(err, &l, "expected the morph weight \"w;\"");
            m->morph_key_count++;
        }
        if (!vpd_expect(&c, &l) || l.n != 1 || l.s[0] != '}')
            return vpd_fail(err, &l, "expected \"}\"");
    }
    if ((float)m->bone_key_count != declared)
        mmd_warn(&m->warning_list, &m->warnings, "vpd", -1, -1, "declared bone count differs from the bones listed");
    if (bad)
        mmd_warn(&m->warning_list, &m->warnings, "vpd", -1, -1, "names that are not valid Shift-JIS: characters replaced");
    return MMD_OK;
}

mmd_status mmd_vpd_load(const void *data, size_t size, mmd_motion **out, mmd_error *err)
{
    mmd_error local;
    if (!err)
        err = &local;
    memset(err, 0, sizeof *err);
    err->offset = -1;
    err->item = -1;
    mmd_motion *m = mmd_motion_new("");
    mmd_text *t = mmd_text_create();
    if (!m || !t) {
        mmd_motion_free(m);
        mmd_text_destroy(t);
        return mmd_error_set(err, MMD_E_NOMEM, "vpd", -1, -1, "out of memory");
    }
    m->format = MMD_MOTION_VPD;
    m->version = 0;
    mmd_status st = vpd_parse(data ? data : (const void *)"", data ? size : 0, m, t, err);
    mmd_text_destroy(t);
    if (st != MMD_OK) {
        mmd_motion_free(m);
        return st;
    }
    *out = m;
    return MMD_OK;
}

mmd_status mmd_motion_load(const void *data, size_t size, mmd_motion **out, mmd_error *err)
{
    const mmd_sniff_row *f = mmd_sniff(data, size);
    if (f && f->id == MMD_FILE_VMD)
        return mmd_vmd_load(data, size, out, err);
    if (f && f->id == MMD_FILE_VPD)
        return mmd_vpd_load(data, size, out, err);
    return mmd_error_set(err, MMD_E_BAD_MAGIC, "motion", -1, 0,
                         "neither a VMD (\"Vocaloid Motion Data\") nor a VPD (\"" VPD_MAGIC "\") file");
}

mmd_status mmd_motion_load_file(const char *path, mmd_motion **out, mmd_error *err)
{
    void *data = NULL;
    size_t size = 0;
    mmd_status st = mmd_file_read(path, &data, &size, err);
    if (st != MMD_OK)
        return st;
    st = mmd_motion_load(data, size, out, err);
    free(data);
    return st;
}
