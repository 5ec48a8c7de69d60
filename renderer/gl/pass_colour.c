/* renderer/gl/pass_colour.c - MMD's material pass for one model: materials in
 * file order, alpha-blended, each with the program variant its textures,
 * sphere mode, self-shadow, vertex colour, specular and tint need. */
#include <stdio.h>

#include "renderer/gl/render_internal.h"
#include "renderer/gl/shader.h"

static const char *const mmd_main_uniforms[U_MAIN_COUNT] = {MMD_MAIN_UNIFORMS(MMD_X_UNIFORM_NAME)};
static const mmd_variant_bit k_variant[] = {MMD_COLOUR_VARIANT(MMD_X_VARIANT_ROW_CV)};

mmd_status mmd_colour_program(mmd_renderer *r, int key, GLuint *out, mmd_error *err)
{
    if ((*out = r->prog_main[key]))
        return MMD_OK;
    const mmd_gl *gl = r->gl;
    char defs[320];
    int n = mmd_gl_variant_defines(k_variant, sizeof k_variant / sizeof k_variant[0], key, defs, sizeof defs);
    /* effects are the same for every variant of a run; off adds nothing, so
     * the programs are the very ones drawn without effects */
    const mmd_effects *e = &r->o.effects;
    if (e->soft_shadow) /* taps per side grow with the radius (in output pixels' texels) */
        n += snprintf(defs + n, sizeof defs - (size_t)n, "#define SOFT_SHADOW %d\n#define SOFT_TAPS %d\n",
                      e->soft_shadow_mode == MMD_SOFT_SHADOW_CONTACT ? 2 : 1,
                      e->soft_shadow_radius <= 2.0f ? 2 : e->soft_shadow_radius <= 4.0f ? 3 : 4);
    if (r->o.texture_filter == MMD_TEXTURE_FILTER_ANISO4) /* the shader's taps, the sampler trilinear */
        snprintf(defs + n, sizeof defs - (size_t)n, "#define ANISO_TAPS %d\n", MMD_TEXTURE_FILTER_ANISO4_TAPS);
    GLuint p = 0;
    mmd_status st = mmd_gl_program_build(gl, "mmd_vs", "mmd_fs", defs, &p, err);
    if (st != MMD_OK)
        return st;
    for (int i = 0; i < U_MAIN_COUNT; i++)
        r->u_main[key][i] = gl->GetUniformLocation(p, mmd_main_uniforms[i]);
    gl->UseProgram(p);
    gl->Uniform1i(r->u_main[key][U_TEX], 0);
    gl->Uniform1i(r->u_main[key][U_SPHERE], 1);
    gl->Uniform1i(r->u_main[key][U_TOON], 2);
    gl->Uniform1i(r->u_main[key][U_SHADOW_MAP], 3);
    if (r->u_main[key][U_SHADOW_CMP] >= 0)
        gl->Uniform1i(r->u_main[key][U_SHADOW_CMP], 4);
    r->prog_main[key] = *out = p;
    return MMD_OK;
}

static void bind_tex(const mmd_gl *gl, int unit, GLuint t)
{
    gl->ActiveTexture(GL_TEXTURE0 + (GLenum)unit);
    gl->BindTexture(GL_TEXTURE_2D, t);
}

/* Whether a material morph moved any texture / sphere / toon factor off
 * identity (mul 1, add 0); when none did, the TINT 0 program skips that maths. */
static bool tinted(const mmd_material_state *s)
{
    const float *mul[3] = {s->texture_mul, s->sphere_mul, s->toon_mul};
    const float *add[3] = {s->texture_add, s->sphere_add, s->toon_add};
    for (int i = 0; i < 3; i++)
        for (int c = 0; c < 4; c++)
            if (mul[i][c] != 1.0f || add[i][c] != 0.0f)
                return true;
    return false;
}

