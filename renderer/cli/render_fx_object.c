/* renderer/cli/render_fx_object.c - the object effects of the scene's models
 * and accessories (render_run.h): each drawable's effect as the stage found it
 * (scene.ini `effect =`, a project's .emm PmdN / AcsN, a same-named .fx
 * beside the file), each file parsed and its techniques linked once per run
 * on the renderer's context (gl/fx_object.h), drawn through the renderer's
 * per-object pass hook. A file that does not parse, translate or link: one
 * warning and the object keeps the built-in look, or with --strict-effects
 * the run's error. A post effect found as an object's (MME loads post effects
 * as accessories: FXAA.fx beside FXAA.x) is not an object's passes: an
 * accessory's is drawn over the frame (render_fx.c), a model's when
 * [effects] post names it, else one warning. An accessory's effect is the
 * stage's parse. A drawable's per-material entries (scene.ini
 * material_effect, a project's .emm PmdN[k], the model's .emd Obj[k]) draw
 * their materials with their own effect, or "none" with the built-in passes
 * (docs/effects.md "Per material"). Drawables are k: model k, or accessory
 * k - MMD_SCENE_MAX_MODELS. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/fx.h"
#include "renderer/base/msg.h"
#include "renderer/cli/commands.h"
#include "renderer/cli/render_run.h"
#include "renderer/fx/select.h"
#include "renderer/gl/fx_object.h"
#include "renderer/image/texpath.h"
#include "renderer/scene/effect_file.h"

/* An effect file as read once per run (a file two objects or materials carry
 * is parsed and linked once). */
typedef struct parsed_file {
    const char *path; /* the stage's string */
    mmd_fx *fx;       /* NULL: it did not parse (why), or a post effect (post) */
    bool owner;       /* ours to free (an accessory's main effect is the stage's parse) */
    bool post;
    mmd_error why;
} parsed_file;

