/* tools/bench_scene.c - where a frame of a scene goes (issue 17's bench scene,
 * tools/mkbench.c; run by tools/bench_scene.sh):
 *
 *     bench_scene SCENE.ini [WxH [MSAA [FRAMES [FIRST [THREADS]]]]]
 *                 (default: the scene's size and MSAA, 12 frames from frame 60, 2 threads)
 *
 * 1. One core, per model: pose (sample, morphs, bones, IK) and physics
 *    (mmd_anim_evaluate with and without the physics hook) and CPU skinning of
 *    every vertex; the goal is <= 2 ms for the dancer (pose + morph + skin + physics).
 * 2. The renderer with options.profile: per pass (skinning on the renderer's
 *    threads, upload, self-shadow map, clear, colour, edges, ground shadow,
 *    MSAA resolve, readback) the process CPU time (all threads: llvmpipe's
 *    rasteriser threads included) and wall time, each pass finished before the
 *    next; the costliest materials of the colour pass.
 * 3. The same frames unprofiled: process CPU and wall per frame.
 * The machine is shared: CPU times are the figures to compare, wall times are
 * shown for reference only. Means over FRAMES after 3 warm-up frames.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "core/anim.h"
#include "core/camera.h"
#include "core/model.h"
#include "core/motion.h"
#include "core/physics.h"
#include "renderer/scene/scene.h"
#include "renderer/gl/render.h"

#define WARM 3
#define MAX_M MMD_SCENE_MAX_MODELS

static double clock_ms(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}
static double wall_ms(void) { return clock_ms(CLOCK_MONOTONIC); }
static double thread_ms(void) { return clock_ms(CLOCK_THREAD_CPUTIME_ID); }
static double process_ms(void)
{
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return (double)(u.ru_utime.tv_sec + u.ru_stime.tv_sec) * 1e3 +
           (double)(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e3;
}

typedef struct bench {
    mmd_scene *s;
    int n;
    mmd_model *model[MAX_M];
    mmd_motion *motion[MAX_M][MMD_SCENE_MAX_MOTIONS];
    mmd_anim *anim[MAX_M], *bare[MAX_M]; /* bare: the same without physics */
    mmd_physics *phys[MAX_M];
    mmd_motion *cam_motion;
    mmd_camera_track *cam;
} bench;

static int load(bench *b, const char *path)
{
    mmd_error err;
    if (mmd_scene_load_file(path, &b->s, &err) != MMD_OK) {
        fprintf(stderr, "bench_scene: %s\n", err.msg);
        return -1;
    }
    b->n = b->s->model_count;
    for (int i = 0; i < b->n; i++) {
        const mmd_scene_model *sm = &b->s->models[i];
        const mmd_motion *ms[MMD_SCENE_MAX_MOTIONS];
        if (mmd_model_load_file(sm->file, &b->model[i], &err) != MMD_OK) {
            fprintf(stderr, "bench_scene: %s: %s\n", sm->file, err.msg);
            return -1;
        }
        for (int k = 0; k < sm->motion_count; k++) {
            if (mmd_motion_load_file(sm->motions[k], &b->motion[i][k], &err) != MMD_OK) {
                fprintf(stderr, "bench_scene: %s: %s\n", sm->motions[k], err.msg);
                return -1;
            }
            ms[k] = b->motion[i][k];
        }
        size_t nm = (size_t)sm->motion_count;
        if (mmd_anim_create(b->model[i], ms, nm, &b->anim[i], &err) != MMD_OK ||
            mmd_anim_create(b->model[i], ms, nm, &b->bare[i], &err) != MMD_OK) {
            fprintf(stderr, "bench_scene: %s: %s\n", sm->file, err.msg);
            return -1;
        }
        mmd_scene_model_place(sm, b->anim[i]); /* as a render places it */
        mmd_scene_model_place(sm, b->bare[i]);
        if (sm->physics && b->model[i]->rigid_body_count > 0 &&
            (mmd_physics_create(b->model[i], &b->phys[i], &err) != MMD_OK ||
             mmd_physics_attach(b->phys[i], b->anim[i], &err) != MMD_OK)) {
            fprintf(stderr, "bench_scene: physics: %s: %s\n", sm->file, err.msg);
            return -1;
        }
    }
    if (b->s->camera_motion && mmd_motion_load_file(b->s->camera_motion, &b->cam_motion, &err) != MMD_OK) {
        fprintf(stderr, "bench_scene: %s: %s\n", b->s->camera_motion, err.msg);
        return -1;
    }
    return mmd_camera_track_create(b->cam_motion, &b->cam, &err) == MMD_OK ? 0 : -1;
}

