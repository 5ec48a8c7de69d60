/* core/anim.c - mmd_anim: creation, track binding, key sampling, the frame
 * pipeline and accessors. Bones live in pose.c, morphs in morph.c, skinning
 * in skin.c (see core/anim_internal.h for the shared state). */
#include <stdlib.h>

#include "core/anim_internal.h"
#include "core/text.h"

/* ---------- name binding (Shift-JIS bytes, DESIGN A.1) ---------- */

typedef struct name_map {
    uint32_t cap;           /* power of two */
    int32_t *slot;          /* index into names or -1 */
    uint8_t (*names)[24];   /* encoded, NUL padded */
    size_t len_cap;
} name_map;

static uint32_t hash_bytes(const uint8_t *s, size_t n)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ s[i]) * 16777619u;
    return h;
}

static bool map_build(name_map *m, mmd_arena *ar, mmd_text *tx, uint32_t n, size_t cap,
                      const char *(*get)(const void *, uint32_t), const void *ctx)
{
    m->cap = 16;
    while (m->cap < n * 2u + 2u)
        m->cap *= 2;
    m->len_cap = cap;
    m->slot = mmd_arena_array(ar, m->cap, sizeof *m->slot);
    m->names = mmd_arena_array(ar, n ? n : 1, sizeof *m->names);
    if (!m->slot || !m->names)
        return false;
    for (uint32_t i = 0; i < m->cap; i++)
        m->slot[i] = -1;
    for (uint32_t i = 0; i < n; i++) {
        const char *s = get(ctx, i);
        size_t len = tx ? mmd_text_to_sjis(tx, s ? s : "", m->names[i], cap) : 0;
        if (len > cap)
            len = cap;
        memset(m->names[i] + len, 0, sizeof m->names[i] - len);
        if (len == 0)
            continue;
        uint32_t h = hash_bytes(m->names[i], len) & (m->cap - 1);
        while (m->slot[h] >= 0) {
            if (memcmp(m->names[m->slot[h]], m->names[i], sizeof m->names[i]) == 0)
                break; /* first of duplicate names wins */
            h = (h + 1) & (m->cap - 1);
        }
        if (m->slot[h] < 0)
            m->slot[h] = (int32_t)i;
    }
    return true;
}

static int32_t map_find(const name_map *m, const uint8_t *raw, size_t rawcap)
{
    size_t len = mmd_text_fixed_len(raw, rawcap);
    if (len > m->len_cap)
        len = m->len_cap;
    if (len == 0)
        return -1;
    uint8_t key[24] = {0};
    memcpy(key, raw, len);
    uint32_t h = hash_bytes(key, len) & (m->cap - 1);
    while (m->slot[h] >= 0) {
        if (memcmp(m->names[m->slot[h]], key, sizeof key) == 0)
            return m->slot[h];
        h = (h + 1) & (m->cap - 1);
    }
    return -1;
}

static const char *bone_name(const void *ctx, uint32_t i) { return ((const mmd_model *)ctx)->bones[i].name; }
static const char *morph_name(const void *ctx, uint32_t i) { return ((const mmd_model *)ctx)->morphs[i].name; }
static const char *ik_name(const void *ctx, uint32_t i)
{
    const mmd_anim *a = ctx;
    return a->model->bones[a->ik_bones[i]].name;
}

/* ---------- track construction ---------- */

typedef struct key_ref { uint32_t frame, seq, target; } key_ref;

static int key_ref_cmp(const void *pa, const void *pb)
{
    const key_ref *x = pa, *y = pb;
    if (x->target != y->target)
        return x->target < y->target ? -1 : 1;
    if (x->frame != y->frame)
        return x->frame < y->frame ? -1 : 1;
    return x->seq < y->seq ? -1 : (x->seq > y->seq);
}

