/* renderer/cli/render_loop.c - the render command's frame loop (render_run.h):
 * signals, the physics pre-roll thread, each frame evaluated by the stage,
 * drawn and written, then the output closed and the run reported. */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "renderer/base/msg.h"
#include "renderer/base/sanitizer.h"
#include "renderer/cli/commands.h"
#include "renderer/cli/render_run.h"

/* CLI-only globals: g_stop is set by SIGINT/SIGTERM and polled between frames
 * (and inside IK/physics through the stage's cancel flag); g_temp is the
 * output's temporary (the video's .part), which a second signal removes
 * before ending the process at once (unlink and _exit are async-signal-safe). */
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

const volatile sig_atomic_t *mmd_render_stop_flag(void) { return &g_stop; }

double mmd_render_clock(void)
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

static void *preroll_main(void *arg)
{
    const render_preroll *pr = arg;
    if (pr->p->physics) /* 2 s before the first simulated frame, outside parents as the frames have them */
        mmd_stage_preroll(pr->j->stage, pr->p->preroll_time);
    return NULL;
}

/* The pre-roll runs beside loading, which forks texture decoders and glslang
 * (image/decode_child.c, fx/isolate.c). glibc's malloc is fork-safe; GCC 12's
 * AddressSanitizer allocator is not (no atfork handlers before LLVM 18): a
 * child forked while this thread holds one of its locks hangs until its time
 * limit, and the texture or effect is dropped. Under ASan (and when no thread
 * can be made) it runs at the join instead, after loading, when the output is
 * open and a signal cuts it short as it does the thread: the same pose. */
void mmd_render_preroll_start(render_preroll *pr)
{
#ifdef MMD_ASAN
    pr->running = false;
#else
    pr->running = pthread_create(&pr->thread, NULL, preroll_main, pr) == 0;
#endif
}

void mmd_render_preroll_join(render_preroll *pr)
{
    if (pr->running)
        pthread_join(pr->thread, NULL);
    else
        preroll_main(pr); /* no thread: here, now */
    pr->running = false;
}

void mmd_render_install_signals(const mmd_sink *sink)
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

/* The background video's frame at VMD time t (30 per second) into the
 * renderer; a video that stops decoding is dropped with one warning.
 * MMD_E_GL when the renderer cannot take the frame. */
static mmd_status show_bgvideo(render_job *j, double t, mmd_error *err)
{
    if (!j->bgvideo)
        return MMD_OK;
    const uint8_t *px;
    int w, h;
    bool changed;
    mmd_error why;
    if (mmd_bgvideo_frame(j->bgvideo, t / 30.0, &px, &w, &h, &changed, &why) != MMD_OK) {
        mmd_msg_print(stderr, "mmdrender: warning: background video not drawn: %s\n", why.msg);
        mmd_bgvideo_free(j->bgvideo);
        j->bgvideo = NULL;
        return MMD_OK;
    }
    const mmd_scene *s = j->scene;
    if (changed && mmd_renderer_set_background_frame(j->renderer, px, w, h, s->bg_video_offset, s->bg_video_scale,
                                                     &why) != MMD_OK)
        return mmd_fail(err, MMD_E_GL, "background video: %s", why.msg);
    return MMD_OK;
}

typedef struct run_stats {
    double render_s, write_s;
    int64_t rendered;
    double load_s, first_frame_s, first_frame_cpu_s; /* from the command's start */
} run_stats;

/* One evaluated frame drawn into j->rgba. MMD_E_INTERRUPTED when a signal cut it short. */
static mmd_status draw(render_job *j, int64_t f, double t, mmd_error *err)
{
    mmd_camera_state cam;
    mmd_light_state light;
    mmd_shadow_state shadow;
    mmd_stage_view(j->stage, t, &cam, &light, &shadow);
    mmd_status s = show_bgvideo(j, t, err);
    if (s != MMD_OK)
        return s;
    mmd_renderer_set_time(j->renderer, t / 30.0); /* VMD frames -> seconds (LightBlink) */
    mmd_render_prepare_effects(j, t, &cam, &light);
    mmd_render_object_effects_frame(j, t, &cam, &light);
    mmd_error why;
    if (mmd_renderer_render(j->renderer, j->stage->anims, (size_t)j->scene->model_count, &cam, &light, &shadow,
                            j->rgba, &why) == MMD_OK)
        return mmd_render_object_effects_status(j, err); /* a draw of the frame's object effects */
    if (why.status == MMD_E_INTERRUPTED)
        return MMD_E_INTERRUPTED; /* a signal stopped the frame: not written */
    return mmd_fail(err, why.status, "frame %lld: GL: %s", (long long)f, why.msg);
}

/* Executes the plan: evaluates from sim_begin (physics pre-rolled), renders and
 * writes the chunk's frames; stops early on a signal. */
