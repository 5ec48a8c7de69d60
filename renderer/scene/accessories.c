/* renderer/scene/accessories.c - see accessories.h. */
#include "renderer/scene/accessories.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/file.h"
#include "core/sniff.h"
#include "renderer/image/texpath.h"

/* A .vac: its .x (resolved in the .vac's folder like a texture) and placement. */
static mmd_status load_vac(const mmd_scene_accessory *sa, bool allow_outside, char *x_path,
                           size_t x_cap, mmd_vac *v, mmd_error *err)
{
    void *data = NULL;
    size_t size = 0;
    mmd_error why;
    mmd_status st = mmd_file_read(sa->file, &data, &size, &why);
    if (st != MMD_OK)
        return mmd_fail(err, st, "%s: %s", sa->file, why.msg);
    st = mmd_vac_load(data, size, v, &why);
    free(data);
    if (st != MMD_OK && why.item > 0)
        return mmd_fail(err, st, "%s:%lld: %s", sa->file, (long long)why.item, why.msg);
    if (st != MMD_OK)
        return mmd_fail(err, st, "%s: %s", sa->file, why.msg);
    char dir[4096];
    why = (mmd_error){.status = MMD_E_LIMIT, .msg = "the accessory's folder path is too long"};
    if (mmd_texpath_model_dir(sa->file, dir, sizeof dir) != 0 ||
        mmd_texpath_resolve(dir, v->x_file, allow_outside, x_path, x_cap, &why) != MMD_OK)
        return mmd_fail(err, why.status, "%s: its .x file '%s': %s", sa->file, v->x_file, why.msg);
    return MMD_OK;
}

/* Placement: the section's keys, else the .vac's values. */
static void apply_vac(const mmd_scene_accessory *sa, const mmd_vac *v, mmd_render_accessory *ra)
{
    if (!(sa->set & MMD_SCENE_ACC_SCALE))
        ra->place.scale = v->scale;
    if (!(sa->set & MMD_SCENE_ACC_POSITION))
        memcpy(ra->place.position, v->position, sizeof v->position);
    if (!(sa->set & MMD_SCENE_ACC_ROTATION))
        memcpy(ra->place.rotation, v->rotation, sizeof v->rotation);
}

/* MODEL:BONE of the parent keys bound to slots and bone indices. */
static mmd_status bind_parents(const mmd_scene *s, const mmd_scene_accessory *sa, mmd_model *const *models, int i,
                               mmd_scene_accessories *out, mmd_error *err)
{
    if (sa->parent_count < 2 && (sa->parent_count == 0 || sa->parents[0].frame == 0))
        return MMD_OK; /* one parent from frame 0 (or none): the fixed placement holds it */
    mmd_scene_acc_parent *ps = calloc((size_t)sa->parent_count, sizeof *ps);
    if (!ps)
        return mmd_fail(err, MMD_E_NOMEM, "out of memory");
    out->parents[i] = ps;
    out->parent_count[i] = sa->parent_count;
    for (int k = 0; k < sa->parent_count; k++) {
        const mmd_scene_link *l = &sa->parents[k];
        ps[k] = (mmd_scene_acc_parent){l->frame, -1, -1};
        for (int m = 0; l->model && m < s->model_count; m++)
            if (!strcmp(s->models[m].name, l->model))
                ps[k].slot = m;
        if (ps[k].slot < 0)
            continue;
        if ((ps[k].bone = mmd_model_find_bone(models[ps[k].slot], l->parent_bone)) < 0)
            return mmd_fail(err, MMD_E_BAD_VALUE, "%s:%d: model '%s' (%s) has no bone '%s'", s->path, l->line,
                            l->model, s->models[ps[k].slot].file, l->parent_bone);
    }
    for (int k = 1; k < sa->parent_count; k++) /* stable by frame: a later line wins at the same frame */
        for (int j = k; j > 0 && ps[j - 1].frame > ps[j].frame; j--) {
            mmd_scene_acc_parent tmp = ps[j];
            ps[j] = ps[j - 1];
            ps[j - 1] = tmp;
        }
    return MMD_OK;
}

static mmd_status parent_of(const mmd_scene *s, const mmd_scene_accessory *sa, const mmd_vac *v,
                            mmd_model *const *models, mmd_render_accessory *ra, mmd_error *err)
{
    int model = sa->parent_model;
    const char *bone = sa->parent_bone;
    if (!(sa->set & MMD_SCENE_ACC_PARENT) && v && v->bone[0] && s->model_count > 0) {
        model = 0; /* a .vac's parent bone is on the scene's first model */
        bone = v->bone;
    }
    ra->parent_slot = -1;
    ra->parent_bone = -1;
    if (model < 0 || !bone)
        return MMD_OK;
    int32_t b = mmd_model_find_bone(models[model], bone);
    if (b < 0) {
        if (sa->set & MMD_SCENE_ACC_PARENT)
            return mmd_fail(err, MMD_E_BAD_VALUE, "%s:%d: model '%s' (%s) has no bone '%s'", s->path,
                            sa->parent_line, s->models[model].name, s->models[model].file, bone);
        return mmd_fail(err, MMD_E_BAD_VALUE, "%s: parent bone '%s' is not in the first model (%s)", sa->file, bone,
                        s->models[model].file);
    }
    ra->parent_slot = model;
    ra->parent_bone = b;
    return MMD_OK;
}

