/* renderer/gl/profile.c - per-pass profile of a frame (options.profile, for
 * `make bench`): the passes call mmd_prof_mark after their GL calls; it waits
 * for llvmpipe to finish them (glFinish) and charges the process CPU time
 * (getrusage: all threads, rasteriser threads included) and wall time since
 * the previous mark to the pass. */
#include <stdlib.h>
#include <sys/resource.h>

#include "renderer/gl/render_internal.h"

static double process_cpu_ms(void)
{
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return (double)(u.ru_utime.tv_sec + u.ru_stime.tv_sec) * 1e3 +
           (double)(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e3;
}

void mmd_prof_begin(mmd_renderer *r)
{
    if (!r->o.profile || r->prof_open)
        return;
    memset(&r->prof, 0, sizeof r->prof);
    for (size_t i = 0; i < r->model_count; i++)
        if (r->models[i].prof_mat)
            memset(r->models[i].prof_mat, 0, r->models[i].m->material_count * sizeof(double));
    r->gl->Finish();
    r->prof_cpu = process_cpu_ms();
    r->prof_wall = mmd_render_now_ms();
    r->prof_open = true;
}

double mmd_prof_mark(mmd_renderer *r, int pass)
{
    if (!r->o.profile)
        return 0;
    r->gl->Finish();
    double c = process_cpu_ms(), w = mmd_render_now_ms(), dc = c - r->prof_cpu;
    r->prof.cpu_ms[pass] += dc;
    r->prof.wall_ms[pass] += w - r->prof_wall;
    r->prof_cpu = c;
    r->prof_wall = w;
    return dc;
}

void mmd_prof_end(mmd_renderer *r) { r->prof_open = false; }

const mmd_render_profile *mmd_renderer_profile(const mmd_renderer *r) { return &r->prof; }

double mmd_renderer_profile_material(const mmd_renderer *r, size_t slot, uint32_t material)
{
    if (slot >= r->model_count || !r->models[slot].prof_mat || material >= r->models[slot].m->material_count)
        return 0;
    return r->models[slot].prof_mat[material];
}
