/* renderer/scene/plan.c - the render plan (see plan.h). */
#include "renderer/scene/plan.h"

#include <limits.h>

#include "renderer/base/parse.h"

/* fps_num / (fps_den * step), reduced; the fps itself when that is past an int. */
static void video_rate(const mmd_plan_input *in, mmd_render_plan *p)
{
    int64_t num = in->fps_num, den = (int64_t)in->fps_den * in->step;
    int64_t g = mmd_gcd64(num, den);
    num /= g;
    den /= g;
    p->video_rate_kept = den > INT_MAX;
    p->video_fps_num = p->video_rate_kept ? in->fps_num : (int)num;
    p->video_fps_den = p->video_rate_kept ? in->fps_den : (int)den;
}

bool mmd_render_plan_make(const mmd_plan_input *in, mmd_render_plan *out)
{
    mmd_render_plan p = {0};
    p.step = in->step;
    p.physics = in->physics;
    p.first = in->has_frames ? in->frame_first : 0;
    /* last key at VMD frame `last_key` -> output frame ceil(last_key * fps / 30) */
    p.last = in->has_frames ? in->frame_last
                            : ((int64_t)in->last_key * in->fps_num + 30LL * in->fps_den - 1) / (30LL * in->fps_den);
    if (!in->has_frames && p.last > MMD_PLAN_MAX_FRAME) {
        p.over_cap = true;
        *out = p;
        return false;
    }
    p.total = (p.last - p.first) / p.step + 1;
    p.k0 = p.total * in->chunk_index / in->chunk_count;
    p.k1 = p.total * (in->chunk_index + 1) / in->chunk_count;
    p.frames = p.k1 > p.k0 ? p.k1 - p.k0 : 0;
    p.begin = p.first + p.k0 * p.step;
    p.end = p.first + (p.k1 - 1) * p.step;
    p.sim_begin = p.physics ? p.first : p.begin;
    p.t_per_frame = 30.0 * in->fps_den / in->fps_num;
    p.start_time = (double)p.begin * in->fps_den / in->fps_num;
    p.preroll_time = (double)p.first * p.t_per_frame;
    video_rate(in, &p);
    *out = p;
    return p.frames > 0;
}

double mmd_plan_time(const mmd_render_plan *p, int64_t f)
{
    return (double)f * p->t_per_frame;
}

bool mmd_plan_renders(const mmd_render_plan *p, int64_t f)
{
    int64_t rel = f - p->first;
    return rel >= 0 && rel % p->step == 0 && rel / p->step >= p->k0 && rel / p->step < p->k1;
}
