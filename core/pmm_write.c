/* core/pmm_write.c - write MikuMikuDance projects and build them in memory
 * (see pmm.h). The byte layout mirrors core/pmm.c; editor-only fields are
 * written with the values MMD writes for a fresh project.
 */
#include "core/pmm.h"

#include <stdlib.h>
#include <string.h>

#include "core/text.h"

typedef struct wbuf {
    uint8_t *b;
    size_t n, cap;
    bool fail;
    int version;
    mmd_text *t;
    const mmd_pmm *p;
    const mmd_pmm_model *cur_model;
} wbuf;

static void put(wbuf *w, const void *src, size_t n)
{
    if (w->fail)
        return;
    if (n > w->cap - w->n) {
        size_t cap = w->cap ? w->cap : 4096;
        while (n > cap - w->n) {
            if (cap > ((size_t)1 << 40)) {
                w->fail = true;
                return;
            }
            cap *= 2;
        }
        uint8_t *nb = realloc(w->b, cap);
        if (!nb) {
            w->fail = true;
            return;
        }
        w->b = nb;
        w->cap = cap;
    }
    if (src)
        memcpy(w->b + w->n, src, n);
    else
        memset(w->b + w->n, 0, n);
    w->n += n;
}

static void u8(wbuf *w, unsigned v) { uint8_t b = (uint8_t)v; put(w, &b, 1); }
static void i32(wbuf *w, int32_t v)
{
    uint8_t b[4] = {(uint8_t)v, (uint8_t)((uint32_t)v >> 8), (uint8_t)((uint32_t)v >> 16), (uint8_t)((uint32_t)v >> 24)};
    put(w, b, 4);
}
static void f32(wbuf *w, float f)
{
    int32_t v;
    memcpy(&v, &f, 4);
    i32(w, v);
}
static void f32v(wbuf *w, const float *f, int n)
{
    for (int i = 0; i < n; i++)
        f32(w, f[i]);
}

static void fixed_str(wbuf *w, const char *s, size_t n)
{
    uint8_t buf[MMD_PMM_PATH_BYTES] = {0};
    if (n > sizeof buf)
        n = sizeof buf;
    mmd_text_to_sjis(w->t, s ? s : "", buf, n - 1);
    put(w, buf, n);
}

static void var_str(wbuf *w, const char *s)
{
    uint8_t buf[255];
    size_t n = mmd_text_to_sjis(w->t, s ? s : "", buf, sizeof buf);
    u8(w, (unsigned)n);
    put(w, buf, n);
}

/* ---- tracks --------------------------------------------------------------------------- */

typedef void (*wbody_fn)(wbuf *w, const void *key);

/* tracks[t] holds counts[t] keys (initial first). Initial key t has data index t,
 * pool keys get tracks + position, assigned track after track. */
static void write_tracks(wbuf *w, uint32_t tracks, const uint8_t *const *keys, const uint32_t *counts,
                         size_t key_size, wbody_fn body)
{
    int32_t base = (int32_t)tracks;
    for (uint32_t t = 0; t < tracks; t++) {
        uint32_t frame;
        memcpy(&frame, keys[t], 4);
        i32(w, (int32_t)frame);
        i32(w, 0);
        i32(w, counts[t] > 1 ? base : 0);
        body(w, keys[t]);
        base += (int32_t)(counts[t] > 0 ? counts[t] - 1 : 0);
    }
    i32(w, base - (int32_t)tracks);
    int32_t idx = (int32_t)tracks;
    for (uint32_t t = 0; t < tracks; t++) {
        for (uint32_t k = 1; k < counts[t]; k++, idx++) {
            const uint8_t *key = keys[t] + (size_t)k * key_size;
            uint32_t frame;
            memcpy(&frame, key, 4);
            i32(w, idx);
            i32(w, (int32_t)frame);
            i32(w, k == 1 ? (int32_t)t : idx - 1);
            i32(w, k + 1 < counts[t] ? idx + 1 : 0);
            body(w, key);
        }
    }
}

static void write_track(wbuf *w, const void *keys, uint32_t count, size_t key_size, wbody_fn body)
{
    const uint8_t *k = keys;
    write_tracks(w, 1, &k, &count, key_size, body);
}

