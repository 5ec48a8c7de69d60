/* renderer/cli/render_gl.c - the renderer for the render command's scene
 * (render_run.h): its options from the scene and the command line, the
 * --max-memory check, the GL context, and the stage's models, the background
 * and the accessories handed in. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "renderer/base/msg.h"
#include "renderer/cli/commands.h"
#include "renderer/cli/memory.h"
#include "renderer/cli/render_run.h"
#include "renderer/image/texpath.h"

/* The renderer's options from the scene and the command line. */
static void render_options(const render_job *j, const render_args *a, mmd_render_options *out)
{
    const mmd_scene *s = j->scene;
    mmd_render_options ro;
    mmd_render_options_default(&ro);
    ro.width = s->width;
    ro.height = s->height;
    ro.samples = s->antialias;
    ro.background[0] = s->background[0];
    ro.background[1] = s->background[1];
    ro.background[2] = s->background[2];
    ro.background[3] = s->transparent ? 0.0f : 1.0f;
    ro.transparent = s->transparent;
    ro.backend = a->gl;
    ro.threads = a->threads;
    ro.allow_outside_assets = a->allow_outside;
    ro.quiet = a->quiet;
    ro.warn = mmd_cli_warn;
    ro.cancel = mmd_render_stop_flag(); /* a signal stops a frame between material draws */
    if (a->texture_mib > 0)
        ro.texture_budget = (size_t)a->texture_mib << 20;
    ro.ground_shadow = s->ground_shadow;
    ro.ground_shadow_brightness = s->ground_shadow_brightness;
    ro.ground_shadow_translucent = s->ground_shadow_translucent;
    ro.pmd_edge_color_set = s->has_edge_color;
    memcpy(ro.pmd_edge_color, s->edge_color, sizeof ro.pmd_edge_color);
    ro.texture_filter = s->texture_filter;
    ro.effects = s->effects;
    *out = ro;
}

/* What the render will hold against --max-memory (renderer/cli/memory.h),
 * before the GL context and any input: over it is refused up front (exit 1),
 * --print-plan too (a farm learns at planning time). *texture_budget: what
 * decoded textures may take. */
mmd_status mmd_render_check_memory(render_job *j, const render_args *a, const mmd_output_kind *kind,
                                   size_t *texture_budget, mmd_error *err)
{
    mmd_render_options ro;
    render_options(j, a, &ro);
    mmd_output_request req = mmd_render_base_request(j, a);
    mmd_memory_plan mem;
    mmd_status s = mmd_memory_check(&ro, kind, &req, (uint64_t)a->max_memory_mib << 20, a->texture_mib > 0, &mem, err);
    if (s == MMD_OK)
        *texture_budget = (size_t)mem.textures;
    uint64_t cap = (uint64_t)a->max_memory_mib << 20;
    j->fx_targets_left = cap > mem.total ? cap - mem.total : 0;
    return s;
}

/* The GL context and targets, before any input is loaded: a size or MSAA
 * level the GL cannot hold is refused up front (exit 1). */
mmd_status mmd_render_open_renderer(render_job *j, const render_args *a, size_t texture_budget, mmd_error *err)
{
    mmd_render_options ro;
    render_options(j, a, &ro);
    ro.texture_budget = texture_budget;
    mmd_error why;
    mmd_status s = mmd_renderer_create(&ro, &j->renderer, &why);
    return s == MMD_OK ? s : mmd_fail(err, s, "GL: %s", why.msg);
}

/* The stage's models into the renderer with their look, the background image and video. */
static mmd_status add_models(render_job *j, mmd_error *err)
{
    const mmd_scene *s = j->scene;
    mmd_error why;
    for (int i = 0; i < s->model_count; i++) {
        char dir[4096];
        mmd_status st = MMD_E_GL;
        if (mmd_texpath_model_dir(s->models[i].file, dir, sizeof dir) == 0)
            st = mmd_renderer_add_model(j->renderer, j->stage->models[i], dir, &why);
        else
            mmd_fail(&why, st, "model path is too long");
        if (st != MMD_OK)
            return mmd_fail(err, st, "%s: %s", s->models[i].file, why.msg);
        mmd_renderer_set_look(j->renderer, (size_t)i, &s->models[i].look);
    }
    if (s->bg_image && mmd_renderer_set_background(j->renderer, s->bg_image, s->bg_offset, s->bg_scale, &why) != MMD_OK)
        return mmd_fail(err, why.status, "background image: %s", why.msg);
    if (s->bg_video && mmd_bgvideo_open(s->bg_video, &j->bgvideo, &why) != MMD_OK) /* render on without it */
        mmd_msg_print(stderr, "mmdrender: warning: background video not drawn: %s\n", why.msg);
    return MMD_OK;
}

/* The models, background and accessories into the renderer (the accessories
 * attach here, in the CLI: the stage needs no GL), and the frame buffer. */
mmd_status mmd_render_add_models(render_job *j, mmd_error *err)
{
    mmd_status s = add_models(j, err);
    if (s != MMD_OK)
        return s;
    mmd_error why;
    if ((s = mmd_scene_accessories_attach(&j->stage->acc, j->renderer, &why)) != MMD_OK)
        return mmd_fail(err, s, "accessory: %s", why.msg);
    j->rgba = malloc((size_t)j->scene->width * (size_t)j->scene->height * 4);
    if (!j->rgba)
        return mmd_fail(err, MMD_E_GL, "out of memory"); /* exit 3, as before the stage */
    return MMD_OK;
}
