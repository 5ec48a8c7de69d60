/* renderer/cli/cmd_render.c - `mmdrender SCENE -o OUT [options]`: the command.
 *
 * options -> scene (command-line values over its keys) -> stage (models,
 * motions, physics, accessories, camera: renderer/scene/stage.h) -> plan
 * (renderer/scene/plan.h) -> renderer and output -> frame loop; the pieces
 * are in render_gl.c, render_output.c and render_loop.c (render_run.h).
 * Frame numbers are in output-fps units: output frame f samples the motions
 * at t = f * 30 / fps (VMD frames, fractional).
 */
#include <getopt.h>
#include <libavutil/log.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "renderer/base/msg.h"
#include "renderer/base/parse.h"
#include "renderer/cli/commands.h"
#include "renderer/cli/json_out.h"
#include "renderer/cli/memory.h"
#include "renderer/cli/options.h"
#include "renderer/cli/render_run.h"
#include "renderer/output/codecs.h"

/* A usage error said on stderr (with the --help hint): MMD_E_USAGE. */
#define USAGE(...) mmd_cli_usage_error(MMD_CLI_RENDER, __VA_ARGS__)

/* err's sentence said as a usage error; err->msg emptied (said). */
static mmd_status said_usage(mmd_error *err)
{
    mmd_status st = mmd_cli_usage_error(MMD_CLI_RENDER, "%s", err->msg);
    err->msg[0] = 0;
    return st;
}

/* The command line into *a. MMD_E_USAGE after saying why; *done after --help or --version. */
static mmd_status parse_args(int argc, char **argv, render_args *a, bool *done)
{
    struct option longopts[MMD_CLI_MAX_OPTIONS + 1];
    mmd_cli_longopts(MMD_CLI_RENDER, longopts);
    mmd_error ierr;
    memset(a, 0, sizeof *a);
    a->crf = -1;
    a->max_memory_mib = MMD_MAX_MEMORY_DEFAULT_MIB;
    a->progress = MMD_PROGRESS_AUTO;
    a->gl = mmd_gl_default_backend();
    opterr = 0;
    optind = 1;
    int c;
    while ((c = getopt_long(argc, argv, ":o:qh", longopts, NULL)) != -1) {
        switch (c) {
        case 'o': a->out = optarg; break;
        case MMD_OPT_FRAMES: a->frames = optarg; break;
        case MMD_OPT_SIZE: a->size = optarg; break;
        case MMD_OPT_FPS: a->fps = optarg; break;
        case MMD_OPT_AA: a->aa = optarg; break;
        case MMD_OPT_BG: a->background = optarg; break;
        case MMD_OPT_CODEC: a->codec = optarg; break;
        case MMD_OPT_PRESET: a->preset = optarg; break;
        case MMD_OPT_CRF:
        case MMD_OPT_TEXMEM:
        case MMD_OPT_MAXMEM:
        case MMD_OPT_THREADS: { /* ranges from the option table */
            int *v = c == MMD_OPT_CRF      ? &a->crf
                     : c == MMD_OPT_TEXMEM ? &a->texture_mib
                     : c == MMD_OPT_MAXMEM ? &a->max_memory_mib
                                           : &a->threads;
            if (mmd_cli_int(c, optarg, v, &ierr) != MMD_OK)
                return USAGE("%s", ierr.msg);
            break;
        }
        case 'q': a->quiet = true; break;
        case MMD_OPT_PROGRESS:
            a->progress = mmd_progress_parse_mode(optarg);
            if (a->progress < 0)
                return USAGE("--progress: expected bar, plain, json or none, got '%s'", optarg);
            break;
        case MMD_OPT_GL:
            if (!strcmp(optarg, "osmesa"))
                a->gl = MMD_GL_OSMESA;
            else if (!strcmp(optarg, "egl"))
                a->gl = MMD_GL_EGL;
            else if (!strcmp(optarg, "egl-gpu"))
                a->gl = MMD_GL_EGL_GPU;
            else
                return USAGE("--gl: expected osmesa, egl or egl-gpu, got '%s'", optarg);
            break;
        case MMD_OPT_OUTSIDE: a->allow_outside = true; break;
        case MMD_OPT_NOPHYS: a->no_physics = true; break;
        case MMD_OPT_NOAUDIO: a->no_audio = true; break;
        case MMD_OPT_CHUNK: a->chunk = optarg; break;
        case MMD_OPT_SKIP: a->skip_existing = true; break;
        case MMD_OPT_STATS: a->stats = true; break;
        case MMD_OPT_PRINT_PLAN: a->print_plan = true; break;
        case MMD_OPT_GLOW: a->glow = true; break;
        case MMD_OPT_SOFT_SHADOW:
            a->soft_shadow = optarg ? optarg : "on";
            if (strcmp(a->soft_shadow, "on") && strcmp(a->soft_shadow, "contact"))
                return USAGE("--soft-shadow: expected no value or =contact, got '%s'", optarg);
            break;
        case MMD_OPT_DIFFUSION: a->diffusion = true; break;
        case MMD_OPT_SSAA: a->ssaa = optarg; break;
        case MMD_OPT_FXAA: a->fxaa = true; break;
        case MMD_OPT_STRICT_FX: a->strict_effects = true; break;
        case MMD_OPT_TEXFILTER: a->texture_filter = optarg; break;
        case MMD_OPT_ASSET_ROOT: return USAGE("--asset-root %s: only a .pmm project has asset roots", optarg);
        case 'h': mmd_cli_usage(MMD_CLI_RENDER, stdout); return *done = true, MMD_OK;
        case MMD_OPT_VERSION: mmd_cli_version(stdout); return *done = true, MMD_OK;
        case MMD_OPT_HELP_MAN: mmd_cli_man(stdout); return *done = true, MMD_OK;
        case ':': return USAGE("option %s needs a value", argv[optind - 1]);
        default: return USAGE("unknown option '%s'", argv[optind - 1]);
        }
    }
    while (optind < argc) {
        if (a->scene)
            return USAGE("unexpected argument '%s' (one scene per run)", argv[optind]);
        a->scene = argv[optind++];
    }
    if (!a->scene)
        return USAGE("%s", "missing SCENE.ini");
    if (!a->out && a->print_plan)
        a->out = "null"; /* nothing is written */
    if (!a->out)
        return USAGE("%s", "missing -o OUT (a " MMD_CONTAINERS_SLASHED " file, a folder/ or frames/%05d.png)");
    return MMD_OK;
}

