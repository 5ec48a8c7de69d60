/* renderer/scene/stage.c - a scene opened and evaluated (see stage.h). */
#include "renderer/scene/stage.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "renderer/base/fs.h"
#include "renderer/scene/effect_file.h"

/* What the stage owns besides the public fields: the motions (the scene's
 * in-memory ones are borrowed), which slots borrow another slot's file, and
 * which models were warned about. */
struct mmd_stage_private {
    mmd_stage_options opt;
    mmd_motion *motions[MMD_SCENE_MAX_MODELS][MMD_SCENE_MAX_MOTIONS];
    mmd_motion *camera_motion;
    /* owned: loaded from a file by this stage (freed here); a slot that is
     * not owned borrows an earlier slot's file or the scene's motion_data */
    bool model_owned[MMD_SCENE_MAX_MODELS], motion_owned[MMD_SCENE_MAX_MODELS][MMD_SCENE_MAX_MOTIONS];
    bool camera_owned;
    bool physics_warned[MMD_SCENE_MAX_MODELS]; /* the budget warning was given */
    char *beside[MMD_SCENE_MAX_MODELS + MMD_SCENE_MAX_ACCESSORIES]; /* same-named .fx paths found */
    char *fx_error[MMD_SCENE_MAX_ACCESSORIES]; /* why an accessory's effect did not parse */
    mmd_scene_material_effects emd[MMD_SCENE_MAX_MODELS + MMD_SCENE_MAX_ACCESSORIES]; /* .emd Obj[k]: owned */
};

/* err->msg becomes "file: offset ..., section #item: msg" (mmd_error_format), prefixed. */
static mmd_status located(mmd_error *err, const char *prefix, const char *file)
{
    char buf[sizeof err->msg];
    mmd_error_format(err, file, buf, sizeof buf);
    return mmd_fail(err, err->status, "%s%s", prefix, buf);
}

/* A loaded file's repairs (core/status.h), one sentence per kind. */
static void warn_repairs(const mmd_stage *st, const char *file, const mmd_warning_list *list)
{
    mmd_warn_repairs(st->priv->opt.warn, st->priv->opt.warn_ctx, file, list);
}

/* The model already loaded from the same file as model slot `upto`, or NULL. */
static mmd_model *loaded_model(const mmd_stage *st, int upto)
{
    for (int i = 0; i < upto; i++)
        if (st->priv->model_owned[i] && mmd_same_file(st->scene->models[i].file, st->scene->models[upto].file))
            return st->models[i];
    return NULL;
}

/* The motion already loaded from path (models' motions before slot (mi, mk)), or NULL. */
static mmd_motion *loaded_motion(const mmd_stage *st, int mi, int mk, const char *path)
{
    const mmd_scene *s = st->scene;
    for (int i = 0; i <= mi && i < s->model_count; i++)
        for (int k = 0; k < s->models[i].motion_count && (i < mi || k < mk); k++)
            if (st->priv->motion_owned[i][k] && mmd_same_file(s->models[i].motions[k], path))
                return st->priv->motions[i][k];
    return NULL;
}

/* A motion slot: the scene's own (in memory), a file read before, or the file. */
static mmd_status open_motion(mmd_stage *st, int i, int k, mmd_motion *data, const char *path, mmd_motion **out,
                              bool *owned, mmd_error *err)
{
    if ((*out = data) != NULL || (*out = loaded_motion(st, i, k, path)) != NULL)
        return MMD_OK;
    if (mmd_motion_load_file(path, out, err) != MMD_OK)
        return located(err, "", path);
    *owned = true;
    st->files_loaded++;
    warn_repairs(st, path, &(*out)->warning_list);
    return MMD_OK;
}

/* What the anim says it could not do: tracks without a bone or morph, IK past its work cap. */
static void warn_anim(const mmd_stage *st, int i)
{
    const mmd_stage_options *o = &st->priv->opt;
    const char *file = st->scene->models[i].file;
    const mmd_anim *a = st->anims[i];
    size_t unbound = mmd_anim_unbound_count(a);
    if (unbound && o->warn) {
        char line[4096], pb[256];
        int n = snprintf(line, sizeof line, "%zu motion track(s) match nothing in %s:", unbound, file);
        for (size_t u = 0; u < unbound && u < 8 && n > 0 && (size_t)n < sizeof line; u++)
            n += snprintf(line + n, sizeof line - (size_t)n, "%s %s", u ? "," : "",
                          mmd_printable(mmd_anim_unbound_name(a, u), pb, sizeof pb));
        mmd_warnf(o->warn, o->warn_ctx, "%s%s", line, unbound > 8 ? ", ..." : "");
    }
    uint64_t wanted, kept;
    uint32_t capped = mmd_anim_ik_capped(a, &wanted, &kept);
    if (capped)
        mmd_warnf(o->warn, o->warn_ctx, "%s: IK would cost %llu bone updates a frame (cap %u): %u chain(s) get "
                  "fewer loops", file, (unsigned long long)wanted, (unsigned)MMD_IK_MAX_WORK, (unsigned)capped);
    uint32_t refresh = mmd_anim_ik_refresh_capped(a);
    if (refresh)
        mmd_warnf(o->warn, o->warn_ctx, "%s: %u IK chain(s) past the work cap (%u bone updates) do not recompute "
                  "the bones under them evaluated before them", file, (unsigned)refresh, (unsigned)MMD_IK_MAX_WORK);
}

