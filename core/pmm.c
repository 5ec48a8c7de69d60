/* core/pmm.c - MikuMikuDance project reader (see pmm.h and docs/pmm.md).
 *
 * Written from the facts in nanoem (nanoem/ext/document.c), MikuMikuMethods
 * (Pmm/IO/PmmFileReader.cs) and PMMEditor (MMDFileParser/PmmReader.cs); where
 * they disagree the choice is noted at the field. Every section is read
 * through the bounded reader; every count is checked against the bytes left
 * before anything is allocated.
 */
#include "core/pmm.h"

#include <stdlib.h>
#include <string.h>

#include "core/reader.h"
#include "core/text.h"

#define SIG_LEN 24
#define HEADER_LEN 30
#define BASE_BYTES 12 /* frame, prev, next (+4 for the data index of pool keys) */

typedef struct ctx {
    mmd_reader r;
    mmd_arena *a;
    mmd_text *t;
    const mmd_pmm_options *opts;
    mmd_pmm *p;
    const mmd_pmm_model *cur_model; /* model whose keys are read (model-key bodies) */
} ctx;

/* ---- small readers -------------------------------------------------------------------- */

static char *fixed_str(ctx *c, size_t n)
{
    const uint8_t *b = mmd_rd_bytes(&c->r, n);
    unsigned bad = 0;
    char *s = b ? mmd_text_sjis(c->t, c->a, b, n, &bad) : NULL;
    if (b && !s)
        mmd_rd_fail(&c->r, MMD_E_NOMEM, "string");
    c->p->warnings += bad ? 1 : 0;
    return s;
}

/* u8 length + Shift-JIS bytes (nanoem, MikuMikuMethods' BinaryReader.ReadString and
 * PMMEditor's ReadVByteString agree for the lengths MMD writes, < 128). */
static char *var_str(ctx *c)
{
    uint8_t n = mmd_rd_u8(&c->r);
    return mmd_rd_ok(&c->r) ? fixed_str(c, n) : NULL;
}

static bool rd_bool(ctx *c) { return mmd_rd_u8(&c->r) != 0; }

static int32_t rd_frame(ctx *c)
{
    size_t at = c->r.pos;
    int32_t f = mmd_rd_i32(&c->r);
    if (mmd_rd_ok(&c->r) && f < 0) {
        mmd_rd_fail_at(&c->r, at, MMD_E_BAD_VALUE, "negative frame %d", f);
        return 0;
    }
    return f;
}

static void rd_floats(ctx *c, float *out, int n) { mmd_rd_f32v(&c->r, out, n, true); }

/* Count of `rec`-byte records that must fit in what is left. */
static uint32_t rd_count(ctx *c, size_t rec, uint32_t max) { return mmd_rd_count(&c->r, rec, max); }

static void *arena_array(ctx *c, size_t n, size_t size)
{
    void *p = mmd_arena_array(c->a, n ? n : 1, size);
    if (!p)
        mmd_rd_fail(&c->r, MMD_E_NOMEM, "%zu records", n);
    return p;
}

/* ---- keyframe tracks (linked lists) ---------------------------------------------------- */

typedef struct link {
    int32_t index, frame, next;
    size_t offset;
} link;

typedef void (*body_fn)(ctx *c, void *key);

typedef struct track_spec {
    const char *section;
    uint32_t tracks;       /* initial keys (one per track) */
    size_t key_size;       /* payload struct; starts with uint32_t frame */
    size_t body_bytes;     /* minimum bytes of a key after the base fields */
    body_fn body;
} track_spec;

static void read_key(ctx *c, const track_spec *s, bool pooled, link *l, void *key)
{
    l->offset = c->r.pos;
    l->index = pooled ? mmd_rd_i32(&c->r) : -1;
    l->frame = rd_frame(c);
    (void)mmd_rd_i32(&c->r); /* previous: implied by the next links */
    l->next = mmd_rd_i32(&c->r);
    uint32_t f = (uint32_t)l->frame;
    memcpy(key, &f, sizeof f);
    s->body(c, key);
}

typedef struct idx_pos {
    int32_t index;
    uint32_t pos;
} idx_pos;

static int cmp_idx(const void *x, const void *y)
{
    const idx_pos *a = x, *b = y;
    return (a->index > b->index) - (a->index < b->index);
}

static int32_t find_pos(const idx_pos *ord, uint32_t n, int32_t index)
{
    uint32_t lo = 0, hi = n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (ord[mid].index < index)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && ord[lo].index == index ? (int32_t)ord[lo].pos : -1;
}

/* Follows each track's links from its initial key. chain receives pool positions
 * track after track; starts[t]..starts[t+1] is track t's part. */
