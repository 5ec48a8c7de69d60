/* renderer/gl/fx_post.c - post effects over a rendered frame (fx_runtime.h):
 * the frame (top row first, as the renderer reads it back) goes up as a
 * texture, which is D3D's way up; each effect reads the previous one's
 * output; the last is read back into the frame. */
#include <stdlib.h>

#include "renderer/gl/fx_runtime.h"

struct mmd_fx_post {
    const mmd_gl *gl;
    int w, h;
    GLuint tex, fbo;
};

mmd_status mmd_fx_post_create(const mmd_gl *gl, int w, int h, mmd_fx_post **out, mmd_error *err)
{
    mmd_fx_post *p = calloc(1, sizeof *p);
    if (!p)
        return mmd_fail(err, MMD_E_NOMEM, "out of memory");
    p->gl = gl;
    p->w = w;
    p->h = h;
    gl->GenTextures(1, &p->tex);
    gl->BindTexture(GL_TEXTURE_2D, p->tex);
    gl->TexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, w, h, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
    gl->TexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAX_LEVEL, 0);
    gl->BindTexture(GL_TEXTURE_2D, 0);
    gl->GenFramebuffers(1, &p->fbo);
    if (gl->GetError() != GL_NO_ERROR) {
        mmd_fx_post_free(p);
        return mmd_fail(err, MMD_E_GL, "post effects: a %dx%d frame texture refused by GL", w, h);
    }
    *out = p;
    return MMD_OK;
}

void mmd_fx_post_free(mmd_fx_post *p)
{
    if (!p)
        return;
    p->gl->DeleteTextures(1, &p->tex);
    p->gl->DeleteFramebuffers(1, &p->fbo);
    free(p);
}

mmd_status mmd_fx_post_run(mmd_fx_post *p, mmd_fx_effect *const *effects, size_t count, const mmd_fx_frame *f,
                           uint8_t *rgba, mmd_error *err)
{
    const mmd_gl *gl = p->gl;
    if (!count)
        return MMD_OK;
    gl->PixelStorei(GL_UNPACK_ALIGNMENT, 1);
    gl->BindTexture(GL_TEXTURE_2D, p->tex);
    gl->TexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, p->w, p->h, GL_RGBA, GL_UNSIGNED_BYTE, rgba);
    gl->BindTexture(GL_TEXTURE_2D, 0);
    GLuint scene = p->tex;
    for (size_t i = 0; i < count; i++) {
        mmd_status s = mmd_fx_effect_post(effects[i], scene, f, &scene, err);
        if (s != MMD_OK)
            return s;
    }
    gl->BindFramebuffer(GL_READ_FRAMEBUFFER, p->fbo);
    gl->FramebufferTexture2D(GL_READ_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, scene, 0);
    gl->ReadBuffer(GL_COLOR_ATTACHMENT0);
    gl->PixelStorei(GL_PACK_ALIGNMENT, 1);
    gl->ReadPixels(0, 0, p->w, p->h, GL_RGBA, GL_UNSIGNED_BYTE, rgba);
    gl->BindFramebuffer(GL_READ_FRAMEBUFFER, 0);
    GLenum e = gl->GetError();
    if (e != GL_NO_ERROR)
        return mmd_fail(err, MMD_E_GL, "GL error 0x%x reading the post effects' frame", (unsigned)e);
    return MMD_OK;
}