static void wbone(wbuf *w, const void *key)
{
    const mmd_pmm_bone_key *k = key;
    put(w, k->interp, 16);
    f32v(w, k->position, 3);
    f32v(w, k->rotation, 4);
    u8(w, 0);
    if (w->version > 1)
        u8(w, k->physics_off);
}

static void wmorph(wbuf *w, const void *key)
{
    const mmd_pmm_morph_key *k = key;
    f32(w, k->weight);
    u8(w, 0);
}

static void wparent(wbuf *w, mmd_pmm_parent p, bool bone_zero)
{
    const mmd_pmm *doc = w->p;
    int32_t id = p.model >= 0 && (uint32_t)p.model < doc->model_count ? doc->models[p.model].id : p.model;
    i32(w, id);
    i32(w, p.model < 0 && bone_zero ? 0 : p.bone);
}

static void wmodel_key(wbuf *w, const void *key)
{
    const mmd_pmm_model_key *k = key;
    const mmd_pmm_model *m = w->cur_model;
    u8(w, k->visible);
    for (uint32_t i = 0; i < m->ik_count; i++)
        u8(w, k->ik_enabled ? k->ik_enabled[i] : 1);
    if (w->version > 1)
        for (uint32_t i = 0; i < m->op_count; i++)
            wparent(w, k->parents ? k->parents[i] : (mmd_pmm_parent){-1, -1}, false);
    u8(w, 0);
}

static void wcamera(wbuf *w, const void *key)
{
    const mmd_pmm_camera_key *k = key;
    f32(w, k->distance);
    f32v(w, k->target, 3);
    f32v(w, k->rotation, 3);
    if (w->version > 1)
        wparent(w, k->look_at, true);
    put(w, k->interp, 24);
    u8(w, k->perspective ? 0 : 1);
    i32(w, k->fov);
    u8(w, 0);
}

static void wlight(wbuf *w, const void *key)
{
    const mmd_pmm_light_key *k = key;
    f32v(w, k->color, 3);
    f32v(w, k->direction, 3);
    u8(w, 0);
}

static unsigned opacity_byte(float opacity, bool visible)
{
    float t = 100.0f - opacity * 100.0f;
    int v = (int)(t + 0.5f);
    v = v < 0 ? 0 : v > 100 ? 100 : v;
    return (unsigned)(v << 1) | (visible ? 1u : 0u);
}

static void waccessory(wbuf *w, const void *key)
{
    const mmd_pmm_accessory_key *k = key;
    u8(w, opacity_byte(k->opacity, k->visible));
    wparent(w, k->parent, true);
    f32v(w, k->position, 3);
    f32v(w, k->rotation, 3);
    f32(w, k->scale);
    u8(w, k->shadow);
    u8(w, 0);
}

static void wgravity(wbuf *w, const void *key)
{
    const mmd_pmm_gravity_key *k = key;
    u8(w, k->noise);
    i32(w, k->noise_amount);
    f32(w, k->acceleration);
    f32v(w, k->direction, 3);
    u8(w, 0);
}

static void wshadow(wbuf *w, const void *key)
{
    const mmd_pmm_shadow_key *k = key;
    u8(w, k->mode);
    f32(w, k->distance);
    u8(w, 0);
}

/* ---- models ----------------------------------------------------------------------------- */

static void wmodel_tracks(wbuf *w, const mmd_pmm_model *m)
{
    uint32_t n = m->bone_count > m->morph_count ? m->bone_count : m->morph_count;
    const uint8_t **keys = malloc(((size_t)n + 1) * sizeof *keys);
    uint32_t *counts = malloc(((size_t)n + 1) * sizeof *counts);
    if (!keys || !counts) {
        w->fail = true;
        free(keys);
        free(counts);
        return;
    }
    for (uint32_t i = 0; i < m->bone_count; i++) {
        keys[i] = (const uint8_t *)m->bones[i].keys;
        counts[i] = m->bones[i].key_count;
    }
    write_tracks(w, m->bone_count, keys, counts, sizeof(mmd_pmm_bone_key), wbone);
    for (uint32_t i = 0; i < m->morph_count; i++) {
        keys[i] = (const uint8_t *)m->morphs[i].keys;
        counts[i] = m->morphs[i].key_count;
    }
    write_tracks(w, m->morph_count, keys, counts, sizeof(mmd_pmm_morph_key), wmorph);
    free(keys);
    free(counts);
    w->cur_model = m;
    write_track(w, m->keys, m->key_count, sizeof(mmd_pmm_model_key), wmodel_key);
}

