/* tests/unit/test_memory.c - the render's memory estimate and --max-memory
 * (renderer/cli/memory.h, mmd_renderer_memory, the sinks' figures): real byte
 * counts for each part, refusals naming the cap, the texture budget granted. */
#include <stdint.h>
#include <string.h>

#include "renderer/cli/memory.h"
#include "renderer/gl/pass_post.h"
#include "tests/util/test.h"

TEST_STATE_DEFINE

#define MIB ((uint64_t)1 << 20)
#define SHADOW_MAP ((uint64_t)2048 * 2048 * 4) /* the default 2048^2 DEPTH_COMPONENT32F */

static mmd_render_options options(int w, int h, int samples)
{
    mmd_render_options o;
    mmd_render_options_default(&o);
    o.width = w;
    o.height = h;
    o.samples = samples;
    return o;
}

static mmd_output_request request(const char *target, int w, int h)
{
    return (mmd_output_request){.target = target, .width = w, .height = h, .fps_num = 30, .fps_den = 1,
                                .crf = -1, .threads = 2};
}

TEST(targets_1080p_msaa)
{
    const uint64_t px = 1920 * 1080;
    mmd_render_options o = options(1920, 1080, 4);
    /* resolved RGBA8 + 4 samples of RGBA8 and D24S8 + the shadow map */
    CHECK_EQ_INT(mmd_renderer_memory(&o), px * 4 + px * 4 * 8 + SHADOW_MAP);
    CHECK_EQ_INT(mmd_renderer_memory(&o), 91426816);
    o.samples = 2; /* llvmpipe stores MSAA 2 as 4 samples */
    CHECK_EQ_INT(mmd_renderer_memory(&o), 91426816);
    o.samples = 1; /* RGBA8 + D24S8 */
    CHECK_EQ_INT(mmd_renderer_memory(&o), px * 8 + SHADOW_MAP);
    o.self_shadow = false;
    CHECK_EQ_INT(mmd_renderer_memory(&o), px * 8);
}

TEST(effects_chains_and_ssaa)
{
    mmd_render_options o = options(1000, 600, 1);
    o.effects.ssaa = 2;
    o.effects.glow = o.effects.diffusion = o.effects.fxaa = true;
    /* blur chains (radius 1 at 600 px: levels 2..6, 250x150 .. 15x9): 49862 texels each */
    const uint64_t chain = (250 * 150 + 125 * 75 + 62 * 37 + 31 * 18 + 15 * 9) * 4;
    const uint64_t post = 1000 * 600 * 4 /* SSAA-filtered */ + 250 * 150 * 4 * 2 /* combine */ + 2 * chain +
                          1000 * 600 * 4 /* FXAA */;
    CHECK_EQ_INT(mmd_post_memory(&o.effects, 1000, 600), post);
    CHECK_EQ_INT(post, 5498896);
    /* 2000x1200 RGBA8 + D24S8, the quarter-size glow target (HDR + depth), shadow map, post */
    CHECK_EQ_INT(mmd_renderer_memory(&o), 2000 * 1200 * 8 + 250 * 150 * 8 + SHADOW_MAP + post);
    o.effects.glow = o.effects.diffusion = o.effects.fxaa = false;
    o.effects.ssaa = 1;
    CHECK_EQ_INT(mmd_post_memory(&o.effects, 1000, 600), 0);
}