static bool follow_links(ctx *c, const track_spec *s, const link *init, const link *pool, uint32_t n,
                         const idx_pos *ord, uint8_t *used, uint32_t *chain, uint32_t *starts)
{
    uint32_t len = 0;
    for (uint32_t t = 0; t < s->tracks; t++) {
        starts[t] = len;
        int32_t next = init[t].next, last = init[t].frame;
        size_t from = init[t].offset;
        c->r.item = t;
        while (next > 0) {
            int32_t p = find_pos(ord, n, next);
            if (p < 0) { /* MMD's own samples hold such links: the track ends here (docs/pmm.md) */
                c->p->dangling_links++;
                break;
            }
            if (used[p]) {
                mmd_rd_fail_at(&c->r, from, MMD_E_BAD_STRUCTURE, "track %u links to key %d a second time (cycle or shared key)", t, next);
                return false;
            }
            if (pool[p].frame <= last) {
                mmd_rd_fail_at(&c->r, pool[p].offset, MMD_E_BAD_STRUCTURE, "track %u: key %d at frame %d follows frame %d", t, next, pool[p].frame, last);
                return false;
            }
            used[p] = 1;
            chain[len++] = (uint32_t)p;
            last = pool[p].frame;
            from = pool[p].offset;
            next = pool[p].next;
        }
    }
    starts[s->tracks] = len;
    c->r.item = -1;
    c->p->warnings += n - len; /* keys no track reaches */
    return true;
}

/* Copies each track (initial key, then its chain) into arena arrays. */
static bool build_tracks(ctx *c, const track_spec *s, const uint8_t *init_keys, const uint8_t *pool_keys,
                         const uint32_t *chain, const uint32_t *starts, void **out, uint32_t *counts)
{
    for (uint32_t t = 0; t < s->tracks; t++) {
        uint32_t k = starts[t + 1] - starts[t];
        uint8_t *dst = arena_array(c, (size_t)k + 1, s->key_size);
        if (!dst)
            return false;
        memcpy(dst, init_keys + (size_t)t * s->key_size, s->key_size);
        for (uint32_t i = 0; i < k; i++)
            memcpy(dst + (size_t)(i + 1) * s->key_size, pool_keys + (size_t)chain[starts[t] + i] * s->key_size, s->key_size);
        out[t] = dst;
        counts[t] = k + 1;
    }
    return true;
}

static bool resolve_tracks(ctx *c, const track_spec *s, const link *init, const uint8_t *init_keys,
                           const link *pool, const uint8_t *pool_keys, uint32_t n, void **out, uint32_t *counts)
{
    idx_pos *ord = malloc(((size_t)n + 1) * sizeof *ord);
    uint8_t *used = calloc((size_t)n + 1, 1);
    uint32_t *chain = malloc(((size_t)n + 1) * sizeof *chain);
    uint32_t *starts = malloc(((size_t)s->tracks + 1) * sizeof *starts);
    bool ok = ord && used && chain && starts;
    if (!ok)
        mmd_rd_fail(&c->r, MMD_E_NOMEM, "%s links", s->section);
    for (uint32_t i = 0; ok && i < n; i++)
        ord[i] = (idx_pos){pool[i].index, i};
    if (ok)
        qsort(ord, n, sizeof *ord, cmp_idx);
    for (uint32_t i = 0; ok && i < n; i++) {
        if (ord[i].index <= 0 || (i > 0 && ord[i].index == ord[i - 1].index)) {
            mmd_rd_fail_at(&c->r, pool[ord[i].pos].offset, MMD_E_BAD_INDEX, "key data index %d is %s",
                           ord[i].index, ord[i].index <= 0 ? "not positive" : "used twice");
            ok = false;
        }
    }
    ok = ok && follow_links(c, s, init, pool, n, ord, used, chain, starts);
    ok = ok && build_tracks(c, s, init_keys, pool_keys, chain, starts, out, counts);
    free(ord);
    free(used);
    free(chain);
    free(starts);
    return ok;
}

/* Reads `tracks` initial keys, the i32 pool count and the pool, then resolves
 * the links into out[t] / counts[t]. */
static bool read_tracks(ctx *c, const track_spec *s, void **out, uint32_t *counts)
{
    c->r.section = s->section;
    size_t rec = BASE_BYTES + s->body_bytes;
    if (s->tracks > mmd_rd_left(&c->r) / rec) {
        mmd_rd_fail(&c->r, MMD_E_TRUNCATED, "%u initial keys need %zu bytes, %zu left", s->tracks,
                    (size_t)s->tracks * rec, mmd_rd_left(&c->r));
        return false;
    }
    link *init = malloc(((size_t)s->tracks + 1) * sizeof *init);
    uint8_t *init_keys = calloc((size_t)s->tracks + 1, s->key_size);
    link *pool = NULL;
    uint8_t *pool_keys = NULL;
    bool ok = init && init_keys;
    if (!ok)
        mmd_rd_fail(&c->r, MMD_E_NOMEM, "%s", s->section);
    for (uint32_t t = 0; ok && t < s->tracks && mmd_rd_ok(&c->r); t++) {
        c->r.item = t;
        read_key(c, s, false, &init[t], init_keys + (size_t)t * s->key_size);
    }
    c->r.item = -1;
    uint32_t n = ok ? rd_count(c, rec + 4, MMD_PMM_MAX_KEYS) : 0;
    ok = ok && mmd_rd_ok(&c->r);
    if (ok) {
        pool = malloc(((size_t)n + 1) * sizeof *pool);
        pool_keys = calloc((size_t)n + 1, s->key_size);
        ok = pool && pool_keys;
        if (!ok)
            mmd_rd_fail(&c->r, MMD_E_NOMEM, "%u keys", n);
    }
    for (uint32_t i = 0; ok && i < n && mmd_rd_ok(&c->r); i++) {
        c->r.item = i;
        read_key(c, s, true, &pool[i], pool_keys + (size_t)i * s->key_size);
    }
    c->r.item = -1;
    ok = ok && mmd_rd_ok(&c->r) && resolve_tracks(c, s, init, init_keys, pool, pool_keys, n, out, counts);
    free(init);
    free(init_keys);
    free(pool);
    free(pool_keys);
    return ok;
}