/* The model's rigid bodies, attached to its anim; a pile past the budget is drawn without them. */
static mmd_status open_physics(mmd_stage *st, int i, mmd_error *err)
{
    const mmd_scene_model *sm = &st->scene->models[i];
    const mmd_stage_options *o = &st->priv->opt;
    if (!sm->physics || o->no_physics || st->models[i]->rigid_body_count == 0)
        return MMD_OK;
    mmd_status ps = mmd_physics_create(st->models[i], &st->physics[i], err);
    if (ps == MMD_E_LIMIT) { /* a pile of bodies: bounded by drawing it without physics */
        mmd_warnf(o->warn, o->warn_ctx, "%s: %s: drawn without physics", sm->file, err->msg);
        return MMD_OK;
    }
    if (ps != MMD_OK)
        return located(err, "physics: ", sm->file);
    if (mmd_physics_attach(st->physics[i], st->anims[i], err) != MMD_OK)
        return located(err, "physics: ", sm->file);
    return MMD_OK;
}

/* Model slot i: its file (or an earlier slot's), motions, anim, placement, physics. */
static mmd_status open_model(mmd_stage *st, int i, mmd_error *err)
{
    const mmd_scene_model *sm = &st->scene->models[i];
    struct mmd_stage_private *p = st->priv;
    if ((st->models[i] = loaded_model(st, i)) == NULL) {
        if (mmd_model_load_file(sm->file, &st->models[i], err) != MMD_OK)
            return located(err, "", sm->file);
        p->model_owned[i] = true;
        st->files_loaded++;
        warn_repairs(st, sm->file, &st->models[i]->warning_list);
    }
    const mmd_motion *ms[MMD_SCENE_MAX_MOTIONS];
    for (int k = 0; k < sm->motion_count; k++) {
        mmd_status s = open_motion(st, i, k, sm->motion_data[k], sm->motions[k], &p->motions[i][k],
                                   &p->motion_owned[i][k], err);
        if (s != MMD_OK)
            return s;
        ms[k] = p->motions[i][k];
    }
    if (mmd_anim_create(st->models[i], ms, (size_t)sm->motion_count, &st->anims[i], err) != MMD_OK)
        return located(err, "", sm->file);
    mmd_scene_model_place(sm, st->anims[i]);
    warn_anim(st, i);
    mmd_anim_set_cancel(st->anims[i], p->opt.cancel);
    return open_physics(st, i, err);
}

/* The camera, light and self-shadow keys: the scene's motion, a file read before, or the file. */
static mmd_status open_camera(mmd_stage *st, mmd_error *err)
{
    const mmd_scene *s = st->scene;
    struct mmd_stage_private *p = st->priv;
    if (s->camera_motion || s->camera_motion_data) {
        mmd_status cs = open_motion(st, s->model_count, 0, s->camera_motion_data, s->camera_motion,
                                    &p->camera_motion, &p->camera_owned, err);
        if (cs != MMD_OK)
            return cs;
    }
    if (mmd_camera_track_create(p->camera_motion, &st->camera, err) != MMD_OK)
        return located(err, "", s->camera_motion ? s->camera_motion : s->path);
    return MMD_OK;
}

/* An accessory's effect parsed and classified (MME: a post effect is loaded
 * as an accessory): why it is not applied (its parse error), NULL when a
 * render applies it (a post effect over the frame, render_fx.c; a preprocess
 * effect before the objects, render_fx_pre.c; an object effect on its
 * subsets, render_fx_object.c). */
static const char *classify(struct mmd_stage_private *p, int acc, mmd_stage_effect *e)
{
    mmd_error err = {0};
    if (mmd_effect_file_load(e->file, &e->fx, &err) != MMD_OK) {
        e->fx = NULL;
        p->fx_error[acc] = strdup(err.msg);
        e->error = p->fx_error[acc] ? p->fx_error[acc] : "out of memory";
        return e->error;
    }
    e->order = mmd_fx_script_order(e->fx);
    return NULL;
}