TEST(frames_per_output_kind)
{
    const uint64_t px = 1920 * 1080;
    mmd_render_options o = options(1920, 1080, 4);
    mmd_memory_plan m;
    mmd_error err;
    mmd_output_request r = request("null", 1920, 1080);
    REQUIRE(mmd_memory_check(&o, mmd_output_kind_for("null"), &r, 1024 * MIB, false, &m, &err) == MMD_OK);
    CHECK_EQ_INT(m.targets, 91426816);
    CHECK_EQ_INT(m.frames, px * 4); /* the read-back */
    CHECK_EQ_INT(m.total, 99721216);
    r = request("frames/", 1920, 1080); /* + 2 x 2 threads queued RGBA frames */
    REQUIRE(mmd_memory_check(&o, mmd_output_kind_for("frames/"), &r, 1024 * MIB, false, &m, &err) == MMD_OK);
    CHECK_EQ_INT(m.frames, px * 4 + px * 16);
    r = request("out.mp4", 1920, 1080); /* h264: 96 bytes a pixel on one thread, + 12 for the second */
    REQUIRE(mmd_memory_check(&o, mmd_output_kind_for("out.mp4"), &r, 1024 * MIB, false, &m, &err) == MMD_OK);
    CHECK_EQ_INT(m.frames, px * 4 + px * (96 + 12));
    r.threads = 8;
    REQUIRE(mmd_memory_check(&o, mmd_output_kind_for("out.mp4"), &r, 1024 * MIB, false, &m, &err) == MMD_OK);
    CHECK_EQ_INT(m.frames, px * 4 + px * (96 + 7 * 12));
    r.target = "out.mkv";
    r.codec = "ffv1"; /* slice threads: no more memory */
    REQUIRE(mmd_memory_check(&o, mmd_output_kind_for("out.mkv"), &r, 1024 * MIB, false, &m, &err) == MMD_OK);
    CHECK_EQ_INT(m.frames, px * 4 + px * 220);
    r = request("out.webm", 1920, 1080); /* vp9 with alpha: a second encoder (336), + 4 a thread */
    r.alpha = true;
    REQUIRE(mmd_memory_check(&o, mmd_output_kind_for("out.webm"), &r, 1024 * MIB, false, &m, &err) == MMD_OK);
    CHECK_EQ_INT(m.frames, px * 4 + px * (336 + 4));
    r.alpha = false;
    REQUIRE(mmd_memory_check(&o, mmd_output_kind_for("out.webm"), &r, 1024 * MIB, false, &m, &err) == MMD_OK);
    CHECK_EQ_INT(m.frames, px * 4 + px * (164 + 4));
}

TEST(over_the_cap_is_refused_naming_it)
{
    mmd_render_options o = options(16384, 16384, 4);
    mmd_output_request r = request("null", 16384, 16384);
    mmd_memory_plan m;
    mmd_error err;
    CHECK(mmd_memory_check(&o, mmd_output_kind_for("null"), &r, 1024 * MIB, false, &m, &err) == MMD_E_USAGE);
    CHECK_EQ_INT(m.total, (uint64_t)16384 * 16384 * 40 + SHADOW_MAP); /* 10256 MiB */
    CHECK(strstr(err.msg, "about 10256 MiB") != NULL);
    CHECK(strstr(err.msg, "--max-memory 1024 MiB") != NULL);
    CHECK(strstr(err.msg, "16384x16384, MSAA 4") != NULL);
    CHECK_EQ_INT(m.textures, 0);
    /* 8192x8192 without MSAA fits under 1 GiB: 805 MiB + the shadow map */
    o = options(8192, 8192, 1);
    r = request("null", 8192, 8192);
    REQUIRE(mmd_memory_check(&o, mmd_output_kind_for("null"), &r, 1024 * MIB, false, &m, &err) == MMD_OK);
    CHECK_EQ_INT(m.total, (uint64_t)8192 * 8192 * 12 + SHADOW_MAP);
    /* 4K MSAA 4 to H.264 needs more than 1 GiB (measured 1.06 GB RSS): refused, fits under 1536 */
    o = options(3840, 2160, 4);
    r = request("out.mp4", 3840, 2160);
    CHECK(mmd_memory_check(&o, mmd_output_kind_for("out.mp4"), &r, 1024 * MIB, false, &m, &err) == MMD_E_USAGE);
    CHECK(mmd_memory_check(&o, mmd_output_kind_for("out.mp4"), &r, 1536 * MIB, false, &m, &err) == MMD_OK);
}

