/* renderer/gl/fx_post.c - post effects over the renderer's frame on the GPU
 * (fx_runtime.h): the frame the renderer hands its frame hook (top row first,
 * D3D's way up) is the first effect's scene; each effect's output texture is
 * attached to a framebuffer of ours, the next effect's scene, and the last is
 * what the renderer reads back. No upload, one readback. */
#include <stdlib.h>

#include "renderer/gl/fx_runtime.h"

struct mmd_fx_post {
    const mmd_gl *gl;
    GLuint fbo;
};

mmd_status mmd_fx_post_create(const mmd_gl *gl, mmd_fx_post **out, mmd_error *err)
{
    mmd_fx_post *p = calloc(1, sizeof *p);
    if (!p)
        return mmd_fail(err, MMD_E_NOMEM, "out of memory");
    p->gl = gl;
    gl->GenFramebuffers(1, &p->fbo);
    if (gl->GetError() != GL_NO_ERROR) {
        mmd_fx_post_free(p);
        return mmd_fail(err, MMD_E_GL, "post effects: no framebuffer from GL");
    }
    *out = p;
    return MMD_OK;
}

void mmd_fx_post_free(mmd_fx_post *p)
{
    if (!p)
        return;
    p->gl->DeleteFramebuffers(1, &p->fbo);
    free(p);
}

mmd_status mmd_fx_post_apply(mmd_fx_post *p, mmd_fx_effect *e, const mmd_fx_frame *f, GLuint *frame, mmd_error *err)
{
    const mmd_gl *gl = p->gl;
    GLuint out;
    mmd_status s = mmd_fx_effect_post(e, *frame, f, &out, err);
    if (s != MMD_OK)
        return s;
    /* the effect has read *frame (ours too, from the effect before): ours now holds its output */
    gl->BindFramebuffer(GL_FRAMEBUFFER, p->fbo);
    gl->FramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, out, 0);
    gl->BindFramebuffer(GL_FRAMEBUFFER, 0);
    GLenum ge = gl->GetError();
    if (ge != GL_NO_ERROR)
        return mmd_fail(err, MMD_E_GL, "GL error 0x%x in the post effects' frame", (unsigned)ge);
    *frame = p->fbo;
    return MMD_OK;
}
