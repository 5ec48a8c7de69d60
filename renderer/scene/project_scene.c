/* renderer/scene/project_scene.c - a project as the scene value a scene.ini
 * gives (mmd_project_scene, project.h): what `export` writes through the key
 * table's writer (mmd_scene_write) and what a render of the project shows.
 * Project values are brought into the scene keys' ranges (docs/projects.md).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/model.h"
#include "core/motion.h"
#include "renderer/scene/project.h"
#include "renderer/scene/scene.h"
#include "renderer/scene/scene_keys.h"

typedef struct build {
    const mmd_project *p;
    mmd_scene *s;
    mmd_status status;
    mmd_error *err;
} build;

static double clampd(double x, double lo, double hi) { return x < lo ? lo : x > hi ? hi : x; }

static bool same_parent(mmd_pmm_parent a, mmd_pmm_parent b) { return a.model == b.model && a.bone == b.bone; }

static char *str(build *b, const char *v)
{
    char *d = mmd_scene_strdup(b->s, v);
    if (!d && b->status == MMD_OK)
        b->status = mmd_fail(b->err, MMD_E_NOMEM, "out of memory");
    return d;
}

void mmd_project_motion_name(uint32_t model, char *out, size_t cap)
{
    snprintf(out, cap, "model_%u.vmd", model + 1);
}

/* The .emm's `<prefix><n>[k]` lines as the object's material_effect entries
 * (in file order: a later line for the same material wins); a file not
 * found (warned by the project) is left out. */
static void material_effects(build *b, const char *prefix, uint32_t n, mmd_scene_material_effects *list)
{
    list->origin = MMD_EFFECT_EMM;
    for (size_t i = 0; i < b->p->effect_count && b->status == MMD_OK; i++) {
        const mmd_project_effect *e = &b->p->effects[i];
        if (!mmd_project_effect_is_material(e, prefix, n) || (!e->none && !e->found) ||
            e->material >= MMD_MAX_MATERIALS) /* no model has it: left out, as a scene could not say it */
            continue;
        char *fx = e->none ? NULL : str(b, e->found);
        mmd_status st = b->status == MMD_OK
                            ? mmd_scene_material_effect_set(b->s, list, (uint32_t)e->material, fx, 0)
                            : b->status;
        if (st == MMD_E_LIMIT)
            b->status = mmd_fail(b->err, st, "%s%u: more than %d per-material effects", prefix, n,
                                 MMD_SCENE_MAX_MATERIAL_EFFECTS);
        else if (st != MMD_OK && b->status == MMD_OK)
            b->status = mmd_fail(b->err, st, "out of memory");
    }
}

/* Scene name for model i: the MMD name when usable and unique, else mN. */
static void model_name(const mmd_pmm *m, uint32_t i, char *out, size_t cap)
{
    const char *name = m->models[i].name;
    bool ok = *name && strlen(name) < 60 && !strpbrk(name, "]:;#=\\") && mmd_scene_can_hold(name);
    for (uint32_t j = 0; ok && j < m->model_count; j++)
        ok = j == i || strcmp(m->models[j].name, name);
    if (ok)
        snprintf(out, cap, "%s", name);
    else
        snprintf(out, cap, "m%u", i + 1);
}

/* The link to a parent reference: none when it has none or its model is not in the scene. */
static mmd_scene_link link_to(build *b, mmd_pmm_parent t, double frame)
{
    const mmd_pmm *m = b->p->pmm;
    mmd_scene_link l = {.frame = frame};
    if (t.model < 0 || (uint32_t)t.model >= m->model_count || !b->p->model_files[t.model] || t.bone < 0)
        return l;
    char name[80];
    model_name(m, (uint32_t)t.model, name, sizeof name);
    l.model = str(b, name);
    l.parent_bone = str(b, m->models[t.model].bones[t.bone].name);
    return l;
}

static mmd_scene_link *links(build *b)
{
    mmd_scene_link *l = mmd_scene_array(b->s, MMD_SCENE_MAX_LINKS, sizeof *l);
    if (!l && b->status == MMD_OK)
        b->status = mmd_fail(b->err, MMD_E_NOMEM, "out of memory");
    return l;
}