TEST(textures_get_what_the_cap_leaves)
{
    mmd_render_options o = options(1920, 1080, 4); /* 99721216 bytes with -o null */
    mmd_output_request r = request("null", 1920, 1080);
    const mmd_output_kind *k = mmd_output_kind_for("null");
    mmd_memory_plan m;
    mmd_error err;
    REQUIRE(o.texture_budget == MMD_TEXTURE_BUDGET_DEFAULT); /* 2 GiB asked by default */
    REQUIRE(mmd_memory_check(&o, k, &r, 1024 * MIB, false, &m, &err) == MMD_OK);
    CHECK_EQ_INT(m.textures, 1024 * MIB - 99721216);
    REQUIRE(mmd_memory_check(&o, k, &r, 4096 * MIB, false, &m, &err) == MMD_OK);
    CHECK_EQ_INT(m.textures, MMD_TEXTURE_BUDGET_DEFAULT);
    o.texture_budget = 512 * MIB; /* given on the command line: fits */
    REQUIRE(mmd_memory_check(&o, k, &r, 1024 * MIB, true, &m, &err) == MMD_OK);
    CHECK_EQ_INT(m.textures, 512 * MIB);
    o.texture_budget = 1000 * MIB; /* does not fit beside the 96 MiB of targets and frames */
    CHECK(mmd_memory_check(&o, k, &r, 1024 * MIB, true, &m, &err) == MMD_E_USAGE);
    CHECK(strstr(err.msg, "--texture-memory 1000 MiB") != NULL);
    CHECK(strstr(err.msg, "at most 928 MiB left") != NULL);
}

TEST(still_png_and_encode)
{
    const uint64_t px = 1920 * 1080;
    mmd_render_options o = options(1920, 1080, 4);
    mmd_memory_plan m;
    mmd_error err;
    /* -o FILE.png: encoded in place from the read-back; the row pointers and libpng's two rows */
    mmd_output_request r = request("poster.png", 1920, 1080);
    const mmd_output_kind *still = mmd_output_kind_for("poster.png");
    REQUIRE(still != NULL && still->memory != NULL);
    REQUIRE(mmd_memory_check(&o, still, &r, 1024 * MIB, false, &m, &err) == MMD_OK);
    CHECK_EQ_INT(m.frames, px * 4 + 1080 * sizeof(void *) + 2 * (1920 * 4 + 1));
    /* encode: no GL, the frame read in and the video's figure */
    uint64_t total = 0;
    r = request("out.mp4", 1920, 1080);
    const mmd_output_kind *video = mmd_output_kind_for("out.mp4");
    REQUIRE(mmd_memory_check_output(video, &r, 1024 * MIB, &total, &err) == MMD_OK);
    CHECK_EQ_INT(total, px * 4 + px * (96 + 12));
    r = request("out.mp4", 3840, 2160); /* 4K H.264 on 16 encoder threads: 96 + 15 x 12 B/px */
    r.threads = 16;
    CHECK(mmd_memory_check_output(video, &r, 1024 * MIB, &total, &err) == MMD_E_USAGE);
    CHECK_EQ_INT(total, (uint64_t)3840 * 2160 * (4 + 96 + 15 * 12));
    CHECK(strstr(err.msg, "over --max-memory 1024 MiB") != NULL);
    CHECK(strstr(err.msg, "3840x2160") != NULL);
    CHECK(mmd_memory_check_output(video, &r, 4096 * MIB, NULL, &err) == MMD_OK);
}

int main(void)
{
    RUN(targets_1080p_msaa);
    RUN(effects_chains_and_ssaa);
    RUN(frames_per_output_kind);
    RUN(over_the_cap_is_refused_naming_it);
    RUN(textures_get_what_the_cap_leaves);
    RUN(still_png_and_encode);
    return test_finish();
}
