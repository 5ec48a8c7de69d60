/* renderer/scene/links.c - outside parents and camera follow of a scene (see links.h). */
#include "renderer/scene/links.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/world.h"

typedef struct follow {
    int model;      /* -1 none */
    int32_t bone;
    double frame;
} follow;

struct mmd_links {
    mmd_world *world;
    mmd_anim *anims[MMD_SCENE_MAX_MODELS];
    const char *names[MMD_SCENE_MAX_MODELS];
    follow *follows;
    int follow_count;
};

static int find_model(const mmd_scene *s, const char *name)
{
    for (int i = 0; name && i < s->model_count; i++)
        if (!strcmp(s->models[i].name, name))
            return i;
    return -1;
}

static int32_t find_bone(const mmd_anim *a, const char *name)
{
    const mmd_model *m = mmd_anim_model(a);
    for (uint32_t b = 0; b < m->bone_count; b++)
        if (m->bones[b].name && !strcmp(m->bones[b].name, name))
            return (int32_t)b;
    return -1;
}

/* Binds one link's target (model + bone); MMD_E_BAD_VALUE with err when a name is unknown. */
static mmd_status bind_target(const mmd_scene *s, mmd_anim *const *anims, const mmd_scene_link *l, int *model,
                              int32_t *bone, mmd_error *err)
{
    *model = find_model(s, l->model);
    *bone = -1;
    if (!l->model)
        return MMD_OK;
    if (*model < 0)
        return mmd_fail(err, MMD_E_BAD_VALUE, "%s:%d: no model named '%s'", s->path, l->line, l->model);
    if ((*bone = find_bone(anims[*model], l->parent_bone)) < 0)
        return mmd_fail(err, MMD_E_BAD_VALUE, "%s:%d: model '%s' has no bone '%s'", s->path, l->line, l->model,
                        l->parent_bone);
    return MMD_OK;
}

/* calc_order keys (any): the models in that order (ties and models without
 * one after them in file order), MMD's one-frame lag included. */
static mmd_status set_calc_order(mmd_links *L, const mmd_scene *s, mmd_error *err)
{
    uint32_t order[MMD_SCENE_MAX_MODELS];
    int n = 0;
    bool any = false;
    for (int i = 0; i < s->model_count; i++)
        any = any || s->models[i].calc_order > 0;
    if (!any)
        return MMD_OK;
    for (int i = 0; i < s->model_count; i++) { /* stable insertion by key; unset sorts last */
        long key = s->models[i].calc_order > 0 ? s->models[i].calc_order : 2000000;
        int j = n++;
        while (j > 0) {
            const mmd_scene_model *prev = &s->models[order[j - 1]];
            long pk = prev->calc_order > 0 ? prev->calc_order : 2000000;
            if (pk <= key)
                break;
            order[j] = order[j - 1];
            j--;
        }
        order[j] = (uint32_t)i;
    }
    return mmd_world_set_order(L->world, order, err);
}

static mmd_status bind_parents(mmd_links *L, const mmd_scene *s, mmd_anim *const *anims, mmd_error *err)
{
    size_t total = 0;
    for (int i = 0; i < s->model_count; i++)
        total += (size_t)s->models[i].parent_count;
    mmd_world_link *links = calloc(total + 1, sizeof *links);
    if (!links)
        return mmd_fail(err, MMD_E_NOMEM, "out of memory");
    size_t k = 0;
    for (int i = 0; i < s->model_count; i++) {
        for (int p = 0; p < s->models[i].parent_count; p++) {
            const mmd_scene_link *l = &s->models[i].parents[p];
            mmd_world_link *w = &links[k++];
            w->child = (uint32_t)i;
            w->frame = l->frame;
            mmd_status st = MMD_OK;
            if ((w->child_bone = find_bone(anims[i], l->bone)) < 0)
                st = mmd_fail(err, MMD_E_BAD_VALUE, "%s:%d: model '%s' has no bone '%s'", s->path, l->line,
                              L->names[i], l->bone);
            else
                st = bind_target(s, anims, l, &w->parent, &w->parent_bone, err);
            if (st != MMD_OK) {
                free(links);
                return st;
            }
        }
    }
    mmd_error why;
    mmd_status st = mmd_world_create(anims, (size_t)s->model_count, L->names, links, k, &L->world, &why);
    free(links);
    if (st == MMD_OK)
        st = set_calc_order(L, s, &why);
    if (st != MMD_OK)
        return mmd_fail(err, st, "%s: %s", s->path, why.msg);
    return MMD_OK;
}

mmd_status mmd_links_create(const mmd_scene *s, mmd_anim *const *anims, mmd_links **out, mmd_error *err)
{
    mmd_links *L = calloc(1, sizeof *L);
    if (!L)
        return mmd_fail(err, MMD_E_NOMEM, "out of memory");
    for (int i = 0; i < s->model_count; i++) {
        L->anims[i] = anims[i];
        L->names[i] = *s->models[i].name ? s->models[i].name : s->models[i].file;
    }
    L->follows = calloc((size_t)s->follow_count + 1, sizeof *L->follows);
    mmd_status st = L->follows ? bind_parents(L, s, anims, err) : mmd_fail(err, MMD_E_NOMEM, "out of memory");
    for (int i = 0; st == MMD_OK && i < s->follow_count; i++) {
        follow *f = &L->follows[i];
        f->frame = s->follows[i].frame;
        st = bind_target(s, anims, &s->follows[i], &f->model, &f->bone, err);
    }
    if (st != MMD_OK) {
        mmd_links_free(L);
        return st;
    }
    L->follow_count = s->follow_count;
    *out = L;
    return MMD_OK;
}

void mmd_links_free(mmd_links *l)
{
    if (!l)
        return;
    mmd_world_free(l->world);
    free(l->follows);
    free(l);
}

void mmd_links_evaluate(mmd_links *l, double t) { mmd_world_evaluate(l->world, t); }

bool mmd_links_lag(const mmd_links *l) { return mmd_world_lags(l->world); }

void mmd_links_preroll(mmd_links *l, double t0, struct mmd_physics *const *physics, double seconds)
{
    mmd_world_preroll(l->world, t0, physics, seconds);
}

void mmd_links_follow(const mmd_links *l, double t, mmd_camera_state *cam)
{
    const follow *cur = NULL;
    for (int i = 0; i < l->follow_count; i++) /* the last key at or before t (file order breaks ties) */
        if (l->follows[i].frame <= t && (!cur || l->follows[i].frame >= cur->frame))
            cur = &l->follows[i];
    if (!cur || cur->model < 0)
        return;
    const float *w = mmd_anim_world(l->anims[cur->model]) + 16 * cur->bone;
    for (int c = 0; c < 3; c++)
        cam->target[c] += w[12 + c];
    mmd_camera_derive(cam);
}