/* "I/N" or "auto/N" -> 0-based index and count. MMD_E_USAGE after saying why. */
static mmd_status parse_chunk(const char *s, int *index, int *count)
{
    const char *slash = strchr(s, '/');
    char idx[32];
    if (!slash || (size_t)(slash - s) >= sizeof idx)
        return USAGE("--chunk: expected I/N or auto/N, got '%s'", s);
    memcpy(idx, s, (size_t)(slash - s));
    idx[slash - s] = 0;
    if (!mmd_parse_int(slash + 1, 1, 1000000, count))
        return USAGE("--chunk: expected N >= 1 after '/', got '%s'", s);
    const char *src = idx;
    if (!strcmp(idx, "auto")) {
        static const char *const vars[] = {"SLURM_ARRAY_TASK_ID", "JOB_COMPLETION_INDEX",
                                           "AWS_BATCH_JOB_ARRAY_INDEX"};
        src = NULL;
        for (int i = 0; i < 3 && !src; i++)
            src = getenv(vars[i]);
        if (!src)
            return USAGE("--chunk %s: none of SLURM_ARRAY_TASK_ID, JOB_COMPLETION_INDEX, "
                               "AWS_BATCH_JOB_ARRAY_INDEX is set", s);
    }
    if (!mmd_parse_int(src, 0, *count - 1, index)) {
        mmd_msg_print(stderr, "mmdrender: --chunk %s: index '%s' is not in 0..%d\n", s, src, *count - 1);
        return MMD_E_USAGE;
    }
    return MMD_OK;
}


/* --glow, --soft-shadow, --diffusion, --fxaa switch effects on over the
 * scene's [effects]; --ssaa N sets the factor. MMD_E_USAGE with err. */
static mmd_status apply_effects(mmd_scene *s, const render_args *a, mmd_error *err)
{
    mmd_effects *e = &s->effects;
    if (a->ssaa && mmd_scene_parse_ssaa(a->ssaa, &e->ssaa, err))
        return err->status = MMD_E_USAGE;
    e->glow |= a->glow;
    e->diffusion |= a->diffusion;
    e->fxaa |= a->fxaa;
    if (a->soft_shadow) {
        e->soft_shadow = true;
        e->soft_shadow_mode = strcmp(a->soft_shadow, "contact") ? MMD_SOFT_SHADOW_PCF : MMD_SOFT_SHADOW_CONTACT;
    }
    if ((long)s->width * e->ssaa > MMD_SCENE_MAX_SIZE || (long)s->height * e->ssaa > MMD_SCENE_MAX_SIZE) {
        return mmd_fail(err, MMD_E_USAGE, "ssaa %d at %dx%d renders over %d pixels a side", e->ssaa, s->width,
                        s->height, MMD_SCENE_MAX_SIZE);
    }
    return MMD_OK;
}

