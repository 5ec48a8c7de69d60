/* renderer/image/texlib.c - texture files for the renderer: resolution, one
 * decode per (file, wrap), decoding a model's files ahead, the budget and the
 * warnings (texlib.h). */
#include "renderer/image/texlib.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "renderer/base/filemap.h"
#include "renderer/image/texpath.h"

/* One (file, wrap) handed out, found through `map` by the resolved file's
 * device and inode and the wrap. */
typedef struct tex_entry {
    bool ok;      /* false: failed or over the budget (drawn white) */
    size_t bytes; /* counted against the budget */
} tex_entry;

/* A file decoded ahead of its turn (a model's files are decoded together
 * before its materials take them one by one). */
typedef struct tex_ahead { /* found through ahead_map */
    bool ready;    /* decoded and not taken yet */
    mmd_status st;
    mmd_image img; /* st MMD_OK: owned while ready */
    mmd_error err; /* otherwise */
} tex_ahead;

struct mmd_texlib {
    mmd_texlib_config c;
    tex_entry *e;
    size_t count, cap;
    mmd_file_map map;       /* (dev, ino, repeat) -> e index */
    tex_ahead *ahead;       /* during mmd_texlib_model only */
    size_t ahead_count;
    mmd_file_map ahead_map; /* (dev, ino, 0) -> ahead index */
    size_t bytes;           /* decoded bytes handed out (incl. mip levels) */
};

/* Ahead-decoding holds at most this many decoded bytes (and no more than the
 * budget has left); later files decode on first use. */
#define AHEAD_MAX_BYTES ((size_t)256 << 20)

mmd_texlib *mmd_texlib_create(const mmd_texlib_config *c)
{
    mmd_texlib *l = calloc(1, sizeof *l);
    if (l)
        l->c = *c;
    return l;
}

static void ahead_release(mmd_texlib *l)
{
    for (size_t i = 0; i < l->ahead_count; i++)
        if (l->ahead[i].ready && l->ahead[i].st == MMD_OK)
            mmd_image_free(&l->ahead[i].img);
    free(l->ahead);
    l->ahead = NULL;
    l->ahead_count = 0;
    mmd_file_map_free(&l->ahead_map);
}

void mmd_texlib_free(mmd_texlib *l)
{
    if (!l)
        return;
    ahead_release(l);
    free(l->e);
    mmd_file_map_free(&l->map);
    free(l);
}

size_t mmd_texlib_bytes(const mmd_texlib *l, size_t *count)
{
    if (count) {
        *count = 0;
        for (size_t i = 0; i < l->count; i++)
            *count += l->e[i].ok;
    }
    return l->bytes;
}

bool mmd_texlib_reserve(mmd_texlib *l, size_t bytes)
{
    if (bytes > l->c.budget || l->bytes > l->c.budget - bytes)
        return false;
    l->bytes += bytes;
    return true;
}

/* Bytes a texture costs: its levels (RGBA8 with generated mips: 4/3). */
static size_t image_cost(const mmd_image *img, bool mip)
{
    if (img->format == MMD_IMAGE_RGBA8)
        return mip ? img->size + img->size / 3 : img->size;
    return mip ? img->size : img->level_size[0];
}

/* Fit img into what is left of the budget: halve it (RGBA8) or drop its top
 * mip level (DXT) until it fits. False when it cannot (drawn white). */
static bool fit_budget(const mmd_texlib *l, mmd_image *img, bool mip, int *halvings)
{
    *halvings = 0;
    while (l->bytes + image_cost(img, mip) > l->c.budget) {
        if (!mmd_image_halve(img))
            return false;
        ++*halvings;
    }
    return true;
}

/* Whether the file (dev, ino) has an entry in either wrap mode. */
static bool known(const mmd_texlib *l, unsigned long long dev, unsigned long long ino)
{
    return mmd_file_map_get(&l->map, dev, ino, 1) >= 0 || mmd_file_map_get(&l->map, dev, ino, 0) >= 0;
}

/* The file decoded ahead (moved out), or decoded now. */
static mmd_status decode(mmd_texlib *l, const char *path, const struct stat *st, mmd_image *img, mmd_error *err)
{
    long i = mmd_file_map_get(&l->ahead_map, st->st_dev, st->st_ino, 0);
    if (i >= 0 && l->ahead[i].ready) {
        tex_ahead *a = &l->ahead[i];
        if (a->st == MMD_OK)
            *img = a->img;
        else
            *err = a->err;
        a->ready = false; /* taken */
        return a->st;
    }
    return mmd_image_load_file(path, img, err);
}

