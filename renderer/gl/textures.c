/* renderer/gl/textures.c - texture upload (RGBA8 or DXT as decoded) and the
 * GL names of the renderer's textures, one per texlib id (image/texlib.h
 * finds, decodes, shares and budgets the files, and warns; this file uploads
 * what it hands out). */
#include <stdlib.h>
#include <string.h>

#include "renderer/gl/render_internal.h"

/* The filters' names, in mmd_texture_filter's order (render.h). */
static const char *const k_filter_names[MMD_TEXTURE_FILTER_COUNT] = {"mmd", "trilinear", "aniso4"};

const char *mmd_texture_filter_name(mmd_texture_filter f)
{
    return (int)f >= 0 && (int)f < MMD_TEXTURE_FILTER_COUNT ? k_filter_names[f] : "?";
}

mmd_status mmd_texture_filter_parse(const char *v, mmd_texture_filter *out, mmd_error *err)
{
    for (int i = 0; v && i < MMD_TEXTURE_FILTER_COUNT; i++) {
        if (!strcmp(v, k_filter_names[i])) {
            *out = (mmd_texture_filter)i;
            return MMD_OK;
        }
    }
    return mmd_fail(err, MMD_E_BAD_VALUE,
                    "expected texture_filter %s (MikuMikuDance's look), %s (near it, faster) or %s (fastest), got '%s'",
                    k_filter_names[MMD_TEXTURE_FILTER_MMD], k_filter_names[MMD_TEXTURE_FILTER_ANISO4],
                    k_filter_names[MMD_TEXTURE_FILTER_TRILINEAR], v ? v : "");
}

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

/* MikuMikuDance's own frames (issue 25, tests/fidelity) show its textures sampled
 * anisotropically. Along a hair card, whose texture is squeezed some 50:1 across the
 * card and barely along it, isotropic trilinear filtering reads a mip level a few
 * texels tall and smears the opaque roots over the tips (their lowest rows came out
 * 10 to 30 times as opaque as in MMD's picture); with anisotropy they match MMD's row
 * for row, and the bench room's striped wall seen edge-on matches MMD's pixels. 16 is
 * Direct3D 9 hardware's usual maximum (llvmpipe draws the same from 2 up). Asked once
 * per renderer; 1 where this GL has no anisotropic filtering or the renderer's
 * texture_filter is not mmd (trilinear, aniso4: render.h). */
static GLint anisotropy(mmd_renderer *r)
{
    if (r->tex_anisotropy)
        return r->tex_anisotropy;
    const mmd_gl *gl = r->gl;
    GLint n = 0, max = 1;
    if (r->o.texture_filter == MMD_TEXTURE_FILTER_MMD)
        gl->GetIntegerv(GL_NUM_EXTENSIONS, &n); /* the others: none asked, max stays 1 */
    for (GLint i = 0; i < n; i++) {
        const char *e = (const char *)gl->GetStringi(GL_EXTENSIONS, (GLuint)i);
        if (e && (!strcmp(e, "GL_ARB_texture_filter_anisotropic") ||
                  !strcmp(e, "GL_EXT_texture_filter_anisotropic"))) {
            gl->GetIntegerv(GL_MAX_TEXTURE_MAX_ANISOTROPY, &max);
            break;
        }
    }
    r->tex_anisotropy = max < 1 ? 1 : max > 16 ? 16 : max;
    return r->tex_anisotropy;
}

/* The minification filter of a texture with `levels` mip levels (bound). */
static void min_filter(mmd_renderer *r, int levels)
{
    const mmd_gl *gl = r->gl;
    gl->TexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, levels > 1 ? GL_LINEAR_MIPMAP_LINEAR : GL_LINEAR);
    if (levels > 1 && anisotropy(r) > 1)
        gl->TexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAX_ANISOTROPY, anisotropy(r));
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
    }
    min_filter(r, mip ? 2 : 1);
    return t;
}

/* A volume or a cube map (image/decode.h: RGBA8 slices or six faces, one
 * level) as a GL_TEXTURE_3D or GL_TEXTURE_CUBE_MAP (DDS and GL order the faces
 * alike, rows top first as D3D samples them); filters and wrap come from the
 * effect's sampler objects. */
