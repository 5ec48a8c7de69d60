/* renderer/gl/textures.c - texture upload (RGBA8 or DXT as decoded) and the
 * renderer's cache: each texture is resolved (image/texpath) and decoded
 * (image/decode) on first use per wrap mode, once per file however many
 * models and materials name it (keyed by device and inode), within the
 * decoded-bytes budget (mmd_render_options.texture_budget: textures that do
 * not fit are halved until they do, or drawn white); failures draw white and
 * warn once. A model's files are decoded together first (decode_ahead: a few
 * child processes side by side instead of one fork per file, which costs
 * milliseconds once a GL context is up) and uploaded as its materials ask. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "renderer/base/msg.h"
#include "renderer/gl/render_internal.h"
#include "renderer/image/decode.h"
#include "renderer/image/texpath.h"

static bool pow2(int v) { return v > 0 && (v & (v - 1)) == 0; }

/* Levels 1.. of a power-of-two texture bound to TEXTURE_2D, built on the CPU
 * with glGenerateMipmap's rounding (image/decode.h): the same texels without
 * llvmpipe's blit, whose first use costs a 60 ms shader compile and which is
 * several times slower per level. False when there is no memory (the caller
 * generates them with GL). */
static bool upload_mips(const mmd_gl *gl, int w, int h, const uint8_t *px)
{
    uint8_t *buf = malloc((size_t)(w > 1 ? w / 2 : 1) * (size_t)(h > 1 ? h / 2 : 1) * 4 * 2);
    if (!buf)
        return false;
    uint8_t *a = buf, *b = buf + (size_t)(w > 1 ? w / 2 : 1) * (size_t)(h > 1 ? h / 2 : 1) * 4;
    const uint8_t *src = px;
    for (int level = 1; w > 1 || h > 1; level++) {
        mmd_image_mip_next(src, w, h, a);
        w = w > 1 ? w / 2 : 1;
        h = h > 1 ? h / 2 : 1;
        gl->TexImage2D(GL_TEXTURE_2D, level, GL_RGBA8, w, h, 0, GL_RGBA, GL_UNSIGNED_BYTE, a);
        src = a; /* the next level reads this one and writes the other half */
        uint8_t *t = a;
        a = b;
        b = t;
    }
    free(buf);
    return true;
}

GLuint mmd_tex_upload_rgba(mmd_renderer *r, int w, int h, const uint8_t *px, bool repeat, bool mip)
{
    const mmd_gl *gl = r->gl;
    GLuint t;
    gl->GenTextures(1, &t);
    gl->BindTexture(GL_TEXTURE_2D, t);
    gl->PixelStorei(GL_UNPACK_ALIGNMENT, 1);
    /* top row first: texture row 0 is v = 0, MMD's D3D top-left UV origin */
    gl->TexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, w, h, 0, GL_RGBA, GL_UNSIGNED_BYTE, px);
    GLint wrap = repeat ? GL_REPEAT : GL_CLAMP_TO_EDGE;
    gl->TexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, wrap);
    gl->TexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, wrap);
    gl->TexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    if (mip) {
        if (!(pow2(w) && pow2(h) && upload_mips(gl, w, h, px)))
            gl->GenerateMipmap(GL_TEXTURE_2D);
        gl->TexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_LINEAR);
    } else {
        gl->TexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    }
    return t;
}

static GLuint upload_image(mmd_renderer *r, const mmd_image *img, bool repeat, bool mip)
{
    if (img->format == MMD_IMAGE_RGBA8)
        return mmd_tex_upload_rgba(r, img->width, img->height, img->data, repeat, mip);
    const mmd_gl *gl = r->gl;
    GLenum fmt = img->format == MMD_IMAGE_DXT1   ? GL_COMPRESSED_RGBA_S3TC_DXT1_EXT
                 : img->format == MMD_IMAGE_DXT3 ? GL_COMPRESSED_RGBA_S3TC_DXT3_EXT
                                                 : GL_COMPRESSED_RGBA_S3TC_DXT5_EXT;
    GLuint t;
    gl->GenTextures(1, &t);
    gl->BindTexture(GL_TEXTURE_2D, t);
    int levels = mip ? img->levels : 1;
    for (int i = 0; i < levels; i++) {
        int w = img->width >> i, h = img->height >> i;
        gl->CompressedTexImage2D(GL_TEXTURE_2D, i, fmt, w > 0 ? w : 1, h > 0 ? h : 1, 0,
                                 (GLsizei)img->level_size[i], img->data + img->level_offset[i]);
    }
    GLint wrap = repeat ? GL_REPEAT : GL_CLAMP_TO_EDGE;
    gl->TexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAX_LEVEL, levels - 1);
    gl->TexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, wrap);
    gl->TexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, wrap);
    gl->TexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    gl->TexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, levels > 1 ? GL_LINEAR_MIPMAP_LINEAR : GL_LINEAR);
    return t;
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
static bool fit_budget(mmd_renderer *r, mmd_image *img, bool mip, int *halvings)
{
    size_t budget = r->o.texture_budget;
    *halvings = 0;
    while (r->tex_bytes + image_cost(img, mip) > budget) {
        if (!mmd_image_halve(img))
            return false;
        ++*halvings;
    }
    return true;
}

