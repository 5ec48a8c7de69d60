/* renderer/gl/pass_background.c - MMD's background image (背景画像), drawn
 * over the clear colour before the accessories and models: a quad stretched
 * to the output size x scale, centred, moved by offset output pixels. */
#include <stdio.h>

#include "renderer/base/msg.h"
#include "renderer/gl/render_internal.h"
#include "renderer/gl/shader.h"

mmd_status mmd_renderer_set_background(mmd_renderer *r, const char *path, const int offset[2], float scale,
                                       mmd_error *err)
{
    const mmd_gl *gl = r->gl;
    r->tex_bg = 0; /* the texture belongs to the renderer's cache (textures.c) */
    if (!path)
        return MMD_OK;
    if (!r->prog_bg) {
        char msg[sizeof err->msg] = "";
        r->prog_bg = mmd_gl_program_build(gl, "bg_vs", "bg_fs", NULL, msg, sizeof msg);
        if (!r->prog_bg)
            return mmd_fail(err, MMD_E_GL, "%s", msg);
        r->u_bg[0] = gl->GetUniformLocation(r->prog_bg, "u_rect");
        r->u_bg[1] = gl->GetUniformLocation(r->prog_bg, "u_tex");
        gl->GenVertexArrays(1, &r->vao_bg); /* no attributes: the quad comes from gl_VertexID */
    }
    char dir[4096];
    const char *slash = strrchr(path, '/');
    const char *name = slash ? slash + 1 : path;
    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path) : 1, slash ? path : ".");
    r->tex_bg = mmd_tex_file(r, dir, name, false, false, "the background image");
    if (!r->tex_bg) {
        char pn[1024];
        fprintf(stderr, "warning: background image \"%s\" cannot be read or decoded: not drawn\n",
                mmd_printable(path, pn, sizeof pn));
        return MMD_OK;
    }
    float s = scale > 0.0f && isfinite(scale) ? scale : 1.0f;
    float cx = 2.0f * (float)offset[0] / (float)r->o.width, cy = 2.0f * (float)offset[1] / (float)r->o.height;
    r->bg_rect[0] = cx - s;
    r->bg_rect[1] = cy - s;
    r->bg_rect[2] = cx + s;
    r->bg_rect[3] = cy + s;
    return MMD_OK;
}

void mmd_pass_background(mmd_renderer *r)
{
    if (!r->tex_bg)
        return;
    const mmd_gl *gl = r->gl;
    gl->Disable(GL_DEPTH_TEST);
    gl->Disable(GL_CULL_FACE);
    gl->DepthMask(GL_FALSE);
    gl->Enable(GL_BLEND);
    gl->BlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
    gl->UseProgram(r->prog_bg);
    gl->Uniform4fv(r->u_bg[0], 1, r->bg_rect);
    gl->Uniform1i(r->u_bg[1], 0);
    gl->ActiveTexture(GL_TEXTURE0);
    gl->BindTexture(GL_TEXTURE_2D, r->tex_bg);
    gl->BindVertexArray(r->vao_bg);
    gl->DrawArrays(GL_TRIANGLE_STRIP, 0, 4);
    gl->DepthMask(GL_TRUE);
}

void mmd_background_free(mmd_renderer *r)
{
    if (r->prog_bg)
        r->gl->DeleteProgram(r->prog_bg);
    if (r->vao_bg)
        r->gl->DeleteVertexArrays(1, &r->vao_bg);
}