/* One link per change of an outside parent over the model keys. */
static void outside_parents(build *b, mmd_scene_model *sm, uint32_t i)
{
    const mmd_pmm_model *m = &b->p->pmm->models[i];
    for (uint32_t o = 0; o < m->op_count && b->status == MMD_OK; o++) {
        if (m->op_bones[o] < 0)
            continue;
        mmd_pmm_parent prev = {-1, -1};
        for (uint32_t k = 0; k < m->key_count && b->status == MMD_OK; k++) {
            mmd_pmm_parent cur = m->keys[k].parents ? m->keys[k].parents[o] : prev;
            if (cur.model == MMD_PMM_GROUND)
                cur = (mmd_pmm_parent){-1, -1};
            if (same_parent(cur, prev))
                continue;
            if (!sm->parents && !(sm->parents = links(b)))
                return;
            if (sm->parent_count >= MMD_SCENE_MAX_LINKS) {
                b->status = mmd_fail(b->err, MMD_E_LIMIT, "model '%s': more than %d outside-parent changes",
                                     sm->name, MMD_SCENE_MAX_LINKS);
                return;
            }
            mmd_scene_link l = link_to(b, cur, m->keys[k].frame);
            l.bone = str(b, m->bones[m->op_bones[o]].name);
            sm->parents[sm->parent_count++] = l;
            prev = cur;
        }
    }
}

static void camera(build *b)
{
    const mmd_pmm *m = b->p->pmm;
    mmd_scene *s = b->s;
    s->camera_motion = str(b, MMD_PROJECT_CAMERA_MOTION);
    mmd_status st = mmd_pmm_camera_motion(m, &s->camera_motion_data, b->err);
    if (st != MMD_OK && b->status == MMD_OK)
        b->status = st;
    mmd_pmm_parent prev = {-1, -1};
    for (uint32_t k = 0; k < m->camera_key_count && b->status == MMD_OK; k++) {
        mmd_pmm_parent cur = m->camera_keys[k].look_at;
        if (same_parent(cur, prev))
            continue;
        if ((!s->follows && !(s->follows = links(b))) || s->follow_count >= MMD_SCENE_MAX_LINKS) {
            if (b->status == MMD_OK)
                b->status = mmd_fail(b->err, MMD_E_LIMIT, "more than %d camera follow changes", MMD_SCENE_MAX_LINKS);
            return;
        }
        s->follows[s->follow_count++] = link_to(b, cur, m->camera_keys[k].frame);
        prev = cur;
    }
}

static void output(build *b)
{
    const mmd_pmm *m = b->p->pmm;
    mmd_scene *s = b->s;
    s->width = m->width;
    s->height = m->height;
    s->fps_num = m->fps == 60.0f ? 60 : 30;
    if (m->begin_enabled || m->end_enabled) {
        int64_t first, last;
        mmd_project_range(b->p, &first, &last);
        s->has_frames = true;
        s->frame_first = first * s->fps_num / 30;
        s->frame_last = last * s->fps_num / 30;
    }
    for (int c = 0; c < 3; c++)
        s->background[c] = m->black_background ? 0.0f : 1.0f;
    s->ground_shadow = m->ground_shadow;
    if (m->ground_shadow_brightness != 1.0f)
        s->ground_shadow_brightness = (float)clampd(m->ground_shadow_brightness, 0, 10);
    s->ground_shadow_translucent = m->ground_shadow_translucent;
    s->has_edge_color = m->edge_color[0] != 0.0f || m->edge_color[1] != 0.0f || m->edge_color[2] != 0.0f; /* black: PMD's own */
    for (int c = 0; s->has_edge_color && c < 3; c++) /* as #rrggbb */
        s->edge_color[c] = (float)(lroundf(m->edge_color[c] * 255.0f) & 255) / 255.0f;
}