/* The entry for (file, wrap), decoding on first use into *img; -1 with the
 * reason in why. */
static long entry(mmd_texlib *l, const char *path, bool repeat, const char *name, const char *owner,
                  mmd_image *img, char *why, size_t why_size)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return snprintf(why, why_size, "cannot stat %.300s", path), -1;
    long at = mmd_file_map_get(&l->map, st.st_dev, st.st_ino, repeat);
    if (at >= 0) { /* the same file named again: decoded once */
        if (!l->e[at].ok)
            return snprintf(why, why_size, "%.200s: see the first warning for this file", path), -1;
        return at;
    }
    if (l->count == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 16;
        tex_entry *n = realloc(l->e, cap * sizeof *n);
        if (!n)
            return snprintf(why, why_size, "out of memory"), -1;
        l->e = n;
        l->cap = cap;
    }
    if (!mmd_file_map_put(&l->map, st.st_dev, st.st_ino, repeat, (long)l->count))
        return snprintf(why, why_size, "out of memory"), -1;
    tex_entry *e = &l->e[l->count++];
    *e = (tex_entry){0};
    mmd_error ie;
    if (decode(l, path, &st, img, &ie) != MMD_OK) {
        *img = (mmd_image){0};
        return snprintf(why, why_size, "%s", ie.msg), -1;
    }
    int halvings = 0;
    if (!fit_budget(l, img, repeat, &halvings)) {
        snprintf(why, why_size,
                 "over the texture memory budget (%.1f MiB used of %.1f MiB; --texture-memory, --max-memory)",
                 (double)l->bytes / (1 << 20), (double)l->c.budget / (1 << 20));
        mmd_image_free(img);
        *img = (mmd_image){0};
        return -1;
    }
    if (halvings) {
        char pn[512], pm[512];
        mmd_warnf(l->c.warn, l->c.warn_ctx,
                  "texture \"%s\" of %s: scaled down %dx to %dx%d to stay within the texture memory budget "
                  "(%.1f MiB; --texture-memory, --max-memory)", mmd_printable(name, pn, sizeof pn),
                  mmd_printable(owner, pm, sizeof pm), 1 << halvings, img->width, img->height,
                  (double)l->c.budget / (1 << 20));
    }
    e->ok = true;
    e->bytes = image_cost(img, repeat);
    l->bytes += e->bytes;
    return (long)(e - l->e);
}

long mmd_texlib_file(mmd_texlib *l, const char *dir, const char *name, bool repeat, bool warn, const char *owner,
                     mmd_image *img)
{
    return mmd_texlib_file_in(l, dir, NULL, name, repeat, warn, owner, img);
}

long mmd_texlib_file_in(mmd_texlib *l, const char *dir, const char *root, const char *name, bool repeat, bool warn,
                        const char *owner, mmd_image *img)
{
    *img = (mmd_image){0};
    char path[4096];
    mmd_error why;
    const char *d = dir && *dir ? dir : ".";
    mmd_status rc = root ? mmd_texpath_resolve_in(d, root, name, l->c.allow_outside, path, sizeof path, &why)
                         : mmd_texpath_resolve(d, name, l->c.allow_outside, path, sizeof path, &why);
    long id;
    if (rc == MMD_OK && (id = entry(l, path, repeat, name, owner, img, why.msg, sizeof why.msg)) >= 0)
        return id;
    if (warn) {
        char pn[512], po[700], pw[1024];
        mmd_warnf(l->c.warn, l->c.warn_ctx, "texture \"%s\" of %s: %s (drawn white)",
                  mmd_printable(name, pn, sizeof pn), mmd_printable(owner, po, sizeof po),
                  mmd_printable(why.msg, pw, sizeof pw));
    }
    return -1;
}

/* The resolved path of texture idx of m into paths[*n] and ahead[*n], unless
 * it is known already or listed. */