static void unload(bench *b)
{
    for (int i = 0; i < b->n; i++) {
        mmd_physics_free(b->phys[i]);
        mmd_anim_free(b->anim[i]);
        mmd_anim_free(b->bare[i]);
        for (int k = 0; k < MMD_SCENE_MAX_MOTIONS; k++)
            mmd_motion_free(b->motion[i][k]);
        mmd_model_free(b->model[i]);
    }
    mmd_camera_track_free(b->cam);
    mmd_motion_free(b->cam_motion);
    mmd_scene_free(b->s);
}

/* 1: one core, per model (the physics anims are pre-rolled here for part 2 too). */
static void bench_cpu_side(bench *b, int first, int frames)
{
    printf("one core, per model, mean of %d frames (thread CPU ms):\n", frames);
    printf("  %-10s %8s %8s %8s %8s %8s   goal\n", "model", "vertices", "pose", "physics", "skin", "total");
    for (int i = 0; i < b->n; i++) {
        const mmd_model *m = b->model[i];
        if (b->phys[i])
            mmd_physics_preroll(b->phys[i], b->anim[i], first, 2.0);
        float *pos = malloc((size_t)m->vertex_count * 12 + 12), *nrm = malloc((size_t)m->vertex_count * 12 + 12);
        double pose = 0, with = 0, skin = 0;
        for (int f = first; f < first + frames && pos && nrm; f++) {
            double t0 = thread_ms();
            mmd_anim_evaluate(b->bare[i], f);
            double t1 = thread_ms();
            mmd_anim_evaluate(b->anim[i], f);
            double t2 = thread_ms();
            mmd_anim_skin(b->anim[i], 0, m->vertex_count, pos, nrm);
            double t3 = thread_ms();
            pose += t1 - t0, with += t2 - t1, skin += t3 - t2;
        }
        double phys = b->phys[i] ? with - pose : 0;
        printf("  %-10s %8u %8.3f %8.3f %8.3f %8.3f   %s\n", b->s->models[i].name, m->vertex_count, pose / frames,
               phys / frames, skin / frames, (with + skin) / frames,
               m->rigid_body_count ? "<= 2 ms (pose + morph + skin + physics)" : "");
        free(pos);
        free(nrm);
    }
}

static const char *const k_pass[MMD_PASS_COUNT] = {"skinning (renderer threads)", "upload", "self-shadow map",
                                                   "clear", "colour", "edges", "ground shadow", "MSAA resolve",
                                                   "readback", "glow emission", "post effects"};

static void sample(bench *b, double t, mmd_camera_state *cam, mmd_light_state *light, mmd_shadow_state *sh)
{
    mmd_camera_sample(b->cam, t, cam);
    mmd_light_sample(b->cam, t, light);
    mmd_shadow_sample(b->cam, t, sh);
}

