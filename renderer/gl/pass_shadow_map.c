/* renderer/gl/pass_shadow_map.c - MMD's self-shadow: the light camera
 * (mmd_shadow_matrix) and the depth pass of the casting materials into the
 * shadow map, clearing only the texels casters touched last frame or can now.
 * With a pass hook (render.h) each caster is first offered to it as kind
 * zplot (MME's z-plot), and mmd_renderer_shadow_map hands effects the map as
 * MME binds it at register(s0) (docs/effects.md "MMD's self-shadow map"). */

#include "renderer/gl/render_internal.h"

/* MMD's self-shadow light camera (nanoem ShadowCamera, LH): view basis from
 * the camera and light directions, trapezoidal projection in light-view y. */
void mmd_shadow_matrix(const mmd_render_view *v, const float light_dir[3], int mode, float dist_param,
                          float out[16])
{
    float cd[3] = {v->target[0] - v->eye[0], v->target[1] - v->eye[1], v->target[2] - v->eye[2]};
    if (vec_dot(cd, cd) < 1e-12f) {
        cd[0] = 0;
        cd[1] = 0;
        cd[2] = 1;
    }
    vec_norm(cd);
    float ld[3] = {light_dir[0], light_dir[1], light_dir[2]};
    vec_norm(ld);
    float x[3];
    vec_cross(cd, ld, x);
    if (vec_dot(x, x) < 1e-10f) { /* camera along the light: any perpendicular */
        float up[3] = {0, 1, 0};
        if (fabsf(ld[1]) > 0.9f) {
            up[1] = 0;
            up[0] = 1;
        }
        vec_cross(up, ld, x);
    }
    vec_norm(x);
    float y[3];
    vec_cross(ld, x, y);
    float o[3] = {v->eye[0] - 50 * ld[0], v->eye[1] - 50 * ld[1], v->eye[2] - 50 * ld[2]};
    float view[16] = {x[0], y[0], ld[0], 0, x[1], y[1], ld[1], 0, x[2], y[2], ld[2], 0,
                      -vec_dot(x, o), -vec_dot(y, o), -vec_dot(ld, o), 1};
    float d = dist_param;
    float angle = fabsf(vec_dot(cd, ld));
    float p[16] = {0};
    float c0, c1, c2;
    if (mode == 2) {
        p[0] = 3 * d;
        p[5] = 3 * d;
        p[6] = 1.5f * d;
        p[7] = 3 * d;
        c0 = 3.0f, c1 = -4.7f, c2 = 1.8f;
    } else {
        p[0] = 2 * d;
        p[5] = 2 * d;
        p[6] = 0.5f * d;
        p[7] = d;
        c0 = 1.0f, c1 = -1.3f, c2 = 0.4f;
    }
    p[10] = 0.15f * d;
    p[13] = -1;
    p[15] = 1;
    if (angle > 0.9f) {
        memset(p, 0, sizeof p);
        p[0] = d;
        p[5] = d;
        p[6] = 0.5f * d * (1 - angle);
        p[7] = d * (1 - angle);
        p[10] = 0.15f * d;
        p[13] = angle - 1;
        p[15] = 1;
    } else if (angle > 0.8f) {
        float t = 10 * (angle - 0.8f);
        p[0] += (d - p[0]) * t;
        p[5] += (d - p[5]) * t;
        p[7] = d * (c0 + c1 * t + c2 * t * t);
        p[6] = 0.5f * p[7];
        p[13] = -1.0f + 0.9f * t;
    }
    mat_mul(p, view, out);
}

/* Texel rectangle [x0,x1) x [y0,y1) of the shadow map that this frame's
 * casters can touch: the light-space bounds of every vertex of every model
 * with a casting material, plus a texel of margin. The whole map when a vertex
 * is behind the light camera (w <= 0: clipping makes the bounds unknowable). */
