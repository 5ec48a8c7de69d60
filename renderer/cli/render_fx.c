/* renderer/cli/render_fx.c - the run's post effects (render_run.h), in MME's
 * order (docs/effects.md "Where effects come from"): the scene's
 * `[effects] post = FILE.fx` entries in their order, then each accessory
 * whose effect is a post effect (ScriptOrder "postprocess": its `effect =`,
 * a project's .emm AcsN or the same-named .fx beside its .x; MME loads a post
 * effect as an accessory and applies them in the accessories' draw order,
 * the scene's accessory order). Each is made an instance on the renderer's
 * context once per run (a failure: one warning and the effect skipped, or
 * with --strict-effects the run's error), then applied to every frame after
 * the renderer's own passes and before the output. Each effect has its
 * controller accessory ("(self)": Si, Tr, X/Y/Z, Rx/Ry/Rz, visibility;
 * hidden, the effect is not applied): an accessory's own effect that
 * accessory, a `post` entry the [accessory] whose file is the effect's
 * same-named .x. A `post` entry that is its controller's own effect (the same
 * file) is that accessory's one post effect, applied once, at the entry's
 * place. An effect file is parsed once: the stage's parse of an accessory's
 * effect is used here. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/fx.h"
#include "renderer/base/fs.h"
#include "renderer/base/msg.h"
#include "renderer/cli/commands.h"
#include "renderer/cli/render_run.h"
#include "renderer/gl/fx_runtime.h"
#include "renderer/image/texpath.h"
#include "renderer/scene/effect_file.h"

/* Accessories' own post effects applied in a run (docs/limits.md): each has
 * render targets of its own (frame-sized, a dozen in a large effect), so 256
 * accessories each carrying one would hold thousands of frames of GPU
 * memory; 16, as many as `[effects] post` entries, is more than MME chains
 * users build (a handful). Past it: one warning each and the effect is not
 * applied, with --strict-effects the run's error. */
#define RUN_ACC_POST_MAX 16
#define RUN_POST_MAX (MMD_SCENE_MAX_POST_EFFECTS + RUN_ACC_POST_MAX)

typedef struct render_fx {
    mmd_fx *own[RUN_POST_MAX]; /* parsed here (freed here); NULL: the stage's parse */
    mmd_fx_effect *effect[RUN_POST_MAX];
    int controller[RUN_POST_MAX]; /* accessory slot, -1 none */
    char self_name[RUN_POST_MAX][256];
    int count;
    int acc_count; /* accessories' own post effects opened (at most RUN_ACC_POST_MAX) */
    bool taken[MMD_SCENE_MAX_ACCESSORIES]; /* the accessory's own post effect is in the list */
    mmd_fx_post *post;
    mmd_fx_frame frame; /* the frame being drawn (mmd_render_prepare_effects) */
    render_job *job;
} render_fx;

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

/* The [accessory] whose file is the effect's name with .x: its slot, -1 none. */
static int find_controller(const mmd_scene *s, const char *fx_path)
{
    const char *b = base_name(fx_path);
    const char *dot = strrchr(b, '.');
    size_t n = dot ? (size_t)(dot - b) : strlen(b);
    char name[256];
    snprintf(name, sizeof name, "%.*s.x", (int)n, b);
    for (int i = 0; i < s->accessory_count; i++)
        if (!strcasecmp(base_name(s->accessories[i].file), name))
            return i;
    return -1;
}

static GLuint effect_texture(void *user, const char *dir, const char *name, GLenum *target)
{
    const render_fx_files *f = user;
    unsigned t;
    GLuint tex = mmd_renderer_texture_file(f->renderer, dir, f->root[0] ? f->root : NULL, name, f->owner, &t);
    *target = t;
    return tex;
}

mmd_status mmd_render_fx_config(render_job *j, const char *path, const char *owner, render_fx_files *f,
                                mmd_fx_effect_config *c, mmd_error *err)
{
    const mmd_effect_reads *reads = mmd_stage_effect_reads(j->stage);
    *f = (render_fx_files){.renderer = j->renderer, .owner = owner};
    if (mmd_texpath_model_dir(path, f->dir, sizeof f->dir) != 0)
        return mmd_fail(err, MMD_E_LIMIT, "%s: path too long", path);
    if (!reads->allow_outside && mmd_texpath_effect_root(path, reads->namer_dir, f->root, sizeof f->root) != 0)
        return mmd_fail(err, MMD_E_IO, "%s: cannot resolve its folder", path);
    const mmd_scene *s = j->scene;
    *c = (mmd_fx_effect_config){.gl = mmd_renderer_api(j->renderer), .width = s->width, .height = s->height,
                                .alpha = s->transparent, .dir = f->dir, .texture = effect_texture,
                                .texture_user = f, .target_bytes_left = &j->fx_targets_left};
    return MMD_OK;
}

