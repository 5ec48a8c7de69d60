/* renderer/scene/links.c - outside parents and camera follow of a scene (see links.h). */
#include "renderer/scene/links.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/world.h"
#include "renderer/base/msg.h"

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

/* Binds one link's target (model + bone); -1 with msg when a name is unknown. */
static int bind_target(const mmd_scene *s, mmd_anim *const *anims, const mmd_scene_link *l, int *model,
                       int32_t *bone, char *msg, size_t n)
{
    *model = find_model(s, l->model);
    *bone = -1;
    if (!l->model)
        return 0;
    if (*model < 0)
        return mmd_msgf(msg, n, -1, "%s:%d: no model named '%s'", s->path, l->line, l->model);
    if ((*bone = find_bone(anims[*model], l->parent_bone)) < 0)
        return mmd_msgf(msg, n, -1, "%s:%d: model '%s' has no bone '%s'", s->path, l->line, l->model, l->parent_bone);
    return 0;
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

static int bind_parents(mmd_links *L, const mmd_scene *s, mmd_anim *const *anims, char *msg, size_t n)
{
    size_t total = 0;
    for (int i = 0; i < s->model_count; i++)
        total += (size_t)s->models[i].parent_count;
    mmd_world_link *links = calloc(total + 1, sizeof *links);
    if (!links)
        return mmd_msgf(msg, n, -1, "out of memory");
    size_t k = 0;
    for (int i = 0; i < s->model_count; i++) {
        for (int p = 0; p < s->models[i].parent_count; p++) {
            const mmd_scene_link *l = &s->models[i].parents[p];
            mmd_world_link *w = &links[k++];
            w->child = (uint32_t)i;
            w->frame = l->frame;
            if ((w->child_bone = find_bone(anims[i], l->bone)) < 0) {
                free(links);
                return mmd_msgf(msg, n, -1, "%s:%d: model '%s' has no bone '%s'", s->path, l->line,
                                L->names[i], l->bone);
            }
            if (bind_target(s, anims, l, &w->parent, &w->parent_bone, msg, n)) {
                free(links);
                return -1;
            }
        }
    }
    mmd_error err;
    mmd_status st = mmd_world_create(anims, (size_t)s->model_count, L->names, links, k, &L->world, &err);
    free(links);
    if (st == MMD_OK)
        st = set_calc_order(L, s, &err);
    if (st != MMD_OK)
        return mmd_msgf(msg, n, -1, "%s: %s", s->path, err.msg);
    return 0;
}

int mmd_links_create(const mmd_scene *s, mmd_anim *const *anims, mmd_links **out, char *msg, size_t n)
{
    mmd_links *L = calloc(1, sizeof *L);
    if (!L)
        return mmd_msgf(msg, n, -1, "out of memory");
    for (int i = 0; i < s->model_count; i++) {
        L->anims[i] = anims[i];
        L->names[i] = *s->models[i].name ? s->models[i].name : s->models[i].file;
    }
    L->follows = calloc((size_t)s->follow_count + 1, sizeof *L->follows);
    int rc = L->follows ? bind_parents(L, s, anims, msg, n) : mmd_msgf(msg, n, -1, "out of memory");
    if (rc) {
        mmd_links_free(L);
        return -1;
    }
    for (int i = 0; i < s->follow_count; i++) {
        follow *f = &L->follows[i];
        f->frame = s->follows[i].frame;
        if (bind_target(s, anims, &s->follows[i], &f->model, &f->bone, msg, n)) {
            mmd_links_free(L);
            return -1;
        }
    }
    L->follow_count = s->follow_count;
    *out = L;
    return 0;
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
