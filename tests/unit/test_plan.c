/* tests/unit/test_plan.c - the render plan (renderer/scene/plan.h): frame range,
 * step, chunk bounds, first simulated frame, time per frame, audio start, and
 * DESIGN §3's determinism rules (a chunk renders and simulates what a whole run
 * does for its frames, at the same motion times). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "renderer/scene/plan.h"
#include "tests/util/test.h"

TEST_STATE_DEFINE

static mmd_plan_input base_input(void)
{
    return (mmd_plan_input){.step = 1, .fps_num = 30, .fps_den = 1, .chunk_count = 1, .last_key = 100};
}

TEST(default_range_ends_at_the_last_key)
{
    mmd_plan_input in = base_input();
    mmd_render_plan p;
    REQUIRE(mmd_render_plan_make(&in, &p));
    CHECK_EQ_INT(p.first, 0);
    CHECK_EQ_INT(p.last, 100);
    CHECK_EQ_INT(p.total, 101);
    CHECK_EQ_INT(p.frames, 101);
    CHECK_EQ_INT(p.begin, 0);
    CHECK_EQ_INT(p.end, 100);
    CHECK(p.t_per_frame == 1.0);
    CHECK(p.start_time == 0.0);
    in.fps_num = 60; /* twice the frames: key 100 is output frame 200 */
    REQUIRE(mmd_render_plan_make(&in, &p));
    CHECK_EQ_INT(p.last, 200);
    CHECK(p.t_per_frame == 0.5);
    in.fps_num = 30000; /* 29.97: ceil(100 * 30000 / 30030) = ceil(99.9) = 100 */
    in.fps_den = 1001;
    REQUIRE(mmd_render_plan_make(&in, &p));
    CHECK_EQ_INT(p.last, 100);
    CHECK(mmd_plan_time(&p, 100) >= 100.0); /* the last key is reached */
    CHECK(mmd_plan_time(&p, 99) < 100.0);
    in.last_key = 0; /* no keys: one frame */
    REQUIRE(mmd_render_plan_make(&in, &p));
    CHECK_EQ_INT(p.frames, 1);
}

TEST(range_and_step)
{
    mmd_plan_input in = base_input();
    in.has_frames = true;
    in.frame_first = 10;
    in.frame_last = 21;
    in.step = 4; /* 10 14 18 */
    mmd_render_plan p;
    REQUIRE(mmd_render_plan_make(&in, &p));
    CHECK_EQ_INT(p.total, 3);
    CHECK_EQ_INT(p.begin, 10);
    CHECK_EQ_INT(p.end, 18);
    int n = 0;
    for (int64_t f = 0; f < 30; f++)
        if (mmd_plan_renders(&p, f)) {
            CHECK((f - 10) % 4 == 0 && f >= 10 && f <= 18);
            n++;
        }
    CHECK_EQ_INT(n, 3);
    CHECK_EQ_INT(p.sim_begin, 10); /* no physics: nothing before the first rendered frame */
    CHECK(p.start_time == 10.0 / 30.0);
}

/* Every frame of the range in exactly one chunk, chunks contiguous and in
 * order, sizes within one of each other; empty chunks when there are more
 * chunks than frames. */
TEST(chunks_partition_the_range)
{
    const int counts[] = {1, 2, 3, 7, 10, 11, 40};
    for (size_t c = 0; c < sizeof counts / sizeof *counts; c++) {
        mmd_plan_input in = base_input();
        in.has_frames = true;
        in.frame_first = 5;
        in.frame_last = 34;
        in.step = 3; /* 10 frames: 5 8 ... 32 */
        in.chunk_count = counts[c];
        int seen[40] = {0};
        int64_t next = 5, min = INT64_MAX, max = 0;
        for (int i = 0; i < counts[c]; i++) {
            in.chunk_index = i;
            mmd_render_plan p;
            bool any = mmd_render_plan_make(&in, &p);
            CHECK_EQ_INT(any, p.frames > 0);
            min = p.frames < min ? p.frames : min;
            max = p.frames > max ? p.frames : max;
            if (!any)
                continue;
            CHECK_EQ_INT(p.begin, next); /* contiguous, in order */
            next = p.end + 3;
            for (int64_t f = 0; f < 40; f++)
                seen[f] += mmd_plan_renders(&p, f);
            /* the video of a chunk starts at its first frame's scene time */
            CHECK(p.start_time == (double)p.begin / 30.0);
        }
        for (int64_t f = 0; f < 40; f++)
            CHECK_EQ_INT(seen[f], f >= 5 && f <= 32 && (f - 5) % 3 == 0);
        CHECK(max - min <= 1);
    }
}