static void wmodel(wbuf *w, const mmd_pmm_model *m)
{
    u8(w, m->id);
    if (w->version > 1) {
        var_str(w, m->name);
        var_str(w, m->name_en);
        fixed_str(w, m->path, MMD_PMM_PATH_BYTES);
        u8(w, 1);
        i32(w, (int32_t)m->bone_count);
        for (uint32_t i = 0; i < m->bone_count; i++)
            var_str(w, m->bones[i].name);
        i32(w, (int32_t)m->morph_count);
        for (uint32_t i = 0; i < m->morph_count; i++)
            var_str(w, m->morphs[i].name);
        i32(w, (int32_t)m->ik_count);
        for (uint32_t i = 0; i < m->ik_count; i++)
            i32(w, m->ik_bones[i]);
        i32(w, (int32_t)m->op_count);
        for (uint32_t i = 0; i < m->op_count; i++)
            i32(w, m->op_bones[i]);
    } else {
        fixed_str(w, m->name, MMD_PMM_V1_MODEL_NAME_BYTES);
        fixed_str(w, m->path, MMD_PMM_PATH_BYTES);
    }
    u8(w, m->draw_order);
    u8(w, m->visible);
    i32(w, -1);
    for (int i = 0; i < 4; i++)
        i32(w, -1);
    u8(w, 0); /* no expansion states */
    i32(w, 0);
    i32(w, 0);
    wmodel_tracks(w, m);
    for (uint32_t i = 0; i < m->bone_count; i++) {
        const mmd_pmm_bone_key *k = &m->bones[i].keys[0];
        f32v(w, k->position, 3);
        f32v(w, k->rotation, 4);
        if (w->version == 1)
            i32(w, 0);
        put(w, NULL, w->version > 1 ? 3 : 2);
    }
    for (uint32_t i = 0; i < m->morph_count; i++)
        f32(w, m->morphs[i].keys[0].weight);
    for (uint32_t i = 0; i < m->ik_count; i++)
        u8(w, 1);
    if (w->version > 1) {
        for (uint32_t i = 0; i < m->op_count; i++) {
            i32(w, 0);
            i32(w, 0);
            i32(w, -1);
            i32(w, -1);
        }
        u8(w, m->look.add_blend);
        f32(w, m->look.edge_width);
        u8(w, m->look.self_shadow);
        u8(w, m->calc_order);
    }
}

static void waccessory_obj(wbuf *w, const mmd_pmm_accessory *x)
{
    u8(w, x->id);
    fixed_str(w, x->name, MMD_PMM_ACCESSORY_NAME_BYTES);
    fixed_str(w, x->path, MMD_PMM_PATH_BYTES);
    u8(w, x->draw_order);
    write_track(w, x->keys, x->key_count, sizeof *x->keys, waccessory);
    const mmd_pmm_accessory_key *k = &x->keys[0];
    u8(w, opacity_byte(k->opacity, k->visible));
    wparent(w, k->parent, true);
    f32v(w, k->position, 3);
    f32v(w, k->rotation, 3);
    f32(w, k->scale);
    u8(w, k->shadow);
    if (w->version > 1)
        u8(w, x->add_blend);
}

/* ---- document --------------------------------------------------------------------------- */