/* Texture semantics the runtime does not make yet (MikuMikuEffect part 2): the
 * effect runs, and a sampler reading such a texture reads 0. */
static const char *const k_later_semantics[] = {"OFFSCREENRENDERTARGET", "ANIMATEDTEXTURE"};

static void warn_later(const render_args *a, const mmd_fx *fx)
{
    for (uint32_t i = 0; i < fx->texture_count && !a->quiet; i++)
        for (size_t k = 0; fx->textures[i].semantic && k < sizeof k_later_semantics / sizeof *k_later_semantics; k++)
            if (!strcasecmp(fx->textures[i].semantic, k_later_semantics[k]))
                mmd_msg_print(stderr,
                              "mmdrender: warning: post effect %s:%d: %s %s is not supported yet: its samplers "
                              "read 0, so the effect does not look as in MikuMikuEffect\n",
                              fx->textures[i].loc.file, (int)fx->textures[i].loc.line, k_later_semantics[k],
                              fx->textures[i].name);
}

/* A post effect that is not applied: one warning and skipped (MMD_OK), or
 * with --strict-effects the run's error. */
static mmd_status skipped(const render_args *a, mmd_status s, const char *path, const char *why, mmd_error *err)
{
    if (a->strict_effects)
        return mmd_fail(err, s, "post effect %s: %s", path, why);
    if (!a->quiet)
        mmd_msg_print(stderr, "mmdrender: warning: post effect %s skipped: %s\n", path, why);
    return MMD_OK;
}

/* One post effect (fx; own: the same when ours to free, also on failure)
 * with its controller slot (-1 none). MMD_OK without adding it when it
 * failed and is skipped. */
static mmd_status open_one(render_job *j, const render_args *a, render_fx *r, const char *path, mmd_fx *fx,
                           mmd_fx *own, int controller, mmd_error *err)
{
    int k = r->count;
    mmd_error why = {0};
    render_fx_files files;
    mmd_fx_effect_config c;
    r->own[k] = own;
    mmd_status s = mmd_render_fx_config(j, path, "post effect", &files, &c, &why);
    if (s == MMD_OK)
        s = mmd_fx_effect_create(fx, &c, &r->effect[k], &why);
    if (s != MMD_OK) {
        mmd_fx_free(r->own[k]);
        r->own[k] = NULL;
        return skipped(a, s, path, why.msg, err);
    }
    warn_later(a, fx);
    r->controller[k] = controller;
    if (controller >= 0)
        snprintf(r->self_name[k], sizeof r->self_name[k], "%s", base_name(j->scene->accessories[controller].file));
    r->count++;
    return MMD_OK;
}

/* A `post` entry: its controller's own post effect when it is the same file
 * (applied once, here); any drawable's parse of the same file is used (a
 * model carrying a post effect: the one [effects] post draws). */
static mmd_status open_entry(render_job *j, const render_args *a, render_fx *r, const char *path, mmd_error *err)
{
    int c = find_controller(j->scene, path);
    mmd_fx *fx = NULL;
    for (int i = 0; i < j->scene->model_count && !fx; i++)
        if (j->stage->model_effects[i].fx && mmd_same_file(j->stage->model_effects[i].file, path))
            fx = j->stage->model_effects[i].fx;
    for (int i = 0; i < j->scene->accessory_count; i++) {
        const mmd_stage_effect *e = &j->stage->acc_effects[i];
        if (!e->fx || !mmd_same_file(e->file, path))
            continue;
        fx = e->fx;
        if (i == c && e->order == MMD_FX_ORDER_POSTPROCESS)
            r->taken[c] = true;
        if (i == c && e->order == MMD_FX_ORDER_PREPROCESS)
            return MMD_OK; /* its controller runs it (render_fx_pre.c) */
    }
    mmd_fx *own = NULL;
    mmd_error why = {0};
    mmd_status s = fx ? MMD_OK : mmd_effect_file_load(path, mmd_stage_effect_reads(j->stage), &own, &why);
    if (s != MMD_OK)
        return skipped(a, s, path, why.msg, err);
    fx = fx ? fx : own;
    if (mmd_fx_script_order(fx) == MMD_FX_ORDER_PREPROCESS) /* MME: before the objects */
        return mmd_render_add_pre_effect(j, a, path, fx, own, c, err);
    return open_one(j, a, r, path, fx, own, c, err);
}

