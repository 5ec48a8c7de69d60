/* renderer/gl/textures.c - texture upload (RGBA8 or DXT as decoded) and the
 * per-model cache: each texture is resolved (image/texpath) and decoded
 * (image/decode) on first use per wrap mode; failures draw white and warn once. */
#include <stdio.h>
#include <stdlib.h>

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

GLuint mmd_tex_file(mmd_renderer *r, const char *dir, const char *name, bool repeat, bool warn, const char *owner)
{
    char path[4096];
    mmd_error why;
    mmd_status rc = mmd_texpath_resolve(dir && *dir ? dir : ".", name, r->o.allow_outside_assets, path, sizeof path,
                                        &why);
    mmd_image img;
    if (rc == MMD_OK && mmd_image_load_file(path, &img, why.msg, sizeof why.msg) == 0) {
        GLuint t = upload_image(r, &img, repeat, repeat);
        mmd_image_free(&img);
        return t;
    }
    if (warn)
        fprintf(stderr, "warning: texture \"%s\" of %s: %s (drawn white)\n", name, owner, why.msg);
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
