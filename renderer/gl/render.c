/* renderer/gl/render.c - MMD passes on a headless GL context (DESIGN E).
 *
 * Per frame: [self-shadow map] -> per model in the order added: colour pass
 * (materials in file order, alpha-blended, depth write, no sorting) then the
 * edge pass of that model (inverted hull) -> ground shadows -> MSAA resolve ->
 * readback. Colour before edge per model is MMD's own order: the hull sits
 * behind the surface, so only the silhouette band survives the depth test.
 *
 * Geometry arrives in MMD's left-handed space and stays so in the buffers;
 * u_world mirrors z for GL (with the camera mirrored the same way in
 * mmd_camera_matrices, the on-screen image is MMD's, so MMD's clockwise front
 * faces stay clockwise on screen). The projection is also mirrored in y, so the
 * image lands in GL's bottom-up framebuffer upside down and glReadPixels
 * returns the top row first without a CPU flip; that mirror turns the front
 * faces counter-clockwise: glFrontFace(GL_CCW).
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "renderer/gl/render_internal.h"
#include "renderer/gl/shader.h"
#include "renderer/gl/toon.h"

/* ---------------------------------------------------------------- lifecycle */

void mmd_render_options_default(mmd_render_options *o)
{
    memset(o, 0, sizeof *o);
    o->width = 1280;
    o->height = 720;
    o->samples = 4;
    o->background[0] = o->background[1] = o->background[2] = o->background[3] = 1.0f;
    o->backend = mmd_gl_default_backend();
    o->edges = o->ground_shadow = o->self_shadow = true;
    o->shadow_map_size = 2048;
    o->ground_shadow_brightness = 1.0f;
    o->texture_budget = MMD_TEXTURE_BUDGET_DEFAULT;
    mmd_effects_default(&o->effects);
}

/* Effect ranges (effects.h); the scene parser checks the same, this guards the library. */
static mmd_status check_effects(const mmd_render_options *o, mmd_error *err)
{
    const mmd_effects *e = &o->effects;
    if (e->ssaa < 1 || e->ssaa > 4)
        return mmd_fail(err, MMD_E_GL, "ssaa must be 1..4 (got %d)", e->ssaa);
    if ((long)o->width * e->ssaa > 16384 || (long)o->height * e->ssaa > 16384)
        return mmd_fail(err, MMD_E_GL, "render size %dx%d times ssaa %d is over 16384 pixels a side", o->width,
                        o->height, e->ssaa);
    if (!(e->glow_strength >= 0 && e->glow_strength <= 10) || !(e->glow_radius >= 0.25f && e->glow_radius <= 4) ||
        !(e->soft_shadow_radius >= 0.5f && e->soft_shadow_radius <= 8) ||
        !(e->diffusion_strength >= 0 && e->diffusion_strength <= 2) ||
        !(e->diffusion_threshold >= 0 && e->diffusion_threshold <= 1))
        return mmd_fail(err, MMD_E_GL, "an effect value is out of range (see docs/effects.md)");
    return MMD_OK;
}

/* The options every renderer checks before it opens a GL context (MMD_E_GL, as every failure of create). */
static mmd_status check_options(const mmd_render_options *o, mmd_error *err)
{
    if (o->width < 1 || o->height < 1 || o->width > 16384 || o->height > 16384)
        return mmd_fail(err, MMD_E_GL, "render size %dx%d out of range (1..16384)", o->width, o->height);
    if (o->samples != 1 && o->samples != 2 && o->samples != 4)
        return mmd_fail(err, MMD_E_GL, "MSAA samples must be 1, 2 or 4 (got %d)", o->samples);
    if (o->self_shadow && (o->shadow_map_size < 64 || o->shadow_map_size > 8192))
        return mmd_fail(err, MMD_E_GL, "shadow map size %d out of range (64..8192)", o->shadow_map_size);
    if ((int)o->texture_filter < 0 || (int)o->texture_filter >= MMD_TEXTURE_FILTER_COUNT)
        return mmd_fail(err, MMD_E_GL, "texture filter %d out of range", (int)o->texture_filter);
    return check_effects(o, err);
}

/* The flat programs (edges, ground shadow, depth) and, with soft shadows, the
 * shadow map's compare sampler. */
