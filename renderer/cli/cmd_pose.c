/* renderer/cli/cmd_pose.c - `mmdrender pose MODEL --motion VMD ... --frames LIST --json`:
 * evaluate the animation core at the given frames and print bone world
 * matrices (LH model space, column-major), morph weights and, with --camera,
 * the camera - the same layout as the reference pose files in ../shared/reference.
 * With --physics the model's rigid bodies are simulated exactly as a 30 fps
 * render of the same frame list would: the warm-up at the first listed frame
 * (mmd_physics_preroll, 2 s as the render), then every whole frame up to each
 * listed one; the JSON gains "physics":true. Deterministic (same bytes twice). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/anim.h"
#include "core/camera.h"
#include "core/model.h"
#include "core/motion.h"
#include "renderer/base/msg.h"
#include "core/physics.h"
#include "renderer/cli/commands.h"
#include "renderer/cli/json_out.h"

#define POSE_MAX_MOTIONS 64
#define POSE_MAX_FRAMES 1000000

static void usage(FILE *f)
{
    fprintf(f, "usage: mmdrender pose MODEL [--motion VMD]... [--camera VMD] [--physics] --frames LIST [--json]\n"
               "       mmdrender pose --scene SCENE.ini [--physics] [--allow-outside-assets] --frames LIST [--json]\n"
               "  LIST: comma-separated frames (30 fps, fractional allowed) or ranges A:B[:STEP]\n"
               "  --physics  simulate rigid bodies as a render of these frames would (warm-up at\n"
               "             the first listed frame, every frame in between); LIST must ascend\n"
               "  prints JSON {bones, frames:[{frame, world, morphs[, camera]}]}; with --scene\n"
               "  {models:[{name, file, bones}], frames:[{frame, models:[{name, world}]}]}\n"
               "  (every model of the scene, outside parents applied)\n"
               "  --allow-outside-assets  with --scene: a .vac may name a .x outside its folder, as render's\n");
}

/* Append frames from LIST to *out; returns false on a syntax error. */
static bool parse_frames(const char *list, double **out, size_t *n, size_t *cap)
{
    const char *p = list;
    while (*p) {
        char *end;
        double v[3];
        int k = 0;
        for (;;) {
            errno = 0;
            v[k] = strtod(p, &end);
            if (end == p || errno || !isfinite(v[k]))
                return false;
            k++;
            p = end;
            if (*p == ':' && k < 3) {
                p++;
                continue;
            }
            break;
        }
        if (*p == ',')
            p++;
        else if (*p)
            return false;
        double a = v[0], b = k > 1 ? v[1] : v[0], step = k > 2 ? v[2] : 1.0;
        if (!(step > 0) || b < a)
            return false;
        double cnt = floor((b - a) / step + 1e-9) + 1;
        if (cnt + (double)*n > POSE_MAX_FRAMES)
            return false;
        for (double i = 0; i < cnt; i++) {
            if (*n == *cap) {
                size_t nc = *cap ? *cap * 2 : 64;
                double *nd = realloc(*out, nc * sizeof *nd);
                if (!nd)
                    return false;
                *out = nd, *cap = nc;
            }
            (*out)[(*n)++] = a + i * step;
        }
    }
    return *n > 0;
}

/* A JSON number, or null when v is not finite (3e38 camera keys overflow to
 * inf in the maths; "inf" and "nan" are not JSON). */
static void json_num(FILE *f, double v)
{
    if (isfinite(v))
        fprintf(f, "%.9g", v);
    else
        fputs("null", f);
}

static void json_vec(FILE *f, const float *v, int n)
{
    fputc('[', f);
    for (int i = 0; i < n; i++) {
        if (i)
            fputc(',', f);
        json_num(f, (double)v[i]);
    }
    fputc(']', f);
}

/* Says why path could not be loaded (located: offset, section, item); st's exit code. */
static int said_load_error(mmd_status st, const char *path, const mmd_error *e)
{
    char buf[512];
    mmd_error_format(e, path, buf, sizeof buf);
    mmd_msg_print(stderr, "mmdrender pose: %s\n", buf);
    return mmd_exit_code(st);
}