/* A section with a single track (camera, light, model keys, ...). */
static void *read_track(ctx *c, const char *section, size_t key_size, size_t body_bytes, body_fn body,
                        uint32_t *count)
{
    track_spec s = {section, 1, key_size, body_bytes, body};
    void *out = NULL;
    return read_tracks(c, &s, &out, count) ? out : NULL;
}

/* ---- key bodies ----------------------------------------------------------------------- */

static void rd_parent(ctx *c, mmd_pmm_parent *p)
{
    p->model = mmd_rd_i32(&c->r); /* model id, mapped to a position in fix_parents */
    p->bone = mmd_rd_i32(&c->r);
}

static void bone_body(ctx *c, void *key)
{
    mmd_pmm_bone_key *k = key;
    const uint8_t *b = mmd_rd_bytes(&c->r, 16);
    if (b)
        memcpy(k->interp, b, 16);
    rd_floats(c, k->position, 3);
    rd_floats(c, k->rotation, 4);
    (void)mmd_rd_u8(&c->r); /* selected */
    if (c->p->version > 1)
        k->physics_off = rd_bool(c); /* nanoem and MikuMikuMethods agree: non-zero = physics off */
}

static void morph_body(ctx *c, void *key)
{
    mmd_pmm_morph_key *k = key;
    rd_floats(c, &k->weight, 1);
    (void)mmd_rd_u8(&c->r);
}

static void model_key_body(ctx *c, void *key)
{
    mmd_pmm_model_key *k = key;
    const mmd_pmm_model *m = c->cur_model;
    k->visible = rd_bool(c);
    k->ik_enabled = arena_array(c, m->ik_count, sizeof *k->ik_enabled);
    for (uint32_t i = 0; k->ik_enabled && i < m->ik_count; i++)
        k->ik_enabled[i] = rd_bool(c);
    if (c->p->version > 1) {
        k->parents = arena_array(c, m->op_count, sizeof *k->parents);
        for (uint32_t i = 0; k->parents && i < m->op_count; i++)
            rd_parent(c, &k->parents[i]);
    }
    (void)mmd_rd_u8(&c->r);
}

static void camera_body(ctx *c, void *key)
{
    mmd_pmm_camera_key *k = key;
    rd_floats(c, &k->distance, 1);
    rd_floats(c, k->target, 3);
    rd_floats(c, k->rotation, 3);
    k->look_at = (mmd_pmm_parent){-1, -1};
    if (c->p->version > 1)
        rd_parent(c, &k->look_at);
    const uint8_t *b = mmd_rd_bytes(&c->r, 24);
    if (b)
        memcpy(k->interp, b, 24);
    k->perspective = mmd_rd_u8(&c->r) == 0; /* all three readers: 0 = perspective */
    k->fov = mmd_rd_i32(&c->r);
    (void)mmd_rd_u8(&c->r);
}

static void light_body(ctx *c, void *key)
{
    mmd_pmm_light_key *k = key;
    rd_floats(c, k->color, 3);
    rd_floats(c, k->direction, 3);
    (void)mmd_rd_u8(&c->r);
}

/* opacity and visibility share one byte: bit 0 visible, bits 1-7 transparency in
 * percent (nanoem, PMMEditor). */
static void opacity_byte(ctx *c, float *opacity, bool *visible)
{
    uint8_t b = mmd_rd_u8(&c->r);
    *visible = (b & 1) != 0;
    *opacity = (float)(100 - (b >> 1)) * 0.01f;
}

static void accessory_body(ctx *c, void *key)
{
    mmd_pmm_accessory_key *k = key;
    opacity_byte(c, &k->opacity, &k->visible);
    rd_parent(c, &k->parent);
    rd_floats(c, k->position, 3);
    rd_floats(c, k->rotation, 3);
    rd_floats(c, &k->scale, 1);
    k->shadow = rd_bool(c);
    (void)mmd_rd_u8(&c->r);
}

static void gravity_body(ctx *c, void *key)
{
    mmd_pmm_gravity_key *k = key;
    k->noise = rd_bool(c);
    k->noise_amount = mmd_rd_i32(&c->r);
    rd_floats(c, &k->acceleration, 1);
    rd_floats(c, k->direction, 3);
    (void)mmd_rd_u8(&c->r);
}