/* Command-line values over the scene's keys. MMD_E_USAGE with err: the value
 * parsers' MMD_E_BAD_VALUE is a usage error on the command line. */
static mmd_status apply_options(mmd_scene *s, const render_args *a, int *step, mmd_error *err)
{
    *step = 1;
    if ((a->size && mmd_scene_parse_size(a->size, &s->width, &s->height, err)) ||
        (a->fps && mmd_scene_parse_fps(a->fps, &s->fps_num, &s->fps_den, err)) ||
        (a->aa && mmd_scene_parse_antialias(a->aa, &s->antialias, err)) ||
        (a->background && mmd_scene_parse_background(a->background, s->background, &s->transparent, err)) ||
        (a->texture_filter && mmd_texture_filter_parse(a->texture_filter, &s->texture_filter, err)))
        return err->status = MMD_E_USAGE;
    if (a->frames) {
        if (mmd_scene_parse_frames(a->frames, &s->frame_first, &s->frame_last, step, err))
            return err->status = MMD_E_USAGE;
        s->has_frames = true;
    }
    if (a->no_audio)
        s->audio_file = NULL;
    return apply_effects(s, a, err);
}

/* --print-plan: the range, its step and frame count, this chunk's frames, the
 * scene's rate and the video's (fps / step), the song (resolved path or null,
 * offset) and the scene time of the range's first frame, on one JSON line
 * (docs/cli.md): what a farm's stitch needs, a .pmm's song included. */
static void print_plan(const mmd_render_plan *p, const mmd_scene *s)
{
    printf("{\"first\":%lld,\"last\":%lld,\"step\":%d,\"frames\":%lld,\"chunk_first\":%lld,\"chunk_last\":%lld,"
           "\"chunk_frames\":%lld,\"fps_num\":%d,\"fps_den\":%d,\"video_fps_num\":%d,\"video_fps_den\":%d,"
           "\"start_time\":%.6f,\"audio_file\":", (long long)p->first, (long long)p->last, p->step,
           (long long)p->total, (long long)p->begin, (long long)p->end, (long long)p->frames, s->fps_num, s->fps_den,
           p->video_fps_num, p->video_fps_den, (double)p->first * s->fps_den / s->fps_num);
    char real[PATH_MAX];
    if (s->audio_file) /* canonical: a project's export folder is gone once this returns */
        mmd_json_str(stdout, realpath(s->audio_file, real) ? real : s->audio_file);
    else
        fputs("null", stdout);
    printf(",\"audio_offset\":%.6f}\n", s->audio_offset);
}

/* The plan's input: the scene's range and rate, the chunk, the stage's last key. */
static mmd_plan_input plan_input(const render_job *j, int step, int chunk_index, int chunk_count)
{
    const mmd_scene *s = j->scene;
    return (mmd_plan_input){.has_frames = s->has_frames, .frame_first = s->frame_first,
                            .frame_last = s->frame_last, .step = step, .fps_num = s->fps_num,
                            .fps_den = s->fps_den, .chunk_index = chunk_index, .chunk_count = chunk_count,
                            .last_key = mmd_stage_last_key(j->stage),
                            /* evaluate from the range's first: physics, a lagging calc_order, screen.bmp */
                            .physics = mmd_stage_evaluates_in_order(j->stage) ||
                                       mmd_scene_accessories_use_screen(&j->stage->acc)};
}

/* Everything up to the frame loop: output kind, sizes and memory checked
 * before anything is loaded, the renderer, the stage, the plan, the models
 * into the renderer and the output opened while the physics pre-rolls.
 * *go false: nothing to render (--print-plan, an empty chunk). */