static void shadow_bounds(const mmd_renderer *r, const mmd_render_instance *ins, size_t count, const float vp[16],
                          int out[4])
{
    int s = r->o.shadow_map_size;
    float lo[2] = {1, 1}, hi[2] = {-1, -1};
    for (size_t i = 0; i < count; i++) {
        const mmd_model *m = r->models[i].m;
        const mmd_material_state *ms = ins[i].materials ? ins[i].materials : r->models[i].base;
        bool casts = false;
        for (uint32_t k = 0; k < m->material_count && !casts; k++)
            casts = (m->materials[k].flags & MMD_MAT_CAST_SHADOW) && ms[k].diffuse[3] > 0;
        if (ins[i].hidden || !casts || !r->models[i].look.self_shadow)
            continue;
        const float *p = ins[i].positions;
        for (size_t v = 0; v < m->vertex_count; v++, p += 3) {
            float w = vp[3] * p[0] + vp[7] * p[1] + vp[11] * p[2] + vp[15];
            if (!(w > 1e-6f)) {
                out[0] = out[1] = 0;
                out[2] = out[3] = s;
                return;
            }
            float x = (vp[0] * p[0] + vp[4] * p[1] + vp[8] * p[2] + vp[12]) / w;
            float y = (vp[1] * p[0] + vp[5] * p[1] + vp[9] * p[2] + vp[13]) / w;
            lo[0] = x < lo[0] ? x : lo[0];
            hi[0] = x > hi[0] ? x : hi[0];
            lo[1] = y < lo[1] ? y : lo[1];
            hi[1] = y > hi[1] ? y : hi[1];
        }
    }
    for (int a = 0; a < 2; a++) {
        if (!(lo[a] <= hi[a])) { /* nothing (or NaN): an empty rectangle */
            out[0] = out[1] = out[2] = out[3] = 0;
            return;
        }
        float t0 = (lo[a] * 0.5f + 0.5f) * (float)s - 2.0f, t1 = (hi[a] * 0.5f + 0.5f) * (float)s + 2.0f;
        out[a] = t0 <= 0 ? 0 : t0 >= (float)s ? s : (int)t0;
        out[a + 2] = t1 <= 0 ? 0 : t1 >= (float)s ? s : (int)t1 + 1;
    }
}

/* Whether any drawn triangle material receives the self-shadow. */
bool mmd_shadow_any_receiver(const mmd_renderer *r, const mmd_render_instance *ins, size_t count)
{
    for (size_t i = 0; i < count; i++) {
        const mmd_model *m = r->models[i].m;
        const mmd_material_state *ms = ins[i].materials ? ins[i].materials : r->models[i].base;
        for (uint32_t k = 0; k < m->material_count && !ins[i].hidden && r->models[i].look.self_shadow; k++)
            if ((m->materials[k].flags & MMD_MAT_RECEIVE_SHADOW) && ms[k].diffuse[3] > 0 &&
                m->materials[k].index_count > 0)
                return true;
    }
    return false;
}

void mmd_draw_casters(mmd_renderer *r, const mmd_render_instance *ins, size_t first, size_t end, uint8_t flag,
                      const frame_ctx *zplot)
{
    const mmd_gl *gl = r->gl;
    for (size_t i = first; i < end; i++) {
        gpu_model *g = &r->models[i];
        if (ins[i].hidden || (flag == MMD_MAT_CAST_SHADOW && !g->look.self_shadow))
            continue; /* a model with self-shadow off casts none */
        const mmd_material_state *ms = ins[i].materials ? ins[i].materials : g->base;
        gl->BindVertexArray(g->vao);
        size_t off = 0;
        for (uint32_t k = 0; k < g->m->material_count && !mmd_render_cancelled(r); k++) {
            const mmd_material *mt = &g->m->materials[k];
            size_t n = mt->index_count;
            if (flag == MMD_MAT_CAST_SHADOW && (mt->flags & MMD_MAT_DOUBLE_SIDED))
                gl->Disable(GL_CULL_FACE); /* MMD culls casters as it draws them (mmd_pass_shadow_map) */
            else if (flag == MMD_MAT_CAST_SHADOW)
                gl->Enable(GL_CULL_FACE);
            bool draws = (mt->flags & flag) && ms[k].diffuse[3] > 0 && prim_of(mt->flags) == GL_TRIANGLES;
            /* MME's zplot: an effect's technique draws the caster, an empty one casts nothing */
            if (draws && zplot && mmd_pass_hook(r, i, k, off, n, MMD_FX_PASS_ZPLOT, &ms[k], true, 0.0f, zplot)) {
                gl->UseProgram(r->prog_depth); /* the hook leaves its own state set again: ours too */
                gl->BindVertexArray(g->vao);
                r->shadow_hooked = true;
            } else if (draws) {
                gl->DrawElements(GL_TRIANGLES, (GLsizei)n, GL_UNSIGNED_INT, (const void *)(off * 4));
            }
            off += n;
        }
    }
}

