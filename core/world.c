/* core/world.c - models evaluated together with outside parents (see world.h). */
#include "core/world.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/physics.h"

struct mmd_world {
    mmd_anim **anims;
    const char *const *names;
    size_t n;
    mmd_world_link *links; /* sorted by child, child bone, frame */
    size_t nl;
    uint32_t *order;
    uint32_t *indeg;
    uint8_t *placed;
    int32_t *active;       /* per link: 1 when it is the one holding at t */
    uint32_t *calc;        /* mmd_world_set_order: the fixed order, NULL = parents first */
};

static int cmp_link(const void *x, const void *y)
{
    const mmd_world_link *a = x, *b = y;
    if (a->child != b->child)
        return a->child < b->child ? -1 : 1;
    if (a->child_bone != b->child_bone)
        return a->child_bone < b->child_bone ? -1 : 1;
    return (a->frame > b->frame) - (a->frame < b->frame);
}

/* Marks, per (child, child bone), the link with the largest frame <= t. */
static void mark_active(mmd_world *w, double t)
{
    for (size_t i = 0; i < w->nl; i++) {
        const mmd_world_link *l = &w->links[i];
        bool last_of_group = i + 1 == w->nl || w->links[i + 1].child != l->child ||
                             w->links[i + 1].child_bone != l->child_bone || w->links[i + 1].frame > t;
        w->active[i] = l->frame <= t && last_of_group;
    }
}

/* Parents first, then index order (Kahn). Returns how many models were placed. */
static size_t plan_order(mmd_world *w)
{
    memset(w->indeg, 0, w->n * sizeof *w->indeg);
    memset(w->placed, 0, w->n);
    for (size_t i = 0; i < w->nl; i++)
        if (w->active[i] && w->links[i].parent >= 0)
            w->indeg[w->links[i].child]++;
    size_t k = 0;
    for (bool progress = true; progress && k < w->n;) {
        progress = false;
        for (size_t m = 0; m < w->n; m++) {
            if (w->placed[m] || w->indeg[m])
                continue;
            w->placed[m] = 1;
            w->order[k++] = (uint32_t)m;
            for (size_t i = 0; i < w->nl; i++)
                if (w->active[i] && w->links[i].parent == (int32_t)m)
                    w->indeg[w->links[i].child]--;
            progress = true;
            break;
        }
    }
    return k;
}

static const char *bone_name(const mmd_world *w, uint32_t model, int32_t bone)
{
    const mmd_model *m = mmd_anim_model(w->anims[model]);
    return bone >= 0 && (uint32_t)bone < m->bone_count ? m->bones[bone].name : "?";
}

/* Names a cycle among the unplaced models: follows active links from one
 * until a model repeats. */
static mmd_status cycle_error(const mmd_world *w, double frame, mmd_error *err)
{
    char msg[512] = "";
    size_t len = 0;
    uint32_t m = 0, start;
    while (m < w->n && w->placed[m])
        m++;
    start = m;
    for (size_t steps = 0; steps < w->n && len + 1 < sizeof msg; steps++) {
        const mmd_world_link *l = NULL;
        for (size_t i = 0; i < w->nl && !l; i++)
            if (w->active[i] && w->links[i].child == m && w->links[i].parent >= 0 && !w->placed[w->links[i].parent])
                l = &w->links[i];
        if (!l)
            break;
        int k = snprintf(msg + len, sizeof msg - len, "%s'%s' bone '%s' follows '%s' bone '%s'", steps ? "; " : "",
                         w->names[l->child], bone_name(w, l->child, l->child_bone), w->names[l->parent],
                         bone_name(w, (uint32_t)l->parent, l->parent_bone));
        len = k > 0 && (size_t)k < sizeof msg - len ? len + (size_t)k : sizeof msg - 1;
        m = (uint32_t)l->parent;
        if (m == start)
            break;
    }
    return mmd_error_set(err, MMD_E_BAD_STRUCTURE, "outside_parent", -1, -1,
                         "outside parents form a cycle at frame %g: %s", frame, msg);
}

static mmd_status check_links(mmd_world *w, mmd_error *err)
{
    for (size_t i = 0; i < w->nl; i++) {
        const mmd_world_link *l = &w->links[i];
        if (l->child >= w->n || l->parent >= (int32_t)w->n || l->parent < -1)
            return mmd_error_set(err, MMD_E_BAD_INDEX, "outside_parent", (int64_t)i, -1, "link %zu names no model", i);
        const mmd_model *c = mmd_anim_model(w->anims[l->child]);
        if (l->child_bone < 0 || (uint32_t)l->child_bone >= c->bone_count)
            return mmd_error_set(err, MMD_E_BAD_INDEX, "outside_parent", (int64_t)i, -1,
                                 "'%s' has no bone %d", w->names[l->child], l->child_bone);
        if (l->parent >= 0) {
            const mmd_model *p = mmd_anim_model(w->anims[l->parent]);
            if (l->parent_bone < 0 || (uint32_t)l->parent_bone >= p->bone_count)
                return mmd_error_set(err, MMD_E_BAD_INDEX, "outside_parent", (int64_t)i, -1,
                                     "'%s' has no bone %d", w->names[l->parent], l->parent_bone);
        }
    }
    /* a cycle at any frame where the set of links changes */
    for (size_t i = 0; i <= w->nl; i++) {
        double f = i < w->nl ? w->links[i].frame : 0.0;
        mark_active(w, f);
        if (plan_order(w) < w->n)
            return cycle_error(w, f, err);
    }
    return MMD_OK;
}