/* One Obj[k] line of a drawable's .emd into the stage's list (its paths owned). */
static void emd_material(void *user, uint32_t material, const char *effect)
{
    mmd_scene_material_effects *list = user;
    char *replaced = NULL, *copy = effect ? strdup(effect) : NULL;
    if (!list->items && !(list->items = calloc(MMD_SCENE_MAX_MATERIAL_EFFECTS, sizeof *list->items)))
        return;
    if ((effect && !copy) || !mmd_scene_material_effect_put(list, material, copy, 0, &replaced))
        free(copy);
    free(replaced);
}

/* The drawable's effect: its own (scene key or .emm), else MME's file-name
 * rules on its file. An accessory's (acc >= 0) is parsed and classified, one
 * warning when it is not applied; a model's is parsed by the render, which
 * warns when it fails (cli/render_fx_object.c). Its per-material entries:
 * its own, else (neither those nor an own effect) its .emd's. */
static mmd_stage_effect find_effect(struct mmd_stage_private *p, int slot, int acc, const char *what,
                                    const char *name, const char *file, const char *own,
                                    mmd_effect_origin own_origin, const mmd_scene_material_effects *materials)
{
    mmd_effect_origin origin = own_origin != MMD_EFFECT_NONE ? own_origin : MMD_EFFECT_SCENE;
    mmd_effect_origin listed = materials->origin != MMD_EFFECT_NONE ? materials->origin : MMD_EFFECT_SCENE;
    mmd_stage_effect e = {own, own ? origin : MMD_EFFECT_NONE, NULL, MMD_FX_ORDER_STANDARD, NULL, *materials,
                          materials->count ? listed : MMD_EFFECT_NONE};
    bool rules = !own && file; /* the scene's `effect =` skips MME's file-name rules, the .emd's too */
    char beside[PATH_MAX];
    mmd_effect_origin by = rules ? mmd_scene_effect_beside(file, beside, sizeof beside) : MMD_EFFECT_NONE;
    if (by != MMD_EFFECT_NONE && (p->beside[slot] = strdup(beside))) {
        e.file = p->beside[slot];
        e.origin = by;
    }
    rules = rules && !materials->count;
    if (rules)
        mmd_scene_emd_materials(file, emd_material, &p->emd[slot]);
    if (rules && p->emd[slot].count) {
        e.materials = p->emd[slot];
        e.materials_origin = MMD_EFFECT_EMD;
    }
    if (!e.file || acc < 0)
        return e;
    const char *why = classify(p, acc, &e);
    if (why)
        mmd_warnf(p->opt.warn, p->opt.warn_ctx, "%s '%s': effect %s (%s) is not applied: %s", what, name, e.file,
                  mmd_effect_origin_name(e.origin), why);
    return e;
}

static void find_effects(mmd_stage *st)
{
    const mmd_scene *s = st->scene;
    for (int i = 0; i < s->model_count; i++) {
        const mmd_scene_model *m = &s->models[i];
        st->model_effects[i] = find_effect(st->priv, i, -1, "model", m->name, m->file, m->effect, m->effect_origin,
                                           &m->material_effects);
    }
    for (int i = 0; i < s->accessory_count; i++) {
        const mmd_scene_accessory *a = &s->accessories[i];
        st->acc_effects[i] = find_effect(st->priv, MMD_SCENE_MAX_MODELS + i, i, "accessory", a->name, a->file,
                                         a->effect, a->effect_origin, &a->material_effects);
    }
}

mmd_status mmd_stage_open(const mmd_scene *scene, const mmd_stage_options *options, mmd_stage **out,
                          mmd_error *err)
{
    mmd_stage *st = calloc(1, sizeof *st);
    struct mmd_stage_private *p = st ? calloc(1, sizeof *p) : NULL;
    if (!p) {
        free(st);
        return mmd_fail(err, MMD_E_NOMEM, "out of memory");
    }
    st->scene = scene;
    st->priv = p;
    if (options)
        p->opt = *options;
    mmd_status s = MMD_OK;
    for (int i = 0; s == MMD_OK && i < scene->model_count; i++)
        s = open_model(st, i, err);
    if (s == MMD_OK)
        s = mmd_scene_accessories_load(scene, st->models, p->opt.allow_outside, &st->acc, err);
    if (s == MMD_OK)
        s = open_camera(st, err);
    if (s == MMD_OK)
        s = mmd_links_create(scene, st->anims, &st->links, err);
    if (s == MMD_OK)
        find_effects(st);
    if (s != MMD_OK) {
        mmd_stage_free(st);
        return s;
    }
    *out = st;
    return MMD_OK;
}

