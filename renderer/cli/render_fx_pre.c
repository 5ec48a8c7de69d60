/* renderer/cli/render_fx_pre.c - the accessories' ScriptOrder "preprocess"
 * effects (render_run.h): MME runs such an effect before the objects (a sky,
 * a background drawn over the cleared screen); each accessory whose effect
 * the stage classified so (its `effect =`, a project's .emm AcsN, the
 * same-named .fx beside its .x) is made an instance on the renderer's context
 * once per run, with the stage's parse, and run in the accessories' order as
 * the renderer's pre hook (render.h): after the frame's clear and background,
 * before the colour passes, into the renderer's target, with the accessory as
 * its controller ("(self)"; hidden, the effect is off). A failure: one
 * warning and the effect skipped, or with --strict-effects the run's error.
 * docs/effects.md "Preprocess effects". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/fx.h"
#include "renderer/base/msg.h"
#include "renderer/cli/commands.h"
#include "renderer/cli/render_run.h"
#include "renderer/gl/fx_runtime.h"
#include "renderer/image/texpath.h"

typedef struct render_fxpre {
    mmd_fx_effect *effect[MMD_SCENE_MAX_ACCESSORIES];
    int controller[MMD_SCENE_MAX_ACCESSORIES]; /* the accessory slot */
    const char *self_name[MMD_SCENE_MAX_ACCESSORIES]; /* its file name: CONTROLOBJECT "(self)" */
    int count;
    mmd_fx_frame frame;
    render_job *job;
} render_fxpre;

static GLuint effect_texture(void *user, const char *dir, const char *name, GLenum *target)
{
    unsigned t;
    GLuint tex = mmd_renderer_texture_file(user, dir, name, "preprocess effect", &t);
    *target = t;
    return tex;
}

/* Accessory i's preprocess effect, when it has one. */
static mmd_status open_one(render_job *j, const render_args *a, render_fxpre *r, int i, mmd_error *err)
{
    const mmd_stage_effect *e = &j->stage->acc_effects[i];
    if (!e->fx || e->order != MMD_FX_ORDER_PREPROCESS)
        return MMD_OK;
    char dir[4096];
    mmd_error why = {0};
    mmd_status s = MMD_OK;
    if (mmd_texpath_model_dir(e->file, dir, sizeof dir) != 0)
        s = mmd_fail(&why, MMD_E_LIMIT, "%s: path too long", e->file);
    if (s == MMD_OK) {
        mmd_fx_effect_config c = {.gl = mmd_renderer_api(j->renderer), .width = j->scene->width,
                                  .height = j->scene->height, .alpha = j->scene->transparent, .dir = dir,
                                  .texture = effect_texture, .texture_user = j->renderer};
        s = mmd_fx_effect_create(e->fx, &c, &r->effect[r->count], &why);
    }
    const char *name = j->scene->accessories[i].name;
    if (s != MMD_OK && a->strict_effects)
        return mmd_fail(err, s, "accessory '%s': preprocess effect %s: %s", name, e->file, why.msg);
    if (s != MMD_OK) {
        if (!a->quiet)
            mmd_msg_print(stderr, "mmdrender: warning: accessory '%s': preprocess effect %s skipped: %s\n", name,
                          e->file, why.msg);
        return MMD_OK;
    }
    const char *file = j->scene->accessories[i].file, *slash = strrchr(file, '/');
    r->self_name[r->count] = slash ? slash + 1 : file;
    r->controller[r->count++] = i;
    return MMD_OK;
}

/* The renderer's pre hook: each effect over the cleared target, D3D's depth
 * range (0..1 as the window depth, as object effects draw). */
static mmd_status run_pre(void *user, mmd_error *err)
{
    render_fxpre *r = user;
    const mmd_gl *gl = mmd_renderer_api(r->job->renderer);
    mmd_fx_frame *f = &r->frame;
    mmd_status s = MMD_OK;
    for (int i = 0; i < r->count && s == MMD_OK; i++) {
        mmd_render_fx_controller(r->job, r->controller[i], &f->self);
        f->self_name = r->self_name[i];
        if (f->self.found && !f->self.visible)
            continue; /* MME: a hidden effect's accessory turns it off */
        gl->ClipControl(GL_LOWER_LEFT, GL_ZERO_TO_ONE);
        s = mmd_fx_effect_preprocess(r->effect[i], f, err);
        gl->ClipControl(GL_LOWER_LEFT, GL_NEGATIVE_ONE_TO_ONE);
    }
    gl->DepthMask(GL_TRUE);
    gl->BindVertexArray(0);
    return s;
}

mmd_status mmd_render_open_pre_effects(render_job *j, const render_args *a, mmd_error *err)
{
    bool any = false;
    for (int i = 0; i < j->scene->accessory_count && !any; i++)
        any = j->stage->acc_effects[i].fx && j->stage->acc_effects[i].order == MMD_FX_ORDER_PREPROCESS;
    if (!any)
        return MMD_OK;
    render_fxpre *r = calloc(1, sizeof *r);
    if (!r)
        return mmd_fail(err, MMD_E_NOMEM, "out of memory");
    j->fxpre = r;
    r->job = j;
    mmd_status s = MMD_OK;
    for (int i = 0; i < j->scene->accessory_count && s == MMD_OK; i++)
        s = open_one(j, a, r, i, err);
    if (s == MMD_OK && r->count)
        mmd_renderer_set_pre_hook(j->renderer, run_pre, r);
    return s;
}

void mmd_render_pre_effects_frame(render_job *j, double t, const mmd_camera_state *cam,
                                  const mmd_light_state *light)
{
    if (j->fxpre && j->fxpre->count)
        mmd_render_fx_frame(j, t, cam, light, &j->fxpre->frame);
}

void mmd_render_free_pre_effects(render_job *j)
{
    render_fxpre *r = j->fxpre;
    if (!r)
        return;
    for (int i = 0; i < r->count; i++)
        mmd_fx_effect_free(r->effect[i]);
    free(r);
    j->fxpre = NULL;
}
