/* renderer/cli/render_fx.c - the scene's post effects ([effects] post =
 * FILE.fx, render_run.h): each parsed and made an instance on the renderer's
 * context once per run (a failure: one warning and the effect skipped, or
 * with --strict-effects the run's error), then applied in order to every
 * frame after the renderer's own passes and before the output. MME loads a
 * post effect as an accessory: the scene's [accessory] whose file is the
 * effect's same-named .x is its controller ("(self)": Si, Tr, X/Y/Z, Rx/Ry/Rz,
 * visibility; hidden, the effect is not applied). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/fx.h"
#include "renderer/base/msg.h"
#include "renderer/cli/commands.h"
#include "renderer/cli/render_run.h"
#include "renderer/gl/fx_runtime.h"
#include "renderer/image/texpath.h"

typedef struct render_fx {
    mmd_fx *fx[MMD_SCENE_MAX_POST_EFFECTS];
    mmd_fx_effect *effect[MMD_SCENE_MAX_POST_EFFECTS];
    int controller[MMD_SCENE_MAX_POST_EFFECTS]; /* accessory slot, -1 none */
    char self_name[MMD_SCENE_MAX_POST_EFFECTS][256];
    int count;
    mmd_fx_post *post;
} render_fx;

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

/* The [accessory] whose file is the effect's name with .x: its slot, -1 none. */
static int find_controller(const mmd_scene *s, const char *fx_path, char *name, size_t size)
{
    const char *b = base_name(fx_path);
    const char *dot = strrchr(b, '.');
    size_t n = dot ? (size_t)(dot - b) : strlen(b);
    snprintf(name, size, "%.*s.x", (int)n, b);
    for (int i = 0; i < s->accessory_count; i++)
        if (!strcasecmp(base_name(s->accessories[i].file), name))
            return i;
    return -1;
}

static GLuint effect_texture(void *user, const char *dir, const char *name)
{
    return mmd_renderer_texture_file(user, dir, name, "post effect");
}

/* One post effect; MMD_OK with *e NULL when it failed and is skipped. */
static mmd_status open_one(render_job *j, const render_args *a, render_fx *r, const char *path, mmd_error *err)
{
    int k = r->count;
    mmd_error why = {0};
    char dir[4096];
    mmd_status s = mmd_cli_fx_load(path, &r->fx[k], &why);
    if (s == MMD_OK && mmd_texpath_model_dir(path, dir, sizeof dir) != 0)
        s = mmd_fail(&why, MMD_E_LIMIT, "%s: path too long", path);
    if (s == MMD_OK) {
        mmd_fx_effect_config c = {.gl = mmd_renderer_api(j->renderer), .width = j->scene->width,
                                  .height = j->scene->height, .alpha = j->scene->transparent,
                                  .dir = dir, .texture = effect_texture, .texture_user = j->renderer};
        s = mmd_fx_effect_create(r->fx[k], &c, &r->effect[k], &why);
    }
    if (s != MMD_OK) {
        mmd_fx_free(r->fx[k]);
        r->fx[k] = NULL;
        if (a->strict_effects)
            return mmd_fail(err, s, "post effect %s: %s", path, why.msg);
        if (!a->quiet)
            mmd_msg_print(stderr, "mmdrender: warning: post effect %s skipped: %s\n", path, why.msg);
        return MMD_OK;
    }
    r->controller[k] = find_controller(j->scene, path, r->self_name[k], sizeof r->self_name[k]);
    r->count++;
    return MMD_OK;
}

mmd_status mmd_render_open_effects(render_job *j, const render_args *a, mmd_error *err)
{
    const mmd_scene *s = j->scene;
    mmd_status os = mmd_render_open_object_effects(j, a, err); /* render_fx_object.c */
    if (os != MMD_OK || !s->post_effect_count)
        return os;
    render_fx *r = calloc(1, sizeof *r);
    if (!r)
        return mmd_fail(err, MMD_E_NOMEM, "out of memory");
    j->fx = r;
    for (int i = 0; i < s->post_effect_count; i++) {
        mmd_status st = open_one(j, a, r, s->post_effects[i], err);
        if (st != MMD_OK)
            return st;
    }
    if (r->count)
        return mmd_fx_post_create(mmd_renderer_api(j->renderer), s->width, s->height, &r->post, err);
    return MMD_OK;
}

void mmd_render_free_effects(render_job *j)
{
    mmd_render_free_object_effects(j);
    render_fx *r = j->fx;
    if (!r)
        return;
    for (int i = 0; i < r->count; i++) {
        mmd_fx_effect_free(r->effect[i]);
        mmd_fx_free(r->fx[i]);
    }
    mmd_fx_post_free(r->post);
    free(r);
    j->fx = NULL;
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
        const float *world = mmd_anim_world(a); /* column-major: D3D's row-major order (d3d_matrices) */
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

static void controller_state(const render_job *j, int slot, mmd_fx_control *c)
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

mmd_status mmd_render_apply_effects(render_job *j, double t, const mmd_camera_state *cam,
                                    const mmd_light_state *light, mmd_error *err)
{
    mmd_status os = mmd_render_object_effects_status(j, err); /* a draw of the frame's object effects */
    render_fx *r = j->fx;
    if (os != MMD_OK || !r || !r->count)
        return os;
    mmd_fx_frame f;
    mmd_render_fx_frame(j, t, cam, light, &f);
    for (int i = 0; i < r->count; i++) { /* one at a time: each has its own controller */
        controller_state(j, r->controller[i], &f.self);
        f.self_name = r->controller[i] >= 0 ? r->self_name[i] : NULL;
        if (f.self.found && !f.self.visible)
            continue; /* MME: a hidden post effect's accessory turns it off */
        mmd_status s = mmd_fx_post_run(r->post, &r->effect[i], 1, &f, j->rgba, err);
        if (s != MMD_OK)
            return s;
    }
    return MMD_OK;
}