static GLuint upload_layers(mmd_renderer *r, const mmd_image *img)
{
    const mmd_gl *gl = r->gl;
    GLenum target = img->cube ? GL_TEXTURE_CUBE_MAP : GL_TEXTURE_3D;
    GLuint t;
    gl->GenTextures(1, &t);
    gl->BindTexture(target, t);
    if (img->cube)
        for (int f = 0; f < 6; f++)
            gl->TexImage2D(GL_TEXTURE_CUBE_MAP_POSITIVE_X + (GLenum)f, 0, GL_RGBA8, img->width, img->height, 0, GL_RGBA,
                           GL_UNSIGNED_BYTE, img->data + (size_t)f * img->width * img->height * 4);
    else
        gl->TexImage3D(GL_TEXTURE_3D, 0, GL_RGBA8, img->width, img->height, img->depth, 0, GL_RGBA, GL_UNSIGNED_BYTE,
                       img->data);
    gl->TexParameteri(target, GL_TEXTURE_MAX_LEVEL, 0);
    gl->BindTexture(target, 0);
    return t;
}

static GLuint upload_image(mmd_renderer *r, const mmd_image *img, bool repeat, bool mip)
{
    if (img->depth)
        return upload_layers(r, img);
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
    min_filter(r, levels);
    return t;
}

/* Keep the GL name of texlib id `id`, uploading img (its first time). */
static void store(void *ctx, long id, const mmd_image *img, bool repeat)
{
    mmd_renderer *r = ctx;
    if (id < 0)
        return;
    if ((size_t)id >= r->tex_name_cap) {
        size_t cap = r->tex_name_cap ? r->tex_name_cap : 16;
        while (cap <= (size_t)id)
            cap *= 2;
        GLuint *n = realloc(r->tex_names, cap * sizeof *n);
        if (n)
            r->tex_names = n;
        unsigned *v = n ? realloc(r->tex_target, cap * sizeof *v) : NULL;
        if (!v)
            return; /* drawn white */
        r->tex_target = v;
        memset(n + r->tex_name_cap, 0, (cap - r->tex_name_cap) * sizeof *n);
        memset(v + r->tex_name_cap, 0, (cap - r->tex_name_cap) * sizeof *v);
        r->tex_name_cap = cap;
    }
    r->tex_names[id] = upload_image(r, img, repeat, repeat);
    r->tex_target[id] = img->cube ? GL_TEXTURE_CUBE_MAP : img->depth ? GL_TEXTURE_3D : GL_TEXTURE_2D;
}

/* The 2D texture of id (0: none, or a volume or cube map, which 2D users cannot bind). */
static GLuint name_of(const mmd_renderer *r, long id)
{
    return id >= 0 && (size_t)id < r->tex_name_cap && r->tex_target[id] == GL_TEXTURE_2D ? r->tex_names[id] : 0;
}

size_t mmd_renderer_texture_bytes(const mmd_renderer *r, size_t *count)
{
    return mmd_texlib_bytes(r->texlib, count);
}

GLuint mmd_tex_file_kind(mmd_renderer *r, const char *dir, const char *root, const char *name, bool repeat, bool warn,
                         const char *owner, unsigned *target)
{
    mmd_image img;
    long id = mmd_texlib_file_in(r->texlib, dir, root, name, repeat, warn, owner, &img);
    if (img.data) {
        store(r, id, &img, repeat);
        mmd_image_free(&img);
    }
    bool known = id >= 0 && (size_t)id < r->tex_name_cap;
    *target = known ? r->tex_target[id] : GL_TEXTURE_2D;
    return known ? r->tex_names[id] : 0;
}

GLuint mmd_tex_file(mmd_renderer *r, const char *dir, const char *name, bool repeat, bool warn, const char *owner)
{
    unsigned target;
    GLuint t = mmd_tex_file_kind(r, dir, NULL, name, repeat, warn, owner, &target);
    return target == GL_TEXTURE_2D ? t : 0;
}

mmd_status mmd_tex_model(mmd_renderer *r, gpu_model *g, const char *model_dir, mmd_error *err)
{
    const mmd_model *m = g->m;
    long *ids = malloc((m->material_count ? m->material_count : 1) * 3 * sizeof *ids);
    if (!ids)
        return mmd_fail(err, MMD_E_NOMEM, "out of memory for the textures of model \"%s\"", m->name);
    mmd_status st = mmd_texlib_model(r->texlib, m, model_dir, store, r, ids, err);
    for (uint32_t i = 0; st == MMD_OK && i < m->material_count; i++) {
        const mmd_material *mt = &m->materials[i];
        g->mats[i].tex = name_of(r, ids[i * 3]);
        g->mats[i].sphere = name_of(r, ids[i * 3 + 1]);
        if (mt->toon_shared)
            g->mats[i].toon = mt->toon >= 0 && mt->toon < 10 ? r->toon_shared[mt->toon] : 0;
        else
            g->mats[i].toon = name_of(r, ids[i * 3 + 2]);
    }
    free(ids);
    return st;
}