void mmd_pass_shadow_map(mmd_renderer *r, const mmd_render_instance *ins, size_t count, const frame_ctx *f)
{
    const mmd_gl *gl = r->gl;
    gl->BindFramebuffer(GL_FRAMEBUFFER, r->fbo_shadow);
    gl->Viewport(0, 0, r->o.shadow_map_size, r->o.shadow_map_size);
    gl->DepthMask(GL_TRUE);
    r->shadow_fx_stale = true;
    gl->ClearDepth(1.0);
    /* Clear only what the last frame drew plus what this one can draw: the
     * rest of the map is still 1.0 from earlier clears. A full 2048^2 float
     * clear is most of this pass's cost on llvmpipe, and casters usually cover
     * a few percent of the map. Same texels as a full clear. */
    int now[4], *d = r->shadow_dirty;
    shadow_bounds(r, ins, count, f->shadow_vp, now);
    if (mmd_accessories_any_visible(r)) { /* accessory casters: no bounds kept, the whole map */
        now[0] = now[1] = 0;
        now[2] = now[3] = r->o.shadow_map_size;
    }
    int c[4] = {d[0] < now[0] ? d[0] : now[0], d[1] < now[1] ? d[1] : now[1], d[2] > now[2] ? d[2] : now[2],
                d[3] > now[3] ? d[3] : now[3]};
    if (d[2] <= d[0] || d[3] <= d[1]) /* nothing drawn last frame */
        memcpy(c, now, sizeof c);
    else if (now[2] <= now[0] || now[3] <= now[1]) /* nothing to draw now */
        memcpy(c, d, sizeof c);
    if (c[2] > c[0] && c[3] > c[1]) {
        gl->Enable(GL_SCISSOR_TEST);
        gl->Scissor(c[0], c[1], c[2] - c[0], c[3] - c[1]);
        gl->Clear(GL_DEPTH_BUFFER_BIT);
        gl->Disable(GL_SCISSOR_TEST);
    }
    memcpy(d, now, sizeof now);
    r->shadow_hooked = false;
    /* MMD draws the shadow map with each material's culling: only double-sided
     * materials cast from their back faces. Checked on MMD 9.31's frames of the
     * bench room: its ceiling, seen from above by the light, shows only back
     * faces and casts nothing on the dancer (unculled, it darkened her whole:
     * 9.6 % of the pixels off by more than 16, 3.7 % culled; issue 25). The light
     * camera's LH view keeps the mesh's D3D (clockwise) front winding, unlike
     * the colour pass's two mirrors. */
    gl->FrontFace(GL_CW);
    gl->CullFace(GL_BACK);
    gl->Disable(GL_BLEND);
    gl->Disable(GL_STENCIL_TEST);
    gl->Enable(GL_DEPTH_TEST);
    gl->DepthFunc(GL_LESS);
    gl->UseProgram(r->prog_depth);
    float id[16];
    mat_identity(id);
    gl->UniformMatrix4fv(r->u_depth[F_WORLD], 1, GL_FALSE, id);
    gl->UniformMatrix4fv(r->u_depth[F_VIEWPROJ], 1, GL_FALSE, f->shadow_vp);
    mmd_draw_casters(r, ins, 0, count, MMD_MAT_CAST_SHADOW, f);
    gl->Disable(GL_CULL_FACE);
    gl->FrontFace(GL_CCW);
    mmd_accessories_draw_casters(r, r->u_depth[F_WORLD], id, f);
    if (r->shadow_hooked) { /* an effect's zplot (its own vertex shader): no bounds, the next frame clears all */
        d[0] = d[1] = 0;
        d[2] = d[3] = r->o.shadow_map_size;
    }
}

