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
#include "core/physics.h"
#include "renderer/cli/commands.h"
#include "renderer/cli/json_out.h"

#define POSE_MAX_MOTIONS 64
#define POSE_MAX_FRAMES 1000000

static void usage(FILE *f)
{
    fprintf(f, "usage: mmdrender pose MODEL [--motion VMD]... [--camera VMD] [--physics] --frames LIST [--json]\n"
               "       mmdrender pose --scene SCENE.ini --frames LIST [--json]\n"
               "  LIST: comma-separated frames (30 fps, fractional allowed) or ranges A:B[:STEP]\n"
               "  --physics  simulate rigid bodies as a render of these frames would (warm-up at\n"
               "             the first listed frame, every frame in between); LIST must ascend\n"
               "  prints JSON {bones, frames:[{frame, world, morphs[, camera]}]}; with --scene\n"
               "  {models:[{name, file, bones}], frames:[{frame, models:[{name, world}]}]}\n"
               "  (every model of the scene, outside parents applied)\n");
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

static void json_vec(FILE *f, const float *v, int n)
{
    fputc('[', f);
    for (int i = 0; i < n; i++)
        fprintf(f, "%s%.9g", i ? "," : "", (double)v[i]);
    fputc(']', f);
}

static int load_error(const char *path, const mmd_error *e)
{
    char buf[512];
    mmd_error_format(e, path, buf, sizeof buf);
    fprintf(stderr, "mmdrender pose: %s\n", buf);
    return MMD_EXIT_INPUT;
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
        fprintf(f, ":%.9g", (double)mw[m]);
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
        fprintf(f, ",\"rotation\":[%.9g,%.9g,%.9g],\"fov\":%.9g,\"distance\":%.9g,\"ortho\":%s}",
                (double)s.rotation[0], (double)s.rotation[1], (double)s.rotation[2], (double)s.fov,
                (double)s.distance, s.ortho ? "true" : "false");
    }
    fputc('}', f);
}

int mmd_cmd_pose(int argc, char **argv)
{
    const char *model_path = NULL, *camera_path = NULL, *scene_path = NULL, *motion_paths[POSE_MAX_MOTIONS];
    size_t nmotion = 0, nframes = 0, fcap = 0;
    double *frames = NULL;
    bool physics = false;
    int rc = MMD_EXIT_USAGE;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(stdout);
            free(frames);
            return MMD_EXIT_OK;
        } else if (!strcmp(a, "--json")) {
            /* JSON is the only output format */
        } else if (!strcmp(a, "--physics")) {
            physics = true;
        } else if (!strcmp(a, "--motion") && i + 1 < argc) {
            if (nmotion == POSE_MAX_MOTIONS) {
                fprintf(stderr, "mmdrender pose: too many --motion (max %d)\n", POSE_MAX_MOTIONS);
                goto out;
            }
            motion_paths[nmotion++] = argv[++i];
        } else if (!strcmp(a, "--camera") && i + 1 < argc) {
            camera_path = argv[++i];
        } else if (!strcmp(a, "--scene") && i + 1 < argc) {
            scene_path = argv[++i];
        } else if (!strcmp(a, "--frames") && i + 1 < argc) {
            if (!parse_frames(argv[++i], &frames, &nframes, &fcap)) {
                fprintf(stderr, "mmdrender pose: bad --frames '%s'\n", argv[i]);
                goto out;
            }
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "mmdrender pose: unknown or incomplete option '%s'\n", a);
            usage(stderr);
            goto out;
        } else if (!model_path) {
            model_path = a;
        } else {
            fprintf(stderr, "mmdrender pose: unexpected argument '%s'\n", a);
            goto out;
        }
    }
    if (scene_path && !model_path && nframes > 0 && nmotion == 0 && !camera_path) {
        rc = mmd_pose_scene(scene_path, frames, nframes);
        goto out;
    }
    if (!model_path || nframes == 0 || scene_path) {
        usage(stderr);
        goto out;
    }
    for (size_t k = 1; physics && k < nframes; k++)
        if (!(frames[k] > frames[k - 1])) {
            fprintf(stderr, "mmdrender pose: --physics needs ascending frames (%g after %g), as a render has\n",
                    frames[k], frames[k - 1]);
            goto out;
        }

    mmd_model *model = NULL;
    mmd_motion *motions[POSE_MAX_MOTIONS] = {0}, *cam = NULL;
    mmd_camera_track *ct = NULL;
    mmd_anim *anim = NULL;
    mmd_physics *phys = NULL;
    mmd_error e = {0};
    rc = MMD_EXIT_INPUT;
    if (mmd_model_load_file(model_path, &model, &e) != MMD_OK) {
        load_error(model_path, &e);
        goto cleanup;
    }
    for (size_t i = 0; i < nmotion; i++)
        if (mmd_motion_load_file(motion_paths[i], &motions[i], &e) != MMD_OK) {
            load_error(motion_paths[i], &e);
            goto cleanup;
        }
    if (camera_path) {
        if (mmd_motion_load_file(camera_path, &cam, &e) != MMD_OK) {
            load_error(camera_path, &e);
            goto cleanup;
        }
        if (mmd_camera_track_create(cam, &ct, &e) != MMD_OK) {
            load_error(camera_path, &e);
            goto cleanup;
        }
    }
    if (mmd_anim_create(model, (const mmd_motion *const *)motions, nmotion, &anim, &e) != MMD_OK) {
        load_error(model_path, &e);
        goto cleanup;
    }
    for (size_t i = 0; i < mmd_anim_unbound_count(anim); i++)
        fprintf(stderr, "mmdrender pose: note: motion track '%s' matches nothing in the model\n",
                mmd_anim_unbound_name(anim, i));
    if (physics && model->rigid_body_count > 0) {
        if (mmd_physics_create(model, &phys, &e) != MMD_OK || mmd_physics_attach(phys, anim) != MMD_OK) {
            load_error(model_path, &e);
            goto cleanup;
        }
        mmd_physics_preroll(phys, anim, frames[0], 2.0); /* as cmd_render.c does at the first frame */
    }

    FILE *f = stdout;
    fputs("{\"bones\":[", f);
    for (uint32_t b = 0; b < model->bone_count; b++) {
        if (b)
            fputc(',', f);
        mmd_json_str(f, model->bones[b].name);
    }
    fputs(physics ? "],\"physics\":true,\"frames\":[" : "],\"frames\":[", f);
    for (size_t k = 0; k < nframes; k++) {
        /* a render steps through every frame between the listed ones */
        for (double g = k ? floor(frames[k - 1]) + 1 : frames[k]; phys && k && g < frames[k]; g++)
            mmd_anim_evaluate(anim, g);
        write_frame_json(f, model, anim, ct, frames[k], k == 0);
    }
    fputs("\n]}\n", f);
    rc = (fflush(f) == 0 && !ferror(f)) ? MMD_EXIT_OK : MMD_EXIT_OUTPUT;
    if (rc != MMD_EXIT_OK)
        fprintf(stderr, "mmdrender pose: cannot write output\n");
cleanup:
    mmd_physics_free(phys); /* detaches from anim first */
    mmd_anim_free(anim);
    mmd_camera_track_free(ct);
    mmd_motion_free(cam);
    for (size_t i = 0; i < nmotion; i++)
        mmd_motion_free(motions[i]);
    mmd_model_free(model);
out:
    free(frames);
    return rc;
}