static void shadow_body(ctx *c, void *key)
{
    mmd_pmm_shadow_key *k = key;
    k->mode = mmd_rd_u8(&c->r);
    rd_floats(c, &k->distance, 1);
    (void)mmd_rd_u8(&c->r);
}

/* ---- models ----------------------------------------------------------------------------- */

static char **read_names(ctx *c, uint32_t *count)
{
    *count = rd_count(c, 1, MMD_PMM_MAX_NAMES);
    char **names = mmd_rd_ok(&c->r) ? arena_array(c, *count, sizeof *names) : NULL;
    for (uint32_t i = 0; names && i < *count && mmd_rd_ok(&c->r); i++) {
        c->r.item = i;
        names[i] = var_str(c);
    }
    c->r.item = -1;
    return names;
}

/* Bone index list (IK bones, outside-parent subjects); -1 allowed when none_ok. */
static int32_t *read_bone_list(ctx *c, uint32_t bone_count, bool none_ok, uint32_t *count)
{
    *count = rd_count(c, 4, MMD_PMM_MAX_NAMES);
    int32_t *v = mmd_rd_ok(&c->r) ? arena_array(c, *count, sizeof *v) : NULL;
    for (uint32_t i = 0; v && i < *count && mmd_rd_ok(&c->r); i++) {
        size_t at = c->r.pos;
        v[i] = mmd_rd_i32(&c->r);
        if (mmd_rd_ok(&c->r) && (v[i] >= (int32_t)bone_count || v[i] < (none_ok ? -1 : 0)))
            mmd_rd_fail_at(&c->r, at, MMD_E_BAD_INDEX, "bone %d out of range (%u bones)", v[i], bone_count);
    }
    return v;
}

static void bones_from_names(ctx *c, mmd_pmm_model *m, char **bones, char **morphs)
{
    m->bones = arena_array(c, m->bone_count, sizeof *m->bones);
    m->morphs = arena_array(c, m->morph_count, sizeof *m->morphs);
    for (uint32_t i = 0; m->bones && i < m->bone_count; i++)
        m->bones[i].name = bones[i];
    for (uint32_t i = 0; m->morphs && i < m->morph_count; i++)
        m->morphs[i].name = morphs[i];
}

/* Editor state between the name lists and the keys (same in v1 and v2). */
static void model_editor_state(ctx *c, mmd_pmm_model *m)
{
    m->draw_order = mmd_rd_u8(&c->r);
    m->visible = rd_bool(c);
    mmd_rd_skip(&c->r, 4 + 16); /* selected bone, selected morph per panel */
    uint8_t expansions = mmd_rd_u8(&c->r);
    mmd_rd_skip(&c->r, expansions);
    mmd_rd_skip(&c->r, 8); /* vertical scroll, last frame */
}

static bool model_keys(ctx *c, mmd_pmm_model *m)
{
    void **out = arena_array(c, (size_t)m->bone_count + m->morph_count + 1, sizeof *out);
    uint32_t *counts = arena_array(c, (size_t)m->bone_count + m->morph_count + 1, sizeof *counts);
    if (!out || !counts || !m->bones || !m->morphs)
        return false;
    track_spec bones = {"pmm.model.bone_key", m->bone_count, sizeof(mmd_pmm_bone_key),
                        c->p->version > 1 ? 46 : 45, bone_body};
    if (!read_tracks(c, &bones, out, counts))
        return false;
    for (uint32_t i = 0; i < m->bone_count; i++) {
        m->bones[i].keys = out[i];
        m->bones[i].key_count = counts[i];
    }
    track_spec morphs = {"pmm.model.morph_key", m->morph_count, sizeof(mmd_pmm_morph_key), 5, morph_body};
    if (!read_tracks(c, &morphs, out, counts))
        return false;
    for (uint32_t i = 0; i < m->morph_count; i++) {
        m->morphs[i].keys = out[i];
        m->morphs[i].key_count = counts[i];
    }
    c->cur_model = m;
    size_t body = 2 + m->ik_count + (c->p->version > 1 ? 8 * (size_t)m->op_count : 0);
    m->keys = read_track(c, "pmm.model.model_key", sizeof(mmd_pmm_model_key), body, model_key_body, &m->key_count);
    return m->keys != NULL;
}

