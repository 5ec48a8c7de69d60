/* core/vmd_write.c - VMD v2 writer and the in-memory motion builder (see vmd_write.h). */
#include "core/vmd_write.h"

#include <stdlib.h>
#include <string.h>

#include "core/text.h"

/* ------------------------------------------------------------ curves */

void mmd_vmd_set_bone_curve(uint8_t interp[64], int channel, uint8_t x1, uint8_t y1, uint8_t x2, uint8_t y2)
{
    if (channel < 0 || channel > 3)
        return;
    uint8_t row0[16];
    memcpy(row0, interp, 16);
    row0[channel] = x1;
    row0[4 + channel] = y1;
    row0[8 + channel] = x2;
    row0[12 + channel] = y2;
    memset(interp, 0, 64);
    for (int row = 0; row < 4; row++)
        for (int k = 0; k + row < 16; k++)
            interp[row * 16 + k] = row0[k + row];
}

void mmd_vmd_linear_bone_interp(uint8_t interp[64])
{
    memset(interp, 0, 64);
    for (int c = 0; c < 4; c++)
        mmd_vmd_set_bone_curve(interp, c, 20, 20, 107, 107);
}

void mmd_vmd_set_camera_curve(uint8_t interp[24], int curve, uint8_t x1, uint8_t y1, uint8_t x2, uint8_t y2)
{
    if (curve < 0 || curve > 5)
        return;
    interp[curve * 4 + 0] = x1;
    interp[curve * 4 + 1] = x2;
    interp[curve * 4 + 2] = y1;
    interp[curve * 4 + 3] = y2;
}

/* ----------------------------------------------------------- builder */

static bool raw_name(mmd_arena *a, const char *name, char **out_name, uint8_t *raw, size_t cap,
                     const char *prev_name, const uint8_t *prev_raw);

mmd_motion *mmd_motion_new(const char *model_name)
{
    mmd_arena *a = mmd_arena_create();
    if (!a)
        return NULL;
    mmd_motion *m = mmd_arena_alloc(a, sizeof *m);
    if (!m) {
        mmd_arena_destroy(a);
        return NULL;
    }
    m->arena = a;
    m->format = MMD_MOTION_VMD;
    m->version = 2;
    char *tmp = NULL;
    if (!raw_name(a, model_name ? model_name : "", &tmp, m->raw_model_name, 20, NULL, NULL)) {
        mmd_arena_destroy(a);
        return NULL;
    }
    m->model_name = tmp;
    return m;
}

/* Arrays made by the builder have capacity max(8, next power of two >= count),
 * so no capacity field is needed: grow when count is 0 or a power of two >= 8. */
static void *grow(mmd_arena *a, void *arr, uint32_t count, size_t elem)
{
    if (count != 0 && (count < 8 || (count & (count - 1)) != 0))
        return arr;
    if (count >= MMD_MAX_MOTION_KEYS)
        return NULL;
    size_t cap = count == 0 ? 8 : (size_t)count * 2;
    void *n = mmd_arena_array(a, cap, elem);
    if (n && count)
        memcpy(n, arr, (size_t)count * elem);
    return n;
}

/* Shift-JIS raw name: ASCII directly, else through iconv (reusing `prev`
 * when the previous key had the same name, as generators write per track). */
static bool raw_name(mmd_arena *a, const char *name, char **out_name, uint8_t *raw, size_t cap,
                     const char *prev_name, const uint8_t *prev_raw)
{
    *out_name = mmd_arena_strdup(a, name);
    if (!*out_name)
        return false;
    if (prev_name && !strcmp(prev_name, name)) {
        memcpy(raw, prev_raw, cap);
        return true;
    }
    size_t n = strlen(name);
    bool ascii = true;
    for (size_t i = 0; i < n; i++)
        ascii &= (unsigned char)name[i] < 0x80;
    if (ascii) {
        memcpy(raw, name, n < cap ? n : cap);
        return true;
    }
    mmd_text *t = mmd_text_create();
    if (!t)
        return false;
    mmd_text_to_sjis(t, name, raw, cap);
    mmd_text_destroy(t);
    return true;
}

static void note_frame(mmd_motion *m, uint32_t f)
{
    if (f > m->last_frame)
        m->last_frame = f;
}

mmd_bone_key *mmd_motion_add_bone_key(mmd_motion *m, const char *name, uint32_t frame,
                                      const float position[3], const float rotation[4])
{
    mmd_bone_key *arr = grow(m->arena, m->bone_keys, m->bone_key_count, sizeof *arr);
    if (!arr)
        return NULL;
    m->bone_keys = arr;
    mmd_bone_key *prev = m->bone_key_count ? &arr[m->bone_key_count - 1] : NULL;
    mmd_bone_key *k = &arr[m->bone_key_count];
    memset(k, 0, sizeof *k);
    if (!raw_name(m->arena, name, &k->name, k->raw_name, 15, prev ? prev->name : NULL, prev ? prev->raw_name : NULL))
        return NULL;
    k->frame = frame;
    if (position)
        memcpy(k->position, position, sizeof k->position);
    if (rotation)
        memcpy(k->rotation, rotation, sizeof k->rotation);
    else
        k->rotation[3] = 1.0f;
    mmd_vmd_linear_bone_interp(k->interp);
    m->bone_key_count++;
    note_frame(m, frame);
    return k;
}