static void wheader(wbuf *w, const mmd_pmm *p)
{
    uint8_t sig[30] = {0};
    memcpy(sig, w->version > 1 ? "Polygon Movie maker 0002" : "Polygon Movie maker 0001", 24);
    put(w, sig, 30);
    i32(w, p->width);
    i32(w, p->height);
    i32(w, 250);
    f32(w, 30.0f);
    put(w, "\1\1\1\1\1\1\1", w->version > 1 ? 7 : 6);
    u8(w, 0);
    u8(w, p->model_count);
    if (w->version == 1)
        for (uint32_t i = 0; i < p->model_count; i++)
            fixed_str(w, p->models[i].name, MMD_PMM_V1_MODEL_NAME_BYTES);
    for (uint32_t i = 0; i < p->model_count; i++)
        wmodel(w, &p->models[i]);
    write_track(w, p->camera_keys, p->camera_key_count, sizeof *p->camera_keys, wcamera);
    const mmd_pmm_camera_key *ck = &p->camera_keys[0];
    f32v(w, ck->target, 3);
    f32(w, 0);
    f32(w, 0);
    f32(w, ck->distance);
    f32v(w, ck->rotation, 3);
    u8(w, ck->perspective ? 0 : 1);
    write_track(w, p->light_keys, p->light_key_count, sizeof *p->light_keys, wlight);
    f32v(w, p->light_keys[0].color, 3);
    f32v(w, p->light_keys[0].direction, 3);
    u8(w, 0);
    i32(w, 0);
    u8(w, p->accessory_count);
    for (uint32_t i = 0; i < p->accessory_count; i++)
        fixed_str(w, p->accessories[i].name, MMD_PMM_ACCESSORY_NAME_BYTES);
    for (uint32_t i = 0; i < p->accessory_count; i++)
        waccessory_obj(w, &p->accessories[i]);
}

static void wmedia(wbuf *w, const mmd_pmm *p)
{
    put(w, NULL, 12);
    i32(w, 2); /* editing mode: none */
    u8(w, 0);
    u8(w, 0);
    u8(w, p->begin_enabled);
    u8(w, p->end_enabled);
    i32(w, p->begin_frame);
    i32(w, p->end_frame);
    u8(w, p->audio_enabled);
    fixed_str(w, p->audio_path, MMD_PMM_PATH_BYTES);
    i32(w, p->video_offset[0]);
    i32(w, p->video_offset[1]);
    f32(w, p->video_scale);
    fixed_str(w, p->video_path, MMD_PMM_PATH_BYTES);
    i32(w, p->video_enabled ? 1 : 0);
    i32(w, p->image_offset[0]);
    i32(w, p->image_offset[1]);
    f32(w, p->image_scale);
    fixed_str(w, p->image_path, MMD_PMM_PATH_BYTES);
    u8(w, p->image_enabled);
    u8(w, 1);
    u8(w, 1);
    u8(w, p->ground_shadow);
    f32(w, p->fps);
    i32(w, 0);
    i32(w, p->accessories_after_models);
    f32(w, p->ground_shadow_brightness);
}

static void wtail(wbuf *w, const mmd_pmm *p)
{
    u8(w, p->ground_shadow_translucent);
    u8(w, p->physics);
    const mmd_pmm_gravity_key *g = &p->gravity_keys[0];
    f32(w, g->acceleration);
    i32(w, g->noise_amount);
    f32v(w, g->direction, 3);
    u8(w, g->noise);
    write_track(w, p->gravity_keys, p->gravity_key_count, sizeof *p->gravity_keys, wgravity);
    u8(w, p->self_shadow);
    f32(w, p->self_shadow_distance);
    write_track(w, p->shadow_keys, p->shadow_key_count, sizeof *p->shadow_keys, wshadow);
    for (int i = 0; i < 3; i++)
        i32(w, (int32_t)(p->edge_color[i] * 255.0f + 0.5f));
    u8(w, p->black_background);
    i32(w, -1);
    i32(w, 0);
    for (int i = 0; i < 16; i++)
        f32(w, i % 5 == 0 ? 1.0f : 0.0f);
    u8(w, 0);
    u8(w, 0);
    u8(w, p->physics_ground);
    i32(w, 0);
    u8(w, 1);
    for (uint32_t i = 0; i < p->model_count; i++) {
        u8(w, p->models[i].id);
        i32(w, 0);
    }
}

