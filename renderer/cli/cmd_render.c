/* renderer/cli/cmd_render.c - `mmdrender SCENE -o OUT [options]`: the render loop.
 *
 * scene -> models, motions, anims (+ physics) and the camera track -> renderer
 * -> sink (video or PNG). Frame numbers are in output-fps units: output frame
 * f samples the motions at t = f * 30 / fps (VMD frames, fractional).
 */
#include <errno.h>
#include <getopt.h>
#include <libavutil/log.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/anim.h"
#include "core/camera.h"
#include "core/model.h"
#include "core/motion.h"
#include "core/physics.h"
#include "renderer/base/fs.h"
#include "renderer/base/msg.h"
#include "renderer/base/parse.h"
#include "renderer/scene/accessories.h"
#include "renderer/cli/commands.h"
#include "renderer/cli/json_out.h"
#include "renderer/scene/links.h"
#include "renderer/cli/memory.h"
#include "renderer/cli/options.h"
#include "renderer/cli/outputs.h"
#include "renderer/scene/plan.h"
#include "renderer/cli/progress.h"
#include "renderer/gl/render.h"
#include "renderer/image/texpath.h"
#include "renderer/scene/scene.h"
#include "renderer/output/bgvideo.h"
#include "renderer/output/sink.h"

/* CLI-only globals: g_stop is set by SIGINT/SIGTERM and polled between frames
 * (and inside IK/physics through mmd_anim_set_cancel); g_temp is the output's
 * temporary (the video's .part), which a second signal removes before ending
 * the process at once (unlink and _exit are async-signal-safe). */
static volatile sig_atomic_t g_stop;
static char g_temp[4096];
static volatile sig_atomic_t g_temp_armed;

static void on_signal(int sig)
{
    if (g_stop) { /* the second signal: end now, even while finalising */
        if (g_temp_armed)
            unlink(g_temp);
        _exit(MMD_EXIT_INTERRUPTED);
    }
    g_stop = sig;
}

typedef struct render_args {
    const char *scene, *out, *codec, *preset, *frames, *size, *fps, *aa, *background, *chunk;
    const char *ssaa, *soft_shadow;
    int crf, threads, texture_mib, max_memory_mib;
    bool glow, diffusion, fxaa;
    bool quiet, skip_existing, no_physics, no_audio, allow_outside, stats, print_plan;
    int progress;
    mmd_gl_backend gl;
} render_args;

static int parse_args(int argc, char **argv, render_args *a)
{
    struct option longopts[MMD_CLI_MAX_OPTIONS + 1];
    mmd_cli_longopts(MMD_CLI_RENDER, longopts);
    char msg[160];
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
            if (!mmd_cli_int(c, optarg, v, msg, sizeof msg))
                return mmd_cli_usage_error(MMD_CLI_RENDER, "%s", msg);
            break;
        }
        case 'q': a->quiet = true; break;
        case MMD_OPT_PROGRESS:
            a->progress = mmd_progress_parse_mode(optarg);
            if (a->progress < 0)
                return mmd_cli_usage_error(MMD_CLI_RENDER, "--progress: expected bar, plain, json or none, got '%s'", optarg);
            break;
        case MMD_OPT_GL:
            if (!strcmp(optarg, "osmesa"))
                a->gl = MMD_GL_OSMESA;
            else if (!strcmp(optarg, "egl"))
                a->gl = MMD_GL_EGL;
            else if (!strcmp(optarg, "egl-gpu"))
                a->gl = MMD_GL_EGL_GPU;
            else
                return mmd_cli_usage_error(MMD_CLI_RENDER, "--gl: expected osmesa, egl or egl-gpu, got '%s'", optarg);
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
                return mmd_cli_usage_error(MMD_CLI_RENDER, "--soft-shadow: expected no value or =contact, got '%s'", optarg);
            break;
        case MMD_OPT_DIFFUSION: a->diffusion = true; break;
        case MMD_OPT_SSAA: a->ssaa = optarg; break;
        case MMD_OPT_FXAA: a->fxaa = true; break;
        case MMD_OPT_ASSET_ROOT: return mmd_cli_usage_error(MMD_CLI_RENDER, "--asset-root %s: only a .pmm project has asset roots", optarg);
        case 'h': mmd_cli_usage(MMD_CLI_RENDER, stdout); return -1;
        case MMD_OPT_VERSION: mmd_cli_version(stdout); return -1;
        case MMD_OPT_HELP_MAN: mmd_cli_man(stdout); return -1;
        case ':': return mmd_cli_usage_error(MMD_CLI_RENDER, "option %s needs a value", argv[optind - 1]);
        default: return mmd_cli_usage_error(MMD_CLI_RENDER, "unknown option '%s'", argv[optind - 1]);
        }
    }
    while (optind < argc) {
        if (a->scene)
            return mmd_cli_usage_error(MMD_CLI_RENDER, "unexpected argument '%s' (one scene per run)", argv[optind]);
        a->scene = argv[optind++];
    }
    if (!a->scene)
        return mmd_cli_usage_error(MMD_CLI_RENDER, "%s", "missing SCENE.ini");
    if (!a->out && a->print_plan)
        a->out = "null"; /* nothing is written */
    if (!a->out)
        return mmd_cli_usage_error(MMD_CLI_RENDER, "%s", "missing -o OUT (a .mp4/.mkv/.mov/.webm/.avi file, a folder/ or frames/%05d.png)");
    return 0;
}