static bool add_unbound(mmd_anim *a, size_t *cap, const char *name)
{
    for (size_t i = 0; i < a->unbound_count; i++)
        if (strcmp(a->unbound[i], name) == 0)
            return true;
    if (a->unbound_count == *cap) {
        size_t nc = *cap ? *cap * 2 : 16;
        char **nu = mmd_arena_array(a->arena, nc, sizeof *nu);
        if (!nu)
            return false;
        if (a->unbound_count)
            memcpy(nu, a->unbound, a->unbound_count * sizeof *nu);
        a->unbound = nu;
        *cap = nc;
    }
    a->unbound[a->unbound_count] = mmd_arena_strdup(a->arena, name);
    return a->unbound[a->unbound_count++] != NULL;
}

static int32_t *compute_order(mmd_anim *a)
{
    const mmd_model *m = a->model;
    int32_t *o = mmd_arena_array(a->arena, a->nb ? a->nb : 1, sizeof *o);
    if (!o)
        return NULL;
    if (m->eval_order) {
        memcpy(o, m->eval_order, a->nb * sizeof *o);
        return o;
    }
    /* a model that did not go through validate (built in memory) */
    int32_t *scratch = malloc((a->nb ? a->nb : 1) * sizeof *scratch);
    if (!scratch)
        return NULL;
    mmd_model_bone_order(m, o, scratch);
    free(scratch);
    return o;
}


/* The bone (morphs false) or morph keys of all motions, numbered in order by
 * seq, as refs to the model element they name (map), sorted by target, frame,
 * seq; keys naming no element go to a->unbound. base[k] is the seq of motion
 * k's first key. *refs and *base are malloc'ed (both NULL when there are no keys). */
static mmd_status collect_refs(mmd_anim *a, const mmd_motion *const *mo, size_t nmo, bool morphs,
                               const name_map *map, size_t *ucap, key_ref **refs, size_t **base, size_t *n,
                               mmd_error *err)
{
    *refs = NULL, *base = NULL, *n = 0;
    size_t total = 0;
    for (size_t k = 0; k < nmo; k++)
        if (mo[k])
            total += morphs ? mo[k]->morph_key_count : mo[k]->bone_key_count;
    if (total == 0)
        return MMD_OK;
    key_ref *r = malloc(total * sizeof *r);
    size_t *b = calloc(nmo + 1, sizeof *b);
    if (!r || !b) {
        free(r), free(b);
        return mmd_error_set(err, MMD_E_NOMEM, "anim", -1, -1, "no memory for %zu %s keys", total,
                             morphs ? "morph" : "bone");
    }
    size_t seq = 0;
    for (size_t k = 0; k < nmo; k++) {
        uint32_t count = !mo[k] ? 0 : morphs ? mo[k]->morph_key_count : mo[k]->bone_key_count;
        for (uint32_t i = 0; i < count; i++, seq++) {
            const mmd_bone_key *bk = morphs ? NULL : &mo[k]->bone_keys[i];
            const mmd_morph_key *mk = morphs ? &mo[k]->morph_keys[i] : NULL;
            const char *name = bk ? bk->name : mk->name;
            int32_t t = map_find(map, bk ? bk->raw_name : mk->raw_name, 15);
            if (t < 0) {
                if (!add_unbound(a, ucap, name ? name : "")) {
                    free(r), free(b);
                    return mmd_error_set(err, MMD_E_NOMEM, "anim", -1, -1, "no memory");
                }
                continue;
            }
            r[(*n)++] = (key_ref){bk ? bk->frame : mk->frame, (uint32_t)seq, (uint32_t)t};
        }
        b[k + 1] = seq;
    }
    qsort(r, *n, sizeof *r, key_ref_cmp);
    *refs = r, *base = b;
    return MMD_OK;
}

/* The motion holding key seq (see collect_refs). */
static size_t motion_of(const size_t *base, size_t seq)
{
    size_t k = 0;
    while (seq >= base[k + 1])
        k++;
    return k;
}

/* The end of the run of refs from i with one target; *unique counts its
 * distinct frames. */
static size_t target_run(const key_ref *refs, size_t n, size_t i, uint32_t *unique)
{
    size_t j = i;
    while (j < n && refs[j].target == refs[i].target)
        j++;
    *unique = 0;
    for (size_t q = i; q < j; q++)
        *unique += q + 1 == j || refs[q + 1].frame != refs[q].frame;
    return j;
}