mmd_status mmd_pmm_write(const mmd_pmm *p, uint8_t **out, size_t *size, mmd_error *err)
{
    if (!p || (p->version != 1 && p->version != 2) || p->model_count > 255 || p->accessory_count > 255 ||
        !p->camera_key_count || !p->light_key_count || !p->gravity_key_count || !p->shadow_key_count)
        return mmd_error_set(err, MMD_E_BAD_VALUE, "pmm.write", -1, -1, "project has no version, too many objects or an empty track");
    wbuf w = {.version = p->version, .p = p, .t = mmd_text_create()};
    if (!w.t)
        return mmd_error_set(err, MMD_E_NOMEM, "pmm.write", -1, -1, "text");
    wheader(&w, p);
    wmedia(&w, p);
    if (p->version > 1)
        wtail(&w, p);
    mmd_text_destroy(w.t);
    if (w.fail) {
        free(w.b);
        return mmd_error_set(err, MMD_E_NOMEM, "pmm.write", -1, -1, "%zu bytes", w.n);
    }
    *out = w.b;
    *size = w.n;
    return MMD_OK;
}

/* ---- builder ---------------------------------------------------------------------------- */

static const uint8_t LINEAR[4] = {20, 20, 107, 107};

/* Inserts a key at `frame` into a sorted track (copying the key before it, or
 * returning the existing key at that frame). */
static void *insert_key(mmd_arena *a, void **keys, uint32_t *count, size_t es, uint32_t frame)
{
    uint8_t *k = *keys;
    uint32_t pos = 0;
    while (pos < *count) {
        uint32_t f;
        memcpy(&f, k + (size_t)pos * es, 4);
        if (f == frame)
            return k + (size_t)pos * es;
        if (f > frame)
            break;
        pos++;
    }
    uint8_t *nk = mmd_arena_array(a, (size_t)*count + 1, es);
    if (!nk)
        return NULL;
    if (*count)
        memcpy(nk, k, (size_t)pos * es);
    if (*count > pos)
        memcpy(nk + (size_t)(pos + 1) * es, k + (size_t)pos * es, (size_t)(*count - pos) * es);
    if (pos > 0)
        memcpy(nk + (size_t)pos * es, nk + (size_t)(pos - 1) * es, es);
    memcpy(nk + (size_t)pos * es, &frame, 4);
    *keys = nk;
    (*count)++;
    return nk + (size_t)pos * es;
}

mmd_pmm *mmd_pmm_new(void)
{
    mmd_arena *a = mmd_arena_create();
    mmd_pmm *p = a ? mmd_arena_alloc(a, sizeof *p) : NULL;
    if (!p) {
        mmd_arena_destroy(a);
        return NULL;
    }
    p->arena = a;
    p->version = 2;
    p->width = 1280;
    p->height = 720;
    p->fps = 30;
    p->audio_path = p->video_path = p->image_path = "";
    p->image_scale = p->video_scale = 1;
    p->ground_shadow = true;
    p->ground_shadow_brightness = 1;
    p->physics = MMD_PMM_PHYSICS_TRACE;
    p->physics_ground = true;
    p->accessories_after_models = -1;
    p->self_shadow = true;
    p->self_shadow_distance = 0.01125f;
    mmd_pmm_camera_key *c = mmd_pmm_add_camera_key(p, 0);
    mmd_pmm_light_key *l = mmd_pmm_add_light_key(p, 0);
    mmd_pmm_gravity_key *g = mmd_pmm_add_gravity_key(p, 0);
    mmd_pmm_shadow_key *s = mmd_pmm_add_shadow_key(p, 0);
    if (!c || !l || !g || !s) {
        mmd_arena_destroy(a);
        return NULL;
    }
    *c = (mmd_pmm_camera_key){0, -45, {0, 10, 0}, {0, 0, 0}, {-1, -1}, {0}, true, 30};
    for (int i = 0; i < 6; i++)
        memcpy(c->interp + 4 * i, LINEAR, 4);
    *l = (mmd_pmm_light_key){0, {0.6f, 0.6f, 0.6f}, {-0.5f, -1, 0.5f}};
    *g = (mmd_pmm_gravity_key){0, false, 10, 9.8f, {0, -1, 0}};
    *s = (mmd_pmm_shadow_key){0, 1, 0.01125f};
    return p;
}

