/* tools/bench_load.c - median time to load Gene_light.pmx (read + parse + validate)
 * next to the time to merely read the file, and to parse+validate from memory,
 * then the worst-case shapes of tests/util/worst_shapes.h (deep chains, long IK
 * lists, many morph offsets on one vertex) loaded from memory (goal: the
 * 65,535-bone PMD chain in <= 50 ms).
 * Model from $SHARED_ASSETS/gene/Gene_light.pmx (default ../shared/assets). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "core/file.h"
#include "core/model.h"
#include "tests/util/worst_shapes.h"

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp);
    return v[n / 2];
}

static void bench_worst(int reps)
{
    printf("worst-case shapes, load from memory, median of %d:\n", reps);
    double *t = malloc(sizeof(double) * (size_t)reps);
    for (int s = 0; t && s < MMD_WORST_COUNT; s++) {
        size_t n = 0;
        uint8_t *d = mmd_test_worst(s, &n);
        if (!d)
            continue;
        mmd_status st = MMD_OK;
        for (int i = 0; i < reps && st == MMD_OK; i++) {
            mmd_model *m = NULL;
            mmd_error err;
            double t0 = now_ms();
            st = mmd_model_load(d, n, &m, &err);
            t[i] = now_ms() - t0;
            mmd_model_free(m);
        }
        if (st == MMD_OK)
            printf("  %-32s %8.3f ms (%zu bytes)\n", mmd_test_worst_name(s), median(t, reps), n);
        else
            printf("  %-32s failed: %s\n", mmd_test_worst_name(s), mmd_status_str(st));
        free(d);
    }
    free(t);
}

int main(int argc, char **argv)
{
    const char *assets = getenv("SHARED_ASSETS");
    char path[1024];
    snprintf(path, sizeof path, "%s/gene/Gene_light.pmx", assets && *assets ? assets : "../shared/assets");
    int reps = argc > 1 ? atoi(argv[1]) : 30;
    if (reps < 1 || reps > 10000)
        reps = 30;
    double *t_read = malloc(sizeof(double) * (size_t)reps), *t_load = malloc(sizeof(double) * (size_t)reps),
           *t_mem = malloc(sizeof(double) * (size_t)reps);
    if (!t_read || !t_load || !t_mem)
        return 1;
    void *data = NULL;
    size_t size = 0;
    mmd_error err;
    if (mmd_file_read(path, &data, &size, &err) != MMD_OK) {
        printf("bench_load: %s unreadable, skipped\n", path);
        bench_worst(reps < 5 ? reps : 5);
        return 0;
    }
    for (int i = 0; i < reps; i++) {
        double t0 = now_ms();
        void *d = NULL;
        size_t n = 0;
        mmd_file_read(path, &d, &n, &err);
        double t1 = now_ms();
        free(d);
        mmd_model *m = NULL;
        double t2 = now_ms();
        mmd_status st = mmd_model_load_file(path, &m, &err);
        double t3 = now_ms();
        if (st != MMD_OK) {
            printf("bench_load: load failed: %s\n", err.msg);
            return 1;
        }
        mmd_model_free(m);
        double t4 = now_ms();
        st = mmd_model_load(data, size, &m, &err);
        double t5 = now_ms();
        mmd_model_free(m);
        t_read[i] = t1 - t0;
        t_load[i] = t3 - t2;
        t_mem[i] = t5 - t4;
    }
    printf("Gene_light.pmx (%zu bytes), median of %d:\n", size, reps);
    printf("  read file only        %8.3f ms\n", median(t_read, reps));
    printf("  load file            %8.3f ms (read + parse + validate)\n", median(t_load, reps));
    printf("  load from memory      %8.3f ms\n", median(t_mem, reps));
    free(data);
    bench_worst(reps < 5 ? reps : 5);
    free(t_read);
    free(t_load);
    free(t_mem);
    return 0;
}