typedef struct render_objfx {
    mmd_fx_objects *objects;
    parsed_file *files;
    size_t file_count;
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
        for (int i = 0; i < drawable_count(j, l); i++) {
            const mmd_stage_effect *e = effect_of(j, l * MMD_SCENE_MAX_MODELS + i);
            if (e->file || e->materials.count)
                return true;
        }
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

static GLuint effect_texture(void *user, const char *dir, const char *name, GLenum *target)
{
    unsigned t;
    GLuint tex = mmd_renderer_texture_file(user, dir, name, "object effect", &t);
    *target = t;
    return tex;
}

/* Whether [effects] post names the file at path (the same file by inode). */
static bool is_scene_post_effect(const mmd_scene *s, const char *path)
{
    struct stat a, b;
    if (stat(path, &a) != 0)
        return false;
    for (int i = 0; i < s->post_effect_count; i++)
        if (stat(s->post_effects[i], &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino)
            return true;
    return false;
}

/* The file at path as read once per run (stage_fx: the stage's parse of it,
 * or NULL); NULL only when out of memory. */
static const parsed_file *file_of(render_objfx *o, const char *path, mmd_fx *stage_fx)
{
    for (size_t i = 0; i < o->file_count; i++)
        if (!strcmp(o->files[i].path, path))
            return &o->files[i];
    parsed_file *f = realloc(o->files, (o->file_count + 1) * sizeof *f);
    if (!f)
        return NULL;
    o->files = f;
    f += o->file_count++;
    *f = (parsed_file){.path = path, .fx = stage_fx};
    if (!f->fx)
        f->owner = mmd_effect_file_load(path, &f->fx, &f->why) == MMD_OK;
    f->post = f->fx && mmd_fx_is_post_effect(f->fx);
    if (f->post && f->owner)
        mmd_fx_free(f->fx);
    if (f->post) {
        f->owner = false;
        f->fx = NULL;
    }
    return f;
}

/* The effect config of drawable k (its folder: the effect's textures). */
static mmd_status config_of(const render_job *j, const char *path, mmd_fx_effect_config *c, char *dir, size_t cap,
                            mmd_error *why)
{
    if (mmd_texpath_model_dir(path, dir, cap) != 0)
        return mmd_fail(why, MMD_E_LIMIT, "%s: path too long", path);
    const mmd_scene *sc = j->scene;
    *c = (mmd_fx_effect_config){.gl = mmd_renderer_api(j->renderer), .width = sc->width, .height = sc->height,
                                .alpha = sc->transparent, .dir = dir, .texture = effect_texture,
                                .texture_user = j->renderer};
    return MMD_OK;
}

/* Drawable k's slot on the renderer, with its effect fx (NULL: only its materials'). */
static mmd_status add_slot(render_job *j, render_objfx *o, int k, const char *path, const mmd_fx *fx,
                           mmd_error *why)
{
    char dir[4096];
    mmd_fx_effect_config c;
    if (config_of(j, path, &c, dir, sizeof dir, why) != MMD_OK)
        return why->status;
    const mmd_scene *sc = j->scene;
    if (k < MMD_SCENE_MAX_MODELS) {
        const char *file = sc->models[k].file, *base = strrchr(file, '/');
        return mmd_fx_objects_add(o->objects, j->renderer, (size_t)k, j->stage->models[k],
                                  sc->models[k].look.add_blend, base ? base + 1 : file, fx, &c, why);
    }
    int a = k - MMD_SCENE_MAX_MODELS;
    return mmd_fx_objects_add_accessory(o->objects, j->renderer, (size_t)a, j->stage->acc.meshes[a],
                                        j->stage->acc.place[a].place.add_blend, fx, &c, why);
}

/* What a failure names: "model 'a'", "accessory 'b'", with " material 3". */
static void subject(const render_job *j, int k, int64_t material, char *out, size_t cap)
{
    bool model = k < MMD_SCENE_MAX_MODELS;
    const char *name = model ? j->scene->models[k].name : j->scene->accessories[k - MMD_SCENE_MAX_MODELS].name;
    int n = snprintf(out, cap, "%s '%s'", model ? "model" : "accessory", name);
    if (material >= 0 && n > 0 && (size_t)n < cap)
        snprintf(out + n, cap - (size_t)n, " material %lld", (long long)material);
}

/* An effect that is not applied: one warning, or with --strict-effects the run's error. */
static mmd_status not_applied(const render_job *j, const render_args *a, int k, int64_t material,
                              const char *file, mmd_effect_origin origin, mmd_status s, const char *why,
                              mmd_error *err)
{
    char who[256];
    subject(j, k, material, who, sizeof who);
    const char *from = mmd_effect_origin_name(origin);
    if (a->strict_effects)
        return mmd_fail(err, s, "%s: effect %s (%s): %s", who, file, from, why);
    if (!a->quiet)
        mmd_msg_print(stderr, "mmdrender: warning: %s: effect %s (%s) is not applied: %s\n", who, file, from, why);
    return MMD_OK;
}

static void warn_post(const render_job *j, const render_args *a, int k, int64_t material, const char *file,
                      mmd_effect_origin origin)
{
    char who[256];
    subject(j, k, material, who, sizeof who);
    if (!a->quiet && !is_scene_post_effect(j->scene, file))
        mmd_msg_print(stderr, "mmdrender: warning: %s: effect %s (%s) is a post effect (STANDARDSGLOBAL "
                      "ScriptClass \"scene\"), not the object's passes: name it in [effects] post\n",
                      who, file, mmd_effect_origin_name(origin));
}

/* Drawable k's own effect (NULL: none, or it is not applied: said). */
static mmd_status main_effect(render_job *j, const render_args *a, int k, const mmd_fx **out, mmd_error *err)
{
    const mmd_stage_effect *e = effect_of(j, k);
    *out = NULL;
    if (!e->file || e->error)
        return MMD_OK; /* an accessory's that does not parse: the stage warned, render_fx.c's strict error */
    const parsed_file *f = file_of(j->objfx, e->file, e->fx);
    if (!f)
        return mmd_fail(err, MMD_E_NOMEM, "out of memory");
    if (f->post && k < MMD_SCENE_MAX_MODELS) /* an accessory's: render_fx.c */
        warn_post(j, a, k, -1, e->file, e->origin);
    if (!f->fx && !f->post)
        return not_applied(j, a, k, -1, e->file, e->origin, f->why.status, f->why.msg, err);
    *out = f->fx;
    return MMD_OK;
}

/* Drawable k's per-material entries on its slot. */
static mmd_status material_effects(render_job *j, const render_args *a, int k, mmd_error *err)
{
    const mmd_stage_effect *e = effect_of(j, k);
    bool acc = k >= MMD_SCENE_MAX_MODELS;
    uint32_t count = acc ? j->stage->acc.meshes[k - MMD_SCENE_MAX_MODELS]->material_count
                         : j->stage->models[k]->material_count;
    mmd_status s = MMD_OK;
    for (int i = 0; i < e->materials.count && s == MMD_OK; i++) {
        const mmd_scene_material_effect *m = &e->materials.items[i];
        const char *file = m->effect ? m->effect : "none";
        char why[160];
        if (m->material >= count) {
            snprintf(why, sizeof why, "the %s has %u materials", acc ? "accessory" : "model", count);
            s = not_applied(j, a, k, m->material, file, e->materials_origin, MMD_E_BAD_INDEX, why, err);
            continue;
        }
        const parsed_file *f = m->effect ? file_of(j->objfx, m->effect, NULL) : NULL;
        if (m->effect && !f)
            return mmd_fail(err, MMD_E_NOMEM, "out of memory");
        if (f && f->post)
            warn_post(j, a, k, m->material, file, e->materials_origin);
        if (f && !f->fx && !f->post)
            s = not_applied(j, a, k, m->material, file, e->materials_origin, f->why.status, f->why.msg, err);
        if (f && !f->fx)
            continue;
        char dir[4096];
        mmd_fx_effect_config c;
        mmd_error w = {0};
        mmd_status r = config_of(j, file, &c, dir, sizeof dir, &w);
        if (r == MMD_OK)
            r = mmd_fx_objects_add_material(j->objfx->objects, j->renderer, acc,
                                            (size_t)(acc ? k - MMD_SCENE_MAX_MODELS : k), m->material,
                                            f ? f->fx : NULL, &c, &w);
        if (r != MMD_OK)
            s = not_applied(j, a, k, m->material, file, e->materials_origin, r, w.msg, err);
    }
    return s;
}

/* Drawable k: its effect and its materials' opened, or their failures said
 * (warning or, strict, the error). */
static mmd_status open_drawable(render_job *j, const render_args *a, int k, mmd_error *err)
{
    const mmd_stage_effect *e = effect_of(j, k);
    const mmd_fx *fx = NULL;
    mmd_status s = main_effect(j, a, k, &fx, err);
    if (s != MMD_OK || (!fx && !e->materials.count))
        return s;
    mmd_error why = {0};
    const char *where = e->file ? e->file : j->scene->path; /* the folder of the main effect's textures */
    s = add_slot(j, j->objfx, k, where, fx, &why);
    if (s != MMD_OK)
        s = not_applied(j, a, k, -1, e->file ? e->file : "(none)", e->origin, s, why.msg, err);
    return s == MMD_OK ? material_effects(j, a, k, err) : s;
}

mmd_status mmd_render_open_object_effects(render_job *j, const render_args *a, mmd_error *err)
{
    if (!any_effect(j))
        return MMD_OK;
    mmd_status s = make_objects(j, err);
    for (int l = 0; l < 2 && s == MMD_OK; l++)
        for (int i = 0; i < drawable_count(j, l) && s == MMD_OK; i++)
            s = open_drawable(j, a, l * MMD_SCENE_MAX_MODELS + i, err);
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
    for (size_t i = 0; i < o->file_count; i++)
        if (o->files[i].owner)
            mmd_fx_free(o->files[i].fx);
    free(o->files);
    free(o);
    j->objfx = NULL;
}