static mmd_status run_frames(render_job *j, const render_args *a, const mmd_output_kind *kind,
                             const mmd_render_plan *p, run_stats *st, mmd_error *err)
{
    const mmd_scene *s = j->scene;
    mmd_stage *stage = j->stage;
    mmd_stage_check_physics(stage, -1); /* after the pre-roll's thread */
    st->load_s = mmd_render_clock() - j->t_begin;
    bool screen = mmd_scene_accessories_use_screen(&stage->acc);
    bool animated_acc = mmd_scene_accessories_animated(&stage->acc);
    for (int64_t f = p->sim_begin; f <= p->end && !g_stop; f++) {
        bool wanted = mmd_plan_renders(p, f);
        /* screen.bmp shows output frame f - 1 (black on the range's first): with
         * it every frame from the range's first is rendered, those this run
         * does not write included, so chunks and steps match a whole run */
        bool pre = screen && f >= p->first;
        if (!wanted && !pre && !p->physics)
            continue;
        double t = mmd_plan_time(p, f);
        double t0 = mmd_render_clock();
        mmd_stage_evaluate(stage, t);
        if (animated_acc)
            mmd_renderer_place_accessories(j->renderer, stage->acc.place, (size_t)stage->acc.count);
        if (g_stop)
            break; /* evaluation was cut short: this frame is not drawn */
        mmd_stage_check_physics(stage, f);
        bool skip = wanted && a->skip_existing && kind->frame_exists(a->out, f, s->width, s->height);
        if ((!wanted && !pre) || (skip && !screen))
            continue;
        mmd_status ds = draw(j, f, t, err);
        if (ds == MMD_E_INTERRUPTED)
            break;
        if (ds != MMD_OK)
            return ds;
        double t1 = mmd_render_clock();
        st->render_s += t1 - t0;
        if (!wanted || skip)
            continue; /* rendered only for the next frame's screen */
        if (st->rendered == 0) {
            st->first_frame_s = t1 - j->t_begin;
            st->first_frame_cpu_s = cpu_s();
        }
        mmd_error why;
        if (j->sink && mmd_sink_write(j->sink, j->rgba, s->width, s->height, (size_t)s->width * 4, f, &why) != MMD_OK)
            return mmd_fail(err, why.status, "frame %lld: %s", (long long)f, why.msg);
        if (!j->sink)
            mmd_progress_frame(j->progress, f);
        st->write_s += mmd_render_clock() - t1;
        st->rendered++;
    }
    return g_stop ? MMD_E_INTERRUPTED : MMD_OK;
}

/* The run's closing lines: the summary on stderr, --stats' JSON on stdout. */
static void report(const render_job *j, const render_args *a, mmd_status s, const run_stats *st,
                   const mmd_video_stats *vstats, double wall)
{
    long long n = (long long)st->rendered;
    if (s == MMD_OK || s == MMD_E_INTERRUPTED)
        mmd_progress_finish(j->progress);
    if (s == MMD_E_INTERRUPTED && !a->quiet)
        mmd_msg_print(stderr, "mmdrender: interrupted after %lld frame(s); %s was finalised\n", n, a->out);
    else if (s == MMD_OK && !a->quiet)
        mmd_msg_print(stderr, "mmdrender: %lld frame(s) in %.2f s (%.2f fps) -> %s\n", n, wall,
                      wall > 0 ? (double)n / wall : 0.0, a->out);
    if (a->stats)
        printf("{\"frames\":%lld,\"wall_s\":%.4f,\"render_s\":%.4f,\"write_s\":%.4f,\"queue_wait_s\":%.4f,"
               "\"encode_s\":%.4f,\"fps\":%.3f,\"render_fps\":%.3f,\"files_loaded\":%d,\"load_s\":%.4f,"
               "\"first_frame_s\":%.4f,\"first_frame_cpu_s\":%.4f,\"cpu_s\":%.4f}\n",
               n, wall, st->render_s, st->write_s, vstats->writer_wait_s, vstats->encode_s,
               wall > 0 ? (double)n / wall : 0.0, st->render_s > 0 ? (double)n / st->render_s : 0.0,
               j->stage->files_loaded, st->load_s, st->first_frame_s, st->first_frame_cpu_s, cpu_s());
}

mmd_status mmd_render_run(render_job *j, const render_args *a, const mmd_output_kind *kind,
                          const mmd_render_plan *p, mmd_error *err)
{
    run_stats st = {0};
    double t_start = mmd_render_clock();
    mmd_status s = run_frames(j, a, kind, p, &st, err);
    /* the sink is closed also after an interrupt: the video gets its trailer, PNGs are complete */
    mmd_video_stats vstats = {0};
    if (j->sink && kind->stats)
        kind->stats(j->sink, &vstats);
    if (j->sink && (s == MMD_OK || s == MMD_E_INTERRUPTED)) {
        mmd_sink *sink = j->sink;
        j->sink = NULL;
        mmd_error why;
        if (mmd_sink_close(sink, &why) != MMD_OK)
            s = mmd_fail(err, why.status, "%s", why.msg);
    }
    /* Default handlers only once the output is closed: a signal while the
     * encoder drains must not kill the process before the trailer is written
     * (a second signal still ends the process at once, removing the .part). */
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    g_temp_armed = 0;
    report(j, a, s, &st, &vstats, mmd_render_clock() - t_start);
    return s;
}