/* Accessory i's own post effect, unless a `post` entry took it; its effect
 * that did not parse is the run's error under --strict-effects (the stage
 * warned otherwise). */
static mmd_status open_accessory(render_job *j, const render_args *a, render_fx *r, int i, mmd_error *err)
{
    const mmd_stage_effect *e = &j->stage->acc_effects[i];
    if (e->error && a->strict_effects)
        return mmd_fail(err, MMD_E_BAD_STRUCTURE, "accessory '%s': effect %s: %s", j->scene->accessories[i].name,
                        e->file, e->error);
    if (!e->fx || e->order != MMD_FX_ORDER_POSTPROCESS || r->taken[i])
        return MMD_OK;
    r->taken[i] = true;
    if (r->acc_count >= RUN_ACC_POST_MAX) {
        mmd_error why = {0};
        mmd_fail(&why, MMD_E_LIMIT, "accessory '%s': post effect %s is not applied: more than %d accessories' post "
                 "effects (each has render targets of its own; docs/limits.md)",
                 base_name(j->scene->accessories[i].file), e->file, RUN_ACC_POST_MAX);
        if (a->strict_effects)
            return mmd_fail(err, MMD_E_LIMIT, "%s", why.msg);
        if (!a->quiet)
            mmd_msg_print(stderr, "mmdrender: warning: %s\n", why.msg);
        return MMD_OK;
    }
    r->acc_count++;
    return open_one(j, a, r, e->file, e->fx, NULL, i, err);
}

static unsigned model_item(void *user, const char *object, const char *item, const char *type, float out[16]);

void mmd_render_fx_frame(const render_job *j, double t, const mmd_camera_state *cam, const mmd_light_state *light,
                         mmd_fx_frame *f)
{
    const mmd_scene *s = j->scene;
    memset(f, 0, sizeof *f);
    f->width = s->width;
    f->height = s->height;
    f->time = t / 30.0; /* VMD frames -> seconds: the same at any fps, rerun or chunk */
    f->elapsed = (double)s->fps_den / (double)s->fps_num;
    float view[16], proj[16];
    mmd_camera_matrices(cam, (float)s->width / (float)s->height, view, proj);
    mmd_fx_frame_camera(f, view, proj);
    memcpy(f->camera_position, cam->eye, sizeof f->camera_position);
    for (int i = 0; i < 3; i++) {
        f->camera_direction[i] = cam->target[i] - cam->eye[i];
        f->light_direction[i] = light->direction[i];
        f->light_position[i] = -light->direction[i] * 1000.0f; /* MME: the light's position far along it */
        f->light_color[i] = light->color[i];
    }
    float n = sqrtf(f->camera_direction[0] * f->camera_direction[0] + f->camera_direction[1] * f->camera_direction[1] +
                    f->camera_direction[2] * f->camera_direction[2]);
    for (int i = 0; i < 3 && n > 0; i++)
        f->camera_direction[i] /= n;
    f->item = model_item;
    f->item_user = (void *)j;
}

