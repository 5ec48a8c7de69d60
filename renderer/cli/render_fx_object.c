/* renderer/cli/render_fx_object.c - the object effects of the scene's models
 * and accessories (render_run.h): each drawable's effect as the stage found it
 * (scene.ini `effect =`, a project's .emm PmdN / AcsN, a same-named .fx
 * beside the file), each file's techniques linked once per run
 * on the renderer's context (gl/fx_object.h), drawn through the renderer's
 * per-object pass hook. A file that does not parse, translate or link: one
 * warning and the object keeps the built-in look, or with --strict-effects
 * the run's error. A post effect found as an object's (MME loads post effects
 * as accessories: FXAA.fx beside FXAA.x) is not an object's passes: an
 * accessory's is drawn over the frame (render_fx.c), a model's when
 * [effects] post names it, else one warning. Every effect is the stage's
 * parse (stage.h: one parse per file and run). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/fx.h"
#include "renderer/base/fs.h"
#include "renderer/base/msg.h"
#include "renderer/cli/commands.h"
#include "renderer/cli/render_run.h"
#include "renderer/fx/select.h"
#include "renderer/gl/fx_object.h"

#define DRAWABLES (MMD_SCENE_MAX_MODELS + MMD_SCENE_MAX_ACCESSORIES) /* models, then accessories */

typedef struct render_objfx {
    mmd_fx_objects *objects;
    mmd_fx *fx[DRAWABLES]; /* drawable k's effect drawn on it (the stage's parse), NULL none */
} render_objfx;

/* Drawable k: model k, or accessory k - MMD_SCENE_MAX_MODELS. */
static const mmd_stage_effect *effect_of(const render_job *j, int k)
{
    return k < MMD_SCENE_MAX_MODELS ? &j->stage->model_effects[k] : &j->stage->acc_effects[k - MMD_SCENE_MAX_MODELS];
}

static int drawable_count(const render_job *j, int k0)
{
    return k0 == 0 ? j->scene->model_count : j->scene->accessory_count;
}

static bool any_effect(const render_job *j)
{
    for (int l = 0; l < 2; l++)
        for (int i = 0; i < drawable_count(j, l); i++)
            if (effect_of(j, l * MMD_SCENE_MAX_MODELS + i)->file)
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

/* Whether [effects] post names the file at path (the same file by inode). */
static bool is_scene_post_effect(const mmd_scene *s, const char *path)
{
    for (int i = 0; i < s->post_effect_count; i++)
        if (mmd_same_file(s->post_effects[i], path))
            return true;
    return false;
}

/* Drawable k's instance on the renderer. */
static mmd_status add_instance(render_job *j, render_objfx *o, int k, const char *path, mmd_error *why)
{
    render_fx_files files;
    mmd_fx_effect_config c;
    if (mmd_render_fx_config(j, path, "object effect", &files, &c, why) != MMD_OK)
        return why->status;
    const mmd_scene *sc = j->scene;
    if (k < MMD_SCENE_MAX_MODELS) {
        const char *file = sc->models[k].file, *base = strrchr(file, '/');
        return mmd_fx_objects_add(o->objects, j->renderer, (size_t)k, j->stage->models[k],
                                  sc->models[k].look.add_blend, base ? base + 1 : file, o->fx[k], &c, why);
    }
    int a = k - MMD_SCENE_MAX_MODELS;
    return mmd_fx_objects_add_accessory(o->objects, j->renderer, (size_t)a, j->stage->acc.meshes[a],
                                        j->stage->acc.place[a].place.add_blend, o->fx[k], &c, why);
}

/* Drawable k's effect (the stage's parse) on the renderer; its failure in
 * why. *post: the file is a post effect (not drawn on the object). */
static mmd_status open_one(render_job *j, render_objfx *o, int k, const char *path, bool *post, mmd_error *why)
{
    o->fx[k] = effect_of(j, k)->fx;
    *post = mmd_fx_is_post_effect(o->fx[k]);
    mmd_status s = *post ? MMD_OK : add_instance(j, o, k, path, why);
    if (s != MMD_OK || *post)
        o->fx[k] = NULL;
    return s;
}

/* Drawable k: its effect opened, or its failure said (warning or, strict, the error). */
static mmd_status open_drawable(render_job *j, const render_args *a, render_objfx *o, int k, mmd_error *err)
{
    const mmd_stage_effect *e = effect_of(j, k);
    bool model = k < MMD_SCENE_MAX_MODELS;
    if (!e->file || (e->error && !model))
        return MMD_OK; /* an accessory's that does not parse: the stage warned, render_fx.c's strict error */
    mmd_error why = {0};
    bool post = false;
    mmd_status s = e->error ? mmd_fail(&why, e->status, "%s", e->error) : open_one(j, o, k, e->file, &post, &why);
    const char *what = model ? "model" : "accessory";
    const char *name = model ? j->scene->models[k].name : j->scene->accessories[k - MMD_SCENE_MAX_MODELS].name;
    const char *origin = mmd_effect_origin_name(e->origin);
    if (post && model && !a->quiet && !is_scene_post_effect(j->scene, e->file)) /* an accessory's: render_fx.c */
        mmd_msg_print(stderr, "mmdrender: warning: %s '%s': effect %s (%s) is a post effect (STANDARDSGLOBAL "
                      "ScriptClass \"scene\"), not the object's passes: name it in [effects] post\n",
                      what, name, e->file, origin);
    if (s == MMD_OK)
        return MMD_OK;
    if (a->strict_effects)
        return mmd_fail(err, s, "%s '%s': effect %s (%s): %s", what, name, e->file, origin, why.msg);
    if (!a->quiet)
        mmd_msg_print(stderr, "mmdrender: warning: %s '%s': effect %s (%s) is not applied: %s\n", what, name,
                      e->file, origin, why.msg);
    return MMD_OK;
}

mmd_status mmd_render_open_object_effects(render_job *j, const render_args *a, mmd_error *err)
{
    if (!any_effect(j))
        return MMD_OK;
    mmd_status s = make_objects(j, err);
    for (int l = 0; l < 2 && s == MMD_OK; l++)
        for (int i = 0; i < drawable_count(j, l) && s == MMD_OK; i++)
            s = open_drawable(j, a, j->objfx, l * MMD_SCENE_MAX_MODELS + i, err);
    if (s == MMD_OK && mmd_fx_objects_any(j->objfx->objects)) /* else the renderer stays without a hook */
        mmd_renderer_set_pass_hook(j->renderer, mmd_fx_objects_hook, j->objfx->objects);
    return s;
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
    free(o);
    j->objfx = NULL;
}