static bool init_model_tracks(mmd_pmm *p, mmd_pmm_model *m, const char *const *bones, const char *const *morphs)
{
    mmd_arena *a = p->arena;
    for (uint32_t i = 0; i < m->bone_count; i++) {
        mmd_pmm_bone *b = &m->bones[i];
        b->name = mmd_arena_strdup(a, bones[i]);
        b->keys = mmd_arena_alloc(a, sizeof *b->keys);
        if (!b->name || !b->keys)
            return false;
        b->key_count = 1;
        b->keys[0].rotation[3] = 1;
        for (int c = 0; c < 4; c++)
            memcpy(b->keys[0].interp + 4 * c, LINEAR, 4);
    }
    for (uint32_t i = 0; i < m->morph_count; i++) {
        mmd_pmm_morph *x = &m->morphs[i];
        x->name = mmd_arena_strdup(a, morphs[i]);
        x->keys = mmd_arena_alloc(a, sizeof *x->keys);
        if (!x->name || !x->keys)
            return false;
        x->key_count = 1;
    }
    m->keys = mmd_arena_alloc(a, sizeof *m->keys);
    if (!m->keys)
        return false;
    m->key_count = 1;
    m->keys[0].visible = true;
    m->keys[0].ik_enabled = mmd_arena_array(a, m->ik_count ? m->ik_count : 1, sizeof(bool));
    m->keys[0].parents = mmd_arena_array(a, m->op_count ? m->op_count : 1, sizeof(mmd_pmm_parent));
    if (!m->keys[0].ik_enabled || !m->keys[0].parents)
        return false;
    for (uint32_t i = 0; i < m->ik_count; i++)
        m->keys[0].ik_enabled[i] = true;
    for (uint32_t i = 0; i < m->op_count; i++)
        m->keys[0].parents[i] = (mmd_pmm_parent){-1, -1};
    return true;
}

/* A copy of the count items of old in a new arena array with room for one
 * more (builder lists hold at most 255 items, so copying on each add is fine). */
static void *grow_by_one(mmd_arena *a, const void *old, uint32_t count, size_t size)
{
    void *n = mmd_arena_array(a, (size_t)count + 1, size);
    if (n && count)
        memcpy(n, old, (size_t)count * size);
    return n;
}

mmd_pmm_model *mmd_pmm_add_model(mmd_pmm *p, const char *name, const char *path,
                                 const char *const *bones, uint32_t bone_count,
                                 const char *const *morphs, uint32_t morph_count,
                                 const int32_t *ik_bones, uint32_t ik_count,
                                 const int32_t *op_bones, uint32_t op_count)
{
    if (p->model_count >= 255)
        return NULL;
    mmd_arena *a = p->arena;
    mmd_pmm_model *nm = grow_by_one(a, p->models, p->model_count, sizeof *nm);
    if (!nm)
        return NULL;
    mmd_pmm_model *m = &nm[p->model_count];
    m->id = (uint8_t)p->model_count;
    m->name = mmd_arena_strdup(a, name ? name : "");
    m->name_en = mmd_arena_strdup(a, "");
    m->path = mmd_arena_strdup(a, path ? path : "");
    m->bone_count = bone_count;
    m->morph_count = morph_count;
    m->ik_count = ik_count;
    m->op_count = op_count;
    m->bones = mmd_arena_array(a, bone_count ? bone_count : 1, sizeof *m->bones);
    m->morphs = mmd_arena_array(a, morph_count ? morph_count : 1, sizeof *m->morphs);
    m->ik_bones = mmd_arena_array(a, ik_count ? ik_count : 1, sizeof *m->ik_bones);
    m->op_bones = mmd_arena_array(a, op_count ? op_count : 1, sizeof *m->op_bones);
    if (!m->name || !m->name_en || !m->path || !m->bones || !m->morphs || !m->ik_bones || !m->op_bones)
        return NULL;
    if (ik_count)
        memcpy(m->ik_bones, ik_bones, ik_count * sizeof *ik_bones);
    if (op_count)
        memcpy(m->op_bones, op_bones, op_count * sizeof *op_bones);
    m->draw_order = m->calc_order = (uint8_t)(p->model_count + 1);
    m->visible = true;
    m->look = mmd_model_look_default();
    if (!init_model_tracks(p, m, bones, morphs))
        return NULL;
    p->models = nm;
    p->model_count++;
    return m;
}