static mmd_status bind_bones(mmd_anim *a, const mmd_motion *const *mo, size_t nmo, name_map *bm, size_t *ucap,
                             mmd_error *err)
{
    key_ref *refs;
    size_t *base, n;
    mmd_status st = collect_refs(a, mo, nmo, false, bm, ucap, &refs, &base, &n, err);
    for (size_t i = 0, j; st == MMD_OK && i < n; i = j) {
        uint32_t cnt;
        j = target_run(refs, n, i, &cnt);
        anim_track *tr = &a->bone_tracks[refs[i].target];
        anim_bone_key *keys;
        if (!ALLOC(tr->frames, cnt) || !ALLOC(keys, cnt)) {
            st = mmd_error_set(err, MMD_E_NOMEM, "anim", -1, -1, "no memory");
            break;
        }
        tr->keys = keys;
        tr->n = 0;
        for (size_t q = i; q < j; q++) {
            if (!(q + 1 == j || refs[q + 1].frame != refs[q].frame))
                continue; /* last record of a frame wins */
            size_t s = refs[q].seq, k = motion_of(base, s);
            const mmd_bone_key *src = &mo[k]->bone_keys[s - base[k]];
            anim_bone_key *d = &keys[tr->n];
            tr->frames[tr->n] = src->frame;
            for (int c = 0; c < 3; c++) /* junk from broken files must not poison the pose */
                d->pos[c] = isfinite(src->position[c]) ? src->position[c] : 0.0f;
            memcpy(d->rot, src->rotation, sizeof d->rot);
            aq_norm(d->rot);
            for (int c = 0; c < 4; c++)
                d->curve[c] = mmd_curve_bone(src->interp, c);
            d->phys_off = mmd_interp_physics_off(src->interp);
            if (src->frame > a->last_frame)
                a->last_frame = src->frame;
            tr->n++;
        }
    }
    free(base), free(refs);
    return st;
}

static mmd_status bind_morphs(mmd_anim *a, const mmd_motion *const *mo, size_t nmo, name_map *mm, size_t *ucap,
                              mmd_error *err)
{
    key_ref *refs;
    size_t *base, n;
    mmd_status st = collect_refs(a, mo, nmo, true, mm, ucap, &refs, &base, &n, err);
    for (size_t i = 0, j; st == MMD_OK && i < n; i = j) {
        uint32_t cnt;
        j = target_run(refs, n, i, &cnt);
        anim_track *tr = &a->morph_tracks[refs[i].target];
        float *w;
        if (!ALLOC(tr->frames, cnt) || !ALLOC(w, cnt)) {
            st = mmd_error_set(err, MMD_E_NOMEM, "anim", -1, -1, "no memory");
            break;
        }
        tr->keys = w;
        tr->n = 0;
        for (size_t q = i; q < j; q++) {
            if (!(q + 1 == j || refs[q + 1].frame != refs[q].frame))
                continue; /* last record of a frame wins */
            size_t s = refs[q].seq, k = motion_of(base, s);
            float v = mo[k]->morph_keys[s - base[k]].weight;
            tr->frames[tr->n] = refs[q].frame;
            w[tr->n] = isfinite(v) ? v : 0.0f;
            if (refs[q].frame > a->last_frame)
                a->last_frame = refs[q].frame;
            tr->n++;
        }
    }
    free(base), free(refs);
    return st;
}