/* Models in draw order (stable), each with its motion in memory. */
static void models(build *b)
{
    const mmd_pmm *m = b->p->pmm;
    mmd_scene *s = b->s;
    for (int order = 0; order <= 255; order++) {
        for (uint32_t i = 0; i < m->model_count && b->status == MMD_OK; i++) {
            const mmd_pmm_model *x = &m->models[i];
            if (x->draw_order != order || !b->p->model_files[i])
                continue;
            if (s->model_count >= MMD_SCENE_MAX_MODELS) {
                b->status = mmd_fail(b->err, MMD_E_LIMIT, "more than %d models", MMD_SCENE_MAX_MODELS);
                return;
            }
            mmd_scene_model *sm = &s->models[s->model_count];
            s->model_count++;
            char name[80], vmd[32];
            model_name(m, i, name, sizeof name);
            mmd_project_motion_name(i, vmd, sizeof vmd);
            mmd_scene_model_defaults(sm);
            sm->name = str(b, name);
            sm->file = str(b, b->p->model_files[i]);
            sm->motions[0] = str(b, vmd);
            sm->motion_count = 1;
            mmd_status st = mmd_pmm_model_motion(m, i, &sm->motion_data[0], b->err);
            if (st != MMD_OK && b->status == MMD_OK)
                b->status = st;
            sm->physics = m->physics != MMD_PMM_PHYSICS_OFF;
            sm->look = x->look;
            sm->look.edge_width = (float)clampd(x->look.edge_width, 0, 100);
            sm->calc_order = x->calc_order; /* v2: MMD's calculation order (its one-frame lag with it) */
            const char *fx = mmd_project_effect_of(b->p, "Pmd", i + 1); /* MME's PmdN: the project's Nth model */
            if (fx) {
                sm->effect = str(b, fx);
                sm->effect_origin = MMD_EFFECT_EMM;
            }
            material_effects(b, "Pmd", i + 1, &sm->material_effects);
            outside_parents(b, sm, i);
        }
    }
}

/* One parent link per change over the accessory's keys (the first key's
 * alone when it never changes, none left out). */
static void accessory_parents(build *b, mmd_scene_accessory *a, const mmd_pmm_accessory *x)
{
    bool timed = false;
    for (uint32_t k = 1; k < x->key_count; k++)
        timed = timed || !same_parent(x->keys[k].parent, x->keys[0].parent);
    mmd_pmm_parent prev = {-1, -1};
    for (uint32_t k = 0; k < x->key_count && b->status == MMD_OK; k++) {
        if (k > 0 && (!timed || same_parent(x->keys[k].parent, prev)))
            continue;
        mmd_scene_link l = link_to(b, x->keys[k].parent, timed ? x->keys[k].frame : 0);
        prev = x->keys[k].parent;
        if (!timed && !l.model)
            return;
        if ((!a->parents && !(a->parents = links(b))) || a->parent_count >= MMD_SCENE_MAX_LINKS)
            return;
        a->parents[a->parent_count++] = l;
        a->set |= MMD_SCENE_ACC_PARENT;
    }
    if (a->parent_count && a->parents[0].model) { /* the reader's rule: the first link's model */
        for (int i = 0; i < b->s->model_count; i++)
            if (!strcmp(b->s->models[i].name, a->parents[0].model))
                a->parent_model = i;
        a->parent_bone = a->parents[0].parent_bone;
    }
}

static void place_of(const mmd_pmm_accessory_key *k, mmd_accessory_place *p)
{
    for (int c = 0; c < 3; c++) {
        p->position[c] = k->position[c];
        p->rotation[c] = (float)(k->rotation[c] * (180.0 / M_PI)); /* the project's radians, the scene's degrees */
    }
    p->scale = k->scale; /* MMD's Si as stored (issue 25; docs/pmm.md) */
    p->opacity = k->opacity;
    p->visible = k->visible;
    p->shadow = k->shadow;
}

/* Accessories in draw order: placed by their key, several keys as key tracks
 * (docs/projects.md "Accessory keys"). */
