/* renderer/scene/plan.h - the render plan: which frames a run renders and simulates.
 *
 *     mmd_plan_input in = {.fps_num = 30, .fps_den = 1, .step = 1, .chunk_count = 1,
 *                          .last_key = last, .physics = any_body};
 *     mmd_render_plan p;
 *     if (mmd_render_plan_make(&in, &p)) // false: this chunk has no frames
 *         for (int64_t f = p.sim_begin; f <= p.end; f++)
 *             evaluate at mmd_plan_time(&p, f); render when mmd_plan_renders(&p, f)
 *
 * A pure function of its input (no GL, files or clock), so DESIGN §3's
 * determinism rules are tested on it (tests/unit/test_plan.c):
 *  - output frame f shows motion time f * 30 * fps_den / fps_num (VMD frames),
 *    whichever chunk renders it;
 *  - without a range, frames run from 0 to the first output frame at or after
 *    the last key: ceil(last_key * fps / 30);
 *  - the range's frames (first, first + step, ... <= last) are cut into
 *    chunk_count contiguous chunks, chunk i holding indices
 *    [total * i / count, total * (i + 1) / count): every frame exactly once;
 *  - when a frame depends on the frames before it (physics, a screen.bmp
 *    texture, a calculation order that lags an outside parent) every frame
 *    from the range's first is evaluated (the frames before a chunk's first
 *    without being written; physics also warms up at the range's first), so
 *    a chunk sees the state a whole run sees;
 *  - a video of a range with a step plays at fps / step (video_fps_*).
 */
#ifndef MMD_RENDERER_PLAN_H
#define MMD_RENDERER_PLAN_H

#include <stdbool.h>
#include <stdint.h>

/* The last output frame a range may have, from --frames, [output] frames or
 * the motions' last key alike (100 million: 38 days at 30 fps). */
#define MMD_PLAN_MAX_FRAME 100000000LL

typedef struct mmd_plan_input {
    bool has_frames;             /* a range was given (scene [output] frames or --frames) */
    int64_t frame_first, frame_last; /* that range, output frames, inclusive */
    int step;                    /* >= 1 */
    int fps_num, fps_den;        /* output rate, > 0 */
    int chunk_index, chunk_count; /* 0 <= index < count */
    uint32_t last_key;           /* latest key of every track, VMD frames */
    bool physics;                /* some frame depends on the ones before (physics, screen.bmp, lag) */
} mmd_plan_input;

typedef struct mmd_render_plan {
    int64_t first, last;  /* the range, output frames, inclusive */
    int step;
    int64_t total;        /* frames of the range at step */
    int64_t k0, k1;       /* this chunk: range indices [k0, k1) */
    int64_t begin, end;   /* first and last frame this chunk renders */
    int64_t sim_begin;    /* first frame evaluated: first with physics, else begin */
    int64_t frames;       /* frames this chunk renders: k1 - k0 */
    double t_per_frame;   /* VMD frames per output frame: 30 * fps_den / fps_num */
    double start_time;    /* seconds: scene time of `begin` (video start, audio alignment) */
    double preroll_time;  /* motion time the physics pre-roll leads up to: first * t_per_frame */
    /* A video's rate: fps / step exactly (reduced), so a frame lasts the motion
     * time it stands for and motion and song stay in sync; the fps itself when
     * fps / step does not fit an int (video_rate_kept: say so, they drift). */
    int video_fps_num, video_fps_den;
    bool video_rate_kept;
    bool physics;
    bool over_cap;        /* no range was given and the last key's frame is past MMD_PLAN_MAX_FRAME */
} mmd_render_plan;

/* Fills *out; false when this chunk is empty (more chunks than frames) or the
 * default range is over the cap (over_cap; nothing else is filled then).
 * O(1) whatever the range's length. */
bool mmd_render_plan_make(const mmd_plan_input *in, mmd_render_plan *out);
/* The motion time (VMD frames) output frame f shows. */
double mmd_plan_time(const mmd_render_plan *p, int64_t f);
/* True when this chunk renders output frame f. */
bool mmd_plan_renders(const mmd_render_plan *p, int64_t f);

#endif