void mmd_stage_free(mmd_stage *st)
{
    if (!st)
        return;
    struct mmd_stage_private *p = st->priv;
    mmd_scene_accessories_free(&st->acc);
    mmd_camera_track_free(st->camera);
    mmd_links_free(st->links);
    if (p->camera_owned)
        mmd_motion_free(p->camera_motion);
    for (int i = 0; i < st->scene->model_count; i++) {
        mmd_physics_free(st->physics[i]); /* detaches from the anim first */
        mmd_anim_free(st->anims[i]);
        for (int k = 0; k < MMD_SCENE_MAX_MOTIONS; k++)
            if (p->motion_owned[i][k])
                mmd_motion_free(p->motions[i][k]);
        if (p->model_owned[i])
            mmd_model_free(st->models[i]);
    }
    for (size_t i = 0; i < sizeof p->beside / sizeof p->beside[0]; i++) {
        free(p->beside[i]);
        for (int k = 0; k < p->emd[i].count; k++)
            free(p->emd[i].items[k].effect);
        free(p->emd[i].items);
    }
    for (int i = 0; i < MMD_SCENE_MAX_ACCESSORIES; i++) {
        mmd_fx_free(st->acc_effects[i].fx);
        free(p->fx_error[i]);
    }
    free(p);
    free(st);
}

bool mmd_stage_simulates(const mmd_stage *st)
{
    for (int i = 0; i < st->scene->model_count; i++)
        if (st->physics[i])
            return true;
    return false;
}

bool mmd_stage_evaluates_in_order(const mmd_stage *st)
{
    return mmd_stage_simulates(st) || mmd_links_lag(st->links);
}

uint32_t mmd_stage_last_key(const mmd_stage *st)
{
    uint32_t last = mmd_camera_track_last_frame(st->camera);
    for (int i = 0; i < st->scene->model_count; i++) {
        uint32_t l = mmd_anim_last_frame(st->anims[i]);
        last = l > last ? l : last;
    }
    return last;
}

/* [gravity] at t on every simulated model. */
static void set_gravity(mmd_stage *st, double t)
{
    float g[3];
    mmd_scene_gravity_at(st->scene, t, g);
    for (int i = 0; i < st->scene->model_count; i++)
        if (st->physics[i])
            mmd_physics_set_gravity(st->physics[i], g);
}

void mmd_stage_preroll(mmd_stage *st, double t0)
{
    if (!mmd_stage_simulates(st))
        return;
    set_gravity(st, t0);
    mmd_links_preroll(st->links, t0, st->physics, 2.0);
}

void mmd_stage_evaluate(mmd_stage *st, double t)
{
    set_gravity(st, t);
    mmd_links_evaluate(st->links, t); /* every model, outside parents first */
    mmd_scene_accessories_at(&st->acc, t);
}

void mmd_stage_view(const mmd_stage *st, double t, mmd_camera_state *cam, mmd_light_state *light,
                    mmd_shadow_state *shadow)
{
    const mmd_scene *s = st->scene;
    if (mmd_camera_track_has_camera(st->camera)) {
        mmd_camera_sample(st->camera, t, cam);
    } else {
        memset(cam, 0, sizeof *cam);
        memcpy(cam->target, s->cam_target, sizeof cam->target);
        memcpy(cam->rotation, s->cam_rotation, sizeof cam->rotation);
        cam->distance = s->cam_distance;
        cam->fov = s->cam_fov;
        cam->ortho = s->cam_ortho;
        mmd_camera_derive(cam);
    }
    mmd_light_sample(st->camera, t, light);
    if (!mmd_camera_track_has_light(st->camera)) {
        if (s->has_light_color)
            memcpy(light->color, s->light_color, sizeof light->color);
        if (s->has_light_direction)
            memcpy(light->direction, s->light_direction, sizeof light->direction);
    }
    mmd_shadow_sample(st->camera, t, shadow);
    mmd_links_follow(st->links, t, cam);
}

void mmd_stage_check_physics(mmd_stage *st, int64_t frame)
{
    const mmd_stage_options *o = &st->priv->opt;
    for (int i = 0; i < st->scene->model_count; i++) {
        mmd_physics_work w;
        if (!st->physics[i] || st->priv->physics_warned[i])
            continue;
        mmd_physics_work_of(st->physics[i], &w);
        if (!w.stopped)
            continue;
        st->priv->physics_warned[i] = true;
        char at[64] = "while settling before the first frame";
        if (frame >= 0)
            snprintf(at, sizeof at, "at frame %lld", (long long)frame);
        mmd_warnf(o->warn, o->warn_ctx, "%s: %u rigid bodies piled up past the physics budget (%llu colliding "
                  "pairs, %llu box tests a step) %s: physics stopped, its bones follow the motion",
                  st->scene->models[i].file, st->models[i]->rigid_body_count, (unsigned long long)w.max_pairs,
                  (unsigned long long)w.max_tests, at);
    }
}