/* CONTROLOBJECT naming a model of the scene by its file name (semantics.h). */
static unsigned model_item(void *user, const char *object, const char *item, const char *type, float out[16])
{
    const render_job *j = user;
    const mmd_scene *s = j->scene;
    for (int i = 0; i < s->model_count; i++) {
        if (strcasecmp(base_name(s->models[i].file), object))
            continue;
        const mmd_model *m = j->stage->models[i];
        const mmd_anim *a = j->stage->anims[i];
        if (!item) {
            out[0] = mmd_anim_visible(a) ? 1.0f : 0.0f;
            return 1;
        }
        const float *w = mmd_anim_morph_weights_raw(a);
        for (uint32_t k = 0; k < m->morph_count; k++)
            if (!strcmp(m->morphs[k].name, item)) {
                out[0] = w ? w[k] : 0.0f;
                return 1;
            }
        const float *world = mmd_anim_world(a); /* column-major: D3D's row-major order (mmd_fx_frame_camera) */
        for (uint32_t k = 0; k < m->bone_count; k++)
            if (!strcmp(m->bones[k].name, item)) {
                bool matrix = !strcasecmp(type, "float4x4") || !strcasecmp(type, "matrix");
                memcpy(out, world + (size_t)k * 16, (matrix ? 16 : 3) * sizeof *out);
                if (matrix)
                    return 16;
                out[3] = 1.0f;
                return 4;
            }
        return 0;
    }
    return 0;
}

void mmd_render_fx_controller(const render_job *j, int slot, mmd_fx_control *c)
{
    memset(c, 0, sizeof *c);
    if (slot < 0)
        return;
    const mmd_accessory_place *p = &j->stage->acc.place[slot].place;
    c->found = true;
    c->visible = p->visible;
    c->si = p->scale;
    c->tr = p->opacity;
    for (int i = 0; i < 3; i++) {
        c->position[i] = p->position[i];
        c->rotation[i] = p->rotation[i] * (float)(M_PI / 180.0);
    }
}

/* The renderer's frame hook (render.h): the post effects in order over its
 * frame, each with its own controller. */
static mmd_status run_post(void *user, unsigned frame, unsigned *out, mmd_error *err)
{
    render_fx *r = user;
    mmd_fx_frame *f = &r->frame;
    for (int i = 0; i < r->count; i++) {
        mmd_render_fx_controller(r->job, r->controller[i], &f->self);
        f->self_name = r->controller[i] >= 0 ? r->self_name[i] : NULL;
        if (f->self.found && !f->self.visible)
            continue; /* MME: a hidden post effect's accessory turns it off */
        mmd_status s = mmd_fx_post_apply(r->post, r->effect[i], f, &frame, err);
        if (s != MMD_OK)
            return s;
    }
    *out = frame;
    return MMD_OK;
}

mmd_status mmd_render_open_effects(render_job *j, const render_args *a, mmd_error *err)
{
    const mmd_scene *s = j->scene;
    mmd_status os = mmd_render_open_object_effects(j, a, err); /* render_fx_object.c */
    if (os == MMD_OK)
        os = mmd_render_open_pre_effects(j, a, err); /* render_fx_pre.c */
    if (os != MMD_OK)
        return os;
    bool any = s->post_effect_count > 0;
    for (int i = 0; i < s->accessory_count && !any; i++)
        any = j->stage->acc_effects[i].file != NULL;
    if (!any)
        return MMD_OK;
    render_fx *r = calloc(1, sizeof *r);
    if (!r)
        return mmd_fail(err, MMD_E_NOMEM, "out of memory");
    j->fx = r;
    mmd_status st = MMD_OK;
    for (int i = 0; st == MMD_OK && i < s->post_effect_count; i++)
        st = open_entry(j, a, r, s->post_effects[i], err);
    for (int i = 0; st == MMD_OK && i < s->accessory_count; i++)
        st = open_accessory(j, a, r, i, err);
    if (st == MMD_OK && r->count) {
        st = mmd_fx_post_create(mmd_renderer_api(j->renderer), &r->post, err);
        r->job = j;
        if (st == MMD_OK)
            mmd_renderer_set_frame_hook(j->renderer, run_post, r);
    }
    return st;
}

void mmd_render_free_effects(render_job *j)
{
    mmd_render_free_object_effects(j);
    mmd_render_free_pre_effects(j);
    render_fx *r = j->fx;
    if (!r)
        return;
    for (int i = 0; i < r->count; i++) {
        mmd_fx_effect_free(r->effect[i]);
        mmd_fx_free(r->own[i]);
    }
    mmd_fx_post_free(r->post);
    free(r);
    j->fx = NULL;
}

void mmd_render_prepare_effects(render_job *j, double t, const mmd_camera_state *cam, const mmd_light_state *light)
{
    mmd_render_pre_effects_frame(j, t, cam, light);
    render_fx *r = j->fx;
    if (!r || !r->count)
        return;
    mmd_render_fx_frame(j, t, cam, light, &r->frame);
}
