/* renderer/cli/memory.h - what a render will hold, checked against --max-memory
 * before the GL context is created (issue 24).
 *
 *     mmd_memory_plan m;
 *     if (mmd_memory_check(&ro, kind, &request, cap_bytes, explicit_textures, &m, &err) != MMD_OK)
 *         refuse (MMD_E_USAGE: exit 1, err names the estimate and the cap);
 *     ro.texture_budget = m.textures;
 *
 * The estimate is the sum of each part's own figure, each computed next to
 * the code that allocates it: the renderer's targets, effect chains and
 * shadow map (mmd_renderer_memory), the frame read back (width x height x 4)
 * and what the output holds (its row's `memory`: the PNG queue, the video
 * queue and encoder). Decoded textures get what the cap leaves: the texture
 * budget is min(--texture-memory, cap - estimate); an explicit
 * --texture-memory that does not fit is refused too. Models, motions and the
 * libraries' own memory are not counted (a model is bounded by its file,
 * docs/limits.md). Pure apart from the CPU count when threads is 0.
 */
#ifndef MMD_RENDERER_CLI_MEMORY_H
#define MMD_RENDERER_CLI_MEMORY_H

#include <stdbool.h>
#include <stdint.h>

#include "core/status.h"
#include "renderer/cli/outputs.h"
#include "renderer/gl/render.h"

#define MMD_MAX_MEMORY_DEFAULT_MIB 1024 /* --max-memory default: a 1 MB input stays under 1 GB */
#define MMD_MAX_MEMORY_MIN_MIB 64        /* --max-memory range */
#define MMD_MAX_MEMORY_MAX_MIB 1048576
#define MMD_MAX_MEMORY_STR_(x) #x
#define MMD_MAX_MEMORY_STR(x) MMD_MAX_MEMORY_STR_(x)
/* "64..1048576", for messages */
#define MMD_MAX_MEMORY_RANGE MMD_MAX_MEMORY_STR(MMD_MAX_MEMORY_MIN_MIB) ".." MMD_MAX_MEMORY_STR(MMD_MAX_MEMORY_MAX_MIB)

typedef struct mmd_memory_plan {
    uint64_t targets;  /* render targets, effect chains, shadow map (mmd_renderer_memory) */
    uint64_t frames;   /* the read-back frame and what the output holds */
    uint64_t total;    /* targets + frames: what the cap is checked against */
    uint64_t textures; /* the texture budget granted: min(ro->texture_budget, cap - total) */
} mmd_memory_plan;

/* Fills *out (also when refusing); MMD_E_USAGE with err when out->total is
 * over cap, or when texture_explicit and ro->texture_budget does not fit
 * beside it. kind NULL or without `memory`: the output holds nothing. */
mmd_status mmd_memory_check(const mmd_render_options *ro, const mmd_output_kind *kind, const mmd_output_request *req,
                            uint64_t cap, bool texture_explicit, mmd_memory_plan *out, mmd_error *err);

/* encode (no GL): the frame read in (width x height x 4, req's size) and
 * what the output holds, against cap; MMD_E_USAGE with err over it. The
 * figure is returned in *total (may be NULL). */
mmd_status mmd_memory_check_output(const mmd_output_kind *kind, const mmd_output_request *req, uint64_t cap,
                                   uint64_t *total, mmd_error *err);

#endif