/* Current (editor) state after the keys: bones, morphs, IK, outside parents. */
static void model_current_state(ctx *c, mmd_pmm_model *m)
{
    c->r.section = "pmm.model.state";
    size_t bone_state = c->p->version > 1 ? 12 + 16 + 3 : 12 + 16 + 4 + 2; /* nanoem (v1: an extra i32) */
    if (m->bone_count > mmd_rd_left(&c->r) / bone_state) {
        mmd_rd_fail(&c->r, MMD_E_TRUNCATED, "%u bone states", m->bone_count);
        return;
    }
    mmd_rd_skip(&c->r, bone_state * m->bone_count);
    if (m->morph_count > mmd_rd_left(&c->r) / 4) {
        mmd_rd_fail(&c->r, MMD_E_TRUNCATED, "%u morph states", m->morph_count);
        return;
    }
    mmd_rd_skip(&c->r, 4 * (size_t)m->morph_count);
    mmd_rd_skip(&c->r, m->ik_count);
    if (c->p->version > 1) {
        if (m->op_count > mmd_rd_left(&c->r) / 16) {
            mmd_rd_fail(&c->r, MMD_E_TRUNCATED, "%u outside-parent states", m->op_count);
            return;
        }
        mmd_rd_skip(&c->r, 16 * (size_t)m->op_count); /* begin, end, model, bone */
        m->look.add_blend = rd_bool(c);
        rd_floats(c, &m->look.edge_width, 1);
        m->look.self_shadow = rd_bool(c);
        m->calc_order = mmd_rd_u8(&c->r);
    } else {
        m->look = mmd_model_look_default();
    }
}

static bool read_model_v2(ctx *c, mmd_pmm_model *m)
{
    m->name = var_str(c);
    m->name_en = var_str(c);
    m->path = fixed_str(c, MMD_PMM_PATH_BYTES);
    (void)mmd_rd_u8(&c->r); /* rows shown in the key editor */
    c->r.section = "pmm.model.bones";
    char **bones = read_names(c, &m->bone_count);
    c->r.section = "pmm.model.morphs";
    char **morphs = read_names(c, &m->morph_count);
    c->r.section = "pmm.model.ik";
    m->ik_bones = read_bone_list(c, m->bone_count, false, &m->ik_count);
    c->r.section = "pmm.model.outside_parent";
    m->op_bones = read_bone_list(c, m->bone_count, true, &m->op_count);
    c->r.section = "pmm.model";
    model_editor_state(c, m);
    if (!mmd_rd_ok(&c->r))
        return false;
    bones_from_names(c, m, bones, morphs);
    return model_keys(c, m);
}

static bool read_model_v1(ctx *c, mmd_pmm_model *m)
{
    m->name = fixed_str(c, MMD_PMM_V1_MODEL_NAME_BYTES);
    m->name_en = mmd_arena_strdup(c->a, "");
    m->path = fixed_str(c, MMD_PMM_PATH_BYTES);
    model_editor_state(c, m);
    if (!mmd_rd_ok(&c->r))
        return false;
    mmd_pmm_v1_model info = {0};
    if (!c->opts || !c->opts->v1_model || !c->opts->v1_model(c->opts->user, m->path, &info)) {
        mmd_rd_fail(&c->r, MMD_E_UNSUPPORTED,
                    "version 1 project: the layout of model '%s' depends on its bone count; load %s to read it",
                    m->name, m->path);
        return false;
    }
    m->bone_count = info.bone_count;
    m->morph_count = info.morph_count;
    m->ik_count = info.ik_count;
    char **bones = arena_array(c, info.bone_count, sizeof *bones);
    char **morphs = arena_array(c, info.morph_count, sizeof *morphs);
    m->ik_bones = arena_array(c, info.ik_count, sizeof *m->ik_bones);
    m->op_bones = arena_array(c, 0, sizeof *m->op_bones);
    if (!bones || !morphs || !m->ik_bones || !m->op_bones)
        return false;
    for (uint32_t i = 0; i < info.bone_count; i++)
        bones[i] = mmd_arena_strdup(c->a, info.bone_names[i] ? info.bone_names[i] : "");
    for (uint32_t i = 0; i < info.morph_count; i++)
        morphs[i] = mmd_arena_strdup(c->a, info.morph_names[i] ? info.morph_names[i] : "");
    for (uint32_t i = 0; i < info.ik_count; i++) {
        if (info.ik_bones[i] < 0 || (uint32_t)info.ik_bones[i] >= info.bone_count) {
            mmd_rd_fail(&c->r, MMD_E_BAD_INDEX, "model '%s': IK bone %d out of range", m->name, info.ik_bones[i]);
            return false;
        }
        m->ik_bones[i] = info.ik_bones[i];
    }
    bones_from_names(c, m, bones, morphs);
    return model_keys(c, m);
}

static bool read_models(ctx *c)
{
    mmd_pmm *p = c->p;
    c->r.section = "pmm.models";
    (void)mmd_rd_u8(&c->r); /* selected model */
    p->model_count = mmd_rd_u8(&c->r);
    if (p->version == 1)
        mmd_rd_skip(&c->r, (size_t)MMD_PMM_V1_MODEL_NAME_BYTES * p->model_count); /* name list (nanoem) */
    p->models = arena_array(c, p->model_count, sizeof *p->models);
    for (uint32_t i = 0; p->models && i < p->model_count && mmd_rd_ok(&c->r); i++) {
        mmd_pmm_model *m = &p->models[i];
        c->r.section = "pmm.model";
        c->r.item = i;
        m->id = mmd_rd_u8(&c->r);
        bool ok = p->version > 1 ? read_model_v2(c, m) : read_model_v1(c, m);
        if (ok)
            model_current_state(c, m);
    }
    return mmd_rd_ok(&c->r);
}

