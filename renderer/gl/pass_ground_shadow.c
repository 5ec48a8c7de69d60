/* renderer/gl/pass_ground_shadow.c - MMD's ground shadow: the casters
 * flattened onto y = 0 along the light, in the light's colour, one model at a
 * time right after it is drawn (MMD's order: see mmd_renderer_draw). */

#include "renderer/gl/render_internal.h"

void mmd_pass_ground_shadows(mmd_renderer *r, const mmd_render_instance *ins, size_t first, size_t end,
                             bool accessories, const frame_ctx *f)
{
    const mmd_gl *gl = r->gl;
    /* l = -d points at the light; p' = p - l * (p.y / l.y) (DESIGN E.4) */
    float l[3] = {-f->light_dir[0], -f->light_dir[1], -f->light_dir[2]};
    if (l[1] < 1e-3f)
        return; /* light at or below the horizon: no ground shadow */
    float proj[16] = {1, 0, 0, 0, -l[0] / l[1], 0, -l[2] / l[1], 0, 0, 0, 1, 0, 0, 0, 0, 1};
    float w[16];
    mat_mul(f->world, proj, w);
    gl->UseProgram(r->prog_ground);
    gl->UniformMatrix4fv(r->u_ground[F_WORLD], 1, GL_FALSE, w);
    gl->UniformMatrix4fv(r->u_ground[F_VIEWPROJ], 1, GL_FALSE, f->viewproj);
    /* the light's colour (nanoem, and MMD's manual: a white light gives a white
     * shadow) x the project's brightness; translucent: alpha 0.5 (nanoem) */
    float color[4], b = r->o.ground_shadow_brightness;
    for (int c = 0; c < 3; c++) {
        float x = f->light_color[c] * b;
        color[c] = x < 0.0f ? 0.0f : x > 1.0f ? 1.0f : x;
    }
    color[3] = r->o.ground_shadow_translucent ? 0.5f : 1.0f;
    gl->Uniform4fv(r->u_ground[F_COLOR], 1, color);
    gl->Disable(GL_CULL_FACE);
    /* An opaque shadow colour needs neither blending nor the stencil that keeps
     * overlapping triangles from blending twice: every covered pixel gets the
     * same colour either way, and the per-sample stencil and blend work is the
     * dearest part of this pass on llvmpipe (MSAA 4 above all). */
    bool translucent = color[3] < 1.0f;
    if (translucent) {
        gl->Enable(GL_STENCIL_TEST);
        gl->StencilMask(0xff);
        gl->StencilFunc(GL_NOTEQUAL, 1, 0xff);
        gl->StencilOp(GL_KEEP, GL_KEEP, GL_REPLACE);
    } else {
        gl->Disable(GL_BLEND);
    }
    gl->DepthMask(GL_FALSE);
    gl->Enable(GL_POLYGON_OFFSET_FILL);
    gl->PolygonOffset(-1.0f, -1.0f);
    mmd_draw_casters(r, ins, first, end, MMD_MAT_GROUND_SHADOW, NULL);
    if (accessories)
        mmd_accessories_draw_casters(r, r->u_ground[F_WORLD], w, NULL);
    gl->Disable(GL_POLYGON_OFFSET_FILL);
    gl->Disable(GL_STENCIL_TEST);
    gl->Enable(GL_BLEND);
    gl->DepthMask(GL_TRUE);
}
