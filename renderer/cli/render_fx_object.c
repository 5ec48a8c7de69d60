/* renderer/cli/render_fx_object.c - the models' object effects (render_run.h):
 * each model slot's effect as the stage found it (scene.ini `effect =`, a
 * project's .emm PmdN, a same-named .fx beside the model), each file parsed
 * and its techniques linked once per run on the renderer's context (gl/fx_object.h),
 * drawn through the renderer's per-object pass hook. A file that does not
 * parse, translate or link: one warning and the model keeps the built-in
 * look, or with --strict-effects the run's error. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/fx.h"
#include "renderer/base/msg.h"
#include "renderer/cli/commands.h"
#include "renderer/cli/render_run.h"
#include "renderer/gl/fx_object.h"
#include "renderer/image/texpath.h"

typedef struct render_objfx {
    mmd_fx_objects *objects;
    mmd_fx *fx[MMD_SCENE_MAX_MODELS]; /* slot i's parsed effect, NULL none; a file shared is parsed once */
    bool owner[MMD_SCENE_MAX_MODELS]; /* slot i frees fx[i] */
} render_objfx;

static bool any_effect(const render_job *j)
{
    for (int i = 0; i < j->scene->model_count; i++)
        if (j->stage->model_effects[i].file)
            return true;
    return false;
}

static mmd_status make_objects(render_job *j, mmd_error *err)
{
    render_objfx *o = calloc(1, sizeof *o);
    if (!o)
        return mmd_fail(err, MMD_E_NOMEM, "out of memory");
    j->objfx = o;
    mmd_fx_objects_options opt = {.ground_shadow_brightness = j->scene->ground_shadow_brightness,
                                  .ground_shadow_translucent = j->scene->ground_shadow_translucent};
    return mmd_fx_objects_create(&opt, &o->objects, err);
}

static GLuint effect_texture(void *user, const char *dir, const char *name)
{
    return mmd_renderer_texture_file(user, dir, name, "object effect");
}

/* Slot i's effect; its failure in why. */
static mmd_status open_one(render_job *j, render_objfx *o, int i, const char *path, mmd_error *why)
{
    for (int k = 0; k < i; k++) /* a file two models carry: parsed and linked once */
        if (o->fx[k] && !strcmp(j->stage->model_effects[k].file, path))
            o->fx[i] = o->fx[k];
    mmd_status s = MMD_OK;
    if (!o->fx[i]) {
        s = mmd_cli_fx_load(path, &o->fx[i], why);
        o->owner[i] = s == MMD_OK;
    }
    char dir[4096];
    if (s == MMD_OK && mmd_texpath_model_dir(path, dir, sizeof dir) != 0)
        s = mmd_fail(why, MMD_E_LIMIT, "%s: path too long", path);
    if (s == MMD_OK) {
        const mmd_scene *sc = j->scene;
        mmd_fx_effect_config c = {.gl = mmd_renderer_api(j->renderer), .width = sc->width, .height = sc->height,
                                  .alpha = sc->transparent, .dir = dir, .texture = effect_texture,
                                  .texture_user = j->renderer};
        s = mmd_fx_objects_add(o->objects, j->renderer, (size_t)i, j->stage->models[i], sc->models[i].look.add_blend,
                               o->fx[i], &c, why);
    }
    if (s != MMD_OK && o->owner[i]) {
        mmd_fx_free(o->fx[i]);
        o->owner[i] = false;
    }
    if (s != MMD_OK)
        o->fx[i] = NULL;
    return s;
}

mmd_status mmd_render_open_object_effects(render_job *j, const render_args *a, mmd_error *err)
{
    if (!any_effect(j))
        return MMD_OK;
    mmd_status ms = make_objects(j, err);
    if (ms != MMD_OK)
        return ms;
    render_objfx *o = j->objfx;
    for (int i = 0; i < j->scene->model_count; i++) {
        const mmd_stage_effect *e = &j->stage->model_effects[i];
        if (!e->file)
            continue;
        mmd_error why = {0};
        mmd_status s = open_one(j, o, i, e->file, &why);
        if (s == MMD_OK)
            continue;
        const char *name = j->scene->models[i].name;
        if (a->strict_effects)
            return mmd_fail(err, s, "model '%s': effect %s (%s): %s", name, e->file, mmd_effect_origin_name(e->origin),
                            why.msg);
        if (!a->quiet)
            mmd_msg_print(stderr, "mmdrender: warning: model '%s': effect %s (%s) is not applied: %s\n", name,
                          e->file, mmd_effect_origin_name(e->origin), why.msg);
    }
    if (mmd_fx_objects_any(o->objects)) /* else the renderer stays without a hook */
        mmd_renderer_set_pass_hook(j->renderer, mmd_fx_objects_hook, o->objects);
    return MMD_OK;
}

void mmd_render_object_effects_frame(render_job *j, double t, const mmd_camera_state *cam,
                                     const mmd_light_state *light)
{
    if (!j->objfx)
        return;
    mmd_fx_frame f;
    mmd_render_fx_frame(j, t, cam, light, &f);
    mmd_fx_objects_frame(j->objfx->objects, &f);
}

mmd_status mmd_render_object_effects_status(render_job *j, mmd_error *err)
{
    return j->objfx ? mmd_fx_objects_status(j->objfx->objects, err) : MMD_OK;
}

void mmd_render_free_object_effects(render_job *j)
{
    render_objfx *o = j->objfx;
    if (!o)
        return;
    mmd_fx_objects_free(o->objects);
    for (int i = 0; i < MMD_SCENE_MAX_MODELS; i++)
        if (o->owner[i])
            mmd_fx_free(o->fx[i]);
    free(o);
    j->objfx = NULL;
}