mmd_morph_key *mmd_motion_add_morph_key(mmd_motion *m, const char *name, uint32_t frame, float weight)
{
    mmd_morph_key *arr = grow(m->arena, m->morph_keys, m->morph_key_count, sizeof *arr);
    if (!arr)
        return NULL;
    m->morph_keys = arr;
    mmd_morph_key *prev = m->morph_key_count ? &arr[m->morph_key_count - 1] : NULL;
    mmd_morph_key *k = &arr[m->morph_key_count];
    memset(k, 0, sizeof *k);
    if (!raw_name(m->arena, name, &k->name, k->raw_name, 15, prev ? prev->name : NULL, prev ? prev->raw_name : NULL))
        return NULL;
    k->frame = frame;
    k->weight = weight;
    m->morph_key_count++;
    note_frame(m, frame);
    return k;
}

mmd_camera_key *mmd_motion_add_camera_key(mmd_motion *m, uint32_t frame)
{
    mmd_camera_key *arr = grow(m->arena, m->camera_keys, m->camera_key_count, sizeof *arr);
    if (!arr)
        return NULL;
    m->camera_keys = arr;
    mmd_camera_key *k = &arr[m->camera_key_count++];
    memset(k, 0, sizeof *k);
    k->frame = frame;
    k->distance = -45.0f;
    k->target[1] = 10.0f;
    k->fov = 30;
    for (int c = 0; c < 6; c++)
        mmd_vmd_set_camera_curve(k->interp, c, 20, 20, 107, 107);
    note_frame(m, frame);
    return k;
}

mmd_light_key *mmd_motion_add_light_key(mmd_motion *m, uint32_t frame, const float color[3],
                                        const float direction[3])
{
    mmd_light_key *arr = grow(m->arena, m->light_keys, m->light_key_count, sizeof *arr);
    if (!arr)
        return NULL;
    m->light_keys = arr;
    mmd_light_key *k = &arr[m->light_key_count++];
    k->frame = frame;
    memcpy(k->color, color, sizeof k->color);
    memcpy(k->direction, direction, sizeof k->direction);
    note_frame(m, frame);
    return k;
}

mmd_shadow_key *mmd_motion_add_shadow_key(mmd_motion *m, uint32_t frame, uint8_t mode, float distance)
{
    mmd_shadow_key *arr = grow(m->arena, m->shadow_keys, m->shadow_key_count, sizeof *arr);
    if (!arr)
        return NULL;
    m->shadow_keys = arr;
    mmd_shadow_key *k = &arr[m->shadow_key_count++];
    k->frame = frame;
    k->mode = mode;
    k->distance = distance;
    note_frame(m, frame);
    return k;
}

mmd_property_key *mmd_motion_add_property_key(mmd_motion *m, uint32_t frame, bool visible,
                                              const char *const *ik_names, const bool *ik_enabled,
                                              uint32_t ik_count)
{
    mmd_property_key *arr = grow(m->arena, m->property_keys, m->property_key_count, sizeof *arr);
    if (!arr)
        return NULL;
    m->property_keys = arr;
    mmd_property_key *k = &arr[m->property_key_count];
    memset(k, 0, sizeof *k);
    k->frame = frame;
    k->visible = visible;
    if (ik_count) {
        k->ik = mmd_arena_array(m->arena, ik_count, sizeof *k->ik);
        if (!k->ik)
            return NULL;
        for (uint32_t i = 0; i < ik_count; i++) {
            if (!raw_name(m->arena, ik_names[i], &k->ik[i].name, k->ik[i].raw_name, 20, NULL, NULL))
                return NULL;
            k->ik[i].enabled = ik_enabled ? ik_enabled[i] : true;
        }
    }
    k->ik_count = ik_count;
    m->property_key_count++;
    note_frame(m, frame);
    return k;
}

/* ------------------------------------------------------------ writer */

typedef struct wbuf {
    uint8_t *p;
    size_t n;
} wbuf;

static void put_u8(wbuf *w, uint8_t v) { w->p[w->n++] = v; }
static void put_u32(wbuf *w, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        w->p[w->n++] = (uint8_t)(v >> (8 * i));
}
static void put_f32(wbuf *w, float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    put_u32(w, u);
}
static void put_f32v(wbuf *w, const float *f, int n)
{
    for (int i = 0; i < n; i++)
        put_f32(w, f[i]);
}
static void put_bytes(wbuf *w, const void *s, size_t n)
{
    memcpy(w->p + w->n, s, n);
    w->n += n;
}

