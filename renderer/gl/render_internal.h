/* renderer/gl/render_internal.h - what render_anim.c needs from render.c (not public). */
#ifndef MMD_RENDERER_RENDER_INTERNAL_H
#define MMD_RENDERER_RENDER_INTERNAL_H

#include "renderer/gl/render.h"

/* fn(ctx, first, count) over [0, n) split into one fixed chunk per thread
 * (chunk bounds depend only on n and the thread count; results must not). */
typedef void (*mmd_render_job)(void *ctx, uint32_t first, uint32_t count);
void mmd_renderer_parallel(mmd_renderer *r, mmd_render_job fn, void *ctx, uint32_t n);
size_t mmd_renderer_model_count(const mmd_renderer *r);
const mmd_model *mmd_renderer_model(const mmd_renderer *r, size_t slot);
/* Per-slot skinning output (vertex_count x 3 each), owned by the renderer. */
void mmd_renderer_scratch(mmd_renderer *r, size_t slot, float **pos, float **nrm);
mmd_render_timings *mmd_renderer_timings_mut(mmd_renderer *r);
const mmd_render_options *mmd_renderer_options(const mmd_renderer *r);
double mmd_render_now_ms(void);

#endif