static mmd_status prepare(render_job *j, const render_args *a, int step, const mmd_output_kind **kind,
                          mmd_render_plan *plan, bool *go, mmd_error *err)
{
    int chunk_index = 0, chunk_count = 1;
    mmd_status s;
    *go = false;
    if (a->chunk && (s = parse_chunk(a->chunk, &chunk_index, &chunk_count)) != MMD_OK)
        return s;
    if (!(*kind = mmd_render_output_kind(a, err)))
        return said_usage(err);
    av_log_set_level(a->quiet ? AV_LOG_QUIET : AV_LOG_ERROR);
    /* sizes the encoder or the GL cannot take are refused before loading anything */
    size_t texture_budget = 0;
    mmd_stage_options so = {.allow_outside = a->allow_outside, .no_physics = a->no_physics,
                            .cancel = mmd_render_stop_flag(), .warn = a->quiet ? NULL : mmd_cli_warn};
    if ((s = mmd_render_check_sizes(j, a, *kind, err)) != MMD_OK ||
        (s = mmd_render_check_memory(j, a, *kind, &texture_budget, err)) != MMD_OK ||
        (!a->print_plan && (s = mmd_render_open_renderer(j, a, texture_budget, err)) != MMD_OK) ||
        (s = mmd_stage_open(j->scene, &so, &j->stage, err)) != MMD_OK)
        return s;
    mmd_plan_input in = plan_input(j, step, chunk_index, chunk_count);
    bool nonempty = mmd_render_plan_make(&in, plan);
    if (plan->over_cap)
        return mmd_fail(err, MMD_E_LIMIT, "the motions' last key (VMD frame %lu) is output frame %lld, past the "
                        "frame cap %lld: give --frames A-B", (unsigned long)in.last_key, (long long)plan->last,
                        (long long)MMD_PLAN_MAX_FRAME);
    if (a->print_plan) {
        print_plan(plan, j->scene);
        return MMD_OK;
    }
    if (nonempty && mmd_render_output_is_input(j, a, *kind, plan, err) != MMD_OK)
        return said_usage(err);
    if (!nonempty && !a->quiet)
        mmd_msg_print(stderr, "mmdrender: chunk %d/%d of %lld frames is empty: nothing to do\n", chunk_index,
                      chunk_count, (long long)plan->total);
    *go = nonempty;
    if (!nonempty)
        return MMD_OK;
    render_preroll pr = {.j = j, .p = plan};
    mmd_render_preroll_start(&pr);
    if ((s = mmd_render_add_models(j, err)) == MMD_OK && (s = mmd_render_open_effects(j, a, err)) == MMD_OK &&
        (s = mmd_render_open_output(j, a, *kind, plan, chunk_index, chunk_count, err)) == MMD_OK)
        mmd_render_install_signals(j->sink); /* a signal now also cuts the pre-roll short (the stage's cancel) */
    mmd_render_preroll_join(&pr);
    return s;
}

/* Renders scene (already loaded: a scene.ini's, or later a project's value),
 * the command line's values applied over its keys. Says what went wrong on
 * stderr (a usage error already said returns with err->msg empty). */
static mmd_status render_scene(mmd_scene *scene, const render_args *a, double t_begin, mmd_error *err)
{
    int step;
    if (!a->quiet)
        mmd_scene_warn(scene, stderr, "mmdrender: ");
    if (apply_options(scene, a, &step, err) != MMD_OK)
        return said_usage(err);
    render_job j = {.scene = scene, .t_begin = t_begin};
    const mmd_output_kind *kind = NULL;
    mmd_render_plan plan;
    bool go;
    err->msg[0] = 0;
    mmd_status s = prepare(&j, a, step, &kind, &plan, &go, err);
    if (s == MMD_OK && go) {
        err->msg[0] = 0; /* a warning may have left a sentence there */
        s = mmd_render_run(&j, a, kind, &plan, err);
    }
    if (j.sink)
        mmd_sink_abort(j.sink);
    free(j.rgba);
    mmd_render_free_effects(&j);
    mmd_progress_free(j.progress);
    mmd_renderer_free(j.renderer);
    mmd_bgvideo_free(j.bgvideo);
    mmd_stage_free(j.stage);
    return s;
}

int mmd_cmd_render_scene(int argc, char **argv, mmd_scene *given)
{
    render_args a;
    bool done = false;
    mmd_status s = parse_args(argc, argv, &a, &done);
    if (s != MMD_OK || done)
        return mmd_exit_code(s);
    double t_begin = mmd_render_clock();
    mmd_scene *scene = given;
    mmd_error err = {0};
    if (scene || (s = mmd_scene_load_file(a.scene, &scene, &err)) == MMD_OK)
        s = render_scene(scene, &a, t_begin, &err);
    else
        err.status = s;
    if (s != MMD_OK && s != MMD_E_INTERRUPTED && err.msg[0])
        mmd_msg_print(stderr, "mmdrender: %s\n", err.msg);
    if (scene != given)
        mmd_scene_free(scene);
    return mmd_exit_code(s);
}

int mmd_cmd_render(int argc, char **argv) { return mmd_cmd_render_scene(argc, argv, NULL); }