static bool has_raw(const uint8_t *raw, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (raw[i])
            return true;
    return false;
}

/* Fixed name field of `width` bytes: raw bytes when set, else SJIS of name. */
static void put_name(wbuf *w, mmd_text *t, const uint8_t *raw, size_t raw_cap, const char *name, size_t width)
{
    uint8_t buf[32] = {0};
    if (has_raw(raw, raw_cap))
        memcpy(buf, raw, raw_cap < width ? raw_cap : width);
    else if (name && name[0])
        mmd_text_to_sjis(t, name, buf, width);
    put_bytes(w, buf, width);
}

mmd_status mmd_vmd_write(const mmd_motion *m, uint8_t **out, size_t *size, mmd_error *err)
{
    /* size: 30 + 20 + 6 counts */
    uint64_t total = 50 + 6 * 4;
    total += (uint64_t)m->bone_key_count * 111 + (uint64_t)m->morph_key_count * 23 +
             (uint64_t)m->camera_key_count * 61 + (uint64_t)m->light_key_count * 28 +
             (uint64_t)m->shadow_key_count * 9;
    for (uint32_t i = 0; i < m->property_key_count; i++)
        total += 9 + (uint64_t)m->property_keys[i].ik_count * 21;
    if (total > ((uint64_t)1 << 31))
        return mmd_error_set(err, MMD_E_LIMIT, "vmd.write", -1, -1, "motion too large (%llu bytes)",
                             (unsigned long long)total);
    wbuf w = {malloc((size_t)total), 0};
    mmd_text *t = mmd_text_create();
    if (!w.p || !t) {
        free(w.p);
        mmd_text_destroy(t);
        return mmd_error_set(err, MMD_E_NOMEM, "vmd.write", -1, -1, "out of memory");
    }
    uint8_t magic[30] = "Vocaloid Motion Data 0002";
    put_bytes(&w, magic, 30);
    put_name(&w, t, m->raw_model_name, sizeof m->raw_model_name - 1, m->model_name, 20);

    put_u32(&w, m->bone_key_count);
    for (uint32_t i = 0; i < m->bone_key_count; i++) {
        const mmd_bone_key *k = &m->bone_keys[i];
        put_name(&w, t, k->raw_name, 15, k->name, 15);
        put_u32(&w, k->frame);
        put_f32v(&w, k->position, 3);
        put_f32v(&w, k->rotation, 4);
        put_bytes(&w, k->interp, 64);
    }
    put_u32(&w, m->morph_key_count);
    for (uint32_t i = 0; i < m->morph_key_count; i++) {
        const mmd_morph_key *k = &m->morph_keys[i];
        put_name(&w, t, k->raw_name, 15, k->name, 15);
        put_u32(&w, k->frame);
        put_f32(&w, k->weight);
    }
    put_u32(&w, m->camera_key_count);
    for (uint32_t i = 0; i < m->camera_key_count; i++) {
        const mmd_camera_key *k = &m->camera_keys[i];
        put_u32(&w, k->frame);
        put_f32(&w, k->distance);
        put_f32v(&w, k->target, 3);
        put_f32v(&w, k->rotation, 3);
        put_bytes(&w, k->interp, 24);
        put_u32(&w, k->fov);
        put_u8(&w, k->perspective);
    }
    put_u32(&w, m->light_key_count);
    for (uint32_t i = 0; i < m->light_key_count; i++) {
        const mmd_light_key *k = &m->light_keys[i];
        put_u32(&w, k->frame);
        put_f32v(&w, k->color, 3);
        put_f32v(&w, k->direction, 3);
    }
    put_u32(&w, m->shadow_key_count);
    for (uint32_t i = 0; i < m->shadow_key_count; i++) {
        const mmd_shadow_key *k = &m->shadow_keys[i];
        put_u32(&w, k->frame);
        put_u8(&w, k->mode);
        put_f32(&w, k->distance);
    }
    put_u32(&w, m->property_key_count);
    for (uint32_t i = 0; i < m->property_key_count; i++) {
        const mmd_property_key *k = &m->property_keys[i];
        put_u32(&w, k->frame);
        put_u8(&w, k->visible ? 1 : 0);
        put_u32(&w, k->ik_count);
        for (uint32_t j = 0; j < k->ik_count; j++) {
            put_name(&w, t, k->ik[j].raw_name, 20, k->ik[j].name, 20);
            put_u8(&w, k->ik[j].enabled ? 1 : 0);
        }
    }
    mmd_text_destroy(t);
    *out = w.p;
    *size = w.n;
    return MMD_OK;
}