mmd_pmm_accessory *mmd_pmm_add_accessory(mmd_pmm *p, const char *name, const char *path)
{
    if (p->accessory_count >= 255)
        return NULL;
    mmd_arena *a = p->arena;
    mmd_pmm_accessory *na = grow_by_one(a, p->accessories, p->accessory_count, sizeof *na);
    if (!na)
        return NULL;
    mmd_pmm_accessory *x = &na[p->accessory_count];
    x->id = (uint8_t)p->accessory_count;
    x->name = mmd_arena_strdup(a, name ? name : "");
    x->path = mmd_arena_strdup(a, path ? path : "");
    x->draw_order = (uint8_t)p->accessory_count;
    x->keys = mmd_arena_alloc(a, sizeof *x->keys);
    if (!x->name || !x->path || !x->keys)
        return NULL;
    x->key_count = 1;
    x->keys[0] = (mmd_pmm_accessory_key){0, 1, true, {-1, -1}, {0, 0, 0}, {0, 0, 0}, 1, true}; /* Si 1 */
    p->accessories = na;
    p->accessory_count++;
    return x;
}

mmd_pmm_bone_key *mmd_pmm_add_bone_key(mmd_pmm *p, mmd_pmm_model *m, uint32_t bone, uint32_t frame)
{
    if (bone >= m->bone_count)
        return NULL;
    return insert_key(p->arena, (void **)&m->bones[bone].keys, &m->bones[bone].key_count, sizeof(mmd_pmm_bone_key), frame);
}

mmd_pmm_morph_key *mmd_pmm_add_morph_key(mmd_pmm *p, mmd_pmm_model *m, uint32_t morph, uint32_t frame)
{
    if (morph >= m->morph_count)
        return NULL;
    return insert_key(p->arena, (void **)&m->morphs[morph].keys, &m->morphs[morph].key_count, sizeof(mmd_pmm_morph_key), frame);
}

mmd_pmm_model_key *mmd_pmm_add_model_key(mmd_pmm *p, mmd_pmm_model *m, uint32_t frame)
{
    uint32_t before = m->key_count;
    mmd_pmm_model_key *k = insert_key(p->arena, (void **)&m->keys, &m->key_count, sizeof *k, frame);
    if (!k || m->key_count == before)
        return k;
    bool *ik = mmd_arena_array(p->arena, m->ik_count ? m->ik_count : 1, sizeof *ik);
    mmd_pmm_parent *op = mmd_arena_array(p->arena, m->op_count ? m->op_count : 1, sizeof *op);
    if (!ik || !op)
        return NULL;
    memcpy(ik, k->ik_enabled, m->ik_count * sizeof *ik);
    memcpy(op, k->parents, m->op_count * sizeof *op);
    k->ik_enabled = ik;
    k->parents = op;
    return k;
}

mmd_pmm_camera_key *mmd_pmm_add_camera_key(mmd_pmm *p, uint32_t frame)
{
    return insert_key(p->arena, (void **)&p->camera_keys, &p->camera_key_count, sizeof(mmd_pmm_camera_key), frame);
}

mmd_pmm_light_key *mmd_pmm_add_light_key(mmd_pmm *p, uint32_t frame)
{
    return insert_key(p->arena, (void **)&p->light_keys, &p->light_key_count, sizeof(mmd_pmm_light_key), frame);
}

mmd_pmm_accessory_key *mmd_pmm_add_accessory_key(mmd_pmm *p, mmd_pmm_accessory *a, uint32_t frame)
{
    return insert_key(p->arena, (void **)&a->keys, &a->key_count, sizeof(mmd_pmm_accessory_key), frame);
}

mmd_pmm_gravity_key *mmd_pmm_add_gravity_key(mmd_pmm *p, uint32_t frame)
{
    return insert_key(p->arena, (void **)&p->gravity_keys, &p->gravity_key_count, sizeof(mmd_pmm_gravity_key), frame);
}

mmd_pmm_shadow_key *mmd_pmm_add_shadow_key(mmd_pmm *p, uint32_t frame)
{
    return insert_key(p->arena, (void **)&p->shadow_keys, &p->shadow_key_count, sizeof(mmd_pmm_shadow_key), frame);
}
