/* renderer/cli/render_run.h - the pieces of `mmdrender SCENE -o OUT` (cmd_render.c):
 *
 *   cmd_render.c     options -> scene -> stage -> plan -> outputs -> frame loop (the command)
 *   render_gl.c      the renderer for a scene: its options, the --max-memory check, the
 *                    context, the models, background and accessories handed in
 *   render_output.c  the output: its kind, its own limits, input/output clashes, opening it
 *   render_loop.c    signals, the physics pre-roll thread, the frame loop, closing and the report
 *
 * Below the command's top every function returns mmd_status with err->msg the
 * sentence printed after "mmdrender: " (the top prints it and turns the status
 * into the exit code, exit.c). For the CLI's files only.
 */
#ifndef MMD_RENDERER_CLI_RENDER_RUN_H
#define MMD_RENDERER_CLI_RENDER_RUN_H

#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "renderer/cli/outputs.h"
#include "renderer/cli/progress.h"
#include "renderer/gl/render.h"
#include "renderer/output/bgvideo.h"
#include "renderer/output/sink.h"
#include "renderer/scene/plan.h"
#include "renderer/scene/scene.h"
#include "renderer/scene/stage.h"

typedef struct render_args {
    const char *scene, *out, *codec, *preset, *frames, *size, *fps, *aa, *background, *chunk;
    const char *ssaa, *soft_shadow, *texture_filter;
    int crf, threads, texture_mib, max_memory_mib;
    bool glow, diffusion, fxaa, strict_effects;
    bool quiet, skip_existing, no_physics, no_audio, allow_outside, stats, print_plan;
    int progress;
    mmd_gl_backend gl;
} render_args;

typedef struct render_job {
    const mmd_scene *scene;    /* the caller's, command-line values applied */
    mmd_stage *stage;          /* models, anims, physics, accessories, camera (stage.h) */
    mmd_renderer *renderer;
    mmd_bgvideo *bgvideo;      /* [background] video, NULL when none or unreadable */
    mmd_sink *sink;
    mmd_progress *progress;
    uint8_t *rgba;
    struct render_fx *fx;      /* [effects] post = FILE.fx (render_fx.c), NULL when none */
    struct render_objfx *objfx; /* the models' object effects (render_fx_object.c), NULL when none */
    struct render_fxpre *fxpre; /* the accessories' preprocess effects (render_fx_pre.c), NULL when none */
    double t_begin;            /* the command's start (mmd_render_clock) */
    uint64_t fx_targets_left;  /* what effects' render targets may still take: --max-memory less the
                                  estimate (mmd_render_check_memory); each effect's are charged whole */
} render_job;

/* render_gl.c */
mmd_status mmd_render_check_memory(render_job *j, const render_args *a, const mmd_output_kind *kind,
                                   size_t *texture_budget, mmd_error *err);
mmd_status mmd_render_open_renderer(render_job *j, const render_args *a, size_t texture_budget, mmd_error *err);
mmd_status mmd_render_add_models(render_job *j, mmd_error *err);

/* render_fx.c: the scene's post effects on the renderer's context (after
 * mmd_render_open_renderer); a failing one is skipped with a warning, or
 * with --strict-effects the error. They run as the renderer's frame hook on
 * each frame, with the state mmd_render_prepare_effects gave before it. */
mmd_status mmd_render_open_effects(render_job *j, const render_args *a, mmd_error *err);
void mmd_render_prepare_effects(render_job *j, double t, const mmd_camera_state *cam, const mmd_light_state *light);
void mmd_render_free_effects(render_job *j);
/* The frame's state as MME's semantics read it (renderer/fx/semantics.h):
 * time from t (VMD frames), D3D's camera matrices, light, CONTROLOBJECT of
 * the scene's models. */
struct mmd_fx_frame;
void mmd_render_fx_frame(const render_job *j, double t, const mmd_camera_state *cam, const mmd_light_state *light,
                         struct mmd_fx_frame *f);

/* The controller accessory slot's state as CONTROLOBJECT "(self)" reads it
 * (slot -1: none, not found). */
struct mmd_fx_control;
void mmd_render_fx_controller(const render_job *j, int slot, struct mmd_fx_control *c);

