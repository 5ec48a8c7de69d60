/* tools/bench_render.c - milliseconds per frame of the GL renderer on Gene_light
 * (rest pose re-evaluated every frame, all passes: self-shadow map 2048,
 * colour, edges, ground shadow) at 1280x720 and 1920x1080, MSAA 1 and 4,
 * split into skin / upload / draw / readback, plus the floor: the same
 * target cleared, resolved and read back with nothing drawn. PNG encoding is
 * measured by bench_png. Median of FRAMES frames after WARM warm-up frames
 * (llvmpipe compiles shader variants on first use). Wall-clock time, and the
 * process CPU time per frame (all threads) since the build machine is shared.
 *
 *   bench_render [THREADS (default 2)] [MODEL_DIR (default ../shared/assets/gene)] [WxH MSAA PASSES [FRAMES]]
 *
 * With WxH MSAA PASSES (passes: 1 edges | 2 ground shadow | 4 self-shadow) only that case is run,
 * FRAMES frames (default 12): for profiling one configuration (perf, callgrind).
 *
 * Goals on 2 cores: 1920x1080 MSAA 4 <= 100 ms; 1280x720 MSAA 1 <= 25 ms. On a shared machine
 * wall time says little: the CPU figures (all threads, and the calling thread alone, which is
 * serial with llvmpipe's rasteriser threads) are the steadier ones; with two free cores a
 * frame takes about main + (CPU - main) / 2.
 */
#include <stdio.h>
#include <sys/resource.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/anim.h"
#include "core/camera.h"
#include "core/model.h"
#include "renderer/gl/render.h"
#include "renderer/gl/render_internal.h"

#define WARM 3
#define MAX_FRAMES 200

static double cpu_ms(void) /* all threads of the process, user + system */
{
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return (double)(u.ru_utime.tv_sec + u.ru_stime.tv_sec) * 1e3 +
           (double)(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e3;
}

static double thread_cpu_ms(void) /* the calling thread: skinning share, GL calls, vertex work, binning */
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_d);
    return v[n / 2];
}