/* "I/N" or "auto/N" -> 0-based index and count. */
static int parse_chunk(const char *s, int *index, int *count)
{
    const char *slash = strchr(s, '/');
    char idx[32];
    if (!slash || (size_t)(slash - s) >= sizeof idx)
        return mmd_cli_usage_error(MMD_CLI_RENDER, "--chunk: expected I/N or auto/N, got '%s'", s);
    memcpy(idx, s, (size_t)(slash - s));
    idx[slash - s] = 0;
    if (!mmd_parse_int(slash + 1, 1, 1000000, count))
        return mmd_cli_usage_error(MMD_CLI_RENDER, "--chunk: expected N >= 1 after '/', got '%s'", s);
    const char *src = idx;
    if (!strcmp(idx, "auto")) {
        static const char *const vars[] = {"SLURM_ARRAY_TASK_ID", "JOB_COMPLETION_INDEX",
                                           "AWS_BATCH_JOB_ARRAY_INDEX"};
        src = NULL;
        for (int i = 0; i < 3 && !src; i++)
            src = getenv(vars[i]);
        if (!src)
            return mmd_cli_usage_error(MMD_CLI_RENDER, "--chunk %s: none of SLURM_ARRAY_TASK_ID, JOB_COMPLETION_INDEX, "
                               "AWS_BATCH_JOB_ARRAY_INDEX is set", s);
    }
    if (!mmd_parse_int(src, 0, *count - 1, index)) {
        mmd_msg_print(stderr, "mmdrender: --chunk %s: index '%s' is not in 0..%d\n", s, src, *count - 1);
        return MMD_EXIT_USAGE;
    }
    return 0;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* CPU seconds of the process, all threads, and of its reaped children (the
 * texture decoders of image/decode_child.c): --stats, steadier than wall time
 * on a shared machine. */
static double cpu_s(void)
{
    double t = 0;
    int who[2] = {RUSAGE_SELF, RUSAGE_CHILDREN};
    for (int i = 0; i < 2; i++) {
        struct rusage u;
        getrusage(who[i], &u);
        t += (double)(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + (double)(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
    }
    return t;
}

static void on_frame_done(void *user, int64_t frame)
{
    mmd_progress_frame(user, frame);
}

typedef struct render_job {
    mmd_scene *scene;
    mmd_model *models[MMD_SCENE_MAX_MODELS];
    mmd_motion *motions[MMD_SCENE_MAX_MODELS][MMD_SCENE_MAX_MOTIONS];
    mmd_anim *anims[MMD_SCENE_MAX_MODELS];
    mmd_physics *physics[MMD_SCENE_MAX_MODELS];
    mmd_scene_accessories acc;
    mmd_motion *camera_motion;
    /* a file named several times (by inode) is loaded once: the later names
     * borrow the first one's data and are not freed through their slot */
    bool model_borrowed[MMD_SCENE_MAX_MODELS], motion_borrowed[MMD_SCENE_MAX_MODELS][MMD_SCENE_MAX_MOTIONS];
    bool camera_borrowed;
    bool physics_warned[MMD_SCENE_MAX_MODELS]; /* the budget warning was printed */
    int files_loaded;
    mmd_camera_track *camera;
    mmd_links *links;          /* outside parents, camera follow (links.h) */
    mmd_renderer *renderer;
    mmd_bgvideo *bgvideo;      /* [background] video, NULL when none or unreadable */
    mmd_sink *sink;
    mmd_progress *progress;
    uint8_t *rgba;
} render_job;

static void job_free(render_job *j)
{
    if (j->sink)
        mmd_sink_abort(j->sink);
    free(j->rgba);
    mmd_progress_free(j->progress);
    mmd_renderer_free(j->renderer);
    mmd_bgvideo_free(j->bgvideo);
    mmd_scene_accessories_free(&j->acc);
    mmd_camera_track_free(j->camera);
    mmd_links_free(j->links);
    if (!j->camera_borrowed)
        mmd_motion_free(j->camera_motion);
    for (int i = 0; j->scene && i < j->scene->model_count; i++) {
        mmd_physics_free(j->physics[i]);
        mmd_anim_free(j->anims[i]);
        for (int k = 0; k < MMD_SCENE_MAX_MOTIONS; k++)
            if (!j->motion_borrowed[i][k])
                mmd_motion_free(j->motions[i][k]);
        if (!j->model_borrowed[i])
            mmd_model_free(j->models[i]);
    }
    mmd_scene_free(j->scene);
}

/* The model already loaded from the same file as model slot `upto`, or NULL. */
static mmd_model *loaded_model(const render_job *j, int upto)
{
    for (int i = 0; i < upto; i++)
        if (!j->model_borrowed[i] && mmd_same_file(j->scene->models[i].file, j->scene->models[upto].file))
            return j->models[i];
    return NULL;
}

/* The motion already loaded from path (models' motions before slot (mi, mk)), or NULL. */
static mmd_motion *loaded_motion(const render_job *j, int mi, int mk, const char *path)
{
    for (int i = 0; i <= mi && i < j->scene->model_count; i++)
        for (int k = 0; k < j->scene->models[i].motion_count && (i < mi || k < mk); k++)
            if (j->motions[i][k] && !j->motion_borrowed[i][k] && mmd_same_file(j->scene->models[i].motions[k], path))
                return j->motions[i][k];
    return NULL;
}

static int load_inputs(render_job *j, const render_args *a)
{
    mmd_scene *s = j->scene;
    char buf[512];
    mmd_error err;
    for (int i = 0; i < s->model_count; i++) {
        mmd_scene_model *sm = &s->models[i];
        if ((j->models[i] = loaded_model(j, i)) != NULL) {
            j->model_borrowed[i] = true;
        } else if (mmd_model_load_file(sm->file, &j->models[i], &err) != MMD_OK) {
            mmd_error_format(&err, sm->file, buf, sizeof buf);
            mmd_msg_print(stderr, "mmdrender: %s\n", buf);
            return MMD_EXIT_INPUT;
        } else {
            j->files_loaded++;
            if (!a->quiet)
                mmd_msg_warnings(stderr, "mmdrender: ", sm->file, &j->models[i]->warning_list);
        }
        const mmd_motion *ms[MMD_SCENE_MAX_MOTIONS];
        for (int k = 0; k < sm->motion_count; k++) {
            if ((j->motions[i][k] = loaded_motion(j, i, k, sm->motions[k])) != NULL) {
                j->motion_borrowed[i][k] = true;
            } else if (mmd_motion_load_file(sm->motions[k], &j->motions[i][k], &err) != MMD_OK) {
                mmd_error_format(&err, sm->motions[k], buf, sizeof buf);
                mmd_msg_print(stderr, "mmdrender: %s\n", buf);
                return MMD_EXIT_INPUT;
            } else {
                j->files_loaded++;
                if (!a->quiet)
                    mmd_msg_warnings(stderr, "mmdrender: ", sm->motions[k], &j->motions[i][k]->warning_list);
            }
            ms[k] = j->motions[i][k];
        }
        if (mmd_anim_create(j->models[i], ms, (size_t)sm->motion_count, &j->anims[i], &err) != MMD_OK) {
            mmd_error_format(&err, sm->file, buf, sizeof buf);
            mmd_msg_print(stderr, "mmdrender: %s\n", buf);
            return MMD_EXIT_INPUT;
        }
        mmd_scene_model_place(sm, j->anims[i]);
        size_t unbound = mmd_anim_unbound_count(j->anims[i]);
        if (unbound && !a->quiet) {
            mmd_msg_print(stderr, "mmdrender: warning: %zu motion track(s) match nothing in %s:", unbound, sm->file);
            char pb[256];
            for (size_t u = 0; u < unbound && u < 8; u++)
                mmd_msg_print(stderr, "%s %s", u ? "," : "",
                              mmd_printable(mmd_anim_unbound_name(j->anims[i], u), pb, sizeof pb));
            mmd_msg_print(stderr, "%s\n", unbound > 8 ? ", ..." : "");
        }
        uint64_t ik_wanted, ik_kept;
        uint32_t ik_capped = mmd_anim_ik_capped(j->anims[i], &ik_wanted, &ik_kept);
        if (ik_capped && !a->quiet)
            mmd_msg_print(stderr, "mmdrender: warning: %s: IK would cost %llu bone updates a frame (cap %u): "
                          "%u chain(s) get fewer loops\n", sm->file, (unsigned long long)ik_wanted,
                          (unsigned)MMD_IK_MAX_WORK, (unsigned)ik_capped);
        uint32_t refresh_capped = mmd_anim_ik_refresh_capped(j->anims[i]);
        if (refresh_capped && !a->quiet)
            mmd_msg_print(stderr, "mmdrender: warning: %s: %u IK chain(s) past the work cap (%u bone updates) do not "
                          "recompute the bones under them evaluated before them\n", sm->file, (unsigned)refresh_capped,
                          (unsigned)MMD_IK_MAX_WORK);
        mmd_anim_set_cancel(j->anims[i], &g_stop);
        if (sm->physics && !a->no_physics && j->models[i]->rigid_body_count > 0) {
            mmd_status ps = mmd_physics_create(j->models[i], &j->physics[i], &err);
            if (ps == MMD_E_LIMIT) { /* a pile of bodies: bounded by drawing it without physics */
                if (!a->quiet)
                    mmd_msg_print(stderr, "mmdrender: warning: %s: %s: drawn without physics\n", sm->file, err.msg);
                continue;
            }
            if (ps != MMD_OK || mmd_physics_attach(j->physics[i], j->anims[i]) != MMD_OK) {
                mmd_error_format(&err, sm->file, buf, sizeof buf);
                mmd_msg_print(stderr, "mmdrender: physics: %s\n", buf);
                return MMD_EXIT_INPUT;
            }
        }
    }
    if (mmd_scene_accessories_load(s, j->models, a->allow_outside, &j->acc, buf, sizeof buf)) {
        mmd_msg_print(stderr, "mmdrender: %s\n", buf);
        return MMD_EXIT_INPUT;
    }
    if (s->camera_motion) {
        j->camera_motion = loaded_motion(j, s->model_count, 0, s->camera_motion);
        j->camera_borrowed = j->camera_motion != NULL;
        if (!j->camera_motion && mmd_motion_load_file(s->camera_motion, &j->camera_motion, &err) != MMD_OK) {
            mmd_error_format(&err, s->camera_motion, buf, sizeof buf);
            mmd_msg_print(stderr, "mmdrender: %s\n", buf);
            return MMD_EXIT_INPUT;
        }
        if (!j->camera_borrowed) {
            j->files_loaded++;
            if (!a->quiet)
                mmd_msg_warnings(stderr, "mmdrender: ", s->camera_motion, &j->camera_motion->warning_list);
        }
    }
    if (mmd_camera_track_create(j->camera_motion, &j->camera, &err) != MMD_OK) {
        mmd_error_format(&err, s->camera_motion ? s->camera_motion : s->path, buf, sizeof buf);
        mmd_msg_print(stderr, "mmdrender: %s\n", buf);
        return MMD_EXIT_INPUT;
    }
    if (mmd_links_create(s, j->anims, &j->links, buf, sizeof buf)) {
        mmd_msg_print(stderr, "mmdrender: %s\n", buf);
        return MMD_EXIT_INPUT;
    }
    return 0;
}

static void sample_view(render_job *j, double t, mmd_camera_state *cam, mmd_light_state *light,
                        mmd_shadow_state *shadow)
{
    const mmd_scene *s = j->scene;
    if (mmd_camera_track_has_camera(j->camera)) {
        mmd_camera_sample(j->camera, t, cam);
    } else {
        memset(cam, 0, sizeof *cam);
        memcpy(cam->target, s->cam_target, sizeof cam->target);
        memcpy(cam->rotation, s->cam_rotation, sizeof cam->rotation);
        cam->distance = s->cam_distance;
        cam->fov = s->cam_fov;
        cam->ortho = s->cam_ortho;
        mmd_camera_derive(cam);
    }
    mmd_light_sample(j->camera, t, light);
    if (!mmd_camera_track_has_light(j->camera)) {
        if (s->has_light_color)
            memcpy(light->color, s->light_color, sizeof light->color);
        if (s->has_light_direction)
            memcpy(light->direction, s->light_direction, sizeof light->direction);
    }
    mmd_shadow_sample(j->camera, t, shadow);
    mmd_links_follow(j->links, t, cam);
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
        (a->background && mmd_scene_parse_background(a->background, s->background, &s->transparent, err)))
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

/* True (msg set) when writing the output would replace the input file `in`
 * in a frame this run renders. */
static bool clashes(const mmd_output_kind *k, const render_args *a, const mmd_render_plan *p, const char *in,
                    char *msg, size_t n)
{
    int64_t f = -1;
    if (!in || !k->writes || !k->writes(a->out, in, &f) || (f >= 0 && !mmd_plan_renders(p, f)))
        return false;
    if (f >= 0)
        snprintf(msg, n, "the output '%s' would overwrite the input '%s' (frame %lld)", a->out, in, (long long)f);
    else
        snprintf(msg, n, "the output '%s' is also an input of the scene ('%s')", a->out, in);
    return true;
}

/* Every file the run reads (scene, models, motions, camera, audio and the
 * textures the renderer will open, resolved as it resolves them) against
 * what the output writes, by inode. True with msg on a clash. */
static bool output_is_input(const render_job *j, const render_args *a, const mmd_output_kind *k,
                            const mmd_render_plan *p, char *msg, size_t n)
{
    const mmd_scene *s = j->scene;
    if (clashes(k, a, p, a->scene, msg, n) || clashes(k, a, p, s->audio_file, msg, n) ||
        clashes(k, a, p, s->camera_motion, msg, n))
        return true;
    for (int i = 0; i < s->model_count; i++) {
        if (clashes(k, a, p, s->models[i].file, msg, n))
            return true;
        for (int m = 0; m < s->models[i].motion_count; m++)
            if (clashes(k, a, p, s->models[i].motions[m], msg, n))
                return true;
        char dir[4096], path[4096];
        mmd_error why;
        if (mmd_texpath_model_dir(s->models[i].file, dir, sizeof dir) != 0)
            continue;
        const mmd_model *mo = j->models[i];
        for (uint32_t t = 0; mo && t < mo->texture_count; t++)
            if (mmd_texpath_resolve(dir, mo->textures[t], a->allow_outside, path, sizeof path, &why) == MMD_OK &&
                clashes(k, a, p, path, msg, n))
                return true;
    }
    return false;
}

/* The output's kind (outputs.h), checked against the options; NULL with err (MMD_E_USAGE). */
static const mmd_output_kind *check_output(const render_args *a, mmd_error *err)
{
    const mmd_output_kind *k = mmd_output_kind_for(a->out);
    if (!k)
        mmd_fail(err, MMD_E_USAGE, "cannot tell what '%s' is: use a .mp4/.mkv/.mov/.webm/.avi file, a folder/ "
                 "or a pattern like frames/%%05d.png", a->out);
    else if (a->skip_existing && !k->frame_exists)
        mmd_fail(err, MMD_E_USAGE, "--skip-existing works with PNG output only");
    else if ((a->codec || a->preset) && !k->encodes && !a->print_plan) /* the farm's line, without -o */
        mmd_fail(err, MMD_E_USAGE, "--%s needs a video output", a->codec ? "codec" : "preset");
    else
        return k;
    return NULL;
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

/* The plan's input: the scene's range and rate, the chunk, the last key. */
static mmd_plan_input plan_input(const render_job *j, int step, int chunk_index, int chunk_count)
{
    const mmd_scene *s = j->scene;
    mmd_plan_input in = {.has_frames = s->has_frames, .frame_first = s->frame_first,
                         .frame_last = s->frame_last, .step = step, .fps_num = s->fps_num,
                         .fps_den = s->fps_den, .chunk_index = chunk_index, .chunk_count = chunk_count};
    in.last_key = mmd_camera_track_last_frame(j->camera);
    for (int i = 0; i < s->model_count; i++) {
        uint32_t l = mmd_anim_last_frame(j->anims[i]);
        in.last_key = l > in.last_key ? l : in.last_key;
        in.physics = in.physics || j->physics[i];
    }
    in.physics = in.physics || mmd_scene_accessories_use_screen(&j->acc) || /* evaluate from the range's first */
                 mmd_links_lag(j->links);
    return in;
}

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
    ro.cancel = &g_stop; /* a signal stops a frame between material draws */
    if (a->texture_mib > 0)
        ro.texture_budget = (size_t)a->texture_mib << 20;
    ro.ground_shadow = s->ground_shadow;
    ro.ground_shadow_brightness = s->ground_shadow_brightness;
    ro.ground_shadow_translucent = s->ground_shadow_translucent;
    ro.pmd_edge_color_set = s->has_edge_color;
    memcpy(ro.pmd_edge_color, s->edge_color, sizeof ro.pmd_edge_color);
    ro.effects = s->effects;
    *out = ro;
}

/* What the output is asked for, before anything is opened (sizes, memory). */
static mmd_output_request base_request(const render_job *j, const render_args *a)
{
    const mmd_scene *s = j->scene;
    return (mmd_output_request){.target = a->out, .width = s->width, .height = s->height, .fps_num = s->fps_num,
                                .fps_den = s->fps_den, .alpha = s->transparent, .codec = a->codec,
                                .preset = a->preset, .crf = a->crf, .threads = a->threads};
}

/* What the render will hold against --max-memory (renderer/cli/memory.h),
 * before the GL context and any input: over it is refused up front (exit 1),
 * --print-plan too (a farm learns at planning time). *texture_budget: what
 * decoded textures may take. An exit code. */
static int check_memory(const render_job *j, const render_args *a, const mmd_output_kind *kind, size_t *texture_budget)
{
    mmd_error err;
    mmd_render_options ro;
    render_options(j, a, &ro);
    mmd_output_request req = base_request(j, a);
    mmd_memory_plan mem;
    if (mmd_memory_check(&ro, kind, &req, (uint64_t)a->max_memory_mib << 20, a->texture_mib > 0, &mem, &err) !=
        MMD_OK) {
        mmd_msg_print(stderr, "mmdrender: %s\n", err.msg);
        return mmd_exit_code(err.status);
    }
    *texture_budget = (size_t)mem.textures;
    return 0;
}

/* The GL context and targets, before any input is loaded: a size or MSAA
 * level the GL cannot hold is refused up front (exit 1). An exit code. */
static int open_renderer(render_job *j, const render_args *a, size_t texture_budget)
{
    mmd_error err;
    mmd_render_options ro;
    render_options(j, a, &ro);
    ro.texture_budget = texture_budget;
    if (mmd_renderer_create(&ro, &j->renderer, &err) != MMD_OK) {
        mmd_msg_print(stderr, "mmdrender: GL: %s\n", err.msg);
        return mmd_exit_code(err.status);
    }
    return 0;
}

/* The loaded models into the renderer, and the frame buffer. An exit code. */
static int add_models(render_job *j)
{
    const mmd_scene *s = j->scene;
    mmd_error err;
    for (int i = 0; i < s->model_count; i++) {
        char dir[4096];
        mmd_status st = MMD_E_GL;
        if (mmd_texpath_model_dir(s->models[i].file, dir, sizeof dir) == 0)
            st = mmd_renderer_add_model(j->renderer, j->models[i], dir, &err);
        else
            mmd_fail(&err, st, "model path is too long");
        if (st != MMD_OK) {
            mmd_msg_print(stderr, "mmdrender: %s: %s\n", s->models[i].file, err.msg);
            return mmd_exit_code(st);
        }
        mmd_renderer_set_look(j->renderer, (size_t)i, &s->models[i].look);
    }
    if (s->bg_image && mmd_renderer_set_background(j->renderer, s->bg_image, s->bg_offset, s->bg_scale, &err) != MMD_OK) {
        mmd_msg_print(stderr, "mmdrender: background image: %s\n", err.msg);
        return mmd_exit_code(err.status);
    }
    if (s->bg_video && mmd_bgvideo_open(s->bg_video, &j->bgvideo, &err) != MMD_OK) /* render on without it */
        mmd_msg_print(stderr, "mmdrender: warning: background video not drawn: %s\n", err.msg);
    if (mmd_scene_accessories_attach(&j->acc, j->renderer, &err) != MMD_OK) {
        mmd_msg_print(stderr, "mmdrender: accessory: %s\n", err.msg);
        return mmd_exit_code(err.status);
    }
    j->rgba = malloc((size_t)s->width * (size_t)s->height * 4);
    if (!j->rgba) {
        mmd_msg_print(stderr, "mmdrender: out of memory\n");
        return MMD_EXIT_GL;
    }
    return 0;
}

/* The output's own limits for the scene's size and codec (an odd size for
 * 4:2:0, a frame libavcodec refuses), before any input is loaded. An exit code. */
static int check_sizes(const render_job *j, const render_args *a, const mmd_output_kind *kind)
{
    mmd_output_request r = base_request(j, a);
    mmd_error err;
    if (kind->check(&r, &err) == MMD_OK)
        return 0;
    mmd_msg_print(stderr, "mmdrender: %s\n", err.msg);
    return mmd_exit_code(err.status);
}

/* Progress over the frames still to render, then the output's sink. */
static int open_output(render_job *j, const render_args *a, const mmd_output_kind *kind,
                       const mmd_render_plan *p, int chunk_index, int chunk_count)
{
    bool chunked = chunk_count > 1;
    const mmd_scene *s = j->scene;
    int64_t to_render = p->frames; /* O(1): a range may be 100 million frames long */
    if (a->skip_existing)
        for (int64_t f = p->begin; f <= p->end; f += p->step)
            to_render -= kind->frame_exists(a->out, f, s->width, s->height);
    j->progress = mmd_progress_create(a->quiet ? MMD_PROGRESS_NONE : (mmd_progress_mode)a->progress, stderr,
                                      to_render);
    if (!kind->open)
        return 0;
    char tag[200];
    snprintf(tag, sizeof tag, MMD_CHUNK_TAG_FORMAT, chunk_index, chunk_count, (long long)p->begin,
             (long long)p->end, (long long)p->first, (long long)p->last, p->step, s->fps_num, s->fps_den);
    mmd_output_request r = mmd_output_request_for(s, p, a->out);
    r.codec = a->codec;
    r.preset = a->preset;
    r.crf = a->crf;
    r.threads = a->threads;
    r.chunk = chunked;
    r.chunk_tag = tag;
    r.cancel = &g_stop;
    if (kind->encodes && p->step > 1 && !a->quiet && p->video_rate_kept)
        mmd_msg_print(stderr, "mmdrender: warning: step %d: fps / step does not fit a video's rate, so the video "
                      "keeps %d/%d fps and plays %d times faster than the song\n", p->step, r.fps_num, r.fps_den,
                      p->step);
    else if (kind->encodes && p->step > 1 && !a->quiet)
        mmd_msg_print(stderr, "mmdrender: step %d: the video plays at %d/%d fps (fps / step), in sync with the "
                      "song\n", p->step, r.fps_num, r.fps_den);
    mmd_error err;
    j->sink = kind->open(&r, &err);
    if (!j->sink) {
        mmd_msg_print(stderr, "mmdrender: %s\n", err.msg);
        return mmd_exit_code(err.status);
    }
    j->sink->on_done = on_frame_done;
    j->sink->user = j->progress;
    return 0;
}

/* The background video's frame at VMD time t (30 per second) into the
 * renderer; a video that stops decoding is dropped with one warning. An exit
 * status: nonzero only for a GL failure. */
static int show_bgvideo(render_job *j, double t)
{
    if (!j->bgvideo)
        return 0;
    const uint8_t *px;
    int w, h;
    bool changed;
    mmd_error err;
    if (mmd_bgvideo_frame(j->bgvideo, t / 30.0, &px, &w, &h, &changed, &err) != MMD_OK) {
        mmd_msg_print(stderr, "mmdrender: warning: background video not drawn: %s\n", err.msg);
        mmd_bgvideo_free(j->bgvideo);
        j->bgvideo = NULL;
        return 0;
    }
    const mmd_scene *s = j->scene;
    if (changed && mmd_renderer_set_background_frame(j->renderer, px, w, h, s->bg_video_offset, s->bg_video_scale,
                                                     &err) != MMD_OK) {
        mmd_msg_print(stderr, "mmdrender: background video: %s\n", err.msg);
        return -1;
    }
    return 0;
}

typedef struct run_stats {
    double render_s, write_s;
    int64_t rendered;
    double t_begin, load_s, first_frame_s, first_frame_cpu_s; /* from the command's start */
} run_stats;

/* A model whose bodies piled up past the physics budget (core/physics.h) is
 * no longer simulated: say so once, naming the model and where (frame < 0:
 * while settling before the range). */
static void warn_physics_stopped(render_job *j, const render_args *a, int64_t frame)
{
    for (int i = 0; i < j->scene->model_count; i++) {
        mmd_physics_work w;
        if (!j->physics[i] || j->physics_warned[i])
            continue;
        mmd_physics_work_of(j->physics[i], &w);
        if (!w.stopped)
            continue;
        j->physics_warned[i] = true;
        if (a->quiet)
            continue;
        char at[64] = "while settling before the first frame";
        if (frame >= 0)
            snprintf(at, sizeof at, "at frame %lld", (long long)frame);
        mmd_msg_print(stderr, "mmdrender: warning: %s: %u rigid bodies piled up past the physics budget (%llu "
                      "colliding pairs, %llu box tests a step) %s: physics stopped, its bones follow the motion\n",
                      j->scene->models[i].file, j->models[i]->rigid_body_count, (unsigned long long)w.max_pairs,
                      (unsigned long long)w.max_tests, at);
    }
}

/* [gravity] at t on every simulated model. True when some model simulates. */
static bool set_gravity(render_job *j, double t)
{
    float g[3];
    bool any = false;
    mmd_scene_gravity_at(j->scene, t, g);
    for (int i = 0; i < j->scene->model_count; i++)
        if (j->physics[i]) {
            mmd_physics_set_gravity(j->physics[i], g);
            any = true;
        }
    return any;
}

/* The physics pre-roll (2 s before the first simulated frame, outside parents
 * as the frames have them) on its own thread while add_models decodes and
 * uploads the textures and open_output opens the output: neither touches the
 * motions, poses or physics worlds it writes. */
typedef struct preroll_job {
    render_job *j;
    const mmd_render_plan *p;
    pthread_t thread;
    bool running;
} preroll_job;

static void *preroll_main(void *arg)
{
    const preroll_job *pj = arg;
    if (pj->p->physics && set_gravity(pj->j, pj->p->preroll_time))
        mmd_links_preroll(pj->j->links, pj->p->preroll_time, pj->j->physics, 2.0);
    return NULL;
}

static void preroll_start(preroll_job *pj)
{
    pj->running = pthread_create(&pj->thread, NULL, preroll_main, pj) == 0;
    if (!pj->running) /* no thread to spare: here, now */
        preroll_main(pj);
}

static void preroll_join(preroll_job *pj)
{
    if (pj->running)
        pthread_join(pj->thread, NULL);
    pj->running = false;
}

/* Executes the plan: evaluates from sim_begin (physics pre-rolled), renders and
 * writes the chunk's frames. An exit code; stops early on a signal. */
static int run_frames(render_job *j, const render_args *a, const mmd_output_kind *kind,
                      const mmd_render_plan *p, run_stats *st)
{
    const mmd_scene *s = j->scene;
    warn_physics_stopped(j, a, -1); /* after preroll_start's thread */
    st->load_s = now_s() - st->t_begin;
    bool screen = mmd_scene_accessories_use_screen(&j->acc);
    bool animated_acc = mmd_scene_accessories_animated(&j->acc);
    for (int64_t f = p->sim_begin; f <= p->end && !g_stop; f++) {
        bool wanted = mmd_plan_renders(p, f);
        /* screen.bmp shows output frame f - 1 (black on the range's first): with
         * it every frame from the range's first is rendered, those this run
         * does not write included, so chunks and steps match a whole run */
        bool pre = screen && f >= p->first;
        if (!wanted && !pre && !p->physics)
            continue;
        double t = mmd_plan_time(p, f);
        double t0 = now_s();
        set_gravity(j, t);
        mmd_links_evaluate(j->links, t); /* every model, outside parents first */
        if (animated_acc) {
            mmd_scene_accessories_at(&j->acc, t);
            mmd_renderer_place_accessories(j->renderer, j->acc.place, (size_t)j->acc.count);
        }
        if (g_stop)
            break; /* evaluation was cut short: this frame is not drawn */
        warn_physics_stopped(j, a, f);
        bool skip = wanted && a->skip_existing && kind->frame_exists(a->out, f, s->width, s->height);
        if ((!wanted && !pre) || (skip && !screen))
            continue;
        mmd_camera_state cam;
        mmd_light_state light;
        mmd_shadow_state shadow;
        mmd_error err;
        sample_view(j, t, &cam, &light, &shadow);
        if (show_bgvideo(j, t) != 0)
            return MMD_EXIT_GL;
        mmd_renderer_set_time(j->renderer, t / 30.0); /* VMD frames -> seconds (LightBlink) */
        if (mmd_renderer_render(j->renderer, j->anims, (size_t)s->model_count, &cam, &light, &shadow, j->rgba,
                                &err) != MMD_OK) {
            if (err.status == MMD_E_INTERRUPTED)
                break; /* a signal stopped the frame: not written */
            mmd_msg_print(stderr, "mmdrender: frame %lld: GL: %s\n", (long long)f, err.msg);
            return mmd_exit_code(err.status);
        }
        double t1 = now_s();
        st->render_s += t1 - t0;
        if (!wanted || skip)
            continue; /* rendered only for the next frame's screen */
        if (st->rendered == 0) {
            st->first_frame_s = t1 - st->t_begin;
            st->first_frame_cpu_s = cpu_s();
        }
        if (j->sink) {
            if (mmd_sink_write(j->sink, j->rgba, s->width, s->height, (size_t)s->width * 4, f, &err) != MMD_OK) {
                mmd_msg_print(stderr, "mmdrender: frame %lld: %s\n", (long long)f, err.msg);
                return mmd_exit_code(err.status);
            }
        } else {
            mmd_progress_frame(j->progress, f);
        }
        st->write_s += now_s() - t1;
        st->rendered++;
    }
    return g_stop ? MMD_EXIT_INTERRUPTED : MMD_EXIT_OK;
}

static void install_signals(const mmd_sink *sink)
{
    g_temp_armed = 0;
    if (sink && sink->temp_path && strlen(sink->temp_path) < sizeof g_temp) {
        memcpy(g_temp, sink->temp_path, strlen(sink->temp_path) + 1);
        g_temp_armed = 1;
    }
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    g_stop = 0;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

/* Closes the sink (also after an interrupt: the video gets its trailer, PNGs
 * are complete) and reports. Returns the final exit code. */
static int finish_run(render_job *j, const render_args *a, const mmd_output_kind *kind, int rc,
                      const run_stats *st, double t_start)
{
    mmd_video_stats vstats = {0};
    if (j->sink && kind->stats)
        kind->stats(j->sink, &vstats);
    if (j->sink && (rc == MMD_EXIT_OK || rc == MMD_EXIT_INTERRUPTED)) {
        mmd_sink *sink = j->sink;
        j->sink = NULL;
        mmd_error err;
        if (mmd_sink_close(sink, &err) != MMD_OK) {
            mmd_msg_print(stderr, "mmdrender: %s\n", err.msg);
            rc = mmd_exit_code(err.status);
        }
    }
    /* Default handlers only once the output is closed: a signal while the
     * encoder drains must not kill the process before the trailer is written
     * (a second signal still ends the process at once, removing the .part). */
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    g_temp_armed = 0;
    double wall = now_s() - t_start;
    long long n = (long long)st->rendered;
    if (rc == MMD_EXIT_OK || rc == MMD_EXIT_INTERRUPTED)
        mmd_progress_finish(j->progress);
    if (rc == MMD_EXIT_INTERRUPTED && !a->quiet)
        mmd_msg_print(stderr, "mmdrender: interrupted after %lld frame(s); %s was finalised\n", n, a->out);
    else if (rc == MMD_EXIT_OK && !a->quiet)
        mmd_msg_print(stderr, "mmdrender: %lld frame(s) in %.2f s (%.2f fps) -> %s\n", n, wall,
                      wall > 0 ? (double)n / wall : 0.0, a->out);
    if (a->stats)
        printf("{\"frames\":%lld,\"wall_s\":%.4f,\"render_s\":%.4f,\"write_s\":%.4f,\"queue_wait_s\":%.4f,"
               "\"encode_s\":%.4f,\"fps\":%.3f,\"render_fps\":%.3f,\"files_loaded\":%d,\"load_s\":%.4f,"
               "\"first_frame_s\":%.4f,\"first_frame_cpu_s\":%.4f,\"cpu_s\":%.4f}\n",
               n, wall, st->render_s, st->write_s, vstats.writer_wait_s, vstats.encode_s,
               wall > 0 ? (double)n / wall : 0.0, st->render_s > 0 ? (double)n / st->render_s : 0.0,
               j->files_loaded, st->load_s, st->first_frame_s, st->first_frame_cpu_s, cpu_s());
    return rc;
}

int mmd_cmd_render(int argc, char **argv)
{
    render_args a;
    int rc = parse_args(argc, argv, &a);
    if (rc)
        return rc < 0 ? MMD_EXIT_OK : rc;
    mmd_error err;
    render_job j;
    memset(&j, 0, sizeof j);
    run_stats st = {.t_begin = now_s()};
    if (mmd_scene_load_file(a.scene, &j.scene, &err) != MMD_OK) {
        mmd_msg_print(stderr, "mmdrender: %s\n", err.msg);
        return mmd_exit_code(err.status);
    }
    if (!a.quiet)
        mmd_scene_warn(j.scene, stderr, "mmdrender: ");
    int step, chunk_index = 0, chunk_count = 1;
    const mmd_output_kind *kind = NULL;
    if (apply_options(j.scene, &a, &step, &err) != MMD_OK)
        goto usage;
    if (a.chunk && (rc = parse_chunk(a.chunk, &chunk_index, &chunk_count)) != 0)
        goto out;
    if (!(kind = check_output(&a, &err)))
        goto usage;
    av_log_set_level(a.quiet ? AV_LOG_QUIET : AV_LOG_ERROR);
    /* sizes the encoder or the GL cannot take are refused before loading anything */
    size_t texture_budget = 0;
    if ((kind->check && (rc = check_sizes(&j, &a, kind)) != 0) ||
        (rc = check_memory(&j, &a, kind, &texture_budget)) != 0 ||
        (!a.print_plan && (rc = open_renderer(&j, &a, texture_budget)) != 0) || (rc = load_inputs(&j, &a)) != 0)
        goto out;
    mmd_plan_input in = plan_input(&j, step, chunk_index, chunk_count);
    mmd_render_plan plan;
    bool nonempty = mmd_render_plan_make(&in, &plan);
    if (plan.over_cap) {
        mmd_msg_print(stderr, "mmdrender: the motions' last key (VMD frame %lu) is output frame %lld, past the frame "
                      "cap %lld: give --frames A-B\n", (unsigned long)in.last_key, (long long)plan.last,
                      (long long)MMD_PLAN_MAX_FRAME);
        rc = MMD_EXIT_INPUT;
        goto out;
    }
    if (a.print_plan) {
        print_plan(&plan, j.scene);
        goto out;
    }
    if (nonempty && output_is_input(&j, &a, kind, &plan, err.msg, sizeof err.msg)) {
        err.status = MMD_E_USAGE;
        goto usage;
    }
    if (!nonempty) {
        if (!a.quiet)
            mmd_msg_print(stderr, "mmdrender: chunk %d/%d of %lld frames is empty: nothing to do\n", chunk_index,
                          chunk_count, (long long)plan.total);
        goto out;
    }
    preroll_job pj = {.j = &j, .p = &plan};
    preroll_start(&pj);
    if ((rc = add_models(&j)) == 0 && (rc = open_output(&j, &a, kind, &plan, chunk_index, chunk_count)) == 0)
        install_signals(j.sink); /* a signal now also cuts the pre-roll short (mmd_anim_set_cancel) */
    preroll_join(&pj);
    if (rc)
        goto out;
    double t_start = now_s();
    rc = run_frames(&j, &a, kind, &plan, &st);
    rc = finish_run(&j, &a, kind, rc, &st, t_start);
    goto out;
usage:
    mmd_msg_print(stderr, "mmdrender: %s\n(mmdrender --help for the options)\n", err.msg);
    rc = mmd_exit_code(err.status);
out:
    job_free(&j);
    return rc;
}