static mmd_status bind_properties(mmd_anim *a, const mmd_motion *const *mo, size_t nmo, mmd_text *tx,
                                  mmd_error *err)
{
    size_t total = 0;
    for (size_t k = 0; k < nmo; k++)
        if (mo[k])
            total += mo[k]->property_key_count;
    if (total == 0)
        return MMD_OK;
    name_map im;
    if (!map_build(&im, a->arena, tx, a->ik_count, 20, ik_name, a))
        return mmd_error_set(err, MMD_E_NOMEM, "anim", -1, -1, "no memory");
    key_ref *refs = malloc(total * sizeof *refs);
    const mmd_property_key **src = malloc(total * sizeof *src);
    if (!refs || !src) {
        free(refs), free(src);
        return mmd_error_set(err, MMD_E_NOMEM, "anim", -1, -1, "no memory");
    }
    size_t n = 0;
    for (size_t k = 0; k < nmo; k++)
        if (mo[k])
            for (uint32_t i = 0; i < mo[k]->property_key_count; i++, n++) {
                src[n] = &mo[k]->property_keys[i];
                refs[n] = (key_ref){src[n]->frame, (uint32_t)n, 0};
            }
    qsort(refs, n, sizeof *refs, key_ref_cmp);
    anim_track *tr = &a->prop_track;
    anim_prop_key *keys;
    mmd_status st = MMD_OK;
    if (!ALLOC(tr->frames, n) || !ALLOC(keys, n)) {
        st = mmd_error_set(err, MMD_E_NOMEM, "anim", -1, -1, "no memory");
        goto out;
    }
    tr->keys = keys;
    tr->n = 0;
    for (size_t q = 0; q < n; q++) {
        const mmd_property_key *p = src[refs[q].seq];
        bool same = tr->n > 0 && tr->frames[tr->n - 1] == p->frame;
        anim_prop_key *d = same ? &keys[tr->n - 1] : &keys[tr->n];
        if (!same) {
            if (!ALLOC(d->ik, a->ik_count)) {
                st = mmd_error_set(err, MMD_E_NOMEM, "anim", -1, -1, "no memory");
                goto out;
            }
            for (uint32_t s = 0; s < a->ik_count; s++) /* forward fill */
                d->ik[s] = tr->n > 0 ? keys[tr->n - 1].ik[s] : 1;
            tr->frames[tr->n++] = p->frame;
        }
        d->visible = p->visible;
        for (uint32_t s = 0; s < p->ik_count; s++) {
            int32_t slot = map_find(&im, p->ik[s].raw_name, 20);
            if (slot >= 0)
                d->ik[slot] = p->ik[s].enabled ? 1 : 0;
        }
        if (p->frame > a->last_frame)
            a->last_frame = p->frame;
    }
out:
    free(refs), free(src);
    return st;
}