/* ---- camera, light, accessories, physics, self-shadow ----------------------------------- */

static bool read_camera_light(ctx *c)
{
    mmd_pmm *p = c->p;
    p->camera_keys = read_track(c, "pmm.camera", sizeof(mmd_pmm_camera_key), p->version > 1 ? 66 : 58,
                                camera_body, &p->camera_key_count);
    c->r.section = "pmm.camera";
    mmd_rd_skip(&c->r, 36 + 1); /* current target, position, angle; orthographic flag */
    p->light_keys = read_track(c, "pmm.light", sizeof(mmd_pmm_light_key), 25, light_body, &p->light_key_count);
    c->r.section = "pmm.light";
    mmd_rd_skip(&c->r, 24); /* current colour, direction */
    return mmd_rd_ok(&c->r);
}

static bool read_accessories(ctx *c)
{
    mmd_pmm *p = c->p;
    c->r.section = "pmm.accessories";
    (void)mmd_rd_u8(&c->r); /* selected */
    (void)mmd_rd_i32(&c->r); /* scroll */
    p->accessory_count = mmd_rd_u8(&c->r);
    if (p->accessory_count > mmd_rd_left(&c->r) / MMD_PMM_ACCESSORY_NAME_BYTES) {
        mmd_rd_fail(&c->r, MMD_E_TRUNCATED, "%u accessory names", p->accessory_count);
        return false;
    }
    mmd_rd_skip(&c->r, (size_t)MMD_PMM_ACCESSORY_NAME_BYTES * p->accessory_count); /* repeated in each */
    p->accessories = arena_array(c, p->accessory_count, sizeof *p->accessories);
    for (uint32_t i = 0; p->accessories && i < p->accessory_count && mmd_rd_ok(&c->r); i++) {
        mmd_pmm_accessory *x = &p->accessories[i];
        c->r.section = "pmm.accessory";
        c->r.item = i;
        x->id = mmd_rd_u8(&c->r);
        x->name = fixed_str(c, MMD_PMM_ACCESSORY_NAME_BYTES);
        x->path = fixed_str(c, MMD_PMM_PATH_BYTES);
        x->draw_order = mmd_rd_u8(&c->r);
        if (!mmd_rd_ok(&c->r))
            break;
        x->keys = read_track(c, "pmm.accessory_key", sizeof(mmd_pmm_accessory_key), 39, accessory_body,
                             &x->key_count);
        c->r.section = "pmm.accessory";
        c->r.item = i;
        /* Current state: MikuMikuMethods and PMMEditor read position, rotation, scale;
         * nanoem reads position, scale, rotation. Two against one, and the keys use the
         * former order in all three: we skip it as 1 + 8 + 28 bytes either way. */
        mmd_rd_skip(&c->r, 1 + 8 + 28);
        (void)mmd_rd_u8(&c->r); /* shadow */
        if (p->version > 1)
            x->add_blend = rd_bool(c);
    }
    c->r.item = -1;
    return mmd_rd_ok(&c->r);
}

static void read_media(ctx *c)
{
    mmd_pmm *p = c->p;
    c->r.section = "pmm.play";
    mmd_rd_skip(&c->r, 16); /* current frame, scroll, scroll thumb, editing mode */
    (void)mmd_rd_u8(&c->r); /* camera look mode */
    (void)mmd_rd_u8(&c->r); /* loop */
    p->begin_enabled = rd_bool(c);
    p->end_enabled = rd_bool(c);
    p->begin_frame = mmd_rd_i32(&c->r);
    p->end_frame = mmd_rd_i32(&c->r);
    c->r.section = "pmm.media";
    p->audio_enabled = rd_bool(c);
    p->audio_path = fixed_str(c, MMD_PMM_PATH_BYTES);
    p->video_offset[0] = mmd_rd_i32(&c->r);
    p->video_offset[1] = mmd_rd_i32(&c->r);
    rd_floats(c, &p->video_scale, 1); /* a float in all three readers */
    p->video_path = fixed_str(c, MMD_PMM_PATH_BYTES);
    /* An i32: nanoem tests != 0, PMMEditor == 1, MikuMikuMethods == 0x40; we take != 0. */
    p->video_enabled = mmd_rd_i32(&c->r) != 0;
    p->image_offset[0] = mmd_rd_i32(&c->r);
    p->image_offset[1] = mmd_rd_i32(&c->r);
    rd_floats(c, &p->image_scale, 1); /* a float (nanoem, MikuMikuMethods); PMMEditor reads an int */
    p->image_path = fixed_str(c, MMD_PMM_PATH_BYTES);
    p->image_enabled = rd_bool(c);
    c->r.section = "pmm.render";
    (void)mmd_rd_u8(&c->r); /* information shown */
    (void)mmd_rd_u8(&c->r); /* grid and axis */
    p->ground_shadow = rd_bool(c);
    rd_floats(c, &p->fps, 1);
    (void)mmd_rd_i32(&c->r); /* screen capture mode */
    p->accessories_after_models = mmd_rd_i32(&c->r);
    rd_floats(c, &p->ground_shadow_brightness, 1);
}