static void accessories(build *b)
{
    const mmd_pmm *m = b->p->pmm;
    mmd_scene *s = b->s;
    for (int order = 0; order <= 255; order++) {
        for (uint32_t i = 0; i < m->accessory_count && b->status == MMD_OK; i++) {
            const mmd_pmm_accessory *x = &m->accessories[i];
            if (x->draw_order != order || !b->p->accessory_files[i])
                continue;
            if (s->accessory_count >= MMD_SCENE_MAX_ACCESSORIES) {
                b->status = mmd_fail(b->err, MMD_E_LIMIT, "more than %d accessories", MMD_SCENE_MAX_ACCESSORIES);
                return;
            }
            mmd_scene_accessory *a = &s->accessories[s->accessory_count++];
            char name[16];
            snprintf(name, sizeof name, "a%u", i + 1);
            mmd_scene_accessory_defaults(a);
            a->name = str(b, name);
            a->file = str(b, b->p->accessory_files[i]);
            if (x->key_count > 1) {
                if (!(a->keys = mmd_scene_array(s, x->key_count, sizeof *a->keys))) {
                    b->status = mmd_fail(b->err, MMD_E_NOMEM, "out of memory");
                    return;
                }
                for (uint32_t k = 0; k < x->key_count; k++) {
                    a->keys[k].frame = x->keys[k].frame;
                    place_of(&x->keys[k], &a->keys[k].place);
                }
                a->key_count = (int)x->key_count;
            } else {
                place_of(&x->keys[0], &a->place);
                a->set = MMD_SCENE_ACC_POSITION | MMD_SCENE_ACC_ROTATION | MMD_SCENE_ACC_SCALE;
            }
            const char *fx = mmd_project_effect_of(b->p, "Acs", i + 1);
            if (fx) {
                a->effect = str(b, fx);
                a->effect_origin = MMD_EFFECT_EMM;
            }
            material_effects(b, "Acs", i + 1, &a->material_effects);
            a->place.add_blend = x->add_blend;
            a->place.after_models = m->accessories_after_models >= 0 && x->draw_order >= m->accessories_after_models;
            accessory_parents(b, a, x);
        }
    }
}

/* [gravity] when the project's differs from MMD's default (one key, 9.8
 * along 0 -1 0). Noise is not carried (the render warns). */
static void gravity(build *b)
{
    const mmd_pmm *m = b->p->pmm;
    const mmd_pmm_gravity_key *g = m->gravity_keys;
    if (m->gravity_key_count == 1 && g->acceleration == 9.8f && g->direction[0] == 0 && g->direction[1] == -1 &&
        g->direction[2] == 0)
        return;
    if (!(b->s->gravity = mmd_scene_array(b->s, m->gravity_key_count, sizeof *b->s->gravity))) {
        b->status = mmd_fail(b->err, MMD_E_NOMEM, "out of memory");
        return;
    }
    for (uint32_t k = 0; k < m->gravity_key_count; k++)
        b->s->gravity[k] = (mmd_scene_gravity_key){.frame = g[k].frame, .acceleration = g[k].acceleration,
                                                   .direction = {g[k].direction[0], g[k].direction[1],
                                                                 g[k].direction[2]}};
    b->s->gravity_count = (int)m->gravity_key_count;
}

/* The offset when not 0 0 (into the key's range), the scale when set and in
 * range (MMD stores 0 for a scale never set: 1). */
static void placement(const int32_t in_offset[2], float in_scale, int offset[2], float *scale)
{
    for (int c = 0; c < 2; c++)
        offset[c] = (int)clampd(in_offset[c], -65536, 65536);
    if (in_scale > 0.0f && in_scale <= 100.0f)
        *scale = in_scale;
}

static void media(build *b)
{
    const mmd_pmm *m = b->p->pmm;
    mmd_scene *s = b->s;
    if (b->p->image_file) {
        s->bg_image = str(b, b->p->image_file);
        placement(m->image_offset, m->image_scale, s->bg_offset, &s->bg_scale);
    }
    if (b->p->video_file) {
        s->bg_video = str(b, b->p->video_file);
        placement(m->video_offset, m->video_scale, s->bg_video_offset, &s->bg_video_scale);
    }
    if (b->p->audio_file)
        s->audio_file = str(b, b->p->audio_file);
}

mmd_status mmd_project_scene(const mmd_project *p, mmd_scene **out, mmd_error *err)
{
    mmd_error scratch;
    build b = {.p = p, .err = err ? err : &scratch};
    *out = NULL;
    if (!(b.s = mmd_scene_create(p->path)))
        return mmd_fail(err, MMD_E_NOMEM, "%s: out of memory", p->path);
    output(&b);
    camera(&b);
    if (b.status == MMD_OK)
        models(&b);
    if (b.status == MMD_OK)
        accessories(&b);
    if (b.status == MMD_OK)
        gravity(&b);
    if (b.status == MMD_OK)
        media(&b);
    if (b.status != MMD_OK) {
        mmd_scene_free(b.s);
        return b.status;
    }
    *out = b.s;
    return MMD_OK;
}