/* The map's copy in D3D's row order: a depth texture like the map's. */
static bool shadow_fx_target(mmd_renderer *r)
{
    const mmd_gl *gl = r->gl;
    int s = r->o.shadow_map_size;
    if (r->fbo_shadow_fx)
        return true;
    gl->GenTextures(1, &r->tex_shadow_fx);
    gl->BindTexture(GL_TEXTURE_2D, r->tex_shadow_fx);
    gl->TexImage2D(GL_TEXTURE_2D, 0, GL_DEPTH_COMPONENT32F, s, s, 0, GL_DEPTH_COMPONENT, GL_FLOAT, NULL);
    gl->TexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    gl->TexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    gl->GenFramebuffers(1, &r->fbo_shadow_fx);
    gl->BindFramebuffer(GL_FRAMEBUFFER, r->fbo_shadow_fx);
    gl->FramebufferTexture2D(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_TEXTURE_2D, r->tex_shadow_fx, 0);
    gl->DrawBuffer(GL_NONE);
    gl->ReadBuffer(GL_NONE);
    if (gl->CheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE)
        return true;
    gl->DeleteFramebuffers(1, &r->fbo_shadow_fx);
    gl->DeleteTextures(1, &r->tex_shadow_fx);
    r->fbo_shadow_fx = r->tex_shadow_fx = 0;
    return false;
}

/* MME's map (render.h): the built-in one is drawn with the light's clip y up
 * the rows, as GL lays out a target; an effect reads D3D's uv through the
 * translator's y flip (docs/effects.md "DX9 versus GL pixels"), so it gets
 * the rows reversed, copied by a depth blit once per drawn map. The caller's
 * framebuffers, scissor test and active unit's texture are kept (the colour
 * pass goes on with its own bound). */
unsigned mmd_renderer_shadow_map(mmd_renderer *r, int shadow_mode)
{
    if (!shadow_mode)
        return r->tex_white;
    if (!r->shadow_fx_stale)
        return r->tex_shadow_fx;
    const mmd_gl *gl = r->gl;
    GLint draw = 0, read = 0, scissor = 0, tex = 0; /* the caller's, kept (tex: the active unit's) */
    gl->GetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &draw);
    gl->GetIntegerv(GL_READ_FRAMEBUFFER_BINDING, &read);
    gl->GetIntegerv(GL_SCISSOR_TEST, &scissor);
    gl->GetIntegerv(GL_TEXTURE_BINDING_2D, &tex);
    if (shadow_fx_target(r)) {
        int s = r->o.shadow_map_size;
        gl->Disable(GL_SCISSOR_TEST);
        gl->BindFramebuffer(GL_READ_FRAMEBUFFER, r->fbo_shadow);
        gl->BindFramebuffer(GL_DRAW_FRAMEBUFFER, r->fbo_shadow_fx);
        gl->BlitFramebuffer(0, 0, s, s, 0, s, s, 0, GL_DEPTH_BUFFER_BIT, GL_NEAREST);
        r->shadow_fx_stale = false;
    }
    (scissor ? gl->Enable : gl->Disable)(GL_SCISSOR_TEST);
    gl->BindTexture(GL_TEXTURE_2D, (GLuint)tex);
    gl->BindFramebuffer(GL_DRAW_FRAMEBUFFER, (GLuint)draw);
    gl->BindFramebuffer(GL_READ_FRAMEBUFFER, (GLuint)read);
    return r->tex_shadow_fx;
}