mmd_status mmd_pass_colour(mmd_renderer *r, gpu_model *g, const mmd_render_instance *in, const frame_ctx *f,
                           mmd_error *err)
{
    const mmd_gl *gl = r->gl;
    const mmd_material_state *ms = in->materials ? in->materials : g->base;
    bind_tex(gl, 3, f->shadow_mode ? r->tex_shadow : r->tex_white);
    const mmd_effects *e = &r->o.effects;
    float soft[3] = {0, 0, 0};
    if (r->smp_shadow_cmp) { /* unit 4: the same map through the compare sampler */
        bind_tex(gl, 4, f->shadow_mode ? r->tex_shadow : 0);
        gl->BindSampler(4, r->smp_shadow_cmp);
        float size = (float)r->o.shadow_map_size;
        /* contact hardening: a light ~3 degrees wide (tan 0.05) over window
         * depth 0.075 d per unit (pass_shadow_map.c's projection) and size * d
         * texels per unit: penumbra texels = gap * 0.05 * size / 0.075 */
        soft[0] = e->soft_shadow_radius;
        soft[1] = 1.0f / size;
        soft[2] = 0.05f * size / 0.075f;
    }
    gl->BindVertexArray(g->vao);
    size_t off = 0;
    for (uint32_t k = 0; k < g->m->material_count && !mmd_render_cancelled(r); k++) {
        const mmd_material *mt = &g->m->materials[k];
        const mmd_material_state *s = &ms[k];
        size_t n = mt->index_count;
        size_t at = off;
        off += n;
        if (s->diffuse[3] <= 0.0f || n == 0)
            continue; /* MMD hides materials whose alpha is 0 (material morphs) */
        const gpu_material *gm = &g->mats[k];
        int sphere_mode = gm->sphere && mt->sphere_mode <= MMD_SPHERE_SUB_TEXTURE ? mt->sphere_mode : 0;
        bool shadow = (mt->flags & MMD_MAT_RECEIVE_SHADOW) && f->shadow_mode && g->look.self_shadow;
        if (mmd_pass_hook(r, (size_t)(g - r->models), k, at, n, f->shadow_mode ? MMD_FX_PASS_OBJECT_SS : MMD_FX_PASS_OBJECT,
                          s, shadow, 0.0f, f)) { /* an effect drew it (render.h) */
            gl->BindVertexArray(g->vao);
            continue;
        }
        bool spec = s->specular_power > 0 && (s->specular[0] > 0 || s->specular[1] > 0 || s->specular[2] > 0);
        int key = CV(HAS_TEX, gm->tex != 0) | CV(SPHERE_MODE, sphere_mode) | CV(SELF_SHADOW, shadow) |
                  CV(VERTEX_COLOR, (mt->flags & MMD_MAT_VERTEX_COLOR) != 0) | CV(SPECULAR, spec) | CV(TINT, tinted(s));
        GLuint prog = 0;
        mmd_status st = mmd_colour_program(r, key, &prog, err);
        if (st != MMD_OK)
            return st;
        const GLint *u = r->u_main[key];
        gl->UseProgram(prog);
        gl->UniformMatrix4fv(u[U_WORLD], 1, GL_FALSE, f->world);
        gl->UniformMatrix4fv(u[U_VIEW], 1, GL_FALSE, f->v->view);
        gl->UniformMatrix4fv(u[U_PROJ], 1, GL_FALSE, f->proj_flip);
        gl->UniformMatrix4fv(u[U_SHADOW_VP], 1, GL_FALSE, f->shadow_vp);
        gl->Uniform3fv(u[U_LIGHT_COLOR], 1, f->light_color);
        gl->Uniform3fv(u[U_LIGHT_DIR], 1, f->light_dir);
        gl->Uniform3fv(u[U_EYE], 1, f->v->eye);
        gl->Uniform1i(u[U_SHADOW_MODE], f->shadow_mode);
        if (mt->flags & MMD_MAT_DOUBLE_SIDED)
            gl->Disable(GL_CULL_FACE);
        else
            gl->Enable(GL_CULL_FACE);
        gl->Uniform4fv(u[U_DIFFUSE], 1, s->diffuse);
        gl->Uniform3fv(u[U_AMBIENT], 1, s->ambient);
        gl->Uniform3fv(u[U_SPECULAR], 1, s->specular);
        gl->Uniform1f(u[U_POWER], s->specular_power);
        gl->Uniform4fv(u[U_TEX_MUL], 1, s->texture_mul);
        gl->Uniform4fv(u[U_TEX_ADD], 1, s->texture_add);
        gl->Uniform4fv(u[U_SPH_MUL], 1, s->sphere_mul);
        gl->Uniform4fv(u[U_SPH_ADD], 1, s->sphere_add);
        gl->Uniform4fv(u[U_TOON_MUL], 1, s->toon_mul);
        gl->Uniform4fv(u[U_TOON_ADD], 1, s->toon_add);
        bind_tex(gl, 0, gm->tex ? gm->tex : r->tex_white);
        bind_tex(gl, 1, gm->sphere ? gm->sphere : r->tex_white);
        bind_tex(gl, 2, gm->toon ? gm->toon : r->tex_white);
        if (shadow && r->smp_shadow_cmp)
            gl->Uniform3fv(u[U_SOFT], 1, soft);
        gl->DrawElements(prim_of(mt->flags), (GLsizei)n, GL_UNSIGNED_INT, (const void *)(at * 4));
        if (g->prof_mat)
            g->prof_mat[k] += mmd_prof_mark(r, MMD_PASS_COLOUR);
    }
    if (r->smp_shadow_cmp)
        gl->BindSampler(4, 0);
    return MMD_OK;
}
