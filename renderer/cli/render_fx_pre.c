/* renderer/cli/render_fx_pre.c - the accessories' ScriptOrder "preprocess"
 * effects (render_run.h): MME runs such an effect before the objects (a sky,
 * a background drawn over the cleared screen); each accessory whose effect
 * the stage classified so (its `effect =`, a project's .emm AcsN, the
 * same-named .fx beside its .x) is made an instance on the renderer's context
 * once per run, with the stage's parse, and run in the accessories' order as
 * the renderer's pre hook (render.h): after the frame's clear and background,
 * before the colour passes, into the renderer's target, with the accessory as
 * its controller ("(self)"; hidden, the effect is off). A `[effects] post`
 * entry whose ScriptOrder is "preprocess" joins them after the accessories'
 * (render_fx.c hands it over, its same-named accessory the controller). A
 * failure: one warning and the effect skipped, or with --strict-effects the
 * run's error. docs/effects.md "Preprocess effects". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/fx.h"
#include "renderer/base/msg.h"
#include "renderer/cli/commands.h"
#include "renderer/cli/render_run.h"
#include "renderer/gl/fx_runtime.h"

#define PRE_MAX (MMD_SCENE_MAX_ACCESSORIES + MMD_SCENE_MAX_POST_EFFECTS) /* accessories', then post entries' */

typedef struct render_fxpre {
    mmd_fx_effect *effect[PRE_MAX];
    mmd_fx *own[PRE_MAX];             /* a post entry's parse, ours to free (NULL: the stage's) */
    int controller[PRE_MAX];          /* the accessory slot, -1 none */
    const char *self_name[PRE_MAX];   /* its file name: CONTROLOBJECT "(self)" */
    int count;
    mmd_fx_frame frame;
    render_job *job;
} render_fxpre;

static mmd_status run_pre(void *user, mmd_error *err);

/* One preprocess effect (fx; own: ours to free, also on failure) with its
 * controller slot (-1 none); who: "accessory 'a': " or "" for a post entry. */
static mmd_status add_pre(render_job *j, const render_args *a, const char *who, const char *path, const mmd_fx *fx,
                          mmd_fx *own, int controller, mmd_error *err)
{
    render_fxpre *r = j->fxpre;
    if (!r && !(r = j->fxpre = calloc(1, sizeof *r))) {
        mmd_fx_free(own);
        return mmd_fail(err, MMD_E_NOMEM, "out of memory");
    }
    r->job = j;
    render_fx_files files;
    mmd_fx_effect_config c;
    mmd_error why = {0};
    mmd_status s = mmd_render_fx_config(j, path, "preprocess effect", &files, &c, &why);
    if (s == MMD_OK)
        s = mmd_fx_effect_create(fx, &c, &r->effect[r->count], &why);
    if (s != MMD_OK) {
        mmd_fx_free(own);
        if (a->strict_effects)
            return mmd_fail(err, s, "%spreprocess effect %s: %s", who, path, why.msg);
        if (!a->quiet)
            mmd_msg_print(stderr, "mmdrender: warning: %spreprocess effect %s skipped: %s\n", who, path, why.msg);
        return MMD_OK;
    }
    const char *file = controller >= 0 ? j->scene->accessories[controller].file : NULL;
    const char *slash = file ? strrchr(file, '/') : NULL;
    r->own[r->count] = own;
    r->self_name[r->count] = slash ? slash + 1 : file ? file : "";
    r->controller[r->count] = controller;
    if (r->count++ == 0)
        mmd_renderer_set_pre_hook(j->renderer, run_pre, r);
    return MMD_OK;
}

mmd_status mmd_render_add_pre_effect(render_job *j, const render_args *a, const char *path, const mmd_fx *fx,
                                     mmd_fx *own, int controller, mmd_error *err)
{
    if (j->fxpre && j->fxpre->count >= PRE_MAX) { /* not reached: the scene's caps sum to PRE_MAX */
        mmd_fx_free(own);
        return MMD_OK;
    }
    return add_pre(j, a, "", path, fx, own, controller, err);
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
    mmd_status s = MMD_OK;
    for (int i = 0; i < j->scene->accessory_count && s == MMD_OK; i++) {
        const mmd_stage_effect *e = &j->stage->acc_effects[i];
        char who[300];
        snprintf(who, sizeof who, "accessory '%.255s': ", j->scene->accessories[i].name);
        if (e->fx && e->order == MMD_FX_ORDER_PREPROCESS)
            s = add_pre(j, a, who, e->file, e->fx, NULL, i, err);
    }
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
    for (int i = 0; i < r->count; i++) {
        mmd_fx_effect_free(r->effect[i]);
        mmd_fx_free(r->own[i]);
    }
    free(r);
    j->fxpre = NULL;
}