static int bench(const mmd_model *m, const char *dir, int w, int h, int samples, int threads, int passes,
                 int frames)
{
    mmd_render_options o;
    mmd_render_options_default(&o);
    o.width = w;
    o.height = h;
    o.samples = samples;
    o.threads = threads;
    o.edges = passes & 1;
    o.ground_shadow = passes & 2;
    o.self_shadow = passes & 4;
    mmd_renderer *r = NULL;
    mmd_error err;
    if (mmd_renderer_create(&o, &r, &err) != MMD_OK) {
        fprintf(stderr, "bench_render: %s\n", err.msg);
        return -1;
    }
    mmd_anim *a = NULL;
    if (mmd_renderer_add_model(r, m, dir, &err) != MMD_OK || mmd_anim_create(m, NULL, 0, &a, &err)) {
        fprintf(stderr, "bench_render: cannot set up the model\n");
        mmd_renderer_free(r);
        return -1;
    }
    uint8_t *rgba = malloc((size_t)w * (size_t)h * 4);
    mmd_camera_state cam;
    memset(&cam, 0, sizeof cam);
    cam.target[1] = 10;
    cam.distance = -30;
    cam.fov = 30;
    mmd_light_state light = {{154 / 255.0f, 154 / 255.0f, 154 / 255.0f}, {-0.5f, -1.0f, 0.5f}};
    mmd_shadow_state sh = {1, 0.01125f};
    double skin[MAX_FRAMES], up[MAX_FRAMES], draw[MAX_FRAMES], rb[MAX_FRAMES], total[MAX_FRAMES], fl[MAX_FRAMES];
    int rc = 0;
    double cpu0 = 0, main0 = 0;
    for (int i = 0; i < WARM + frames && rc == 0; i++) {
        if (i == WARM) {
            cpu0 = cpu_ms();
            main0 = thread_cpu_ms();
        }
        double t0 = mmd_render_now_ms();
        mmd_anim_evaluate(a, (double)i);
        rc = mmd_renderer_render(r, &a, 1, &cam, &light, &sh, rgba, &err);
        double t1 = mmd_render_now_ms();
        if (i >= WARM) {
            const mmd_render_timings *t = mmd_renderer_timings(r);
            int k = i - WARM;
            skin[k] = t->skin_ms;
            up[k] = t->upload_ms;
            draw[k] = t->draw_ms;
            rb[k] = t->readback_ms;
            total[k] = t1 - t0;
        }
    }
    double cpu = (cpu_ms() - cpu0) / frames, cpu_main = (thread_cpu_ms() - main0) / frames;
    double fcpu0 = 0;
    for (int i = 0; i < WARM + frames && rc == 0; i++) {
        if (i == WARM)
            fcpu0 = cpu_ms();
        double t0 = mmd_render_now_ms();
        rc = mmd_renderer_clear_readback(r, rgba, &err);
        if (i >= WARM)
            fl[i - WARM] = mmd_render_now_ms() - t0;
    }
    double fcpu = (cpu_ms() - fcpu0) / frames;
    if (rc == 0)
        printf("%4dx%-4d MSAA%d threads %d %-22s %7.1f ms/frame (skin %.2f, upload %.2f, draw %.1f, "
               "readback %.1f); floor %.1f ms (CPU %.1f); CPU %.1f ms/frame (main thread %.1f; 2 free cores: ~%.1f ms)\n",
               w, h, samples, threads,
               passes == 7 ? "all passes:" : passes == 0 ? "colour only:" : passes == 1 ? "colour+edge:" : passes == 3 ? "colour+edge+ground:" : "?",
               median(total, frames), median(skin, frames), median(up, frames),
               median(draw, frames), median(rb, frames), median(fl, frames), fcpu, cpu, cpu_main, cpu_main + (cpu - cpu_main) / 2);
    else
        fprintf(stderr, "bench_render: %s\n", err.msg);
    free(rgba);
    mmd_anim_free(a);
    mmd_renderer_free(r);
    return rc;
}

int main(int argc, char **argv)
{
    int threads = argc > 1 ? atoi(argv[1]) : 2;
    const char *dir = argc > 2 ? argv[2] : "../shared/assets/gene";
    char path[1024];
    snprintf(path, sizeof path, "%s/Gene_light.pmx", dir);
    mmd_model *m = NULL;
    mmd_error err;
    if (mmd_model_load_file(path, &m, &err) != MMD_OK) {
        printf("bench_render: skipped (no %s)\n", path);
        return 0;
    }
    int cw, ch, cs, cp, cf = 12;
    if (argc > 5 && sscanf(argv[3], "%dx%d", &cw, &ch) == 2 && (cs = atoi(argv[4])) > 0) {
        cp = atoi(argv[5]);
        if (argc > 6)
            cf = atoi(argv[6]);
        cf = cf < 1 ? 1 : cf > MAX_FRAMES ? MAX_FRAMES : cf;
        int rc1 = bench(m, dir, cw, ch, cs, threads, cp & 7, cf);
        mmd_model_free(m);
        return rc1 ? 1 : 0;
    }
    const int sizes[2][2] = {{1280, 720}, {1920, 1080}};
    const int samples[2] = {1, 4};
    int rc = 0;
    for (int s = 0; s < 2; s++)
        for (int k = 0; k < 2; k++)
            rc |= bench(m, dir, sizes[s][0], sizes[s][1], samples[k], threads, 7, 12);
    const int passes[3] = {0, 1, 3}; /* what each pass costs, 720p MSAA 1 */
    for (int p = 0; p < 3; p++)
        rc |= bench(m, dir, 1280, 720, 1, threads, passes[p], 12);
    mmd_model_free(m);
    return rc ? 1 : 0;
}