/* One frame's object: world matrices, morph weights, camera (with --camera). */
static void write_frame_json(FILE *f, const mmd_model *model, mmd_anim *anim, mmd_camera_track *ct,
                             double t, bool first)
{
    mmd_anim_evaluate(anim, t);
    const float *w = mmd_anim_world(anim);
    const float *mw = mmd_anim_morph_weights_raw(anim);
    fprintf(f, "%s{\"frame\":%.9g,\"world\":[", first ? "\n" : ",\n", t);
    for (uint32_t b = 0; b < model->bone_count; b++) {
        if (b)
            fputc(',', f);
        json_vec(f, w + 16 * b, 16);
    }
    fputs("],\"morphs\":{", f);
    for (uint32_t m = 0; m < model->morph_count; m++) {
        if (m)
            fputc(',', f);
        mmd_json_str(f, model->morphs[m].name);
        fputc(':', f);
        json_num(f, (double)mw[m]);
    }
    fputc('}', f);
    if (ct) {
        mmd_camera_state s;
        mmd_camera_sample(ct, t, &s);
        fputs(",\"camera\":{\"eye\":", f);
        json_vec(f, s.eye, 3);
        fputs(",\"target\":", f);
        json_vec(f, s.target, 3);
        fputs(",\"up\":", f);
        json_vec(f, s.up, 3);
        fputs(",\"rotation\":", f);
        json_vec(f, s.rotation, 3);
        fputs(",\"fov\":", f);
        json_num(f, (double)s.fov);
        fputs(",\"distance\":", f);
        json_num(f, (double)s.distance);
        fprintf(f, ",\"ortho\":%s}", s.ortho ? "true" : "false");
    }
    fputc('}', f);
}

typedef struct pose_opts {
    const char *model_path, *camera_path, *scene_path, *motion_paths[POSE_MAX_MOTIONS];
    size_t nmotion, nframes, fcap;
    double *frames;
    bool physics, allow_outside;
} pose_opts;

/* The command line into *o. MMD_E_USAGE after saying why; *done after --help. */
static mmd_status parse_args(int argc, char **argv, pose_opts *o, bool *done)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(stdout);
            *done = true;
            return MMD_OK;
        } else if (!strcmp(a, "--json")) {
            /* JSON is the only output format */
        } else if (!strcmp(a, "--physics")) {
            o->physics = true;
        } else if (!strcmp(a, "--allow-outside-assets")) {
            o->allow_outside = true;
        } else if (!strcmp(a, "--motion") && i + 1 < argc) {
            if (o->nmotion == POSE_MAX_MOTIONS) {
                mmd_msg_print(stderr, "mmdrender pose: too many --motion (max %d)\n", POSE_MAX_MOTIONS);
                return MMD_E_USAGE;
            }
            o->motion_paths[o->nmotion++] = argv[++i];
        } else if (!strcmp(a, "--camera") && i + 1 < argc) {
            o->camera_path = argv[++i];
        } else if (!strcmp(a, "--scene") && i + 1 < argc) {
            o->scene_path = argv[++i];
        } else if (!strcmp(a, "--frames") && i + 1 < argc) {
            if (!parse_frames(argv[++i], &o->frames, &o->nframes, &o->fcap)) {
                mmd_msg_print(stderr, "mmdrender pose: bad --frames '%s'\n", argv[i]);
                return MMD_E_USAGE;
            }
        } else if (a[0] == '-' && a[1]) {
            mmd_msg_print(stderr, "mmdrender pose: unknown or incomplete option '%s'\n", a);
            usage(stderr);
            return MMD_E_USAGE;
        } else if (!o->model_path) {
            o->model_path = a;
        } else {
            mmd_msg_print(stderr, "mmdrender pose: unexpected argument '%s'\n", a);
            return MMD_E_USAGE;
        }
    }
    return MMD_OK;
}

/* What one model's pose needs, loaded and bound. */
typedef struct pose_inputs {
    mmd_model *model;
    mmd_motion *motions[POSE_MAX_MOTIONS], *cam;
    mmd_camera_track *ct;
    mmd_anim *anim;
    mmd_physics *phys;
} pose_inputs;

static void inputs_free(pose_inputs *in)
{
    mmd_physics_free(in->phys); /* detaches from anim first */
    mmd_anim_free(in->anim);
    mmd_camera_track_free(in->ct);
    mmd_motion_free(in->cam);
    for (size_t i = 0; i < POSE_MAX_MOTIONS; i++)
        mmd_motion_free(in->motions[i]);
    mmd_model_free(in->model);
}

/* Loads the model, motions and camera, binds the animation and (with
 * --physics) the rigid bodies, warmed up at the first frame. On failure the
 * status, e's sentence and *failed (the file it is about); o->physics is
 * cleared when the model's bodies are too many. */