/* Whether the file (dev, ino) is in the cache in either wrap mode. */
static bool cached(const mmd_renderer *r, unsigned long long dev, unsigned long long ino)
{
    return mmd_file_map_get(&r->tex_map, dev, ino, 1) >= 0 || mmd_file_map_get(&r->tex_map, dev, ino, 0) >= 0;
}

/* The file decoded ahead (moved out), or decoded now. */
static mmd_status decode(mmd_renderer *r, const char *path, const struct stat *st, mmd_image *img, mmd_error *err)
{
    long i = mmd_file_map_get(&r->ahead_map, st->st_dev, st->st_ino, 0);
    if (i >= 0 && r->ahead[i].ready) {
        tex_ahead *a = &r->ahead[i];
        if (a->st == MMD_OK)
            *img = a->img;
        else
            *err = a->err;
        a->ready = false; /* taken */
        return a->st;
    }
    return mmd_image_load_file(path, img, err);
}

/* The cache entry for (file, wrap), decoding and uploading on first use. */
static GLuint cached_texture(mmd_renderer *r, const char *path, bool repeat, const char *name, const char *owner,
                             char *why, size_t why_size)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return snprintf(why, why_size, "cannot stat %.300s", path), 0;
    long at = mmd_file_map_get(&r->tex_map, st.st_dev, st.st_ino, repeat);
    if (at >= 0) {
        const tex_entry *e = &r->tex_cache[at];
        if (!e->tex)
            snprintf(why, why_size, "%.200s: see the first warning for this file", path);
        return e->tex; /* the same file named again: decoded once */
    }
    if (r->tex_count == r->tex_cap) {
        size_t cap = r->tex_cap ? r->tex_cap * 2 : 16;
        tex_entry *n = realloc(r->tex_cache, cap * sizeof *n);
        if (!n)
            return snprintf(why, why_size, "out of memory"), 0;
        r->tex_cache = n;
        r->tex_cap = cap;
    }
    if (!mmd_file_map_put(&r->tex_map, st.st_dev, st.st_ino, repeat, (long)r->tex_count))
        return snprintf(why, why_size, "out of memory"), 0;
    tex_entry *e = &r->tex_cache[r->tex_count++];
    *e = (tex_entry){0};
    mmd_image img;
    mmd_error ie;
    if (decode(r, path, &st, &img, &ie) != MMD_OK)
        return snprintf(why, why_size, "%s", ie.msg), 0;
    int halvings = 0;
    if (!fit_budget(r, &img, repeat, &halvings)) {
        snprintf(why, why_size,
                 "over the texture memory budget (%.1f MiB used of %.1f MiB; --texture-memory, --max-memory)",
                 (double)r->tex_bytes / (1 << 20), (double)r->o.texture_budget / (1 << 20));
        mmd_image_free(&img);
        return 0;
    }
    if (halvings && !r->o.quiet) {
        char pn[512], pm[512];
        fprintf(stderr, "mmdrender: warning: texture \"%s\" of %s: scaled down %dx to %dx%d to stay within the "
                "texture memory budget (%.1f MiB; --texture-memory, --max-memory)\n",
                mmd_printable(name, pn, sizeof pn),
                mmd_printable(owner, pm, sizeof pm), 1 << halvings, img.width, img.height,
                (double)r->o.texture_budget / (1 << 20));
    }
    e->tex = upload_image(r, &img, repeat, repeat);
    e->bytes = image_cost(&img, repeat);
    r->tex_bytes += e->bytes;
    mmd_image_free(&img);
    return e->tex;
}

size_t mmd_renderer_texture_bytes(const mmd_renderer *r, size_t *count)
{
    if (count) {
        *count = 0;
        for (size_t i = 0; i < r->tex_count; i++)
            *count += r->tex_cache[i].tex != 0;
    }
    return r->tex_bytes;
}