/* DESIGN §3: with physics a chunk simulates every frame from the range's first
 * (pre-roll without rendering), so its state at frame f is the whole run's;
 * the motion time of a frame does not depend on the chunk. */
TEST(chunks_simulate_from_the_first_frame_with_physics)
{
    mmd_plan_input in = base_input();
    in.fps_num = 60;
    in.last_key = 300; /* frames 0..600 */
    in.physics = true;
    mmd_render_plan whole;
    REQUIRE(mmd_render_plan_make(&in, &whole));
    CHECK_EQ_INT(whole.sim_begin, 0);
    in.chunk_count = 4;
    for (int i = 0; i < 4; i++) {
        in.chunk_index = i;
        mmd_render_plan p;
        REQUIRE(mmd_render_plan_make(&in, &p));
        CHECK_EQ_INT(p.sim_begin, 0); /* physics: from the first frame, whatever the chunk */
        CHECK(p.preroll_time == whole.preroll_time);
        for (int64_t f = p.sim_begin; f <= p.end; f++)
            CHECK(mmd_plan_time(&p, f) == mmd_plan_time(&whole, f)); /* bit-identical */
    }
    in.physics = false; /* no physics: each chunk starts where it renders */
    in.chunk_index = 2;
    mmd_render_plan p;
    REQUIRE(mmd_render_plan_make(&in, &p));
    CHECK_EQ_INT(p.sim_begin, p.begin);
    CHECK_EQ_INT(p.begin, 601 * 2 / 4);
    /* a range not starting at 0: the pre-roll leads up to its first frame */
    in.physics = true;
    in.has_frames = true;
    in.frame_first = 90;
    in.frame_last = 180;
    REQUIRE(mmd_render_plan_make(&in, &p));
    CHECK_EQ_INT(p.sim_begin, 90);
    CHECK(p.preroll_time == 45.0);
}

TEST(more_chunks_than_frames)
{
    mmd_plan_input in = base_input();
    in.has_frames = true;
    in.frame_first = 0;
    in.frame_last = 1; /* two frames, three chunks: chunk 0 is empty */
    in.chunk_count = 3;
    mmd_render_plan p;
    in.chunk_index = 0;
    CHECK(!mmd_render_plan_make(&in, &p));
    CHECK_EQ_INT(p.frames, 0);
    in.chunk_index = 1;
    CHECK(mmd_render_plan_make(&in, &p) && p.begin == 0 && p.end == 0);
    in.chunk_index = 2;
    CHECK(mmd_render_plan_make(&in, &p) && p.begin == 1 && p.end == 1);
}

/* A video of a STEP range plays at fps / STEP exactly: frame k of it lasts
 * STEP / fps seconds, the motion time it shows, so the song stays in sync. */
TEST(video_rate_of_a_step)
{
    mmd_plan_input in = base_input();
    in.has_frames = true;
    in.frame_first = 0;
    in.frame_last = 299;
    mmd_render_plan p;
    REQUIRE(mmd_render_plan_make(&in, &p));
    CHECK(p.video_fps_num == 30 && p.video_fps_den == 1 && !p.video_rate_kept);
    in.step = 4; /* 30 / 4 = 15 / 2 */
    REQUIRE(mmd_render_plan_make(&in, &p));
    CHECK_EQ_INT(p.video_fps_num, 15);
    CHECK_EQ_INT(p.video_fps_den, 2);
    in.fps_num = 60; /* 60 / 3 = 20 */
    in.step = 3;
    REQUIRE(mmd_render_plan_make(&in, &p));
    CHECK(p.video_fps_num == 20 && p.video_fps_den == 1);
    in.fps_num = 30000; /* 29.97 / 10 = 3000 / 1001 */
    in.fps_den = 1001;
    in.step = 10;
    REQUIRE(mmd_render_plan_make(&in, &p));
    CHECK(p.video_fps_num == 3000 && p.video_fps_den == 1001);
    /* video time of output frame f (begin + k * step) is k / rate = (f - begin) / fps: in sync */
    CHECK(fabs(3.0 * p.video_fps_den / p.video_fps_num - (30.0 - 0.0) * in.fps_den / in.fps_num) < 1e-12);
    in.fps_num = 999983; /* a prime rate with a large denominator and step: past an int, kept */
    in.fps_den = 999979;
    in.step = 1000000;
    REQUIRE(mmd_render_plan_make(&in, &p));
    CHECK(p.video_rate_kept && p.video_fps_num == 999983 && p.video_fps_den == 999979);
}

int main(void)
{
    RUN(default_range_ends_at_the_last_key);
    RUN(range_and_step);
    RUN(chunks_partition_the_range);
    RUN(chunks_simulate_from_the_first_frame_with_physics);
    RUN(more_chunks_than_frames);
    RUN(video_rate_of_a_step);
    return test_finish();
}