static mmd_status load_inputs(pose_opts *o, pose_inputs *in, mmd_error *e, const char **failed)
{
    mmd_status st;
    *failed = o->model_path;
    if ((st = mmd_model_load_file(o->model_path, &in->model, e)) != MMD_OK)
        return st;
    for (size_t i = 0; i < o->nmotion; i++)
        if ((st = mmd_motion_load_file(o->motion_paths[i], &in->motions[i], e)) != MMD_OK)
            return *failed = o->motion_paths[i], st;
    if (o->camera_path && ((st = mmd_motion_load_file(o->camera_path, &in->cam, e)) != MMD_OK ||
                           (st = mmd_camera_track_create(in->cam, &in->ct, e)) != MMD_OK))
        return *failed = o->camera_path, st;
    if ((st = mmd_anim_create(in->model, (const mmd_motion *const *)in->motions, o->nmotion, &in->anim, e)) != MMD_OK)
        return st;
    char pb[256];
    for (size_t i = 0; i < mmd_anim_unbound_count(in->anim); i++)
        mmd_msg_print(stderr, "mmdrender pose: note: motion track '%s' matches nothing in the model\n",
                      mmd_printable(mmd_anim_unbound_name(in->anim, i), pb, sizeof pb));
    if (!o->physics || in->model->rigid_body_count == 0)
        return MMD_OK;
    st = mmd_physics_create(in->model, &in->phys, e);
    if (st == MMD_E_LIMIT) {
        mmd_msg_print(stderr, "mmdrender pose: warning: %s: %s: posed without physics\n", o->model_path, e->msg);
        o->physics = false; /* a pile of bodies, as in render */
        return MMD_OK;
    }
    if (st != MMD_OK || (st = mmd_physics_attach(in->phys, in->anim, e)) != MMD_OK)
        return st;
    mmd_physics_preroll(in->phys, in->anim, o->frames[0], 2.0); /* as cmd_render.c does at the first frame */
    return MMD_OK;
}

/* The JSON document on stdout; MMD_E_OUTPUT (said) when it cannot be written. */
static mmd_status write_poses(const pose_opts *o, const pose_inputs *in)
{
    FILE *f = stdout;
    const mmd_model *model = in->model;
    const double *frames = o->frames;
    fputs("{\"bones\":[", f);
    for (uint32_t b = 0; b < model->bone_count; b++) {
        if (b)
            fputc(',', f);
        mmd_json_str(f, model->bones[b].name);
    }
    fputs(o->physics ? "],\"physics\":true,\"frames\":[" : "],\"frames\":[", f);
    for (size_t k = 0; k < o->nframes; k++) {
        /* a render steps through every frame between the listed ones */
        for (double g = k ? floor(frames[k - 1]) + 1 : frames[k]; in->phys && k && g < frames[k]; g++)
            mmd_anim_evaluate(in->anim, g);
        write_frame_json(f, model, in->anim, in->ct, frames[k], k == 0);
    }
    fputs("\n]}\n", f);
    if (fflush(f) == 0 && !ferror(f))
        return MMD_OK;
    mmd_msg_print(stderr, "mmdrender pose: cannot write output\n");
    return MMD_E_OUTPUT;
}

/* The combination of options: a model's pose or (*scene) the scene's.
 * MMD_E_USAGE after saying why. */
static mmd_status check_options(const pose_opts *o, bool *scene)
{
    *scene = o->scene_path && !o->model_path && o->nframes > 0 && o->nmotion == 0 && !o->camera_path;
    if (!*scene && (!o->model_path || o->nframes == 0 || o->scene_path || o->allow_outside)) {
        usage(stderr);
        return MMD_E_USAGE;
    }
    for (size_t k = 1; o->physics && k < o->nframes; k++)
        if (!(o->frames[k] > o->frames[k - 1])) {
            mmd_msg_print(stderr, "mmdrender pose: --physics needs ascending frames (%g after %g), as a render has\n",
                          o->frames[k], o->frames[k - 1]);
            return MMD_E_USAGE;
        }
    return MMD_OK;
}

/* Runs the pose (or the scene's: mmd_pose_scene, its own top); the exit code. */
static int run(pose_opts *o)
{
    bool scene;
    mmd_status cs = check_options(o, &scene);
    if (cs != MMD_OK)
        return mmd_exit_code(cs);
    if (scene)
        return mmd_pose_scene(o->scene_path, o->frames, o->nframes, o->physics, o->allow_outside);
    pose_inputs in = {0};
    mmd_error e = {0};
    const char *failed = NULL;
    mmd_status st = load_inputs(o, &in, &e, &failed);
    int rc = st != MMD_OK ? said_load_error(st, failed, &e) : mmd_exit_code(write_poses(o, &in));
    inputs_free(&in);
    return rc;
}

int mmd_cmd_pose(int argc, char **argv)
{
    pose_opts o = {0};
    bool done = false;
    mmd_status st = parse_args(argc, argv, &o, &done);
    int rc = st != MMD_OK || done ? mmd_exit_code(st) : run(&o);
    free(o.frames);
    return rc;
}