static bool read_physics_shadow(ctx *c)
{
    mmd_pmm *p = c->p;
    c->r.section = "pmm.physics";
    p->ground_shadow_translucent = rd_bool(c);
    size_t at = c->r.pos;
    p->physics = mmd_rd_u8(&c->r);
    if (mmd_rd_ok(&c->r) && p->physics > MMD_PMM_PHYSICS_TRACE)
        mmd_rd_fail_at(&c->r, at, MMD_E_BAD_VALUE, "physics mode %u (0..3)", p->physics);
    mmd_rd_skip(&c->r, 4 + 4 + 12 + 1); /* current gravity: acceleration, noise, direction, noise on */
    p->gravity_keys = read_track(c, "pmm.gravity", sizeof(mmd_pmm_gravity_key), 22, gravity_body,
                                 &p->gravity_key_count);
    c->r.section = "pmm.self_shadow";
    p->self_shadow = rd_bool(c);
    rd_floats(c, &p->self_shadow_distance, 1);
    p->shadow_keys = read_track(c, "pmm.self_shadow", sizeof(mmd_pmm_shadow_key), 6, shadow_body,
                                &p->shadow_key_count);
    return mmd_rd_ok(&c->r);
}

static void read_tail(ctx *c)
{
    mmd_pmm *p = c->p;
    c->r.section = "pmm.render";
    for (int i = 0; i < 3; i++) {
        size_t at = c->r.pos;
        int32_t v = mmd_rd_i32(&c->r);
        if (mmd_rd_ok(&c->r) && (v < 0 || v > 255))
            mmd_rd_fail_at(&c->r, at, MMD_E_BAD_VALUE, "edge colour component %d (0..255)", v);
        p->edge_color[i] = (float)v / 255.0f;
    }
    p->black_background = rd_bool(c);
    mmd_rd_skip(&c->r, 8);  /* current look-at model and bone (the keys carry it) */
    mmd_rd_skip(&c->r, 64); /* a matrix none of the readers knows */
    (void)mmd_rd_u8(&c->r); /* following look-at */
    (void)mmd_rd_u8(&c->r); /* unknown */
    p->physics_ground = rd_bool(c);
    (void)mmd_rd_i32(&c->r); /* frame in the text field */
    /* MMD >= 9.24 appends a flag and (model id, range selector) per model;
     * older files end here (MikuMikuMethods and nanoem accept both). */
    if (mmd_rd_ok(&c->r) && mmd_rd_left(&c->r) > 0 && mmd_rd_u8(&c->r) != 0)
        mmd_rd_skip(&c->r, 5 * (size_t)p->model_count);
}

/* ---- references between objects ------------------------------------------------------- */

/* Maps a stored model id to a position; checks the bone against that model. */
static bool fix_parent(ctx *c, mmd_pmm_parent *r, bool ground_ok, const char *what, uint32_t frame)
{
    const mmd_pmm *p = c->p;
    if (r->model == -1 || (ground_ok && r->model == MMD_PMM_GROUND)) {
        r->bone = -1;
        return true;
    }
    for (uint32_t i = 0; i < p->model_count; i++) {
        if (p->models[i].id != r->model || r->model < 0)
            continue;
        if (r->bone < -1 || r->bone >= (int32_t)p->models[i].bone_count) {
            mmd_error_set(c->r.err, MMD_E_BAD_INDEX, "pmm.references", -1, -1,
                          "%s key at frame %u: bone %d of model '%s' out of range (%u bones)", what, frame,
                          r->bone, p->models[i].name, p->models[i].bone_count);
            return false;
        }
        r->model = (int32_t)i;
        return true;
    }
    mmd_error_set(c->r.err, MMD_E_BAD_INDEX, "pmm.references", -1, -1,
                  "%s key at frame %u: no model with id %d", what, frame, r->model);
    return false;
}

static bool fix_references(ctx *c)
{
    mmd_pmm *p = c->p;
    for (uint32_t i = 0; i < p->model_count; i++)
        for (uint32_t j = i + 1; j < p->model_count; j++)
            if (p->models[i].id == p->models[j].id)
                return mmd_error_set(c->r.err, MMD_E_BAD_INDEX, "pmm.model", j, -1, "model id %u used twice",
                                     p->models[j].id) == MMD_OK;
    for (uint32_t i = 0; i < p->model_count; i++) {
        const mmd_pmm_model *m = &p->models[i];
        for (uint32_t k = 0; k < m->key_count; k++)
            for (uint32_t o = 0; m->keys[k].parents && o < m->op_count; o++)
                if (!fix_parent(c, &m->keys[k].parents[o], true, "outside parent", m->keys[k].frame))
                    return false;
    }
    for (uint32_t k = 0; k < p->camera_key_count; k++)
        if (!fix_parent(c, &p->camera_keys[k].look_at, false, "camera", p->camera_keys[k].frame))
            return false;
    for (uint32_t a = 0; a < p->accessory_count; a++)
        for (uint32_t k = 0; k < p->accessories[a].key_count; k++)
            if (!fix_parent(c, &p->accessories[a].keys[k].parent, false, "accessory", p->accessories[a].keys[k].frame))
                return false;
    return true;
}