/* 2 and 3: the renderer, profiled then not. */
static int bench_render(bench *b, int w, int h, int samples, int threads, int first, int frames)
{
    mmd_render_options o;
    mmd_render_options_default(&o);
    o.width = w, o.height = h, o.samples = samples, o.threads = threads;
    memcpy(o.background, b->s->background, sizeof b->s->background);
    uint8_t *rgba = malloc((size_t)w * (size_t)h * 4);
    mmd_renderer *r[2] = {NULL, NULL};
    mmd_error err = {0};
    int rc = rgba ? 0 : -1;
    for (int p = 0; p < 2 && rc == 0; p++) {
        o.profile = p == 0;
        rc = mmd_renderer_create(&o, &r[p], &err) != MMD_OK;
        for (int i = 0; i < b->n && rc == 0; i++) {
            char dir[1024];
            snprintf(dir, sizeof dir, "%s", b->s->models[i].file);
            char *slash = strrchr(dir, '/');
            snprintf(slash ? slash : dir, sizeof dir - (size_t)(slash ? slash - dir : 0), "%s", slash ? "" : ".");
            rc = mmd_renderer_add_model(r[p], b->model[i], dir, &err) != MMD_OK;
        }
    }
    double sum[2][MMD_PASS_COUNT] = {{0}}, cpu_plain = 0, wall_plain = 0, main_plain = 0;
    double *mat = calloc(MAX_M * 256, sizeof *mat);
    for (int p = 0; p < 2 && rc == 0; p++) {
        double c0 = 0, w0 = 0, m0 = 0;
        for (int k = 0; k < WARM + frames && rc == 0; k++) {
            if (k == WARM)
                c0 = process_ms(), w0 = wall_ms(), m0 = thread_ms();
            double t = first + p * (WARM + frames) + k; /* physics only goes forwards */
            for (int i = 0; i < b->n; i++)
                mmd_anim_evaluate(b->anim[i], t);
            mmd_camera_state cam;
            mmd_light_state light;
            mmd_shadow_state sh;
            sample(b, t, &cam, &light, &sh);
            rc = mmd_renderer_render(r[p], b->anim, (size_t)b->n, &cam, &light, &sh, rgba, &err) != MMD_OK;
            if (p == 0 && k >= WARM) {
                const mmd_render_profile *pr = mmd_renderer_profile(r[0]);
                for (int q = 0; q < MMD_PASS_COUNT; q++)
                    sum[0][q] += pr->cpu_ms[q], sum[1][q] += pr->wall_ms[q];
                for (int i = 0; i < b->n && i < MAX_M; i++)
                    for (uint32_t m = 0; m < b->model[i]->material_count && m < 256; m++)
                        mat[i * 256 + m] += mmd_renderer_profile_material(r[0], (size_t)i, m);
            }
        }
        if (p == 1)
            cpu_plain = (process_ms() - c0) / frames, wall_plain = (wall_ms() - w0) / frames,
            main_plain = (thread_ms() - m0) / frames;
    }
    if (rc) {
        fprintf(stderr, "bench_scene: %s\n", rgba ? err.msg : "out of memory");
    } else {
        double tc = 0, tw = 0;
        printf("%dx%d MSAA %d, %d threads, frames %d-%d, per pass (each finished before the next; process CPU "
               "ms, all threads | wall ms):\n", w, h, samples, threads, first, first + frames - 1);
        for (int q = 0; q < MMD_PASS_COUNT; q++) {
            printf("  %-28s %8.2f | %7.2f\n", k_pass[q], sum[0][q] / frames, sum[1][q] / frames);
            tc += sum[0][q] / frames, tw += sum[1][q] / frames;
        }
        printf("  %-28s %8.2f | %7.2f\n", "sum (profiled)", tc, tw);
        printf("  %-28s %8.2f | %7.2f   (the next %d frames, not profiled: passes overlap)\n", "frame",
               cpu_plain, wall_plain, frames);
        printf("  %-28s %8.2f           (posing, skinning share, GL calls, vertex work, binning: serial)\n",
               "  of which the main thread", main_plain);
        printf("  %-28s %8.2f ms           (max(main thread, CPU / 2))\n", "  2 idle cores, at best",
               main_plain > cpu_plain / 2 ? main_plain : cpu_plain / 2);
        printf("costliest materials of the colour pass (process CPU ms per frame):\n");
        for (int top = 0; top < 8; top++) {
            int bi = -1, bm = -1;
            for (int i = 0; i < b->n && i < MAX_M; i++)
                for (uint32_t m = 0; m < b->model[i]->material_count && m < 256; m++)
                    if (bi < 0 || mat[i * 256 + m] > mat[bi * 256 + bm])
                        bi = i, bm = (int)m;
            if (bi < 0 || mat[bi * 256 + bm] <= 0)
                break;
            const mmd_material *mt = &b->model[bi]->materials[bm];
            printf("  %-8s #%-3d %-16s %6u faces %7.2f\n", b->s->models[bi].name, bm, mt->name, mt->index_count / 3,
                   mat[bi * 256 + bm] / frames);
            mat[bi * 256 + bm] = -1;
        }
    }
    free(mat);
    mmd_renderer_free(r[0]);
    mmd_renderer_free(r[1]);
    free(rgba);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: bench_scene SCENE.ini [WxH [MSAA [FRAMES [FIRST [THREADS]]]]]\n");
        return 1;
    }
    bench b;
    memset(&b, 0, sizeof b);
    if (load(&b, argv[1])) {
        unload(&b);
        return 1;
    }
    int w = b.s->width, h = b.s->height, samples = b.s->antialias;
    if (argc > 2 && sscanf(argv[2], "%dx%d", &w, &h) != 2)
        w = b.s->width, h = b.s->height;
    samples = argc > 3 ? atoi(argv[3]) : samples;
    int frames = argc > 4 ? atoi(argv[4]) : 12, first = argc > 5 ? atoi(argv[5]) : 60;
    int threads = argc > 6 ? atoi(argv[6]) : 2;
    frames = frames < 1 ? 1 : frames > 10000 ? 10000 : frames;
    bench_cpu_side(&b, first, frames);
    int rc = bench_render(&b, w, h, samples, threads, first + frames, frames);
    unload(&b);
    return rc ? 1 : 0;
}