mmd_status mmd_anim_create(const mmd_model *model, const mmd_motion *const *motions, size_t motion_count,
                           mmd_anim **out, mmd_error *err)
{
    if (!model || !out)
        return mmd_error_set(err, MMD_E_BAD_VALUE, "anim", -1, -1, "no model");
    mmd_arena *ar = mmd_arena_create();
    if (!ar)
        return mmd_error_set(err, MMD_E_NOMEM, "anim", -1, -1, "no memory");
    mmd_anim *a = mmd_arena_alloc(ar, sizeof *a);
    mmd_text *tx = NULL;
    mmd_status st = MMD_OK;
    if (!a) {
        mmd_arena_destroy(ar);
        return mmd_error_set(err, MMD_E_NOMEM, "anim", -1, -1, "no memory");
    }
    a->arena = ar;
    a->model = model;
    a->nb = model->bone_count, a->nm = model->morph_count;
    a->nv = model->vertex_count, a->nmat = model->material_count;
    a->visible = true;
    a->pose_weight = a->place_scale = 1.0f; /* the motion as sampled; no placement */
    uint32_t nb = a->nb;
    /* The per-bone and per-morph arrays: one row each (field, element count). */
#define ANIM_ARRAYS(X)                                                                              \
    X(bone_tracks, nb) X(morph_tracks, a->nm) X(ik_slot, nb) X(ik_bones, nb) X(anim_pos, nb * 3)      \
    X(anim_rot, nb * 4) X(morph_pos, nb * 3) X(morph_rot, nb * 4) X(append_pos, nb * 3)               \
    X(append_rot, nb * 4) X(ik_rot, nb * 4) X(local_rot, nb * 4) X(base_rot, nb * 4)                  \
    X(local_pos, nb * 3) X(world, nb * 16) X(skinning, nb * 16)                                       \
    X(rest_offset, nb * 3) X(ik_enabled, nb) X(phys_off, nb) X(is_ik_link, nb) X(append_link, nb)     \
    X(phys_written, nb) X(raw_weights, a->nm) X(weights, a->nm)                                      \
    X(op_world, nb * 16) X(op_set, nb)
#define ANIM_ALLOC_ROW(field, n) &&ALLOC(a->field, (size_t)(n))
    bool arrays = (a->order = compute_order(a)) != NULL ANIM_ARRAYS(ANIM_ALLOC_ROW);
#undef ANIM_ALLOC_ROW
#undef ANIM_ARRAYS
    if (!arrays) {
        st = mmd_error_set(err, MMD_E_NOMEM, "anim", -1, -1, "no memory for %u bones", nb);
        goto fail;
    }
    a->n_before = nb;
    for (uint32_t i = 0; i < nb; i++) {
        const mmd_bone *b = &model->bones[a->order[i]];
        if ((b->flags & MMD_BONE_AFTER_PHYSICS) && a->n_before == nb)
            a->n_before = i;
    }
    {
        int32_t *pos_in_order;
        bool *seen;
        if (!ALLOC(pos_in_order, nb) || !ALLOC(seen, nb) || !ALLOC(a->late_parents, nb)) {
            st = mmd_error_set(err, MMD_E_NOMEM, "anim", -1, -1, "no memory");
            goto fail;
        }
        a->pos_in_order = pos_in_order;
        for (uint32_t i = 0; i < nb; i++)
            pos_in_order[a->order[i]] = (int32_t)i;
        for (uint32_t b = 0; b < nb; b++) {
            int32_t p = model->bones[b].parent;
            if (p >= 0 && (uint32_t)p < nb && pos_in_order[p] > pos_in_order[b] && !seen[p]) {
                seen[p] = true;
                a->late_parents[a->late_parent_count++] = p;
            }
        }
    }
    for (uint32_t b = 0; b < nb; b++) {
        const mmd_bone *bn = &model->bones[b];
        int32_t p = bn->parent;
        for (int c = 0; c < 3; c++)
            a->rest_offset[3 * b + c] = bn->position[c] - ((p >= 0 && (uint32_t)p < nb) ? model->bones[p].position[c] : 0.0f);
        aq_ident(a->anim_rot + 4 * b), aq_ident(a->morph_rot + 4 * b), aq_ident(a->append_rot + 4 * b);
        aq_ident(a->ik_rot + 4 * b), aq_ident(a->local_rot + 4 * b);
        a->ik_enabled[b] = true;
        a->ik_slot[b] = -1;
        a->append_link[b] = -1;
        if ((bn->flags & (MMD_BONE_APPEND_ROTATE | MMD_BONE_APPEND_TRANSLATE)) && bn->append_parent >= 0 &&
            (uint32_t)bn->append_parent < nb && bn->append_parent != (int32_t)b)
            a->append_link[b] = bn->append_parent;
        if ((bn->flags & MMD_BONE_IK) && bn->ik_target >= 0 && (uint32_t)bn->ik_target < nb) {
            a->ik_slot[b] = (int32_t)a->ik_count;
            a->ik_bones[a->ik_count++] = (int32_t)b;
            for (uint32_t l = 0; l < bn->ik_link_count; l++)
                if (bn->ik_links[l].bone >= 0 && (uint32_t)bn->ik_links[l].bone < nb)
                    a->is_ik_link[bn->ik_links[l].bone] = true;
        }
        float m[16];
        float q[4] = {0, 0, 0, 1};
        am_from_pq(bn->position, q, m);
        memcpy(a->world + 16 * b, m, sizeof m);
    }
    if ((st = mmd_anim_morph_prepare(a, err)) != MMD_OK || (st = mmd_anim_skin_prepare(a, err)) != MMD_OK ||
        (st = mmd_anim_refresh_prepare(a, err)) != MMD_OK || (st = mmd_anim_ik_prepare(a, err)) != MMD_OK)
        goto fail;

    size_t nmo = motions ? motion_count : 0;
    if (nmo) {
        tx = mmd_text_create();
        if (!tx) {
            st = mmd_error_set(err, MMD_E_NOMEM, "anim", -1, -1, "no memory");
            goto fail;
        }
        name_map bm, mm;
        size_t ucap = 0;
        if (!map_build(&bm, ar, tx, nb, 15, bone_name, model) ||
            !map_build(&mm, ar, tx, a->nm, 15, morph_name, model)) {
            st = mmd_error_set(err, MMD_E_NOMEM, "anim", -1, -1, "no memory");
            goto fail;
        }
        if ((st = bind_bones(a, motions, nmo, &bm, &ucap, err)) != MMD_OK ||
            (st = bind_morphs(a, motions, nmo, &mm, &ucap, err)) != MMD_OK ||
            (st = bind_properties(a, motions, nmo, tx, err)) != MMD_OK)
            goto fail;
        mmd_text_destroy(tx);
        tx = NULL;
    }
    *out = a;
    return MMD_OK;
fail:
    mmd_text_destroy(tx);
    mmd_arena_destroy(ar);
    return st;
}