static mmd_status load_one(const mmd_scene *s, int i, mmd_model *const *models, bool allow_outside,
                           mmd_scene_accessories *out, mmd_error *e)
{
    const mmd_scene_accessory *sa = &s->accessories[i];
    char x_path[4096];
    mmd_vac v;
    const mmd_sniff_row *f = mmd_sniff_path(sa->file);
    bool vac = f && f->kind == MMD_KIND_PLACEMENT;
    snprintf(x_path, sizeof x_path, "%s", sa->file);
    mmd_status st = vac ? load_vac(sa, allow_outside, x_path, sizeof x_path, &v, e) : MMD_OK;
    if (st != MMD_OK)
        return st;
    mmd_error err;
    if (mmd_accessory_load_file(x_path, &out->meshes[i], &err) != MMD_OK) {
        char buf[500];
        mmd_error_format(&err, x_path, buf, sizeof buf);
        return mmd_fail(e, err.status, "%s", buf);
    }
    char dir[4096];
    if (mmd_texpath_model_dir(x_path, dir, sizeof dir) != 0 || !(out->dirs[i] = strdup(dir)))
        return mmd_fail(e, MMD_E_NOMEM, "%s: path too long or out of memory", x_path);
    mmd_render_accessory *ra = &out->place[i];
    ra->place = sa->place;
    if (vac)
        apply_vac(sa, &v, ra);
    out->names[i] = sa->name[0] ? sa->name : sa->file;
    out->keys[i] = sa->keys;
    out->key_count[i] = sa->key_count;
    if ((st = parent_of(s, sa, vac ? &v : NULL, models, ra, e)) != MMD_OK)
        return st;
    out->base[i] = *ra;
    return bind_parents(s, sa, models, i, out, e);
}

mmd_status mmd_scene_accessories_load(const mmd_scene *s, mmd_model *const *models, bool allow_outside,
                                      mmd_scene_accessories *out, mmd_error *err)
{
    memset(out, 0, sizeof *out);
    for (int i = 0; i < s->accessory_count; i++) {
        out->count = i + 1;
        mmd_status st = load_one(s, i, models, allow_outside, out, err);
        if (st != MMD_OK)
            return st;
    }
    return MMD_OK;
}

mmd_status mmd_scene_accessories_attach(const mmd_scene_accessories *a, mmd_renderer *r, mmd_error *err)
{
    for (int i = 0; i < a->count; i++) {
        mmd_status st = mmd_renderer_add_accessory(r, a->meshes[i], a->dirs[i], a->names[i], err);
        if (st != MMD_OK)
            return st;
    }
    mmd_renderer_place_accessories(r, a->place, (size_t)a->count);
    return MMD_OK;
}

void mmd_scene_accessories_free(mmd_scene_accessories *a)
{
    for (int i = 0; i < a->count; i++) {
        mmd_accessory_mesh_free(a->meshes[i]);
        free(a->dirs[i]);
        free(a->parents[i]);
    }
    memset(a, 0, sizeof *a);
}

bool mmd_scene_accessories_use_screen(const mmd_scene_accessories *a)
{
    for (int i = 0; i < a->count; i++)
        for (uint32_t k = 0; a->meshes[i] && k < a->meshes[i]->material_count; k++) {
            const char *t = a->meshes[i]->materials[k].texture, *b = t;
            for (const char *q = t; *q; q++)
                if (*q == '/' || *q == '\\')
                    b = q + 1;
            if (!strcasecmp(b, "screen.bmp"))
                return true;
        }
    return false;
}

bool mmd_scene_accessories_animated(const mmd_scene_accessories *a)
{
    for (int i = 0; i < a->count; i++)
        if (a->key_count[i] > 0 || a->parents[i])
            return true;
    return false;
}

/* The keys' placement at t (binary search: a key track may be long). */
static void keys_at(const mmd_scene_acc_key *k, int n, double t, mmd_accessory_place *out)
{
    if (t <= k[0].frame || n == 1) {
        *out = k[0].place;
        return;
    }
    if (t >= k[n - 1].frame) {
        *out = k[n - 1].place;
        return;
    }
    int lo = 0, hi = n - 1; /* k[lo].frame <= t < k[hi].frame */
    while (hi - lo > 1) {
        int mid = lo + (hi - lo) / 2;
        if (k[mid].frame <= t)
            lo = mid;
        else
            hi = mid;
    }
    double s = (t - k[lo].frame) / (k[hi].frame - k[lo].frame);
    mmd_accessory_place_mix(&k[lo].place, &k[hi].place, (float)s, out);
}

void mmd_scene_accessories_at(mmd_scene_accessories *a, double t)
{
    for (int i = 0; i < a->count; i++) {
        mmd_render_accessory *ra = &a->place[i];
        *ra = a->base[i];
        if (a->key_count[i] > 0) {
            keys_at(a->keys[i], a->key_count[i], t, &ra->place);
            ra->place.add_blend = a->base[i].place.add_blend;
            ra->place.after_models = a->base[i].place.after_models;
        }
        if (!a->parents[i])
            continue;
        ra->parent_slot = -1;
        ra->parent_bone = -1;
        for (int k = 0; k < a->parent_count[i] && a->parents[i][k].frame <= t; k++) {
            ra->parent_slot = a->parents[i][k].slot;
            ra->parent_bone = a->parents[i][k].bone;
        }
    }
}
