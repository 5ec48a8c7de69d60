/* renderer/gl/textures.c - texture upload (RGBA8 or DXT as decoded) and the
 * renderer's cache: each texture is resolved (image/texpath) and decoded
 * (image/decode) on first use per wrap mode, once per file however many
 * models and materials name it (keyed by device and inode), within the
 * decoded-bytes budget (mmd_render_options.texture_budget: textures that do
 * not fit are halved until they do, or drawn white); failures draw white and
 * warn once. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "renderer/base/msg.h"
#include "renderer/gl/render_internal.h"
#include "renderer/image/decode.h"
#include "renderer/image/texpath.h"

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

/* The cache entry for (file, wrap), decoding and uploading on first use. */
static GLuint cached_texture(mmd_renderer *r, const char *path, bool repeat, const char *name, const char *owner,
                             char *why, size_t why_size)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return snprintf(why, why_size, "cannot stat %.300s", path), 0;
    for (size_t i = 0; i < r->tex_count; i++) {
        const tex_entry *e = &r->tex_cache[i];
        if (e->dev == (unsigned long long)st.st_dev && e->ino == (unsigned long long)st.st_ino && e->repeat == repeat) {
            if (!e->tex)
                snprintf(why, why_size, "%.200s: see the first warning for this file", path);
            return e->tex; /* the same file named again: decoded once */
        }
    }
    if (r->tex_count == r->tex_cap) {
        size_t cap = r->tex_cap ? r->tex_cap * 2 : 16;
        tex_entry *n = realloc(r->tex_cache, cap * sizeof *n);
        if (!n)
            return snprintf(why, why_size, "out of memory"), 0;
        r->tex_cache = n;
        r->tex_cap = cap;
    }
    tex_entry *e = &r->tex_cache[r->tex_count++];
    *e = (tex_entry){.dev = (unsigned long long)st.st_dev, .ino = (unsigned long long)st.st_ino, .repeat = repeat};
    mmd_image img;
    mmd_error ie;
    if (mmd_image_load_file(path, &img, &ie) != MMD_OK)
        return snprintf(why, why_size, "%s", ie.msg), 0;
    int halvings = 0;
    if (!fit_budget(r, &img, repeat, &halvings)) {
        snprintf(why, why_size, "over the texture memory budget (%.1f MiB used of %.1f MiB; --texture-memory)",
                 (double)r->tex_bytes / (1 << 20), (double)r->o.texture_budget / (1 << 20));
        mmd_image_free(&img);
        return 0;
    }
    if (halvings && !r->o.quiet) {
        char pn[512], pm[512];
        fprintf(stderr, "warning: texture \"%s\" of %s: scaled down %dx to %dx%d to stay within the "
                "texture memory budget (%.1f MiB; --texture-memory)\n", mmd_printable(name, pn, sizeof pn),
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
        fprintf(stderr, "warning: texture \"%s\" of %s: %s (drawn white)\n", mmd_printable(name, pn, sizeof pn),
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