void mmd_anim_free(mmd_anim *a)
{
    if (a)
        mmd_arena_destroy(a->arena);
}

size_t mmd_anim_unbound_count(const mmd_anim *a) { return a->unbound_count; }
uint32_t mmd_anim_ik_capped(const mmd_anim *a, uint64_t *wanted, uint64_t *kept)
{
    if (wanted)
        *wanted = a->ik_work_wanted;
    if (kept)
        *kept = a->ik_work;
    return a->ik_capped;
}
uint32_t mmd_anim_ik_refresh_capped(const mmd_anim *a) { return a->ik_refresh_capped; }
void mmd_anim_set_cancel(mmd_anim *a, const volatile sig_atomic_t *flag) { a->cancel = flag; }
bool mmd_anim_cancelled(const mmd_anim *a) { return a->cancel && *a->cancel; }
const char *mmd_anim_unbound_name(const mmd_anim *a, size_t i)
{
    return i < a->unbound_count ? a->unbound[i] : NULL;
}
uint32_t mmd_anim_last_frame(const mmd_anim *a) { return a->last_frame; }

/* ---------- sampling ---------- */

static void sample_bone(anim_track *tr, double t, float pos[3], float rot[4], bool *phys_off)
{
    const anim_bone_key *k = tr->keys;
    int32_t i = mmd_key_find(tr->frames, tr->n, t, &tr->cursor);
    if (i < 0 || (uint32_t)i + 1 >= tr->n) {
        const anim_bone_key *e = &k[i < 0 ? 0 : i];
        memcpy(pos, e->pos, 3 * sizeof *pos);
        memcpy(rot, e->rot, 4 * sizeof *rot);
        *phys_off = e->phys_off;
        return;
    }
    const anim_bone_key *ka = &k[i], *kb = &k[i + 1];
    double fa = tr->frames[i], fb = tr->frames[i + 1];
    double s = (t - fa) / (fb - fa);
    for (int c = 0; c < 3; c++) {
        double y = mmd_bezier(&kb->curve[c], s);
        pos[c] = (float)(ka->pos[c] + (kb->pos[c] - ka->pos[c]) * y);
    }
    mmd_quat_slerp(ka->rot, kb->rot, (float)mmd_bezier(&kb->curve[3], s), rot);
    *phys_off = ka->phys_off;
}

static float sample_linear(anim_track *tr, double t)
{
    const float *w = tr->keys;
    int32_t i = mmd_key_find(tr->frames, tr->n, t, &tr->cursor);
    if (i < 0)
        return w[0];
    if ((uint32_t)i + 1 >= tr->n)
        return w[i];
    double fa = tr->frames[i], fb = tr->frames[i + 1];
    double s = (t - fa) / (fb - fa);
    return (float)(w[i] + (w[i + 1] - w[i]) * s);
}

/* mmd_anim_set_pose_weight: the sampled motion scaled toward rest. */
static void weigh_pose(mmd_anim *a)
{
    float w = a->pose_weight;
    static const float id[4] = {0, 0, 0, 1};
    for (uint32_t b = 0; b < a->nb; b++) {
        if (!a->bone_tracks[b].n)
            continue;
        float *q = a->anim_rot + 4 * b;
        mmd_quat_slerp(id, q, w, q);
        for (int c = 0; c < 3; c++)
            a->anim_pos[3 * b + c] *= w;
    }
    for (uint32_t m = 0; m < a->nm; m++)
        a->raw_weights[m] *= w;
}

