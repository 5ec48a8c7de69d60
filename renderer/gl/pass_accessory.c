/* renderer/gl/pass_accessory.c - MMD's accessory colour pass (nanoem's
 * accessory shader: per-vertex light, emissive, texture, sphere multiply/add,
 * specular, self-shadow receiving; no toon, no edge), its casters for the
 * ground shadow and the self-shadow map, and MMD's live screen texture. */
#include "renderer/gl/render_internal.h"
#include "renderer/gl/shader.h"

static const char *const k_acc_uniforms[A_COUNT] = {MMD_ACC_UNIFORMS(MMD_X_UNIFORM_NAME)};
static const mmd_variant_bit k_variant[] = {MMD_ACC_VARIANT(MMD_X_VARIANT_ROW_AV)};

/* The program for variant key, built on first use (MMD_E_GL when it does not build). */
static mmd_status acc_program(mmd_renderer *r, int key, GLuint *out, mmd_error *err)
{
    if ((*out = r->prog_acc[key]))
        return MMD_OK;
    const mmd_gl *gl = r->gl;
    char defs[160];
    mmd_gl_variant_defines(k_variant, sizeof k_variant / sizeof k_variant[0], key, defs, sizeof defs);
    GLuint p = 0;
    mmd_status st = mmd_gl_program_build(gl, "acc_vs", "acc_fs", defs, &p, err);
    if (st != MMD_OK)
        return st;
    for (int i = 0; i < A_COUNT; i++)
        r->u_acc[key][i] = gl->GetUniformLocation(p, k_acc_uniforms[i]);
    gl->UseProgram(p);
    gl->Uniform1i(r->u_acc[key][A_TEX], 0);
    gl->Uniform1i(r->u_acc[key][A_SPHERE], 1);
    gl->Uniform1i(r->u_acc[key][A_SHADOW_MAP], 3);
    r->prog_acc[key] = *out = p;
    return MMD_OK;
}

static void bind_tex(const mmd_gl *gl, int unit, GLuint t)
{
    gl->ActiveTexture(GL_TEXTURE0 + (GLenum)unit);
    gl->BindTexture(GL_TEXTURE_2D, t);
}

void mmd_accessory_state(const gpu_accessory *g, uint32_t k, mmd_material_state *s)
{
    const mmd_accessory_material *m = &g->mesh->materials[k];
    memset(s, 0, sizeof *s);
    memcpy(s->diffuse, m->diffuse, sizeof s->diffuse);
    s->diffuse[3] *= g->a.place.opacity;
    memcpy(s->ambient, m->emissive, sizeof s->ambient);
    memcpy(s->specular, m->specular, sizeof s->specular);
    s->specular_power = m->power;
    for (int i = 0; i < 4; i++)
        s->texture_mul[i] = s->sphere_mul[i] = s->toon_mul[i] = 1.0f;
}