GLuint mmd_tex_file(mmd_renderer *r, const char *dir, const char *name, bool repeat, bool warn, const char *owner)
{
    char path[4096];
    mmd_error why;
    mmd_status rc = mmd_texpath_resolve(dir && *dir ? dir : ".", name, r->o.allow_outside_assets, path, sizeof path,
                                        &why);
    GLuint t;
    if (rc == MMD_OK && (t = cached_texture(r, path, repeat, name, owner, why.msg, sizeof why.msg)) != 0)
        return t;
    char pn[512], po[700], pw[1024];
    if (warn && !r->o.quiet)
        fprintf(stderr, "mmdrender: warning: texture \"%s\" of %s: %s (drawn white)\n", mmd_printable(name, pn, sizeof pn),
                mmd_printable(owner, po, sizeof po), mmd_printable(why.msg, pw, sizeof pw));
    return 0;
}

GLuint mmd_tex_model(mmd_renderer *r, gpu_model *g, const char *model_dir, int32_t idx, bool repeat)
{
    if (idx < 0 || (uint32_t)idx >= g->m->texture_count)
        return 0;
    GLuint *slot = repeat ? &g->tex_repeat[idx] : &g->tex_clamp[idx];
    bool *tried = repeat ? &g->tex_tried_r[idx] : &g->tex_tried_c[idx];
    if (*tried)
        return *slot;
    *tried = true;
    bool warned = repeat ? g->tex_tried_c[idx] : g->tex_tried_r[idx]; /* other wrap failed before */
    char owner[600];
    snprintf(owner, sizeof owner, "model \"%s\"", g->m->name);
    *slot = mmd_tex_file(r, model_dir, g->m->textures[idx], repeat, !warned, owner);
    return *slot;
}

/* Ahead-decoding holds at most this many decoded bytes (and no more than the
 * texture budget has left); later files decode on first use. */
#define AHEAD_MAX_BYTES ((size_t)256 << 20)

/* The resolved path of texture idx of m into paths[*n] and ahead[*n], unless
 * it is cached already or listed. */
static void list_file(mmd_renderer *r, const mmd_model *m, const char *model_dir, int32_t idx, char **paths,
                      size_t *n)
{
    char path[4096];
    mmd_error why;
    struct stat st;
    if (idx < 0 || (uint32_t)idx >= m->texture_count ||
        mmd_texpath_resolve(model_dir && *model_dir ? model_dir : ".", m->textures[idx], r->o.allow_outside_assets,
                            path, sizeof path, &why) != MMD_OK ||
        stat(path, &st) != 0 || cached(r, st.st_dev, st.st_ino) ||
        mmd_file_map_get(&r->ahead_map, st.st_dev, st.st_ino, 0) >= 0) /* listed */
        return;
    if (!(paths[*n] = strdup(path)))
        return;
    if (!mmd_file_map_put(&r->ahead_map, st.st_dev, st.st_ino, 0, (long)*n)) {
        free(paths[*n]);
        paths[*n] = NULL;
        return;
    }
    r->ahead[*n] = (tex_ahead){0}; /* not ready until decoded */
    ++*n;
}

void mmd_tex_decode_ahead(mmd_renderer *r, const mmd_model *m, const char *model_dir)
{
    size_t cap = (size_t)m->material_count * 3, n = 0;
    char **paths = calloc(cap ? cap : 1, sizeof *paths);
    r->ahead = calloc(cap ? cap : 1, sizeof *r->ahead);
    if (!paths || !r->ahead) {
        free(paths);
        mmd_tex_ahead_release(r);
        return;
    }
    for (uint32_t i = 0; i < m->material_count; i++) {
        int32_t t[3];
        mmd_material_textures(&m->materials[i], t);
        for (int k = 0; k < 3; k++)
            list_file(r, m, model_dir, t[k], paths, &n);
    }
    size_t left = r->o.texture_budget > r->tex_bytes ? r->o.texture_budget - r->tex_bytes : 0;
    size_t max = left < AHEAD_MAX_BYTES ? left : AHEAD_MAX_BYTES;
    mmd_image *img = calloc(n ? n : 1, sizeof *img);
    mmd_status *st = calloc(n ? n : 1, sizeof *st);
    mmd_error *err = calloc(n ? n : 1, sizeof *err);
    if (img && st && err && n > 0) {
        size_t done = mmd_image_load_files((const char *const *)paths, n, r->threads, max, img, st, err);
        for (size_t i = 0; i < done; i++)
            r->ahead[i] = (tex_ahead){true, st[i], img[i], err[i]};
    }
    for (size_t i = 0; i < n; i++)
        free(paths[i]);
    free(paths);
    free(img);
    free(st);
    free(err);
    r->ahead_count = n;
}

void mmd_tex_ahead_release(mmd_renderer *r)
{
    for (size_t i = 0; i < r->ahead_count; i++)
        if (r->ahead[i].ready && r->ahead[i].st == MMD_OK)
            mmd_image_free(&r->ahead[i].img);
    free(r->ahead);
    r->ahead = NULL;
    r->ahead_count = 0;
    mmd_file_map_free(&r->ahead_map);
}