/* ---- document --------------------------------------------------------------------------- */

static bool read_header(ctx *c)
{
    mmd_pmm *p = c->p;
    c->r.section = "pmm.header";
    size_t have = mmd_rd_left(&c->r) < 20 ? mmd_rd_left(&c->r) : 20;
    if (have == 0 || memcmp(c->r.base, "Polygon Movie maker ", have)) {
        mmd_rd_fail_at(&c->r, 0, MMD_E_BAD_MAGIC, "not a MikuMikuDance project (no 'Polygon Movie maker' signature)");
        return false;
    }
    const uint8_t *h = mmd_rd_bytes(&c->r, HEADER_LEN);
    if (!h)
        return false;
    if (!memcmp(h, "Polygon Movie maker 0002", SIG_LEN))
        p->version = 2;
    else if (!memcmp(h, "Polygon Movie maker 0001", SIG_LEN))
        p->version = 1;
    else if (!memcmp(h, "Polygon Movie maker ", 20)) {
        mmd_rd_fail_at(&c->r, 20, MMD_E_BAD_VERSION, "PMM version '%.4s' (only 0001 and 0002 are known)", h + 20);
        return false;
    } else {
        mmd_rd_fail_at(&c->r, 0, MMD_E_BAD_MAGIC, "not a MikuMikuDance project (no 'Polygon Movie maker' signature)");
        return false;
    }
    size_t at = c->r.pos;
    p->width = mmd_rd_i32(&c->r);
    p->height = mmd_rd_i32(&c->r);
    if (mmd_rd_ok(&c->r) && (p->width <= 0 || p->height <= 0 || p->width > 16384 || p->height > 16384))
        mmd_rd_fail_at(&c->r, at, MMD_E_BAD_HEADER, "output size %dx%d (1..16384)", p->width, p->height);
    mmd_rd_skip(&c->r, 4 + 4 + 1 + 5); /* timeline width, editor fov, editing CLA, panels */
    if (p->version > 1)
        mmd_rd_skip(&c->r, 1); /* self-shadow panel */
    return mmd_rd_ok(&c->r);
}

static void v1_defaults(mmd_pmm *p)
{
    p->physics = MMD_PMM_PHYSICS_TRACE;
    p->physics_ground = true;
    p->self_shadow = true;
    p->self_shadow_distance = 0.01125f;
}

static bool read_document(ctx *c)
{
    mmd_pmm *p = c->p;
    if (!read_header(c) || !read_models(c) || !read_camera_light(c) || !read_accessories(c))
        return false;
    read_media(c);
    if (!mmd_rd_ok(&c->r))
        return false;
    if (p->version == 1) {
        v1_defaults(p);
        static const mmd_pmm_gravity_key g = {0, false, 10, 9.8f, {0, -1, 0}};
        static const mmd_pmm_shadow_key s = {0, 1, 0.01125f};
        p->gravity_keys = arena_array(c, 1, sizeof g);
        p->shadow_keys = arena_array(c, 1, sizeof s);
        if (!p->gravity_keys || !p->shadow_keys)
            return false;
        p->gravity_keys[0] = g;
        p->shadow_keys[0] = s;
        p->gravity_key_count = p->shadow_key_count = 1;
    } else if (!read_physics_shadow(c)) {
        return false;
    } else {
        read_tail(c);
    }
    return mmd_rd_ok(&c->r) && fix_references(c);
}

mmd_status mmd_pmm_load(const void *data, size_t size, const mmd_pmm_options *opts, mmd_pmm **out,
                        mmd_error *err)
{
    ctx c = {0};
    mmd_reader_init(&c.r, data, size, err);
    c.opts = opts;
    c.a = mmd_arena_create();
    c.t = mmd_text_create();
    c.p = c.a ? mmd_arena_alloc(c.a, sizeof *c.p) : NULL;
    if (!c.a || !c.t || !c.p) {
        mmd_text_destroy(c.t);
        mmd_arena_destroy(c.a);
        return mmd_error_set(err, MMD_E_NOMEM, "pmm", -1, -1, "project");
    }
    c.p->arena = c.a;
    c.p->accessories_after_models = -1;
    bool ok = read_document(&c);
    mmd_text_destroy(c.t);
    if (!ok || !mmd_rd_ok(&c.r)) {
        mmd_status st = c.r.err->status != MMD_OK ? c.r.err->status : MMD_E_BAD_STRUCTURE;
        mmd_arena_destroy(c.a);
        return st;
    }
    *out = c.p;
    return MMD_OK;
}

void mmd_pmm_free(mmd_pmm *p)
{
    if (p)
        mmd_arena_destroy(p->arena);
}
