/* renderer/gl/pool.c - the renderer's fixed worker pool: a job over [0, n)
 * is cut into one chunk per thread whose bounds depend only on n and the
 * thread count, so results never depend on timing. */
#include <time.h>

#include "renderer/gl/render_internal.h"

double mmd_render_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}


static void chunk(uint32_t total, int parts, int i, uint32_t *first, uint32_t *count)
{
    uint64_t a = (uint64_t)total * (uint64_t)i / (uint64_t)parts;
    uint64_t b = (uint64_t)total * (uint64_t)(i + 1) / (uint64_t)parts;
    *first = (uint32_t)a;
    *count = (uint32_t)(b - a);
}

static void *worker_main(void *arg)
{
    worker_arg *w = arg;
    pool *p = w->p;
    unsigned seen = 0;
    for (;;) {
        pthread_mutex_lock(&p->mu);
        while (!p->quit && p->gen == seen)
            pthread_cond_wait(&p->cv_go, &p->mu);
        if (p->quit) {
            pthread_mutex_unlock(&p->mu);
            return NULL;
        }
        seen = p->gen;
        mmd_render_job fn = p->fn;
        void *ctx = p->ctx;
        uint32_t total = p->total;
        pthread_mutex_unlock(&p->mu);
        uint32_t first, count;
        chunk(total, p->n + 1, w->index + 1, &first, &count);
        if (count)
            fn(ctx, first, count);
        pthread_mutex_lock(&p->mu);
        if (--p->pending == 0)
            pthread_cond_signal(&p->cv_done);
        pthread_mutex_unlock(&p->mu);
    }
}

void mmd_renderer_parallel(mmd_renderer *r, mmd_render_job fn, void *ctx, uint32_t n)
{
    pool *p = &r->pool;
    if (p->n == 0 || n < 1024) {
        if (n)
            fn(ctx, 0, n);
        return;
    }
    pthread_mutex_lock(&p->mu);
    p->fn = fn;
    p->ctx = ctx;
    p->total = n;
    p->pending = p->n;
    p->gen++;
    pthread_cond_broadcast(&p->cv_go);
    pthread_mutex_unlock(&p->mu);
    uint32_t first, count;
    chunk(n, p->n + 1, 0, &first, &count);
    if (count)
        fn(ctx, first, count);
    pthread_mutex_lock(&p->mu);
    while (p->pending > 0)
        pthread_cond_wait(&p->cv_done, &p->mu);
    pthread_mutex_unlock(&p->mu);
}

void mmd_pool_start(mmd_renderer *r, int threads)
{
    pool *p = &r->pool;
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->cv_go, NULL);
    pthread_cond_init(&p->cv_done, NULL);
    int want = threads - 1;
    if (want > MAX_THREADS)
        want = MAX_THREADS;
    for (int i = 0; i < want; i++) {
        r->wargs[i].p = p;
        r->wargs[i].index = i;
        if (pthread_create(&p->th[i], NULL, worker_main, &r->wargs[i]) != 0)
            break;
        p->n++;
    }
}

void mmd_pool_stop(pool *p)
{
    pthread_mutex_lock(&p->mu);
    p->quit = true;
    pthread_cond_broadcast(&p->cv_go);
    pthread_mutex_unlock(&p->mu);
    for (int i = 0; i < p->n; i++)
        pthread_join(p->th[i], NULL);
    pthread_mutex_destroy(&p->mu);
    pthread_cond_destroy(&p->cv_go);
    pthread_cond_destroy(&p->cv_done);
}