void mmd_anim_set_pose_weight(mmd_anim *a, float w)
{
    a->pose_weight = w >= 0.0f && w <= 1.0f ? w : (w > 1.0f ? 1.0f : 0.0f);
}

void mmd_anim_sample_tracks(mmd_anim *a, double t)
{
    for (uint32_t b = 0; b < a->nb; b++) {
        anim_track *tr = &a->bone_tracks[b];
        if (tr->n)
            sample_bone(tr, t, a->anim_pos + 3 * b, a->anim_rot + 4 * b, &a->phys_off[b]);
    }
    for (uint32_t m = 0; m < a->nm; m++) {
        anim_track *tr = &a->morph_tracks[m];
        a->raw_weights[m] = tr->n ? sample_linear(tr, t) : 0.0f;
    }
    if (a->pose_weight != 1.0f)
        weigh_pose(a);
    if (a->prop_track.n) {
        int32_t i = mmd_key_find(a->prop_track.frames, a->prop_track.n, t, &a->prop_track.cursor);
        const anim_prop_key *p = &((const anim_prop_key *)a->prop_track.keys)[i < 0 ? 0 : i];
        a->visible = p->visible;
        for (uint32_t s = 0; s < a->ik_count; s++)
            a->ik_enabled[a->ik_bones[s]] = p->ik[s] != 0;
    }
}

/* ---------- frame pipeline ---------- */

void mmd_anim_evaluate(mmd_anim *a, double t)
{
    if (!isfinite(t))
        t = 0;
    mmd_anim_sample_tracks(a, t);
    mmd_anim_apply_morphs(a);
    memset(a->phys_written, 0, a->nb * sizeof *a->phys_written);
    mmd_anim_pose_bones(a, false);
    if (a->phys_fn)
        a->phys_fn(a->phys_user, a, t);
    mmd_anim_pose_bones(a, true);
    mmd_anim_build_skinning(a);
}

const float *mmd_anim_world(const mmd_anim *a) { return a->world; }
const float *mmd_anim_skinning(const mmd_anim *a) { return a->skinning; }
const float *mmd_anim_morph_weights(const mmd_anim *a) { return a->weights; }
const float *mmd_anim_morph_weights_raw(const mmd_anim *a) { return a->raw_weights; }
const mmd_material_state *mmd_anim_materials(const mmd_anim *a) { return a->materials; }
const float *mmd_anim_uvs(const mmd_anim *a) { return a->uv; }
const float *mmd_anim_add_uvs(const mmd_anim *a, int k) { return (k >= 0 && k < 4) ? a->add_uv[k] : NULL; }
bool mmd_anim_visible(const mmd_anim *a) { return a->visible; }
const mmd_model *mmd_anim_model(const mmd_anim *a) { return a->model; }

void mmd_anim_set_physics_hook(mmd_anim *a, mmd_anim_physics_fn fn, void *user)
{
    a->phys_fn = fn;
    a->phys_user = user;
}

float *mmd_anim_world_mut(mmd_anim *a) { return a->world; }

void mmd_anim_set_outside_parent(mmd_anim *a, int32_t bone, const float parent[16])
{
    if (bone < 0 || (uint32_t)bone >= a->nb)
        return;
    a->op_set[bone] = parent != NULL;
    if (parent)
        memcpy(a->op_world + 16 * bone, parent, 16 * sizeof *parent);
}

void mmd_anim_set_placement(mmd_anim *a, const float place[16], float scale)
{
    a->placed = place != NULL;
    a->place_scale = place ? scale : 1.0f;
    if (place)
        memcpy(a->place, place, sizeof a->place);
}

const float *mmd_anim_placement(const mmd_anim *a, float *scale)
{
    if (scale)
        *scale = a->place_scale;
    return a->placed ? a->place : NULL;
}

bool mmd_anim_bone_physics_off(const mmd_anim *a, int32_t bone)
{
    return bone >= 0 && (uint32_t)bone < a->nb && a->phys_off[bone];
}