void mmd_world_free(mmd_world *w)
{
    if (!w)
        return;
    free(w->anims);
    free(w->links);
    free(w->order);
    free(w->indeg);
    free(w->placed);
    free(w->active);
    free(w->calc);
    free(w);
}

mmd_status mmd_world_create(mmd_anim *const *anims, size_t count, const char *const *names,
                            const mmd_world_link *links, size_t link_count, mmd_world **out, mmd_error *err)
{
    mmd_world *w = calloc(1, sizeof *w);
    if (w) {
        w->n = count;
        w->nl = link_count;
        w->names = names;
        w->anims = malloc((count + 1) * sizeof *w->anims);
        w->links = malloc((link_count + 1) * sizeof *w->links);
        w->order = malloc((count + 1) * sizeof *w->order);
        w->indeg = malloc((count + 1) * sizeof *w->indeg);
        w->placed = malloc(count + 1);
        w->active = malloc((link_count + 1) * sizeof *w->active);
    }
    if (!w || !w->anims || !w->links || !w->order || !w->indeg || !w->placed || !w->active) {
        mmd_world_free(w);
        return mmd_error_set(err, MMD_E_NOMEM, "world", -1, -1, "%zu models", count);
    }
    if (count)
        memcpy(w->anims, anims, count * sizeof *anims);
    if (link_count)
        memcpy(w->links, links, link_count * sizeof *links);
    qsort(w->links, link_count, sizeof *w->links, cmp_link);
    mmd_status st = check_links(w, err);
    if (st != MMD_OK) {
        mmd_world_free(w);
        return st;
    }
    *out = w;
    return MMD_OK;
}

void mmd_world_bind(mmd_world *w, uint32_t m, double t)
{
    for (size_t i = 0; i < w->nl; i++) {
        const mmd_world_link *l = &w->links[i];
        if (l->child != m)
            continue;
        bool first_of_group = i == 0 || w->links[i - 1].child != m || w->links[i - 1].child_bone != l->child_bone;
        if (first_of_group && l->frame > t)
            mmd_anim_set_outside_parent(w->anims[m], l->child_bone, NULL);
        if (!w->active[i])
            continue;
        const float *pw = l->parent >= 0 ? mmd_anim_world(w->anims[l->parent]) + 16 * l->parent_bone : NULL;
        mmd_anim_set_outside_parent(w->anims[m], l->child_bone, pw);
    }
}

size_t mmd_world_order(mmd_world *w, double t, const uint32_t **order)
{
    mark_active(w, t);
    *order = w->calc ? w->calc : w->order;
    return w->calc ? w->n : plan_order(w); /* == n: cycles were refused at create */
}

mmd_status mmd_world_set_order(mmd_world *w, const uint32_t *order, mmd_error *err)
{
    uint8_t *seen = calloc(w->n + 1, 1);
    uint32_t *calc = malloc((w->n + 1) * sizeof *calc);
    if (!seen || !calc) {
        free(seen);
        free(calc);
        return mmd_error_set(err, MMD_E_NOMEM, "world", -1, -1, "%zu models", w->n);
    }
    for (size_t i = 0; i < w->n; i++) {
        if (order[i] >= w->n || seen[order[i]]) {
            free(seen);
            free(calc);
            return mmd_error_set(err, MMD_E_BAD_INDEX, "world", (int64_t)i, -1,
                                 "the calculation order names model %u twice or not at all", order[i]);
        }
        seen[order[i]] = 1;
        calc[i] = order[i];
    }
    free(seen);
    free(w->calc);
    w->calc = calc;
    return MMD_OK;
}

bool mmd_world_lags(const mmd_world *w)
{
    for (size_t i = 0; w->calc && i < w->nl; i++) {
        if (w->links[i].parent < 0)
            continue;
        for (size_t o = 0; o < w->n; o++) {
            if (w->calc[o] == (uint32_t)w->links[i].parent)
                break; /* the parent comes first: no lag */
            if (w->calc[o] == w->links[i].child)
                return true;
        }
    }
    return false;
}

void mmd_world_evaluate(mmd_world *w, double t)
{
    const uint32_t *order;
    size_t k = mmd_world_order(w, t, &order);
    for (size_t o = 0; o < k; o++) {
        mmd_world_bind(w, order[o], t);
        mmd_anim_evaluate(w->anims[order[o]], t);
    }
}

void mmd_world_preroll(mmd_world *w, double t0, mmd_physics *const *physics, double seconds)
{
    if (mmd_world_lags(w))
        mmd_world_evaluate(w, t0); /* a lagging child warms up under its parent's pose at t0, not its rest pose */
    const uint32_t *order;
    size_t n = mmd_world_order(w, t0, &order);
    for (size_t o = 0; o < n; o++) {
        uint32_t m = order[o];
        mmd_world_bind(w, m, t0);
        if (physics[m])
            mmd_physics_preroll(physics[m], w->anims[m], t0, seconds);
        else
            mmd_anim_evaluate(w->anims[m], t0);
    }
}