/* render_fx_pre.c: the accessories' ScriptOrder "preprocess" effects (the
 * stage's parse), opened within mmd_render_open_effects, run as the
 * renderer's pre hook before the objects of each frame with the state
 * mmd_render_prepare_effects gave (a failing one: a warning and skipped, or
 * with --strict-effects the error). */
mmd_status mmd_render_open_pre_effects(render_job *j, const render_args *a, mmd_error *err);
void mmd_render_pre_effects_frame(render_job *j, double t, const mmd_camera_state *cam,
                                  const mmd_light_state *light);
void mmd_render_free_pre_effects(render_job *j);
/* An `[effects] post` entry whose ScriptOrder is "preprocess" (render_fx.c):
 * run with the accessories' preprocess effects, after them; fx its parse,
 * own the same when it is ours (freed by the list, also on failure),
 * controller its same-named accessory slot or -1. */
mmd_status mmd_render_add_pre_effect(render_job *j, const render_args *a, const char *path, const mmd_fx *fx,
                                     mmd_fx *own, int controller, mmd_error *err);
/* An effect's instance config on the job's renderer (gl/fx_runtime.h): its
 * ResourceName textures read through the renderer's texture library from
 * the effect's folder, confined to its root (image/texpath.h
 * mmd_texpath_effect_root, as its #includes are; none with
 * --allow-outside-assets), warnings naming owner. f holds what c points to:
 * it must outlive mmd_fx_effect_create. */
typedef struct render_fx_files {
    struct mmd_renderer *renderer;
    const char *owner;
    char dir[4096];
    char root[4096]; /* "": not confined */
} render_fx_files;
struct mmd_fx_effect_config;
mmd_status mmd_render_fx_config(render_job *j, const char *path, const char *owner, render_fx_files *f,
                                struct mmd_fx_effect_config *c, mmd_error *err);

/* render_fx_object.c: the models' object effects (st->model_effects), opened
 * after the models are added (within mmd_render_open_effects) with the
 * renderer's pass hook set (none without an effect: the very renderer of
 * before); the frame's state is handed over before each render, a draw's GL
 * failure read after it (render_loop.c). */
mmd_status mmd_render_open_object_effects(render_job *j, const render_args *a, mmd_error *err);
void mmd_render_object_effects_frame(render_job *j, double t, const mmd_camera_state *cam,
                                     const mmd_light_state *light);
mmd_status mmd_render_object_effects_status(render_job *j, mmd_error *err);
void mmd_render_free_object_effects(render_job *j);

/* render_output.c */
const mmd_output_kind *mmd_render_output_kind(const render_args *a, mmd_error *err); /* NULL: MMD_E_USAGE */
mmd_output_request mmd_render_base_request(const render_job *j, const render_args *a);
mmd_status mmd_render_check_sizes(const render_job *j, const render_args *a, const mmd_output_kind *kind,
                                  mmd_error *err);
mmd_status mmd_render_output_is_input(const render_job *j, const render_args *a, const mmd_output_kind *k,
                                      const mmd_render_plan *p, mmd_error *err); /* MMD_E_USAGE on a clash */
mmd_status mmd_render_open_output(render_job *j, const render_args *a, const mmd_output_kind *kind,
                                  const mmd_render_plan *p, int chunk_index, int chunk_count, mmd_error *err);

/* render_loop.c */
double mmd_render_clock(void);                          /* monotonic seconds */
const volatile sig_atomic_t *mmd_render_stop_flag(void); /* set by SIGINT/SIGTERM */
/* The physics pre-roll (stage.h) on its own thread while the models go into
 * the renderer and the output opens: neither touches the anims or physics. */
typedef struct render_preroll {
    render_job *j;
    const mmd_render_plan *p;
    pthread_t thread;
    bool running;
} render_preroll;
void mmd_render_preroll_start(render_preroll *pr);
void mmd_render_preroll_join(render_preroll *pr);
/* SIGINT/SIGTERM stop the run between frames (a second one removes the sink's temporary and exits). */
void mmd_render_install_signals(const mmd_sink *sink);
/* The plan's frames rendered and written, the output closed, the report
 * printed: MMD_OK, MMD_E_INTERRUPTED (outputs finalised) or a failure in err. */
mmd_status mmd_render_run(render_job *j, const render_args *a, const mmd_output_kind *kind,
                          const mmd_render_plan *p, mmd_error *err);

#endif