static void list_file(mmd_texlib *l, const mmd_model *m, const char *dir, int32_t idx, char **paths, size_t *n)
{
    char path[4096];
    mmd_error why;
    struct stat st;
    if (idx < 0 || (uint32_t)idx >= m->texture_count ||
        mmd_texpath_resolve(dir && *dir ? dir : ".", m->textures[idx], l->c.allow_outside, path, sizeof path,
                            &why) != MMD_OK ||
        stat(path, &st) != 0 || known(l, st.st_dev, st.st_ino) ||
        mmd_file_map_get(&l->ahead_map, st.st_dev, st.st_ino, 0) >= 0) /* listed */
        return;
    if (!(paths[*n] = strdup(path)))
        return;
    if (!mmd_file_map_put(&l->ahead_map, st.st_dev, st.st_ino, 0, (long)*n)) {
        free(paths[*n]);
        paths[*n] = NULL;
        return;
    }
    l->ahead[*n] = (tex_ahead){0}; /* not ready until decoded */
    ++*n;
}

/* Decode together the files of m's materials that have no entry yet, within
 * what the budget has left (at most AHEAD_MAX_BYTES); the rest decode on
 * first use. Nothing when there is no memory for the lists. */
static void decode_ahead(mmd_texlib *l, const mmd_model *m, const char *dir)
{
    size_t cap = (size_t)m->material_count * 3, n = 0;
    char **paths = calloc(cap ? cap : 1, sizeof *paths);
    l->ahead = calloc(cap ? cap : 1, sizeof *l->ahead);
    if (!paths || !l->ahead) {
        free(paths);
        ahead_release(l);
        return;
    }
    for (uint32_t i = 0; i < m->material_count; i++) {
        int32_t t[3];
        mmd_material_textures(&m->materials[i], t);
        for (int k = 0; k < 3; k++)
            list_file(l, m, dir, t[k], paths, &n);
    }
    size_t left = l->c.budget > l->bytes ? l->c.budget - l->bytes : 0;
    size_t max = left < AHEAD_MAX_BYTES ? left : AHEAD_MAX_BYTES;
    mmd_image *img = calloc(n ? n : 1, sizeof *img);
    mmd_status *st = calloc(n ? n : 1, sizeof *st);
    mmd_error *err = calloc(n ? n : 1, sizeof *err);
    if (img && st && err && n > 0) {
        size_t done = mmd_image_load_files((const char *const *)paths, n, l->c.workers, max, img, st, err);
        for (size_t i = 0; i < done; i++)
            l->ahead[i] = (tex_ahead){true, st[i], img[i], err[i]};
    }
    for (size_t i = 0; i < n; i++)
        free(paths[i]);
    free(paths);
    free(img);
    free(st);
    free(err);
    l->ahead_count = n;
}

/* Per model texture and wrap: the id once tried (tried[2 * idx + repeat]). */
typedef struct model_slots {
    long *id;
    bool *tried;
} model_slots;

/* Texture idx of m with the given wrap, tried once per model; a texture that
 * failed in the other wrap is not warned about again. */
static long model_texture(mmd_texlib *l, const mmd_model *m, const char *dir, const char *owner, model_slots *s,
                          int32_t idx, bool repeat, mmd_texlib_take take, void *ctx)
{
    if (idx < 0 || (uint32_t)idx >= m->texture_count)
        return -1;
    size_t k = (size_t)idx * 2 + repeat, other = (size_t)idx * 2 + !repeat;
    if (s->tried[k])
        return s->id[k];
    s->tried[k] = true;
    mmd_image img;
    s->id[k] = mmd_texlib_file(l, dir, m->textures[idx], repeat, !s->tried[other], owner, &img);
    if (img.data) {
        take(ctx, s->id[k], &img, repeat);
        mmd_image_free(&img);
    }
    return s->id[k];
}

mmd_status mmd_texlib_model(mmd_texlib *l, const mmd_model *m, const char *dir, mmd_texlib_take take, void *ctx,
                            long *ids, mmd_error *err)
{
    size_t tc = m->texture_count ? m->texture_count : 1;
    model_slots s = {calloc(tc * 2, sizeof *s.id), calloc(tc * 2, sizeof *s.tried)};
    if (!s.id || !s.tried) {
        free(s.id);
        free(s.tried);
        return mmd_fail(err, MMD_E_NOMEM, "out of memory for the textures of model \"%s\"", m->name);
    }
    char owner[600];
    snprintf(owner, sizeof owner, "model \"%s\"", m->name);
    decode_ahead(l, m, dir);
    for (uint32_t i = 0; i < m->material_count; i++) {
        int32_t t[3];
        mmd_material_textures(&m->materials[i], t);
        for (int k = 0; k < 3; k++)
            ids[(size_t)i * 3 + k] = model_texture(l, m, dir, owner, &s, t[k], k == 0, take, ctx);
    }
    ahead_release(l);
    free(s.id);
    free(s.tried);
    return MMD_OK;
}
