/* renderer/cli/progress.c - see progress.h. */
#include "renderer/cli/progress.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct mmd_progress {
    mmd_progress_mode mode;
    FILE *out;
    int64_t total, done, last_frame;
    double start, last_print;
    int last_percent;
    pthread_mutex_t lock;
};

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

mmd_progress *mmd_progress_create(mmd_progress_mode mode, FILE *out, int64_t total)
{
    mmd_progress *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    if (mode == MMD_PROGRESS_AUTO)
        mode = isatty(fileno(out)) ? MMD_PROGRESS_BAR : MMD_PROGRESS_PLAIN;
    p->mode = mode;
    p->out = out;
    p->total = total > 0 ? total : 0;
    p->start = now_s();
    p->last_print = -1e9;
    p->last_percent = -1;
    p->last_frame = -1;
    pthread_mutex_init(&p->lock, NULL);
    return p;
}

void mmd_progress_free(mmd_progress *p)
{
    if (!p)
        return;
    pthread_mutex_destroy(&p->lock);
    free(p);
}

static double fps_locked(const mmd_progress *p, double t)
{
    double el = t - p->start;
    return el > 1e-6 ? (double)p->done / el : 0.0;
}

double mmd_progress_fps(const mmd_progress *p)
{
    return p ? fps_locked(p, now_s()) : 0.0;
}

static void print_locked(mmd_progress *p, double t, int final)
{
    double fps = fps_locked(p, t);
    int64_t left = p->total > p->done ? p->total - p->done : 0;
    double eta = fps > 0 ? (double)left / fps : 0.0;
    int pct = p->total ? (int)(p->done * 100 / p->total) : 100;
    switch (p->mode) {
    case MMD_PROGRESS_BAR: {
        char bar[31];
        int fill = p->total ? (int)(p->done * 30 / p->total) : 30;
        for (int i = 0; i < 30; i++)
            bar[i] = i < fill ? '#' : '.';
        bar[30] = 0;
        long e = (long)(eta + 0.5);
        fprintf(p->out, "\r[%s] %lld/%lld %3d%% %6.2f fps ETA %ld:%02ld:%02ld%s", bar,
                (long long)p->done, (long long)p->total, pct, fps, e / 3600, e / 60 % 60, e % 60,
                final ? "\n" : "");
        break;
    }
    case MMD_PROGRESS_PLAIN: { /* a log line: farm and CI logs have no bar */
        long el = (long)(t - p->start + 0.5), e = (long)(eta + 0.5);
        fprintf(p->out, "frame %lld/%lld %d%% %.2f fps elapsed %ld:%02ld:%02ld ETA %ld:%02ld:%02ld\n",
                (long long)p->done, (long long)p->total, pct, fps, el / 3600, el / 60 % 60, el % 60, e / 3600,
                e / 60 % 60, e % 60);
        break;
    }
    case MMD_PROGRESS_JSON:
        fprintf(p->out, "{\"frame\":%lld,\"done\":%lld,\"total\":%lld,\"fps\":%.3f,\"eta_s\":%.2f}\n",
                (long long)p->last_frame, (long long)p->done, (long long)p->total, fps, eta);
        break;
    default:
        return;
    }
    fflush(p->out);
    p->last_print = t;
    p->last_percent = pct;
}

void mmd_progress_frame(mmd_progress *p, int64_t frame)
{
    if (!p)
        return;
    pthread_mutex_lock(&p->lock);
    p->done++;
    p->last_frame = frame;
    double t = now_s();
    int pct = p->total ? (int)(p->done * 100 / p->total) : 100;
    bool due;
    switch (p->mode) {
    case MMD_PROGRESS_BAR: due = t - p->last_print >= 0.1; break;
    case MMD_PROGRESS_PLAIN: due = pct != p->last_percent && t - p->last_print >= 0.5; break;
    case MMD_PROGRESS_JSON: due = true; break;
    default: due = false;
    }
    if (due && p->done < p->total)
        print_locked(p, t, 0);
    pthread_mutex_unlock(&p->lock);
}

void mmd_progress_finish(mmd_progress *p)
{
    if (!p)
        return;
    pthread_mutex_lock(&p->lock);
    if (p->mode != MMD_PROGRESS_NONE)
        print_locked(p, now_s(), 1);
    pthread_mutex_unlock(&p->lock);
}

int mmd_progress_parse_mode(const char *s)
{
    static const char *const names[] = {"auto", "bar", "plain", "json", "none"};
    for (int i = 0; i < 5; i++)
        if (!strcmp(s, names[i]))
            return i;
    return -1;
}