/* One accessory's materials in file order. */
static mmd_status draw_one(mmd_renderer *r, const gpu_accessory *g, const frame_ctx *f, mmd_error *err)
{
    const mmd_gl *gl = r->gl;
    const mmd_accessory_mesh *mesh = g->mesh;
    gl->BindVertexArray(g->vao);
    if (g->a.place.add_blend)
        gl->BlendFuncSeparate(GL_SRC_ALPHA, GL_ONE, GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
    else
        gl->BlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
    size_t off = 0;
    for (uint32_t k = 0; k < mesh->material_count; k++) {
        const mmd_accessory_material *m = &mesh->materials[k];
        const gpu_acc_material *gm = &g->mats[k];
        size_t n = m->index_count, at = off;
        off += n;
        mmd_material_state s;
        mmd_accessory_state(g, k, &s);
        if (n == 0 || s.diffuse[3] <= 0.0f)
            continue;
        if (mmd_pass_hook_enabled(r) && /* an effect may draw it (render.h) */
            mmd_pass_hook_accessory(r, (size_t)(g - r->accs), k, at, n,
                                    f->shadow_mode ? MMD_FX_PASS_OBJECT_SS : MMD_FX_PASS_OBJECT, &s, f))
            continue;
        int sphere = gm->sphere ? m->sphere_mode : 0;
        bool spec = m->power > 0 && (m->specular[0] > 0 || m->specular[1] > 0 || m->specular[2] > 0);
        int key = AV(HAS_TEX, gm->tex != 0) | AV(SPHERE_MODE, sphere) | AV(SELF_SHADOW, f->shadow_mode != 0) |
                  AV(SPECULAR, spec);
        GLuint prog = 0;
        mmd_status st = acc_program(r, key, &prog, err);
        if (st != MMD_OK)
            return st;
        const GLint *u = r->u_acc[key];
        gl->UseProgram(prog);
        gl->UniformMatrix4fv(u[A_ACC_WORLD], 1, GL_FALSE, g->world);
        gl->UniformMatrix4fv(u[A_WORLD], 1, GL_FALSE, f->world);
        gl->UniformMatrix4fv(u[A_VIEW], 1, GL_FALSE, f->v->view);
        gl->UniformMatrix4fv(u[A_PROJ], 1, GL_FALSE, f->proj_flip);
        gl->UniformMatrix4fv(u[A_SHADOW_VP], 1, GL_FALSE, f->shadow_vp);
        gl->Uniform4fv(u[A_DIFFUSE], 1, s.diffuse);
        gl->Uniform3fv(u[A_EMISSIVE], 1, m->emissive);
        gl->Uniform3fv(u[A_SPECULAR], 1, m->specular);
        gl->Uniform1f(u[A_POWER], m->power);
        gl->Uniform3fv(u[A_LIGHT_COLOR], 1, f->light_color);
        gl->Uniform3fv(u[A_LIGHT_DIR], 1, f->light_dir);
        gl->Uniform3fv(u[A_EYE], 1, f->v->eye);
        gl->Uniform1i(u[A_SHADOW_MODE], f->shadow_mode);
        bind_tex(gl, 0, gm->tex ? gm->tex : r->tex_white);
        bind_tex(gl, 1, gm->sphere ? gm->sphere : r->tex_white);
        gl->DrawElements(GL_TRIANGLES, (GLsizei)n, GL_UNSIGNED_INT, (const void *)(at * 4));
    }
    return MMD_OK;
}

mmd_status mmd_pass_accessories(mmd_renderer *r, const frame_ctx *f, bool after_models, mmd_error *err)
{
    const mmd_gl *gl = r->gl;
    bool any = false;
    for (size_t i = 0; i < r->acc_count; i++) {
        const gpu_accessory *g = &r->accs[i];
        if (!g->a.place.visible || g->a.place.after_models != after_models)
            continue;
        if (!any) {
            bind_tex(gl, 3, f->shadow_mode ? r->tex_shadow : r->tex_white);
            gl->Enable(GL_CULL_FACE); /* D3D's default: back faces culled */
            any = true;
        }
        mmd_status st = draw_one(r, g, f, err);
        if (st != MMD_OK)
            return st;
    }
    if (any)
        gl->BlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
    return MMD_OK;
}

/* zplot: the self-shadow map's frame, whose pass hook each subset is asked
 * with kind zplot first (the program bound is then r->prog_depth); NULL: none. */
void mmd_accessories_draw_casters(mmd_renderer *r, GLint u_world_loc, const float pass_world[16],
                                  const frame_ctx *zplot)
{
    const mmd_gl *gl = r->gl;
    for (size_t i = 0; i < r->acc_count; i++) {
        const gpu_accessory *g = &r->accs[i];
        if (!mmd_accessory_casts(g))
            continue;
        float w[16];
        mat_mul(pass_world, g->world, w);
        gl->UniformMatrix4fv(u_world_loc, 1, GL_FALSE, w);
        gl->BindVertexArray(g->vao);
        size_t off = 0;
        for (uint32_t k = 0; k < g->mesh->material_count; k++) {
            const mmd_accessory_material *m = &g->mesh->materials[k];
            size_t n = m->index_count, at = off;
            off += n;
            if (!n || m->diffuse[3] <= 0)
                continue;
            if (zplot && mmd_pass_hook_enabled(r)) { /* MME's zplot: an effect's caster, or none */
                mmd_material_state s;
                mmd_accessory_state(g, k, &s);
                if (mmd_pass_hook_accessory(r, i, k, at, n, MMD_FX_PASS_ZPLOT, &s, zplot)) {
                    gl->UseProgram(r->prog_depth); /* the hook's draw leaves ours to set again */
                    gl->UniformMatrix4fv(u_world_loc, 1, GL_FALSE, w);
                    gl->BindVertexArray(g->vao);
                    r->shadow_hooked = true;
                    continue;
                }
            }
            gl->DrawElements(GL_TRIANGLES, (GLsizei)n, GL_UNSIGNED_INT, (const void *)(at * 4));
        }
    }
    gl->UniformMatrix4fv(u_world_loc, 1, GL_FALSE, pass_world);
}

/* After the frame's resolve: the resolved image becomes screen.bmp of the next
 * frame (its rows are already top first, as textures are uploaded). */
void mmd_accessories_copy_screen(mmd_renderer *r)
{
    if (!r->tex_screen)
        return;
    const mmd_gl *gl = r->gl;
    gl->BindFramebuffer(GL_READ_FRAMEBUFFER, r->fbo_res);
    gl->ReadBuffer(GL_COLOR_ATTACHMENT0);
    bind_tex(gl, 0, r->tex_screen);
    gl->CopyTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, 0, 0, r->o.width, r->o.height);
}
