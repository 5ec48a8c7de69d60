/* renderer/gl/pass_background.c - MMD's background image (背景画像) and a
 * frame of its background video (背景AVI), drawn over the clear colour before
 * the accessories and models: quads stretched to the output size x scale,
 * centred, moved by offset output pixels; the video over the image. */
#include <stdio.h>

#include "renderer/base/msg.h"
#include "renderer/gl/render_internal.h"
#include "renderer/gl/shader.h"

static mmd_status ensure_program(mmd_renderer *r, mmd_error *err)
{
    const mmd_gl *gl = r->gl;
    if (r->prog_bg)
        return MMD_OK;
    mmd_status st = mmd_gl_program_build(gl, "bg_vs", "bg_fs", NULL, &r->prog_bg, err);
    if (st != MMD_OK)
        return st;
    r->u_bg[0] = gl->GetUniformLocation(r->prog_bg, "u_rect");
    r->u_bg[1] = gl->GetUniformLocation(r->prog_bg, "u_tex");
    gl->GenVertexArrays(1, &r->vao_bg); /* no attributes: the quad comes from gl_VertexID */
    return MMD_OK;
}

static void place(const mmd_renderer *r, const int offset[2], float scale, float rect[4])
{
    float s = scale > 0.0f && isfinite(scale) ? scale : 1.0f; /* MMD stores 0 when never set */
    float cx = 2.0f * (float)offset[0] / (float)r->o.width, cy = 2.0f * (float)offset[1] / (float)r->o.height;
    rect[0] = cx - s;
    rect[1] = cy - s; /* y down: the projection's mirror puts NDC -1 at the top row */
    rect[2] = cx + s;
    rect[3] = cy + s;
}

mmd_status mmd_renderer_set_background(mmd_renderer *r, const char *path, const int offset[2], float scale,
                                       mmd_error *err)
{
    r->bg[0].tex = 0; /* the texture belongs to the renderer's cache (textures.c) */
    if (!path)
        return MMD_OK;
    mmd_status st = ensure_program(r, err);
    if (st != MMD_OK)
        return st;
    char dir[4096];
    const char *slash = strrchr(path, '/');
    const char *name = slash ? slash + 1 : path;
    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path) : 1, slash ? path : ".");
    r->bg[0].tex = mmd_tex_file(r, dir, name, false, false, "the background image");
    if (!r->bg[0].tex) {
        char pn[1024];
        mmd_warnf(r->o.warn, r->o.warn_ctx, "background image \"%s\" cannot be read or decoded: not drawn",
                  mmd_printable(path, pn, sizeof pn));
        return MMD_OK;
    }
    place(r, offset, scale, r->bg[0].rect);
    return MMD_OK;
}

mmd_status mmd_renderer_set_background_frame(mmd_renderer *r, const uint8_t *rgba, int w, int h, const int offset[2],
                                             float scale, mmd_error *err)
{
    const mmd_gl *gl = r->gl;
    struct bg_layer *l = &r->bg[1];
    if (!rgba || w < 1 || h < 1) {
        if (l->tex)
            gl->DeleteTextures(1, &l->tex);
        l->tex = 0;
        return MMD_OK;
    }
    mmd_status st = ensure_program(r, err);
    if (st != MMD_OK)
        return st;
    if (l->tex && (l->w != w || l->h != h)) {
        gl->DeleteTextures(1, &l->tex);
        l->tex = 0;
    }
    if (!l->tex) {
        l->tex = mmd_tex_upload_rgba(r, w, h, rgba, false, false);
        l->w = w;
        l->h = h;
    } else {
        gl->BindTexture(GL_TEXTURE_2D, l->tex);
        gl->PixelStorei(GL_UNPACK_ALIGNMENT, 1);
        gl->TexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, w, h, 0, GL_RGBA, GL_UNSIGNED_BYTE, rgba); /* same size: storage reused */
    }
    place(r, offset, scale, l->rect);
    return gl->GetError() == GL_NO_ERROR ? MMD_OK : mmd_fail(err, MMD_E_GL, "GL error uploading the background video frame");
}

void mmd_pass_background(mmd_renderer *r)
{
    if (!r->bg[0].tex && !r->bg[1].tex)
        return;
    const mmd_gl *gl = r->gl;
    gl->Disable(GL_DEPTH_TEST);
    gl->Disable(GL_CULL_FACE);
    gl->DepthMask(GL_FALSE);
    gl->Enable(GL_BLEND);
    gl->BlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
    gl->UseProgram(r->prog_bg);
    gl->Uniform1i(r->u_bg[1], 0);
    gl->ActiveTexture(GL_TEXTURE0);
    gl->BindVertexArray(r->vao_bg);
    for (int i = 0; i < 2; i++) {
        if (!r->bg[i].tex)
            continue;
        gl->Uniform4fv(r->u_bg[0], 1, r->bg[i].rect);
        gl->BindTexture(GL_TEXTURE_2D, r->bg[i].tex);
        gl->DrawArrays(GL_TRIANGLE_STRIP, 0, 4);
    }
    gl->DepthMask(GL_TRUE);
}

void mmd_background_free(mmd_renderer *r)
{
    const mmd_gl *gl = r->gl;
    if (r->bg[1].tex)
        gl->DeleteTextures(1, &r->bg[1].tex);
    if (r->prog_bg)
        gl->DeleteProgram(r->prog_bg);
    if (r->vao_bg)
        gl->DeleteVertexArrays(1, &r->vao_bg);
}
