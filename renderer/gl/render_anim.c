/* renderer/gl/render_anim.c - mmd_renderer_render: skin each model's mmd_anim
 * across the renderer's threads, then draw (render.c). Kept apart from
 * render.c so programs that draw posed geometry need not link the animation. */
#include <stdio.h>
#include <string.h>

#include "renderer/gl/render_internal.h"

void mmd_render_view_from_camera(const mmd_camera_state *cam, float aspect, mmd_render_view *v)
{
    mmd_camera_state c = *cam;
    mmd_camera_derive(&c);
    mmd_camera_matrices(&c, aspect, v->view, v->proj);
    memcpy(v->eye, c.eye, sizeof v->eye);
    memcpy(v->target, c.target, sizeof v->target);
    v->fov = c.fov;
}

typedef struct skin_job {
    const mmd_anim *a;
    float *pos, *nrm;
} skin_job;

static void skin_range(void *ctx, uint32_t first, uint32_t count)
{
    skin_job *j = ctx;
    mmd_anim_skin(j->a, first, count, j->pos + (size_t)first * 3, j->nrm + (size_t)first * 3);
}

mmd_status mmd_renderer_render(mmd_renderer *r, mmd_anim *const *anims, size_t count,
                               const mmd_camera_state *cam, const mmd_light_state *light,
                               const mmd_shadow_state *shadow, uint8_t *rgba, mmd_error *err)
{
    enum { MAX_MODELS = 64 };
    if (count > mmd_renderer_model_count(r) || count > MAX_MODELS)
        return mmd_fail(err, MMD_E_GL, "%zu animations for %zu models", count, mmd_renderer_model_count(r));
    mmd_render_instance ins[MAX_MODELS];
    memset(ins, 0, sizeof ins);
    mmd_prof_begin(r);
    double t0 = mmd_render_now_ms();
    for (size_t i = 0; i < count; i++) {
        const mmd_model *m = mmd_renderer_model(r, i);
        float *pos, *nrm;
        mmd_renderer_scratch(r, i, &pos, &nrm);
        ins[i].hidden = !mmd_anim_visible(anims[i]);
        if (ins[i].hidden)
            continue;
        skin_job j = {anims[i], pos, nrm};
        mmd_renderer_parallel(r, skin_range, &j, m->vertex_count);
        ins[i].positions = pos;
        ins[i].normals = nrm;
        ins[i].uvs = mmd_anim_uvs(anims[i]);
        ins[i].add_uv1 = m->additional_uv_count > 0 ? mmd_anim_add_uvs(anims[i], 0) : NULL;
        ins[i].materials = mmd_anim_materials(anims[i]);
        ins[i].morph_weights = mmd_anim_morph_weights(anims[i]);
        const float *w = mmd_anim_world(anims[i]);
        size_t b = m->bone_count > 1 ? 1 : 0;
        if (m->bone_count && w) {
            /* world matrices are column-major: translation in elements 12..14 */
            ins[i].edge_origin[0] = w[b * 16 + 12];
            ins[i].edge_origin[1] = w[b * 16 + 13];
            ins[i].edge_origin[2] = w[b * 16 + 14];
        }
    }
    double t1 = mmd_render_now_ms();
    mmd_prof_mark(r, MMD_PASS_SKIN);
    mmd_render_view v;
    mmd_render_view_from_camera(cam, (float)mmd_renderer_options(r)->width / (float)mmd_renderer_options(r)->height, &v);
    mmd_accessories_update_worlds(r, anims, count);
    mmd_status rc = mmd_renderer_draw(r, ins, count, &v, light, shadow, rgba, err);
    mmd_renderer_timings_mut(r)->skin_ms = t1 - t0;
    return rc;
}