static mmd_status build_flat(mmd_renderer *r, mmd_error *err)
{
    const mmd_gl *gl = r->gl;
    mmd_status st = mmd_gl_program_build(gl, "flat_vs", "flat_fs", NULL, &r->prog_flat, err);
    /* position-only vertex stage for the passes without an edge offset (fewer attributes fetched per vertex) */
    const char *pos_only = "#define POSITION_ONLY 1\n";
    if (st == MMD_OK)
        st = mmd_gl_program_build(gl, "flat_vs", "depth_fs", pos_only, &r->prog_depth, err);
    if (st == MMD_OK)
        st = mmd_gl_program_build(gl, "flat_vs", "flat_fs", pos_only, &r->prog_ground, err);
    if (r->o.effects.soft_shadow && r->o.self_shadow) {
        gl->GenSamplers(1, &r->smp_shadow_cmp);
        gl->SamplerParameteri(r->smp_shadow_cmp, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
        gl->SamplerParameteri(r->smp_shadow_cmp, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
        gl->SamplerParameteri(r->smp_shadow_cmp, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
        gl->SamplerParameteri(r->smp_shadow_cmp, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
        gl->SamplerParameteri(r->smp_shadow_cmp, GL_TEXTURE_COMPARE_MODE, GL_COMPARE_REF_TO_TEXTURE);
        gl->SamplerParameteri(r->smp_shadow_cmp, GL_TEXTURE_COMPARE_FUNC, GL_LEQUAL);
    }
    return st;
}

/* Programs, targets and the colour program's plainest variant (failing early
 * on GLSL errors). A size or MSAA level this GL cannot hold is MMD_E_USAGE
 * (mmd_targets_create), anything else MMD_E_GL. */
static mmd_status create_gl(mmd_renderer *r, mmd_error *err)
{
    const mmd_render_options *o = &r->o;
    mmd_status st = build_flat(r, err);
    if (st == MMD_OK)
        st = mmd_targets_create(r, err);
    if (st == MMD_OK && o->effects.glow)
        st = mmd_glow_target_create(r, err);
    if (st == MMD_OK && o->self_shadow)
        st = mmd_shadow_target_create(r, err);
    if (st != MMD_OK)
        return st;
    const mmd_gl *gl = r->gl;
    static const char *const flat_names[F_COUNT] = {MMD_FLAT_UNIFORMS(MMD_X_UNIFORM_NAME)};
    for (int i = 0; i < F_COUNT; i++) {
        r->u_flat[i] = gl->GetUniformLocation(r->prog_flat, flat_names[i]);
        r->u_depth[i] = gl->GetUniformLocation(r->prog_depth, flat_names[i]);
        r->u_ground[i] = gl->GetUniformLocation(r->prog_ground, flat_names[i]);
    }
    GLuint plain = 0;
    return mmd_colour_program(r, 0, &plain, err);
}

/* Every step speaks mmd_status (core/status.h); a failure's status is the step's own. */
mmd_status mmd_renderer_create(const mmd_render_options *o, mmd_renderer **out, mmd_error *err)
{
    mmd_status st = check_options(o, err);
    if (st != MMD_OK)
        return st;
    mmd_renderer *r = calloc(1, sizeof *r);
    if (!r)
        return mmd_fail(err, MMD_E_GL, "out of memory");
    r->o = *o;
    r->rw = o->width * o->effects.ssaa;
    r->rh = o->height * o->effects.ssaa;
    r->post = mmd_effects_post(&o->effects);
    if ((st = mmd_gl_context_create(o->backend, o->threads, &r->ctx, err)) != MMD_OK) {
        free(r);
        return st;
    }
    r->gl = mmd_gl_context_api(r->ctx);
    const mmd_gl *gl = r->gl;
    if ((st = create_gl(r, err)) != MMD_OK) {
        mmd_renderer_free(r);
        return st;
    }
    const uint8_t white[4] = {255, 255, 255, 255};
    r->tex_white = mmd_tex_upload_rgba(r, 1, 1, white, false, false);
    for (int i = 0; i < 10; i++) { /* shared toon01..toon10 */
        uint8_t toon[MMD_TOON_SIZE * MMD_TOON_SIZE * 4];
        mmd_toon_generate(i + 1, toon);
        r->toon_shared[i] = mmd_tex_upload_rgba(r, MMD_TOON_SIZE, MMD_TOON_SIZE, toon, false, false);
    }
    int threads = o->threads;
    if (threads <= 0) {
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        threads = n > 0 ? (int)n : 1;
    }
    if (threads > MAX_THREADS + 1)
        threads = MAX_THREADS + 1;
    r->threads = threads;
    mmd_pool_start(r, threads);
    mmd_texlib_config tc = {o->texture_budget, o->allow_outside_assets, threads, o->quiet ? NULL : o->warn,
                            o->warn_ctx};
    if (!(r->texlib = mmd_texlib_create(&tc)))
        st = mmd_fail(err, MMD_E_GL, "out of memory");
    else if (gl->GetError() != GL_NO_ERROR)
        st = mmd_fail(err, MMD_E_GL, "GL error while setting up the renderer");
    if (st != MMD_OK) {
        mmd_renderer_free(r);
        return st;
    }
    *out = r;
    return MMD_OK;
}

static void free_model(const mmd_gl *gl, gpu_model *g)
{
    GLuint bufs[7] = {g->vbo_pos, g->vbo_nrm, g->vbo_uv, g->vbo_add, g->vbo_edge, g->ebo, g->vbo_glow};
    gl->DeleteBuffers(7, bufs);
    gl->DeleteVertexArrays(1, &g->vao);
    if (g->vao_fx)
        gl->DeleteVertexArrays(1, &g->vao_fx);
    if (g->vao_hull) {
        gl->DeleteVertexArrays(1, &g->vao_hull);
        gl->DeleteBuffers(1, &g->vbo_hull);
    }
    free(g->hull);
    free(g->mats); /* the texture names belong to the renderer (tex_names) */
    free(g->base);
    free(g->prof_mat);
    free(g->skin_pos);
    free(g->skin_nrm);
}

void mmd_renderer_free(mmd_renderer *r)
{
    if (!r)
        return;
    if (r->threads)
        mmd_pool_stop(&r->pool);
    if (r->ctx) {
        const mmd_gl *gl = r->gl;
        for (size_t i = 0; i < r->model_count; i++)
            free_model(gl, &r->models[i]);
        for (size_t i = 0; i < r->tex_name_cap; i++)
            if (r->tex_names[i])
                gl->DeleteTextures(1, &r->tex_names[i]);
        mmd_accessories_free(r);
        mmd_background_free(r);
        GLuint fbos[4] = {r->fbo_ms, r->fbo_res, r->fbo_shadow, r->fbo_shadow_fx};
        GLuint rbs[4] = {r->rb_ms_color, r->rb_ms_depth, r->rb_res_color, r->rb_res_depth};
        GLuint texs[4] = {r->tex_shadow, r->tex_white, r->tex_res, r->tex_glow};
        gl->DeleteFramebuffers(4, fbos);
        gl->DeleteTextures(1, &r->tex_shadow_fx);
        gl->DeleteFramebuffers(1, &r->fbo_glow);
        gl->DeleteRenderbuffers(4, rbs);
        gl->DeleteRenderbuffers(1, &r->rb_glow_depth);
        gl->DeleteTextures(4, texs);
        if (r->prog_glow)
            gl->DeleteProgram(r->prog_glow);
        if (r->smp_shadow_cmp)
            gl->DeleteSamplers(1, &r->smp_shadow_cmp);
        mmd_post_free(r->postfx);
        gl->DeleteTextures(10, r->toon_shared);
        for (int i = 0; i < MAIN_VARIANTS; i++)
            if (r->prog_main[i])
                gl->DeleteProgram(r->prog_main[i]);
        gl->DeleteProgram(r->prog_flat);
        gl->DeleteProgram(r->prog_depth);
        gl->DeleteProgram(r->prog_ground);
        mmd_gl_context_free(r->ctx);
    }
    free(r->models);
    free(r->tex_names);
    free(r->tex_target);
    mmd_texlib_free(r->texlib);
    free(r);
}

/* ---------------------------------------------------------------- models */

static GLuint make_buffer(const mmd_gl *gl, GLenum target, size_t bytes, const void *data, GLenum usage)
{
    GLuint b;
    gl->GenBuffers(1, &b);
    gl->BindBuffer(target, b);
    gl->BufferData(target, (GLsizeiptr)bytes, data, usage);
    return b;
}

/* AutoLuminous per-vertex glow (core/luminous.h) into out (vertex_count x 4):
 * a marked vertex gets additional UV2's rgb (times its a when a > 0) when the
 * model has a second additional UV, else weight 1 of its material's glow
 * colour. Returns whether any vertex is marked (out is then complete). */
static bool vertex_glow(const gpu_model *g, float *out)
{
    const mmd_model *m = g->m;
    bool any = false;
    for (size_t i = 0; i < m->vertex_count; i++)
        any |= m->additional_uv_count > 0 && mmd_luminous_vertex_marked(m->vertices[i].add_uv[0]);
    if (!any)
        return false;
    for (size_t i = 0; i < m->vertex_count; i++) {
        const mmd_vertex *v = &m->vertices[i];
        float *o = out + i * 4;
        o[0] = o[1] = o[2] = o[3] = 0.0f;
        if (!mmd_luminous_vertex_marked(v->add_uv[0]))
            continue;
        if (m->additional_uv_count >= 2) {
            float k = v->add_uv[1][3] > 0.0f && isfinite(v->add_uv[1][3]) ? v->add_uv[1][3] : 1.0f;
            for (int c = 0; c < 3; c++)
                o[c] = isfinite(v->add_uv[1][c]) && v->add_uv[1][c] > 0.0f ? v->add_uv[1][c] * k : 0.0f;
        } else {
            o[3] = 1.0f;
        }
    }
    return true;
}

/* Every failure is MMD_E_GL (what the renderer has always said, out of memory included). */
mmd_status mmd_renderer_add_model(mmd_renderer *r, const mmd_model *m, const char *model_dir, mmd_error *err)
{
    if (r->model_count == r->model_cap) {
        size_t cap = r->model_cap ? r->model_cap * 2 : 4;
        gpu_model *n = realloc(r->models, cap * sizeof *n);
        if (!n)
            return mmd_fail(err, MMD_E_GL, "out of memory");
        r->models = n;
        r->model_cap = cap;
    }
    gpu_model *g = &r->models[r->model_count];
    memset(g, 0, sizeof *g);
    g->m = m;
    g->look = mmd_model_look_default();
    size_t vc = m->vertex_count;
    g->mats = calloc(m->material_count ? m->material_count : 1, sizeof *g->mats);
    g->base = calloc(m->material_count ? m->material_count : 1, sizeof *g->base);
    g->skin_pos = malloc((vc ? vc : 1) * 3 * sizeof(float));
    g->skin_nrm = malloc((vc ? vc : 1) * 3 * sizeof(float));
    g->prof_mat = r->o.profile ? calloc(m->material_count ? m->material_count : 1, sizeof(double)) : NULL;
    float *uv = malloc((vc ? vc : 1) * 2 * sizeof(float));
    float *add = malloc((vc ? vc : 1) * 4 * sizeof(float));
    float *edge = malloc((vc ? vc : 1) * sizeof(float));
    if (!g->mats || !g->base || !g->skin_pos || !g->skin_nrm || !uv || !add || !edge || (r->o.profile && !g->prof_mat)) {
        free(uv);
        free(add);
        free(edge);
        const mmd_gl *gl = r->gl;
        free_model(gl, g);
        return mmd_fail(err, MMD_E_GL, "out of memory for model buffers (%zu vertices)", vc);
    }
    for (size_t i = 0; i < vc; i++) {
        const mmd_vertex *v = &m->vertices[i];
        memcpy(&g->skin_pos[i * 3], v->position, 3 * sizeof(float));
        memcpy(&g->skin_nrm[i * 3], v->normal, 3 * sizeof(float));
        memcpy(&uv[i * 2], v->uv, 2 * sizeof(float));
        memcpy(&add[i * 4], v->add_uv[0], 4 * sizeof(float));
        edge[i] = v->edge_scale;
    }
    const mmd_gl *gl = r->gl;
    gl->GenVertexArrays(1, &g->vao);
    gl->BindVertexArray(g->vao);
    g->vbo_pos = make_buffer(gl, GL_ARRAY_BUFFER, vc * 12, g->skin_pos, GL_STREAM_DRAW);
    gl->VertexAttribPointer(MMD_ATTR_POSITION, 3, GL_FLOAT, GL_FALSE, 0, NULL);
    gl->EnableVertexAttribArray(MMD_ATTR_POSITION);
    g->vbo_nrm = make_buffer(gl, GL_ARRAY_BUFFER, vc * 12, g->skin_nrm, GL_STREAM_DRAW);
    gl->VertexAttribPointer(MMD_ATTR_NORMAL, 3, GL_FLOAT, GL_FALSE, 0, NULL);
    gl->EnableVertexAttribArray(MMD_ATTR_NORMAL);
    g->vbo_uv = make_buffer(gl, GL_ARRAY_BUFFER, vc * 8, uv, GL_DYNAMIC_DRAW);
    gl->VertexAttribPointer(MMD_ATTR_UV, 2, GL_FLOAT, GL_FALSE, 0, NULL);
    gl->EnableVertexAttribArray(MMD_ATTR_UV);
    g->vbo_add = make_buffer(gl, GL_ARRAY_BUFFER, vc * 16, add, GL_DYNAMIC_DRAW);
    gl->VertexAttribPointer(MMD_ATTR_ADD_UV1, 4, GL_FLOAT, GL_FALSE, 0, NULL);
    gl->EnableVertexAttribArray(MMD_ATTR_ADD_UV1);
    g->vbo_edge = make_buffer(gl, GL_ARRAY_BUFFER, vc * 4, edge, GL_STATIC_DRAW);
    gl->VertexAttribPointer(MMD_ATTR_EDGE, 1, GL_FLOAT, GL_FALSE, 0, NULL);
    gl->EnableVertexAttribArray(MMD_ATTR_EDGE);
    g->ebo = make_buffer(gl, GL_ELEMENT_ARRAY_BUFFER, (size_t)m->index_count * 4, m->indices, GL_STATIC_DRAW);
    mmd_luminous_find_morphs(m, &g->lum);
    if (r->o.effects.glow && vertex_glow(g, add)) { /* add now holds the per-vertex glow */
        g->vbo_glow = make_buffer(gl, GL_ARRAY_BUFFER, vc * 16, add, GL_STATIC_DRAW);
        gl->VertexAttribPointer(MMD_ATTR_GLOW, 4, GL_FLOAT, GL_FALSE, 0, NULL);
        gl->EnableVertexAttribArray(MMD_ATTR_GLOW);
    }
    gl->BindVertexArray(0);
    free(uv);
    free(add);
    free(edge);
    for (uint32_t i = 0; i < m->material_count; i++)
        mmd_material_state_base(&m->materials[i], &g->base[i]);
    mmd_error te;
    if (mmd_tex_model(r, g, model_dir, &te) != MMD_OK) {
        free_model(gl, g);
        return mmd_fail(err, MMD_E_GL, "%s", te.msg);
    }
    if (gl->GetError() != GL_NO_ERROR) {
        free_model(gl, g);
        return mmd_fail(err, MMD_E_GL, "GL error while uploading model");
    }
    r->model_count++;
    return MMD_OK;
}

void mmd_renderer_set_look(mmd_renderer *r, size_t slot, const mmd_model_look *l)
{
    if (slot < r->model_count)
        r->models[slot].look = *l;
}

size_t mmd_renderer_model_count(const mmd_renderer *r) { return r->model_count; }
const mmd_model *mmd_renderer_model(const mmd_renderer *r, size_t slot) { return r->models[slot].m; }
void mmd_renderer_scratch(mmd_renderer *r, size_t slot, float **pos, float **nrm)
{
    *pos = r->models[slot].skin_pos;
    *nrm = r->models[slot].skin_nrm;
}
mmd_render_timings *mmd_renderer_timings_mut(mmd_renderer *r) { return &r->timings; }
const mmd_render_options *mmd_renderer_options(const mmd_renderer *r) { return &r->o; }
const mmd_render_timings *mmd_renderer_timings(const mmd_renderer *r) { return &r->timings; }
const char *mmd_renderer_gl_version(const mmd_renderer *r) { return mmd_gl_context_version(r->ctx); }

const mmd_gl *mmd_renderer_api(const mmd_renderer *r) { return r->gl; }

unsigned mmd_renderer_texture_file(mmd_renderer *r, const char *dir, const char *root, const char *name,
                                   const char *owner, unsigned *target)
{
    return mmd_tex_file_kind(r, dir, root, name, true, true, owner, target);
}
void mmd_renderer_set_time(mmd_renderer *r, double seconds) { r->time_s = seconds; }

void mmd_renderer_set_pre_hook(mmd_renderer *r, mmd_pre_hook_fn fn, void *user)
{
    r->pre_hook = fn;
    r->pre_hook_user = user;
}

void mmd_renderer_set_frame_hook(mmd_renderer *r, mmd_frame_hook_fn fn, void *user)
{
    r->frame_hook = fn;
    r->frame_hook_user = user;
}

static void upload_instance(mmd_renderer *r, gpu_model *g, const mmd_render_instance *in)
{
    const mmd_gl *gl = r->gl;
    size_t vc = g->m->vertex_count;
    gl->BindBuffer(GL_ARRAY_BUFFER, g->vbo_pos);
    gl->BufferSubData(GL_ARRAY_BUFFER, 0, (GLsizeiptr)(vc * 12), in->positions);
    g->cur_pos = in->positions; /* the hull of an effect's edge pass (mmd_renderer_draw_geometry) */
    g->cur_nrm = in->normals;
    gl->BindBuffer(GL_ARRAY_BUFFER, g->vbo_nrm);
    gl->BufferSubData(GL_ARRAY_BUFFER, 0, (GLsizeiptr)(vc * 12), in->normals);
    if (in->uvs) {
        gl->BindBuffer(GL_ARRAY_BUFFER, g->vbo_uv);
        gl->BufferSubData(GL_ARRAY_BUFFER, 0, (GLsizeiptr)(vc * 8), in->uvs);
    }
    if (in->add_uv1) {
        gl->BindBuffer(GL_ARRAY_BUFFER, g->vbo_add);
        gl->BufferSubData(GL_ARRAY_BUFFER, 0, (GLsizeiptr)(vc * 16), in->add_uv1);
    }
}

/* The frame as a pass of this kind sees it (zplot draws into the self-shadow
 * map: its size); object_world as mmd_pass_frame says. */
static mmd_pass_frame pass_frame(const mmd_renderer *r, const frame_ctx *f, mmd_fx_pass_kind kind,
                                 const float *object_world)
{
    bool map = kind == MMD_FX_PASS_ZPLOT;
    return (mmd_pass_frame){f->v->view, f->proj_flip, f->world, object_world, f->shadow_vp, f->light_dir,
                            f->light_color, f->v->eye, f->shadow_mode, map ? r->o.shadow_map_size : r->o.width,
                            map ? r->o.shadow_map_size : r->o.height};
}

/* The hook's side of mmd_pass_hook (render_internal.h): the drawable and the
 * frame as render.h gives them; true when the hook drew it (its state then
 * left to the caller to set again). */
bool mmd_pass_hook_call(mmd_renderer *r, size_t slot, uint32_t material, size_t first, size_t count,
                        mmd_fx_pass_kind kind, const mmd_material_state *s, bool self_shadow, float edge_offset,
                        const frame_ctx *f)
{
    const gpu_model *g = &r->models[slot];
    mmd_drawable d = {slot, material, (uint32_t)first, (uint32_t)count,
                      {g->mats[material].tex != 0, g->mats[material].sphere != 0, true, self_shadow}, edge_offset,
                      false};
    mmd_pass_frame pf = pass_frame(r, f, kind, f->hook_world);
    return r->o.pass_hook(r->o.pass_hook_user, r, &d, kind, s, &pf);
}

bool mmd_pass_hook_accessory(mmd_renderer *r, size_t slot, uint32_t material, size_t first, size_t count,
                             mmd_fx_pass_kind kind, const mmd_material_state *s, const frame_ctx *f)
{
    if (!r->o.pass_hook)
        return false;
    const gpu_accessory *g = &r->accs[slot];
    mmd_drawable d = {slot, material, (uint32_t)first, (uint32_t)count,
                      {g->mats[material].tex != 0, g->mats[material].sphere != 0, false,
                       kind == MMD_FX_PASS_OBJECT_SS || kind == MMD_FX_PASS_ZPLOT},
                      0.0f, true};
    mmd_pass_frame pf = pass_frame(r, f, kind, f->hook_world ? f->hook_world : g->world);
    return r->o.pass_hook(r->o.pass_hook_user, r, &d, kind, s, &pf);
}

/* The model's buffers at the translator's locations, made on first use. */
static GLuint fx_vao(mmd_renderer *r, gpu_model *g)
{
    const mmd_gl *gl = r->gl;
    if (g->vao_fx)
        return g->vao_fx;
    static const struct { GLuint loc; GLint size; } k_inputs[] = {{0, 3}, {1, 3}, {2, 2}, {3, 4}}; /* translate.h */
    GLuint *const bufs[] = {&g->vbo_pos, &g->vbo_nrm, &g->vbo_uv, &g->vbo_add};
    gl->GenVertexArrays(1, &g->vao_fx);
    gl->BindVertexArray(g->vao_fx);
    for (size_t i = 0; i < sizeof k_inputs / sizeof k_inputs[0]; i++) {
        gl->BindBuffer(GL_ARRAY_BUFFER, *bufs[i]);
        gl->VertexAttribPointer(k_inputs[i].loc, k_inputs[i].size, GL_FLOAT, GL_FALSE, 0, NULL);
        gl->EnableVertexAttribArray(k_inputs[i].loc);
    }
    gl->BindBuffer(GL_ELEMENT_ARRAY_BUFFER, g->ebo);
    return g->vao_fx;
}

/* The edge pass's geometry: fx_vao's inputs with the hull (the skinned
 * positions moved along their normals) at POSITION, made on first use and
 * filled for this offset. 0 when it cannot be made. */
static GLuint hull_vao(mmd_renderer *r, gpu_model *g, float offset)
{
    const mmd_gl *gl = r->gl;
    size_t vc = g->m->vertex_count;
    if (!g->cur_pos || !g->cur_nrm || (!g->hull && !(g->hull = malloc(vc * 3 * sizeof *g->hull))))
        return 0;
    for (size_t i = 0; i < vc; i++) {
        float k = g->m->vertices[i].edge_scale * offset;
        for (int c = 0; c < 3; c++)
            g->hull[i * 3 + c] = g->cur_pos[i * 3 + c] + g->cur_nrm[i * 3 + c] * k;
    }
    if (!g->vao_hull) {
        fx_vao(r, g); /* the other inputs' buffers, then a copy of its layout with the hull at 0 */
        static const struct { GLuint loc; GLint size; } k_inputs[] = {{1, 3}, {2, 2}, {3, 4}};
        GLuint *const bufs[] = {&g->vbo_nrm, &g->vbo_uv, &g->vbo_add};
        gl->GenBuffers(1, &g->vbo_hull);
        gl->BindBuffer(GL_ARRAY_BUFFER, g->vbo_hull);
        gl->BufferData(GL_ARRAY_BUFFER, (GLsizeiptr)(vc * 12), NULL, GL_STREAM_DRAW);
        gl->GenVertexArrays(1, &g->vao_hull);
        gl->BindVertexArray(g->vao_hull);
        gl->VertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 0, NULL);
        gl->EnableVertexAttribArray(0);
        for (size_t i = 0; i < sizeof k_inputs / sizeof k_inputs[0]; i++) {
            gl->BindBuffer(GL_ARRAY_BUFFER, *bufs[i]);
            gl->VertexAttribPointer(k_inputs[i].loc, k_inputs[i].size, GL_FLOAT, GL_FALSE, 0, NULL);
            gl->EnableVertexAttribArray(k_inputs[i].loc);
        }
        gl->BindBuffer(GL_ELEMENT_ARRAY_BUFFER, g->ebo);
    }
    gl->BindBuffer(GL_ARRAY_BUFFER, g->vbo_hull);
    gl->BufferSubData(GL_ARRAY_BUFFER, 0, (GLsizeiptr)(vc * 12), g->hull);
    return g->vao_hull;
}

void mmd_renderer_draw_geometry(mmd_renderer *r, const mmd_drawable *d)
{
    if (r && d->accessory && d->model_slot < r->acc_count) { /* its buffers are at the translator's locations */
        r->gl->BindVertexArray(r->accs[d->model_slot].vao);
        r->gl->DrawElements(GL_TRIANGLES, (GLsizei)d->index_count, GL_UNSIGNED_INT,
                            (const void *)((size_t)d->first_index * 4));
        return;
    }
    if (!r || d->accessory || d->model_slot >= r->model_count)
        return;
    gpu_model *g = &r->models[d->model_slot];
    if (d->material >= g->m->material_count)
        return;
    GLuint vao = d->edge_offset > 0.0f ? hull_vao(r, g, d->edge_offset) : fx_vao(r, g);
    if (!vao)
        return;
    r->gl->BindVertexArray(vao);
    r->gl->DrawElements(GL_TRIANGLES, (GLsizei)d->index_count, GL_UNSIGNED_INT,
                        (const void *)((size_t)d->first_index * 4));
}

void mmd_renderer_set_pass_hook(mmd_renderer *r, mmd_pass_hook_fn fn, void *user)
{
    r->o.pass_hook = fn;
    r->o.pass_hook_user = user;
}

void mmd_renderer_material_textures(const mmd_renderer *r, const mmd_drawable *d, unsigned out[3])
{
    out[0] = out[1] = out[2] = r->tex_white;
    if (d->accessory && d->model_slot < r->acc_count && d->material < r->accs[d->model_slot].mesh->material_count) {
        const gpu_acc_material *am = &r->accs[d->model_slot].mats[d->material];
        out[0] = am->tex ? am->tex : r->tex_white;
        out[1] = am->sphere ? am->sphere : r->tex_white;
        return;
    }
    if (d->accessory || d->model_slot >= r->model_count || d->material >= r->models[d->model_slot].m->material_count)
        return;
    const gpu_material *gm = &r->models[d->model_slot].mats[d->material];
    const GLuint k[3] = {gm->tex, gm->sphere, gm->toon};
    for (int i = 0; i < 3; i++)
        out[i] = k[i] ? k[i] : r->tex_white;
}

/* MMD_E_INTERRUPTED when options.cancel stopped it; the passes' sentences are MMD_E_GL. */
static mmd_status draw(mmd_renderer *r, const mmd_render_instance *ins, size_t count, const mmd_render_view *v,
                       const mmd_light_state *light, const mmd_shadow_state *shadow, uint8_t *rgba, mmd_error *err)
{
    const mmd_gl *gl = r->gl;
    mmd_status st;
    if (count > r->model_count)
        return mmd_fail(err, MMD_E_GL, "%zu instances for %zu models", count, r->model_count);
    mmd_prof_begin(r);
    double t0 = mmd_render_now_ms();
    for (size_t i = 0; i < count; i++)
        if (!ins[i].hidden)
            upload_instance(r, &r->models[i], &ins[i]);
    double t1 = mmd_render_now_ms();
    mmd_prof_mark(r, MMD_PASS_UPLOAD);

    frame_ctx f;
    memset(&f, 0, sizeof f);
    f.v = v;
    mmd_light_state def_light = {{154 / 255.0f, 154 / 255.0f, 154 / 255.0f}, {-0.5f, -1.0f, 0.5f}};
    if (!light)
        light = &def_light;
    memcpy(f.light_color, light->color, sizeof f.light_color);
    memcpy(f.light_dir, light->direction, sizeof f.light_dir);
    if (vec_dot(f.light_dir, f.light_dir) < 1e-12f)
        memcpy(f.light_dir, def_light.direction, sizeof f.light_dir);
    vec_norm(f.light_dir);
    /* Rows top-down (y flipped), and MMD's Direct3D 9 pixel centres: D3D9 samples
     * pixel (i, j) at integer window coordinates where GL samples at i + 0.5, so
     * MMD's picture is GL's moved half a pixel right and down. Checked on MMD 9.31's
     * own frames (issue 25): the face close-up's pixels over 16 levels 2.9 % -> 0.6 %. */
    float half = r->o.gl_pixel_centres ? 0.0f : 1.0f;
    const float flip[16] = {1, 0, 0, 0, 0, -1, 0, 0, 0, 0, 1, 0,
                            half / (float)r->o.width, half / (float)r->o.height, 0, 1};
    mat_mul(flip, v->proj, f.proj_flip);
    mat_mul(f.proj_flip, v->view, f.viewproj);
    mat_identity(f.world);
    f.world[10] = -1.0f; /* LH -> GL */
    f.shadow_mode = r->o.self_shadow && shadow && (shadow->mode == 1 || shadow->mode == 2) ? shadow->mode : 0;
    if (f.shadow_mode) {
        mmd_shadow_matrix(v, f.light_dir, f.shadow_mode, shadow->distance, f.shadow_vp);
        /* else nothing samples the map (a pass hook's effect may: register s0) */
        if (mmd_shadow_any_receiver(r, ins, count) || mmd_accessories_any_visible(r) || mmd_pass_hook_enabled(r))
            mmd_pass_shadow_map(r, ins, count, &f);
        mmd_prof_mark(r, MMD_PASS_SHADOW_MAP);
    } else {
        mat_identity(f.shadow_vp);
    }

    mmd_target_begin(r);
    mmd_pass_background(r);
    mmd_prof_mark(r, MMD_PASS_CLEAR);
    if (r->pre_hook && (st = r->pre_hook(r->pre_hook_user, err)) != MMD_OK) /* MME's preprocess effects */
        return st;
    gl->Enable(GL_DEPTH_TEST);
    gl->DepthFunc(GL_LEQUAL);
    gl->Enable(GL_BLEND);
    gl->BlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
    gl->FrontFace(GL_CCW); /* see the top comment: two mirrors */
    gl->CullFace(GL_BACK);
    if ((st = mmd_pass_accessories(r, &f, false, err)) != MMD_OK) /* MMD: accessories before the models */
        return st;
    for (size_t i = 0; i < count; i++) {
        if (ins[i].hidden)
            continue;
        bool add = r->models[i].look.add_blend; /* MMD's 加算合成: as an add-blend accessory */
        if (add)
            gl->BlendFuncSeparate(GL_SRC_ALPHA, GL_ONE, GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
        if ((st = mmd_pass_colour(r, &r->models[i], &ins[i], &f, err)) != MMD_OK)
            return st;
        /* Start llvmpipe's rasteriser threads on what is queued (glFlush is
         * asynchronous there) while this thread transforms and bins the next
         * pass, instead of leaving them idle until glFinish. No extra CPU
         * measured; same pixels. */
        gl->Flush();
        if (r->o.edges) {
            mmd_pass_edges(r, &r->models[i], &ins[i], &f);
            mmd_prof_mark(r, MMD_PASS_EDGE);
        }
        if (add)
            gl->BlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ONE, GL_ONE_MINUS_SRC_ALPHA);
        /* MMD draws a model's ground shadow right after the model: in its frames a
         * stage's floor is already in the shadow colour where the dancer drawn after
         * it shows it through her translucent hair (tests/fidelity) */
        if (r->o.ground_shadow) {
            mmd_pass_ground_shadows(r, ins, i, i + 1, false, &f);
            mmd_prof_mark(r, MMD_PASS_GROUND_SHADOW);
        }
    }
    if ((st = mmd_pass_accessories(r, &f, true, err)) != MMD_OK) /* those marked after_models */
        return st;
    if (mmd_render_cancelled(r)) { /* the passes stopped early: no image */
        gl->BindVertexArray(0);
        mmd_prof_end(r);
        return mmd_fail(err, MMD_E_INTERRUPTED, "interrupted");
    }
    gl->Flush(); /* the same for the edges while the ground shadow is binned */
    if (r->o.ground_shadow) /* the accessories' (one stencil with the models': each pixel darkened once) */
        mmd_pass_ground_shadows(r, ins, 0, 0, true, &f);
    mmd_prof_mark(r, MMD_PASS_GROUND_SHADOW);
    r->glow_drawn = r->o.effects.glow && mmd_pass_glow(r, ins, count, &f);
    mmd_prof_mark(r, MMD_PASS_GLOW);
    gl->BindVertexArray(0);
    gl->Finish();
    double t2 = mmd_render_now_ms();
    st = mmd_target_finish(r, rgba, err);
    if (!r->post) /* with effects, finish_post (targets.c) copied it before they ran */
        mmd_accessories_copy_screen(r);
    double t3 = mmd_render_now_ms();
    r->timings.upload_ms = t1 - t0;
    r->timings.draw_ms = t2 - t1;
    r->timings.readback_ms = t3 - t2;
    mmd_prof_end(r);
    return st;
}

mmd_status mmd_renderer_draw(mmd_renderer *r, const mmd_render_instance *instances, size_t count,
                             const mmd_render_view *view, const mmd_light_state *light,
                             const mmd_shadow_state *shadow, uint8_t *rgba, mmd_error *err)
{
    return draw(r, instances, count, view, light, shadow, rgba, err);
}
