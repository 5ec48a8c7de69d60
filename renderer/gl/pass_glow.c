/* renderer/gl/pass_glow.c - AutoLuminous emission: every shown triangle
 * material drawn again into a float target at quarter the output size (own
 * depth, MMD's order and blending), emitters with their emission, the rest
 * with 0 so they hide what is behind them. pass_post.c blooms the result.
 * Quarter size (the blur chain's first level; half size cost ~5 ms more
 * rasterisation at 1080p) and no MSAA keep it a small fraction of the colour
 * pass; the sharp emitter itself is the colour pass's own material, the
 * glow only adds light over it. AL itself renders its emitters into a
 * separate target the same way. */
#include "renderer/gl/render_internal.h"
#include "renderer/gl/shader.h"

enum { G_WORLD, G_VIEWPROJ, G_TEX, G_COLOR, G_K, G_ALPHA, G_COUNT };

mmd_status mmd_glow_target_create(mmd_renderer *r, mmd_error *err)
{
    const mmd_gl *gl = r->gl;
    int w = mmd_post_level_size(r->o.width, 2), h = mmd_post_level_size(r->o.height, 2);
    r->tex_glow = mmd_post_texture_target(gl, MMD_POST_HDR, w, h, &r->fbo_glow);
    if (r->tex_glow) {
        gl->GenRenderbuffers(1, &r->rb_glow_depth);
        gl->BindRenderbuffer(GL_RENDERBUFFER, r->rb_glow_depth);
        gl->RenderbufferStorageMultisample(GL_RENDERBUFFER, 0, GL_DEPTH_COMPONENT24, w, h);
        gl->FramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, r->rb_glow_depth);
    }
    if (!r->tex_glow || gl->CheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE)
        return mmd_fail(err, MMD_E_GL, "GL: glow target %dx%d incomplete", w, h);
    mmd_status st = mmd_gl_program_build(gl, "glow_vs", "glow_fs", NULL, &r->prog_glow, err);
    if (st != MMD_OK)
        return st;
    static const char *const names[G_COUNT] = {"u_world", "u_viewproj", "u_tex", "u_glow_color", "u_glow_k",
                                               "u_alpha"};
    for (int i = 0; i < G_COUNT; i++)
        r->u_glow[i] = gl->GetUniformLocation(r->prog_glow, names[i]);
    gl->UseProgram(r->prog_glow);
    gl->Uniform1i(r->u_glow[G_TEX], 0);
    /* models without marked vertices read this constant: no per-vertex glow */
    gl->VertexAttrib4f(MMD_ATTR_GLOW, 0, 0, 0, 0);
    return MMD_OK;
}

/* Whether anything in this frame emits: a marked material or marked vertices
 * of a shown model whose LightOff etc. leave some glow. */
static bool any_emitter(const mmd_renderer *r, const mmd_render_instance *ins, size_t count)
{
    for (size_t i = 0; i < count; i++) {
        const gpu_model *g = &r->models[i];
        if (ins[i].hidden || mmd_luminous_model_factor(&g->lum, ins[i].morph_weights, r->time_s) <= 0.0f)
            continue;
        if (g->vbo_glow)
            return true;
        const mmd_material_state *ms = ins[i].materials ? ins[i].materials : g->base;
        for (uint32_t k = 0; k < g->m->material_count; k++)
            if (ms[k].diffuse[3] > 0 && mmd_luminous_strength(&ms[k]) > 0)
                return true;
    }
    return false;
}

bool mmd_pass_glow(mmd_renderer *r, const mmd_render_instance *ins, size_t count, const frame_ctx *f)
{
    if (!any_emitter(r, ins, count))
        return false; /* emission would be 0 everywhere: pass_post.c skips the glow */
    const mmd_gl *gl = r->gl;
    int w = mmd_post_level_size(r->o.width, 2), h = mmd_post_level_size(r->o.height, 2);
    gl->BindFramebuffer(GL_FRAMEBUFFER, r->fbo_glow);
    gl->Viewport(0, 0, w, h);
    gl->ClearColor(0, 0, 0, 0);
    gl->ClearDepth(1.0);
    gl->DepthMask(GL_TRUE);
    gl->Clear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    gl->Enable(GL_DEPTH_TEST);
    gl->DepthFunc(GL_LEQUAL);
    gl->Enable(GL_BLEND);
    gl->BlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
    gl->UseProgram(r->prog_glow);
    gl->UniformMatrix4fv(r->u_glow[G_WORLD], 1, GL_FALSE, f->world);
    gl->UniformMatrix4fv(r->u_glow[G_VIEWPROJ], 1, GL_FALSE, f->viewproj);
    gl->ActiveTexture(GL_TEXTURE0);
    for (size_t i = 0; i < count; i++) {
        if (ins[i].hidden)
            continue;
        gpu_model *g = &r->models[i];
        const mmd_material_state *ms = ins[i].materials ? ins[i].materials : g->base;
        float factor = mmd_luminous_model_factor(&g->lum, ins[i].morph_weights, r->time_s);
        gl->BindVertexArray(g->vao);
        size_t off = 0;
        for (uint32_t k = 0; k < g->m->material_count; k++) {
            const mmd_material *mt = &g->m->materials[k];
            const mmd_material_state *s = &ms[k];
            size_t n = mt->index_count, at = off;
            off += n;
            if (s->diffuse[3] <= 0.0f || n == 0 || prim_of(mt->flags) != GL_TRIANGLES)
                continue;
            float gc[3];
            mmd_luminous_color(s, gc);
            gl->Uniform3fv(r->u_glow[G_COLOR], 1, gc);
            gl->Uniform2f(r->u_glow[G_K], mmd_luminous_strength(s) * factor, factor);
            gl->Uniform1f(r->u_glow[G_ALPHA], s->diffuse[3]);
            gl->BindTexture(GL_TEXTURE_2D, g->mats[k].tex ? g->mats[k].tex : r->tex_white);
            if (mt->flags & MMD_MAT_DOUBLE_SIDED)
                gl->Disable(GL_CULL_FACE);
            else
                gl->Enable(GL_CULL_FACE);
            gl->DrawElements(GL_TRIANGLES, (GLsizei)n, GL_UNSIGNED_INT, (const void *)(at * 4));
        }
    }
    gl->Viewport(0, 0, r->rw, r->rh);
    return true;
}
