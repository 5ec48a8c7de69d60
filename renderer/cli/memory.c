/* renderer/cli/memory.c - the render's memory estimate and --max-memory (see memory.h). */
#include "renderer/cli/memory.h"

#define MIB(n) ((unsigned long long)(((n) + (1u << 20) - 1) >> 20)) /* bytes to MiB, rounded up */

mmd_status mmd_memory_check(const mmd_render_options *ro, const mmd_output_kind *kind, const mmd_output_request *req,
                            uint64_t cap, bool texture_explicit, mmd_memory_plan *out, mmd_error *err)
{
    mmd_memory_plan m = {0};
    m.targets = mmd_renderer_memory(ro);
    m.frames = (uint64_t)ro->width * (uint64_t)ro->height * 4u;
    if (kind && kind->memory)
        m.frames += kind->memory(req);
    m.total = m.targets + m.frames;
    uint64_t left = m.total < cap ? cap - m.total : 0;
    m.textures = ro->texture_budget < left ? ro->texture_budget : left;
    *out = m;
    if (m.total > cap)
        return mmd_fail(err, MMD_E_USAGE,
                        "the render would hold about %llu MiB (render targets and effects %llu MiB for %dx%d, "
                        "MSAA %d, SSAA %d; frames %llu MiB for the read-back and the %s output), over --max-memory "
                        "%llu MiB: use a smaller --size, --aa or --ssaa, or raise --max-memory",
                        MIB(m.total), MIB(m.targets), ro->width, ro->height, ro->samples,
                        ro->effects.ssaa > 1 ? ro->effects.ssaa : 1, MIB(m.frames), kind ? kind->name : "null",
                        MIB(cap));
    if (texture_explicit && ro->texture_budget > left)
        return mmd_fail(err, MMD_E_USAGE,
                        "--texture-memory %llu MiB does not fit beside the render's %llu MiB under --max-memory "
                        "%llu MiB (at most %llu MiB left): lower one or raise --max-memory",
                        MIB(ro->texture_budget), MIB(m.total), MIB(cap), (unsigned long long)(left >> 20));
    return MMD_OK;
}

mmd_status mmd_memory_check_output(const mmd_output_kind *kind, const mmd_output_request *req, uint64_t cap,
                                   uint64_t *total, mmd_error *err)
{
    uint64_t frames = (uint64_t)req->width * (uint64_t)req->height * 4u;
    if (kind && kind->memory)
        frames += kind->memory(req);
    if (total)
        *total = frames;
    if (frames > cap)
        return mmd_fail(err, MMD_E_USAGE,
                        "the encode would hold about %llu MiB (the %dx%d frame read in and the %s output's queue "
                        "and encoder), over --max-memory %llu MiB: use a lighter --codec or fewer --threads, or "
                        "raise --max-memory",
                        MIB(frames), req->width, req->height, kind ? kind->name : "null", MIB(cap));
    return MMD_OK;
}
