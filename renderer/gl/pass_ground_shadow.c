/* renderer/gl/pass_ground_shadow.c - MMD's ground shadow: the casters
 * flattened onto y = 0 along the light, in the light's colour, one model at a
 * time right after it is drawn (MMD's order: see mmd_renderer_draw), the
 * accessories' after all models. With a pass hook (render.h) each caster
 * material or accessory subset is first offered to it as kind `shadow`. */

#include "renderer/gl/render_internal.h"

/* The pass's GL state, set again after a pass hook drew (it sets its own). An
 * opaque shadow colour needs neither blending nor the stencil that keeps
 * overlapping triangles from blending twice: every covered pixel gets the
 * same colour either way, and the per-sample stencil and blend work is the
 * dearest part of this pass on llvmpipe (MSAA 4 above all). */
static void shadow_state(const mmd_renderer *r, bool translucent)
{
    const mmd_gl *gl = r->gl;
    gl->UseProgram(r->prog_ground);
    gl->Disable(GL_CULL_FACE);
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
}

/* mmd_draw_casters(MMD_MAT_GROUND_SHADOW) with the hook asked first for each
 * material (kind shadow; fg's hook_world the flattening, MME's WORLD of the
 * shadow pass): true, and the built-in shadow of that material is skipped. */
static void hooked_casters(mmd_renderer *r, const mmd_render_instance *ins, size_t first, size_t end,
                           const frame_ctx *fg, bool translucent)
{
    const mmd_gl *gl = r->gl;
    for (size_t i = first; i < end; i++) {
        const gpu_model *g = &r->models[i];
        if (ins[i].hidden)
            continue;
        const mmd_material_state *ms = ins[i].materials ? ins[i].materials : g->base;
        gl->BindVertexArray(g->vao);
        size_t off = 0;
        for (uint32_t k = 0; k < g->m->material_count && !mmd_render_cancelled(r); k++) {
            const mmd_material *mt = &g->m->materials[k];
            size_t n = mt->index_count, at = off;
            off += n;
            if (!(mt->flags & MMD_MAT_GROUND_SHADOW) || ms[k].diffuse[3] <= 0 || prim_of(mt->flags) != GL_TRIANGLES)
                continue; /* as mmd_draw_casters */
            /* no self-shadow on the ground shadow (MME's UseSelfShadow false) */
            if (mmd_pass_hook(r, i, k, at, n, MMD_FX_PASS_SHADOW, &ms[k], false, 0.0f, fg)) {
                shadow_state(r, translucent);
                gl->BindVertexArray(g->vao);
                continue;
            }
            gl->DrawElements(GL_TRIANGLES, (GLsizei)n, GL_UNSIGNED_INT, (const void *)(at * 4));
        }
    }
}

/* mmd_accessories_draw_casters with the hook asked first for each subset
 * (nanoem's Accessory::drawGroundShadow: the shadow technique per subset);
 * WORLD the flattening x the accessory's placement. */
static void hooked_accessories(mmd_renderer *r, const float proj[16], const float w[16], const frame_ctx *f,
                               bool translucent)
{
    const mmd_gl *gl = r->gl;
    for (size_t i = 0; i < r->acc_count; i++) {
        const gpu_accessory *g = &r->accs[i];
        if (!mmd_accessory_casts(g))
            continue;
        float flat[16], gw[16];
        frame_ctx fg = *f;
        mat_mul(proj, g->world, flat);
        fg.hook_world = flat;
        mat_mul(w, g->world, gw);
        gl->UniformMatrix4fv(r->u_ground[F_WORLD], 1, GL_FALSE, gw);
        gl->BindVertexArray(g->vao);
        size_t off = 0;
        for (uint32_t k = 0; k < g->mesh->material_count; k++) {
            const mmd_accessory_material *m = &g->mesh->materials[k];
            size_t n = m->index_count, at = off;
            off += n;
            if (!n || m->diffuse[3] <= 0)
                continue; /* as mmd_accessories_draw_casters */
            mmd_material_state s;
            mmd_accessory_state(g, k, &s);
            if (mmd_pass_hook_accessory(r, i, k, at, n, MMD_FX_PASS_SHADOW, &s, &fg)) {
                shadow_state(r, translucent);
                gl->BindVertexArray(g->vao);
                continue;
            }
            gl->DrawElements(GL_TRIANGLES, (GLsizei)n, GL_UNSIGNED_INT, (const void *)(at * 4));
        }
    }
    gl->UniformMatrix4fv(r->u_ground[F_WORLD], 1, GL_FALSE, w);
}

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
    bool translucent = color[3] < 1.0f;
    shadow_state(r, translucent);
    if (mmd_pass_hook_enabled(r)) {
        frame_ctx fg = *f;
        fg.hook_world = proj; /* LH, before f->world: WORLD as MME hands the shadow technique */
        hooked_casters(r, ins, first, end, &fg, translucent);
        if (accessories)
            hooked_accessories(r, proj, w, f, translucent);
    } else {
        mmd_draw_casters(r, ins, first, end, MMD_MAT_GROUND_SHADOW, NULL);
        if (accessories)
            mmd_accessories_draw_casters(r, r->u_ground[F_WORLD], w, NULL);
    }
    gl->Disable(GL_POLYGON_OFFSET_FILL);
    gl->Disable(GL_STENCIL_TEST);
    gl->Enable(GL_BLEND);
    gl->DepthMask(GL_TRUE);
}
